package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// Checkpoint is a state of a clean work tree the loop can return to: the
// commit and the untracked files that were there.
type Checkpoint struct {
	Head string
	// Branch is the branch checked out, "" when HEAD is detached.
	Branch    string
	untracked map[string]bool
}

// Checkpoint records the current state. The tracked files must be clean
// (a *DirtyError otherwise): Restore resets them to HEAD, and refusing a
// dirty tree is what guarantees no user work is lost.
func (r *Repo) Checkpoint(ctx context.Context) (*Checkpoint, error) {
	st, err := r.status(ctx)
	if err != nil {
		return nil, err
	}
	if err := st.clean(r.Root); err != nil {
		return nil, err
	}
	head, err := st.headOf(r.Root)
	if err != nil {
		return nil, err
	}
	cp := &Checkpoint{Head: head, Branch: st.branch, untracked: map[string]bool{}}
	for _, f := range st.untracked {
		cp.untracked[f] = true
	}
	return cp, nil
}

// Restore puts the work tree back to cp: tracked files and the index are
// reset to cp.Head, untracked files that appeared since are removed, and so
// are the extra paths (files a patch created that .gitignore hides). The
// files that were untracked at the checkpoint are left alone.
func (r *Repo) Restore(ctx context.Context, cp *Checkpoint, extra ...string) error {
	st, err := r.status(ctx)
	if err != nil {
		return err
	}
	if st.head != cp.Head {
		return fmt.Errorf("HEAD moved from %s to %s since the checkpoint; not resetting over it", gitrun.Short(cp.Head), gitrun.Short(st.head))
	}
	remove := map[string]bool{}
	for _, f := range st.untracked {
		if !cp.untracked[f] {
			remove[f] = true
		}
	}
	// An extra path that is neither changed, nor untracked, nor in HEAD was
	// created by the patch where .gitignore hides it.
	known := map[string]bool{}
	for _, f := range append(st.changed, st.untracked...) {
		known[f] = true
	}
	var unknown []string
	for _, f := range extra {
		if f = filepath.ToSlash(filepath.Clean(f)); !known[f] && !cp.untracked[f] && inside(f) {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		tracked, err := r.git().Run(ctx, append([]string{"ls-files", "-z", "--"}, unknown...)...)
		if err != nil {
			return err
		}
		in := map[string]bool{}
		for _, f := range strings.Split(tracked, "\x00") {
			in[f] = true
		}
		for _, f := range unknown {
			if !in[f] {
				remove[f] = true
			}
		}
	}
	if len(st.changed) > 0 {
		if _, err := r.git().Run(ctx, "reset", "--quiet", "--hard", cp.Head); err != nil {
			return err
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
