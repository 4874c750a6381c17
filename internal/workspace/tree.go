package workspace

// The commit agentfix makes is built from the validated diff, never from
// the work tree: after the verify commands ran, the work tree holds
// whatever the code under test wrote into it (a key appended to a fixed
// file, a new file), and none of that was validated. A temporary index
// holds base's tree with the diff applied (git apply --cached), so neither
// the work tree nor the repository's own index is read or changed.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
)

// DiffTree writes the tree of base with diff applied and returns its id.
// git runs in the repository that holds base: the work tree, or a git
// directory of agentfix's own (see Origin.Private).
func DiffTree(ctx context.Context, git gitrun.Runner, base, diff string) (string, error) {
	if strings.TrimSpace(diff) == "" {
		return "", fmt.Errorf("the fix changes no files")
	}
	var tree string
	err := withIndex(ctx, git, base, diff, func(env []string) error {
		out, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"write-tree"}, Env: env})
		tree = strings.TrimSpace(out)
		return err
	})
	return tree, err
}

// withIndex runs f with the environment of a temporary index that holds
// base's tree with diff applied.
func withIndex(ctx context.Context, git gitrun.Runner, base, diff string, f func(env []string) error) error {
	tmp, err := os.MkdirTemp("", "agentfix-index-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"read-tree", base + "^{tree}"}, Env: env}); err != nil {
		return fmt.Errorf("read the tree of %s: %w", gitrun.Short(base), err)
	}
	// --cached applies to the index alone; the diff is the one the patch
	// engine validated and wrote, so it applies exactly or not at all.
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"apply", "--cached", "--whitespace=nowarn", "-"}, Env: env, Stdin: []byte(diff)}); err != nil {
		return fmt.Errorf("apply the validated diff to %s: %w", gitrun.Short(base), err)
	}
	return f(env)
}

// Drift lists, sorted as git lists them, the paths where the work tree is
// not cp's commit with diff applied: a file whose content is not what was
// validated (rewritten, or deleted, while the tests ran), and a file that
// appeared since the checkpoint and is not ignored. Empty means the work
// tree holds exactly the validated fix.
func (r *Repo) Drift(ctx context.Context, cp *Checkpoint, diff string) ([]string, error) {
	git := r.git()
	var drift []string
	err := withIndex(ctx, git, cp.Head, diff, func(env []string) error {
		// Stat data first, or every file would look changed; exit 1 only
		// says some need updating, which diff-files then lists.
		if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"update-index", "-q", "--refresh"}, Env: env}); err != nil {
			var ge *gitrun.Error
			if !errors.As(err, &ge) || ge.ExitCode != 1 {
				return err
			}
		}
		changed, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"diff-files", "--name-only", "-z"}, Env: env})
		if err != nil {
			return err
		}
		others, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"ls-files", "--others", "--exclude-standard", "-z"}, Env: env})
		if err != nil {
			return err
		}
		drift = splitZ(changed)
		for _, f := range splitZ(others) {
			if !cp.untracked[f] {
				drift = append(drift, f)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("compare the work tree with the validated fix: %w", err)
	}
	return drift, nil
}

func splitZ(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// CommitDiff commits base with diff applied on a new branch and checks the
// branch out, leaving the work tree as it is: the branch holds exactly the
// validated diff, whatever the work tree holds. The branch must not exist.
func (r *Repo) CommitDiff(ctx context.Context, name, base, diff, message string, id Identity) (string, error) {
	if _, err := r.git().Run(ctx, "check-ref-format", "--branch", name); err != nil {
		return "", fmt.Errorf("%q is not a valid branch name", name)
	}
	tree, err := DiffTree(ctx, r.git(), base, diff)
	if err != nil {
		return "", err
	}
	commit, err := CommitTree(ctx, r.git(), tree, base, message, id)
	if err != nil {
		return "", err
	}
	// The zero old value makes update-ref refuse a branch that exists.
	zero := strings.Repeat("0", len(commit))
	if _, err := r.git().Run(ctx, "update-ref", "-m", "agentfix: fix", "refs/heads/"+name, commit, zero); err != nil {
		return "", fmt.Errorf("create branch %s: %w", name, err)
	}
	// HEAD moves to the branch; the index follows it, the work tree stays.
	if _, err := r.git().Run(ctx, "symbolic-ref", "HEAD", "refs/heads/"+name); err != nil {
		return "", fmt.Errorf("switch to %s: %w", name, err)
	}
	if _, err := r.git().Run(ctx, "reset", "--quiet"); err != nil {
		return "", fmt.Errorf("switch to %s: %w", name, err)
	}
	return commit, nil
}

// ApplyDiff applies a validated diff to the work tree, as git apply does:
// for a change the loop put back (an unproven change the user keeps), so
// that the checkout shows what the new branch holds.
func (r *Repo) ApplyDiff(ctx context.Context, diff string) error {
	_, err := r.git().Exec(ctx, gitrun.Cmd{Args: []string{"apply", "--whitespace=nowarn", "-"}, Stdin: []byte(diff)})
	return err
}
