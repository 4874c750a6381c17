package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// goModDir downloads mod@version through the Go module proxy (or finds it
// in the module cache) and returns its read-only directory.
func goModDir(mod, version string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", mod+"@"+version).Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", mod, version, info.Error)
	}
	if err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %v", mod, version, err)
	}
	return info.Dir, nil
}

// versions lists a module's release versions (no pre-releases), oldest
// first, as the proxy knows them.
func versions(mod string) ([]string, error) {
	out, err := exec.Command("go", "list", "-m", "-versions", mod).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m -versions %s: %v", mod, err)
	}
	f := strings.Fields(string(out))
	var vs []string
	for _, v := range f[1:] {
		if !strings.Contains(v, "-") {
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// patchOf splits vX.Y.Z into "vX.Y" and Z; ok is false for other forms.
func patchOf(v string) (minor string, patch int, ok bool) {
	i := strings.LastIndexByte(v, '.')
	if i < 0 || strings.Count(v, ".") != 2 {
		return "", 0, false
	}
	p, err := strconv.Atoi(v[i+1:])
	return v[:i], p, err == nil
}

// goFiles lists the .go files under dir (slash paths relative to dir),
// outside vendor directories.
func goFiles(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "vendor" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	return out, err
}

// copyTree copies the files of src into dst, writable (the module cache
// is read-only), skipping nothing: the module zip is already source only.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// gitInit makes dir a git repository with every file added, as the engine
// lists files with git ls-files.
func gitInit(dir string) error {
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v in %s: %v\n%s", args, dir, err, out)
		}
	}
	return nil
}

// isTestPath reports whether a module file belongs to the tests: a
// _test.go file or anything under testdata.
func isTestPath(p string) bool {
	return strings.HasSuffix(p, "_test.go") || strings.Contains("/"+p, "/testdata/")
}

// trimOutput keeps the head and tail of long test output, as agentfix's
// own feedback does, so queries stay the size a real one is.
func trimOutput(b []byte, limit int) string {
	b = bytes.TrimSpace(b)
	if len(b) <= limit {
		return string(b)
	}
	return string(b[:limit/2]) + "\n...\n" + string(b[len(b)-limit/2:])
}
