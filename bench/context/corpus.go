package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// maxCorpusFile matches the engine's size limit, so that git grep and the
// engine read the same files.
const maxCorpusFile = 1 << 20

// module is one module-cache directory copied into the corpus.
type module struct {
	dir        string // in the module cache
	importPath string // module path, without the version
	prefix     string // directory in the corpus
}

// corpusSources lists GOROOT/src and one version of every module in the
// module cache.
func corpusSources(goroot, modcache string) []module {
	mods := []module{{dir: filepath.Join(goroot, "src"), importPath: "", prefix: "go/src"}}
	seen := map[string]bool{}
	var dirs []string
	_ = filepath.WalkDir(modcache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(modcache, p)
		if rel == "cache" {
			return filepath.SkipDir
		}
		if strings.Contains(d.Name(), "@") {
			dirs = append(dirs, rel)
			return filepath.SkipDir
		}
		return nil
	})
	sort.Sort(sort.Reverse(sort.StringSlice(dirs))) // newest version first, roughly
	for _, rel := range dirs {
		at := strings.LastIndex(rel, "@")
		path := filepath.ToSlash(rel[:at])
		if seen[path] {
			continue
		}
		seen[path] = true
		mods = append(mods, module{dir: filepath.Join(modcache, rel), importPath: path, prefix: "mod/" + filepath.ToSlash(rel)})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].prefix < mods[j].prefix })
	return mods
}

// buildCorpus links (or copies) the text files of mods into dir and makes
// it a git repository with every file added. It returns the file count.
// maxFiles, when positive, stops at that many files (the first in mods'
// order: GOROOT/src first).
func buildCorpus(dir string, mods []module, maxFiles int) (int, error) {
	n := 0
	for _, m := range mods {
		if maxFiles > 0 && n >= maxFiles {
			break
		}
		err := filepath.WalkDir(m.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if maxFiles > 0 && n >= maxFiles {
				return filepath.SkipAll
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > maxCorpusFile {
				return nil
			}
			if binary(p) {
				return nil
			}
			rel, _ := filepath.Rel(m.dir, p)
			dst := filepath.Join(dir, m.prefix, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := os.Link(p, dst); err != nil {
				if err := copyFile(p, dst); err != nil {
					return err
				}
			}
			n++
			return nil
		})
		if err != nil {
			return n, fmt.Errorf("copy %s: %w", m.dir, err)
		}
	}
	// A .gitignore anywhere in the sources could hide files from git add.
	for _, args := range [][]string{{"init", "-q"}, {"add", "-f", "."}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			return n, fmt.Errorf("git %s: %v: %s", args[0], err, out)
		}
	}
	return n, nil
}

func binary(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return true
	}
	defer f.Close()
	buf := make([]byte, 8000)
	k, _ := io.ReadFull(f, buf)
	return bytes.IndexByte(buf[:k], 0) >= 0
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
