package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// resolveName turns a name as the model wrote it into a repository path:
// a run of slashes is one, "./" is dropped, and in a diff so is a git "a/"
// or "b/" prefix unless the prefixed path is the one that exists. (The
// file "a//b" writes is a/b, and a diff must name it so to re-apply: git
// reads "a//b" in a header as another name than in its ---/+++ lines.)
func resolveName(root, name string, diff bool) string {
	name = strings.TrimSpace(name)
	for strings.Contains(name, "//") {
		name = strings.ReplaceAll(name, "//", "/")
	}
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	if diff && (strings.HasPrefix(name, "a/") || strings.HasPrefix(name, "b/")) {
		if exists(root, name) && !exists(root, name[2:]) {
			return name
		}
		return name[2:]
	}
	return name
}

func exists(root, rel string) bool {
	if !filepath.IsLocal(rel) {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

var reDrive = regexp.MustCompile(`^[A-Za-z]:`)

// checkPath refuses a path the patch may not touch, saying why. It checks
// the path as written and, if it passes through a symlink, the path it
// resolves to.
func checkPath(root, rel string, pol Policy) error {
	if err := checkName(rel, pol); err != nil {
		return err
	}
	real, err := throughSymlinks(root, rel)
	if err != nil {
		return err
	}
	if real != rel {
		if err := checkName(real, pol); err != nil {
			return fmt.Errorf("resolves through a symlink to %s, which %w", real, err)
		}
	}
	return nil
}

// checkName applies the rules that depend only on the path's text.
func checkName(rel string, pol Policy) error {
	switch {
	case rel == "":
		return errors.New("the path is empty")
	case strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || reDrive.MatchString(rel) || rel == "~" || strings.HasPrefix(rel, "~/"):
		return errors.New("absolute paths are not allowed; use a path relative to the repository root")
	case strings.ContainsAny(rel, "\\\x00\r\n\t"):
		return errors.New("the path contains backslashes or control characters; use / between directories")
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return errors.New("paths may not contain '..' segments; use a path inside the repository")
		}
		if strings.EqualFold(seg, ".git") {
			return errors.New("files under .git/ cannot be changed")
		}
	}
	clean := path.Clean(rel)
	for _, f := range pol.Frozen {
		if clean == path.Clean(f) {
			return errors.New("is the test that reproduces the issue: it failed on the unfixed code and is frozen from now on, so the fix may not change, rename or delete it; change the code under test so that it passes as written")
		}
	}
	for _, g := range pol.Deny {
		ok, err := doublestar.Match(g, clean)
		if err != nil {
			// Fail closed: a deny rule that cannot be read protects nothing.
			return fmt.Errorf("cannot be checked: paths.deny pattern %q is not a valid glob", g)
		}
		if ok {
			return fmt.Errorf("matches paths.deny pattern %q: this path may not be changed", g)
		}
	}
	if len(pol.Allow) == 0 {
		return nil
	}
	for _, g := range pol.Allow {
		if ok, _ := doublestar.Match(g, clean); ok {
			return nil
		}
	}
	return fmt.Errorf("is outside paths.allow (%s): this path may not be changed", strings.Join(pol.Allow, ", "))
}

// throughSymlinks walks rel from root. A symlink on the way must resolve
// inside the repository; the file itself may not be a symlink. It returns
// rel with the symlinks resolved.
func throughSymlinks(root, rel string) (string, error) {
	segs := strings.Split(path.Clean(rel), "/")
	for i := range segs {
		p := filepath.Join(root, filepath.FromSlash(strings.Join(segs[:i+1], "/")))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return path.Clean(rel), nil
		}
		if err != nil {
			return "", fmt.Errorf("cannot be checked: %v", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if i == len(segs)-1 {
			return "", errors.New("is a symbolic link; change the file it points to instead")
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", fmt.Errorf("passes through the symlink %s, which cannot be resolved", strings.Join(segs[:i+1], "/"))
		}
		r, err := filepath.Rel(root, target)
		if err != nil || !filepath.IsLocal(r) {
			return "", fmt.Errorf("passes through the symlink %s, which points outside the repository", strings.Join(segs[:i+1], "/"))
		}
		return throughSymlinks(root, path.Join(filepath.ToSlash(r), strings.Join(segs[i+1:], "/")))
	}
	return path.Clean(rel), nil
}

// maxWalk bounds how many entries findBySuffix looks at in a big repository.
const maxWalk = 50000

// findBySuffix lists the files of the repository whose path ends in
// "/"+rel, or, if there are none, whose base name is rel's: for a model
// that dropped the leading directories of a path, or misremembered them.
func findBySuffix(root, rel string) (suffix, sameBase []string) {
	n := 0
	base := path.Base(rel)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if n++; err != nil || n > maxWalk {
			return filepath.SkipAll
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		r = filepath.ToSlash(r)
		switch {
		case strings.HasSuffix(r, "/"+rel):
			suffix = append(suffix, r)
		case path.Base(r) == base:
			sameBase = append(sameBase, r)
		}
		return nil
	})
	return suffix, sameBase
}
