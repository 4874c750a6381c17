package workspace

import (
	"context"
	"fmt"
	"strings"
)

// DirtyError says the work tree has uncommitted changes to tracked files,
// which agentfix refuses to work over: restoring the tree after a failed
// attempt would lose them.
type DirtyError struct {
	Root  string
	Files []string
}

func (e *DirtyError) Error() string {
	files := e.Files
	more := ""
	if len(files) > 5 {
		files, more = files[:5], fmt.Sprintf(" and %d more", len(e.Files)-5)
	}
	return fmt.Sprintf("%s has uncommitted changes (%s%s); commit or stash them first, agentfix only works on a clean tree",
		e.Root, strings.Join(files, ", "), more)
}

// Changed lists tracked files that differ from HEAD (staged or not).
// Untracked files are not counted: agentfix leaves them alone.
func (r *Repo) Changed(ctx context.Context) ([]string, error) {
	st, err := r.status(ctx)
	if err != nil {
		return nil, err
	}
	return st.changed, nil
}

// CheckClean returns a *DirtyError when tracked files have uncommitted
// changes.
func (r *Repo) CheckClean(ctx context.Context) error {
	st, err := r.status(ctx)
	if err != nil {
		return err
	}
	return st.clean(r.Root)
}

func (st *status) clean(root string) error {
	if len(st.changed) > 0 {
		return &DirtyError{Root: root, Files: st.changed}
	}
	return nil
}

// Untracked lists untracked, not ignored files, relative to the root.
func (r *Repo) Untracked(ctx context.Context) ([]string, error) {
	out, err := r.git().Run(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}
