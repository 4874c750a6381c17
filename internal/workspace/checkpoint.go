package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Checkpoint is a state of a clean work tree the loop can return to: the
// commit and the untracked files that were there.
type Checkpoint struct {
	Head      string
	untracked map[string]bool
}

// Checkpoint records the current state. The tracked files must be clean
// (a *DirtyError otherwise): Restore resets them to HEAD, and refusing a
// dirty tree is what guarantees no user work is lost.
func (r *Repo) Checkpoint(ctx context.Context) (*Checkpoint, error) {
	if err := r.CheckClean(ctx); err != nil {
		return nil, err
	}
	head, err := r.Head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := r.Untracked(ctx)
	if err != nil {
		return nil, err
	}
	cp := &Checkpoint{Head: head, untracked: map[string]bool{}}
	for _, f := range files {
		cp.untracked[f] = true
	}
	return cp, nil
}

// Restore puts the work tree back to cp: tracked files and the index are
// reset to cp.Head, untracked files that appeared since are removed, and so
// are the extra paths (files a patch created that .gitignore hides). The
// files that were untracked at the checkpoint are left alone.
func (r *Repo) Restore(ctx context.Context, cp *Checkpoint, extra ...string) error {
	head, err := r.Head(ctx)
	if err != nil {
		return err
	}
	if head != cp.Head {
		return fmt.Errorf("HEAD moved from %s to %s since the checkpoint; not resetting over it", short(cp.Head), short(head))
	}
	if _, err := git(ctx, r.Root, "reset", "--quiet", "--hard", cp.Head); err != nil {
		return err
	}
	now, err := r.Untracked(ctx)
	if err != nil {
		return err
	}
	remove := map[string]bool{}
	for _, f := range now {
		if !cp.untracked[f] {
			remove[f] = true
		}
	}
	for _, f := range extra {
		if f = filepath.ToSlash(filepath.Clean(f)); !cp.untracked[f] && inside(f) {
			if _, err := git(ctx, r.Root, "ls-files", "--error-unmatch", "--", f); err != nil {
				remove[f] = true // not tracked: the patch created it
			}
		}
	}
	for f := range remove {
		if err := os.Remove(filepath.Join(r.Root, filepath.FromSlash(f))); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("restore: remove %s: %w", f, err)
		}
		removeEmptyParents(r.Root, filepath.Dir(filepath.FromSlash(f)))
	}
	return nil
}

// inside reports whether a cleaned relative path stays inside the root.
func inside(rel string) bool {
	return rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel) && !strings.HasPrefix(rel, ".git/")
}

// removeEmptyParents removes dir and its parents up to root while empty,
// so a directory a patch created goes away with its files.
func removeEmptyParents(root, dir string) {
	for dir != "." && dir != "" && dir != string(filepath.Separator) {
		if os.Remove(filepath.Join(root, dir)) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
