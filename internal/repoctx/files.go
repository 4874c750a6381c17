package repoctx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/instructions"
)

var (
	// ErrNotRepo is returned (wrapped) when the directory is not inside a
	// git work tree.
	ErrNotRepo = errors.New("not a git repository")
	// ErrNoFiles is returned (wrapped) when git tracks no file in the
	// repository: a directory just made a repository with git init, whose
	// files were never added. Its pack would be empty, and say nothing.
	ErrNoFiles = errors.New("git tracks no file in the repository")
)

// maxFileBytes is the largest file indexed; bigger files are data, bundles or
// generated tables, not code a fix changes.
const maxFileBytes = 1 << 20

// Index is a repository's file list, made once and ranked against any
// number of queries. File contents are read per query, only for the terms
// that query needs, so an Index is small.
type Index struct {
	root  string
	paths []string // candidate paths from git ls-files, sorted, relative to root
	// skipped are the files git tracks that are not candidates (by
	// name, or symbolic links and submodules), sorted by path: a look
	// that asks for one is told why it is not shown.
	skipped []tracked
}

// WithFiles is ix with the regular files paths (relative to the root, as
// a patch names them) added though git does not track them yet: the test
// a model wrote, for a ranking that follows it. A path that is not a
// regular file inside the root, or that Open would leave out by its name,
// is not added.
func (ix *Index) WithFiles(paths ...string) *Index {
	out := &Index{root: ix.root, paths: slices.Clone(ix.paths), skipped: ix.skipped}
	root, err := filepath.EvalSymlinks(ix.root)
	if err != nil {
		return out
	}
	for _, p := range paths {
		p = filepath.ToSlash(filepath.Clean(p))
		if !filepath.IsLocal(p) || skipByName(p) || slices.Contains(out.paths, p) {
			continue
		}
		full := filepath.Join(ix.root, filepath.FromSlash(p))
		if st, err := os.Lstat(full); err != nil || !st.Mode().IsRegular() {
			continue
		}
		// Not through a directory that is a symbolic link out of the root.
		if real, err := filepath.EvalSymlinks(full); err != nil || !within(root, real) {
			continue
		}
		out.paths = append(out.paths, p)
	}
	sort.Strings(out.paths)
	return out
}

// within reports whether path lies inside dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// tracked is a file git tracks: its path and its mode (100644, 120000 a
// symbolic link, 160000 a submodule).
type tracked struct {
	path, mode string
}

// Open lists the files of the git repository that contains dir, with
// `git ls-files`, so .gitignore is respected. Vendored files and files that
// are binary by their name are left out here; binary, generated and huge
// files are left out when they are read.
func Open(ctx context.Context, dir string) (*Index, error) {
	top, err := gitrun.Runner{Dir: dir}.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("context: %s: %w (point --repo inside a checkout, or make one: git init, then git add the files)", dir, ErrNotRepo)
	}
	root := strings.TrimSpace(top)
	// -s gives the mode, to leave out symlinks (120000) and submodules (160000).
	out, err := gitrun.Runner{Dir: root}.Run(ctx, "ls-files", "-z", "--cached", "-s")
	if err != nil {
		return nil, fmt.Errorf("context: list files in %s: %w", root, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("context: %s: %w; only the files git tracks are read: git add them (git add -A) first", root, ErrNoFiles)
	}
	var paths []string
	var skipped []tracked
	for _, rec := range bytes.Split([]byte(out), []byte{0}) {
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		s := string(rec[tab+1:])
		if len(paths) > 0 && paths[len(paths)-1] == s || len(skipped) > 0 && skipped[len(skipped)-1].path == s {
			continue // conflict stages list a path more than once
		}
		if mode, _, _ := bytes.Cut(rec, []byte{' '}); !bytes.HasPrefix(mode, []byte("100")) || skipByName(s) {
			skipped = append(skipped, tracked{s, string(mode)})
			continue
		}
		paths = append(paths, s)
	}
	sort.Strings(paths)
	sort.Slice(skipped, func(a, b int) bool { return skipped[a].path < skipped[b].path })
	return &Index{root: root, paths: paths, skipped: skipped}, nil
}

// Root is the absolute path of the repository's top directory.
func (ix *Index) Root() string { return ix.root }

// vendorDirs are directory names whose contents are other people's code.
var vendorDirs = map[string]bool{
	"vendor": true, "node_modules": true, "bower_components": true, "Godeps": true,
}

// binaryExts are extensions of files that are never source code.
var binaryExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".bmp": true, ".ico": true, ".webp": true,
	".pdf": true, ".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true,
	".7z": true, ".tar": true, ".jar": true, ".class": true, ".exe": true, ".dll": true, ".so": true,
	".dylib": true, ".a": true, ".o": true, ".obj": true, ".wasm": true, ".pyc": true, ".ttf": true,
	".otf": true, ".woff": true, ".woff2": true, ".eot": true, ".mp3": true, ".mp4": true, ".wav": true,
	".ogg": true, ".mov": true, ".avi": true, ".bin": true, ".dat": true, ".db": true, ".sqlite": true,
	".syso": true, ".gguf": true, ".pb": true, ".der": true,
}

