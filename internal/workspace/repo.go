package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// Repo is one git work tree.
type Repo struct {
	// Root is the absolute path of the work tree's top level.
	Root string
}

// NotARepoError says dir is not inside a git work tree.
type NotARepoError struct{ Dir string }

func (e *NotARepoError) Error() string {
	return fmt.Sprintf("%s is not inside a git work tree (run git init, or point --repo at a checkout)", e.Dir)
}

// Open finds the work tree that contains dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	out, err := gitrun.Runner{Dir: abs}.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, &NotARepoError{Dir: abs}
	}
	root := strings.TrimSpace(out)
	if root == "" {
		return nil, &NotARepoError{Dir: abs}
	}
	// Resolve symlinks on both sides so Root compares equal to what git prints.
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return &Repo{Root: root}, nil
}

// Head returns the commit HEAD points at.
func (r *Repo) Head(ctx context.Context) (string, error) {
	out, err := r.git().Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s has no commit yet: %w", r.Root, err)
	}
	return strings.TrimSpace(out), nil
}

// Branch returns the current branch name, or "" when HEAD is detached.
func (r *Repo) Branch(ctx context.Context) (string, error) {
	out, err := r.git().Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		var ge *gitrun.Error
		if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) == "" {
			return "", nil // detached
		}
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// BranchExists reports whether a local branch called name exists.
func (r *Repo) BranchExists(ctx context.Context, name string) bool {
	_, err := r.git().Run(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	return err == nil
}

// Switch checks out an existing branch.
func (r *Repo) Switch(ctx context.Context, name string) error {
	_, err := r.git().Run(ctx, "switch", "--quiet", name)
	return err
}

// Show returns the content of path at rev ("HEAD", a branch, a commit).
func (r *Repo) Show(ctx context.Context, rev, path string) (string, error) {
	return r.git().Run(ctx, "show", rev+":"+filepath.ToSlash(path))
}

// GitDir is the absolute path of the repository's git directory (.git, or
// where a linked worktree's .git file points).
func (r *Repo) GitDir(ctx context.Context) (string, error) {
	out, err := r.git().Run(ctx, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