// lockFiles are generated by package managers.
var lockFiles = map[string]bool{
	"go.sum": true, "package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"Cargo.lock": true, "poetry.lock": true, "Gemfile.lock": true, "composer.lock": true,
}

// Why a file git tracks is not indexed, by its name or mode; a look that
// asks for it is told so.
const (
	whyInstructions = "the repository's instructions for agents: read only from the base branch, into your prompt when it has them; not shown from the work tree"
	whyLock         = "a lock file its package manager writes: not shown"
	whyBinaryName   = "a binary or minified file by its name: not shown"
	whyVendored     = "vendored code (another project's, under vendor/, node_modules/ or the like): not shown"
	whyLink         = "a symbolic link: not shown; ask for the file it points to"
	whySubmodule    = "a submodule (another repository): not shown"
)

// skipByName reports whether p is vendored, a lock file or binary by name,
// or the repository's instructions for agents: those reach the model only
// as the base branch has them (package instructions), never as the work
// tree (a PR's head) does.
func skipByName(p string) bool { return nameSkip(p) != "" }

// nameSkip is why skipByName leaves p out, or "".
func nameSkip(p string) string {
	if slices.Contains(instructions.Paths, p) {
		return whyInstructions
	}
	base := path.Base(p)
	if lockFiles[base] {
		return whyLock
	}
	if binaryExts[strings.ToLower(path.Ext(base))] || strings.HasSuffix(base, ".min.js") {
		return whyBinaryName
	}
	// The directories, by their names: p is a clean path from git.
	for dir := p[:len(p)-len(base)]; dir != ""; {
		i := strings.IndexByte(dir, '/')
		if i < 0 {
			break
		}
		if vendorDirs[dir[:i]] {
			return whyVendored
		}
		dir = dir[i+1:]
	}
	return ""
}

// notIndexed says why the tracked file p is not in the index, or "" when
// git tracks no file p that the index left out.
func (ix *Index) notIndexed(p string) string {
	k := sort.Search(len(ix.skipped), func(k int) bool { return ix.skipped[k].path >= p })
	if k == len(ix.skipped) || ix.skipped[k].path != p {
		return ""
	}
	switch ix.skipped[k].mode {
	case "120000":
		return whyLink
	case "160000":
		return whySubmodule
	}
	if why := nameSkip(p); why != "" {
		return why
	}
	return "not a regular file: not shown"
}

var (
	generatedPrefix = []byte("// Code generated ")
	generatedSuffix = []byte("DO NOT EDIT.")
	generatedMark   = []byte("@generated")
)

// isGenerated reports whether the head of a file says it is generated: the
// Go convention (https://go.dev/s/generatedcode) in the lines before the
// package clause, or an @generated marker near the top.
func isGenerated(head []byte) bool {
	if len(head) > 4096 {
		head = head[:4096]
	}
	if i := bytes.Index(head, generatedMark); i >= 0 && i < 512 {
		return true
	}
	if !bytes.Contains(head, generatedPrefix) {
		return false // the common case, found at memchr speed
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimRight(line, "\r")
		if bytes.HasPrefix(line, []byte("package ")) {
			return false
		}
		if bytes.HasPrefix(line, generatedPrefix) && bytes.HasSuffix(line, generatedSuffix) {
			return true
		}
	}
	return false
}

// packedLast reports whether p is packed after all the code, with what is
// left: documentation; plain text (API dumps, changelogs and test data that
// repeat the query's words: urfave/cli's godoc-current.txt took 10k of a
// 16k pack); and a repository's boilerplate (a licence, notices, the
// dotfiles of its tools), which a query's words may match but no fix of
// its code needs.
func packedLast(p string) bool {
	return isDoc(p) || isText(p) || isBoilerplate(p)
}

// isDoc reports whether p is a documentation file (Markdown and the like).
func isDoc(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc":
		return true
	}
	return false
}

// isText reports whether p is a plain text file: prose or data, which a
// report's words match more than the code does.
func isText(p string) bool { return strings.EqualFold(path.Ext(p), ".txt") }

// boilerplateNames are the prefixes of the upper-cased names of the files
// of a repository's legal and ownership boilerplate.
var boilerplateNames = []string{"LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS", "CONTRIBUTORS", "CODEOWNERS", "PATENTS"}

// isBoilerplate reports whether p is a licence, notice or ownership file,
// or a dotfile (.gitignore, .editorconfig, .golangci.yml).
func isBoilerplate(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(base, ".") {
		return true
	}
	upper := strings.ToUpper(base)
	return slices.ContainsFunc(boilerplateNames, func(n string) bool { return strings.HasPrefix(upper, n) })
}
