package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/workspace"
)

// BranchChangedError says someone other than agentfix committed to the
// branch: agentfix leaves it alone.
type BranchChangedError struct {
	Branch    string
	Commit    string
	Committer string
}

func (e *BranchChangedError) Error() string {
	return fmt.Sprintf("branch %s was changed by %s (commit %s); agentfix does not touch a branch someone else pushed to — delete the branch or merge it to let agentfix work on it again", e.Branch, e.Committer, gitrun.Short(e.Commit))
}

// pushed is the result of putting the fix on the remote branch.
type pushed struct {
	Commit string
	// Unchanged means the branch already held exactly this tree.
	Unchanged bool
}

// pushFix builds the commit that puts the work tree's changes to files on
// top of the remote branch (or on HEAD when the branch is new) and pushes
// it fast-forward. Its tree is HEAD's tree plus the fix, its parent the
// branch's old tip, so a re-run never needs to force; when the tree is the
// same as the tip's, nothing is pushed. Runners check out with depth 1, so
// nothing here needs history.
func (p *Publisher) pushFix(ctx context.Context, c *Change) (*pushed, error) {
	tree, err := p.fixTree(ctx, c.Files)
	if err != nil {
		return nil, fmt.Errorf("build the tree of the fix: %w", err)
	}
	tip, err := workspace.FetchBranch(ctx, p.Remote, c.Branch)
	if err != nil {
		return nil, err
	}
	parent := "HEAD"
	if tip != "" {
		who, err := p.git().Run(ctx, "log", "-1", "--format=%cn <%ce>", tip)
		if err != nil {
			return nil, fmt.Errorf("read the tip of %s: %w", c.Branch, err)
		}
		who = strings.TrimSpace(who)
		if !strings.HasSuffix(who, "<"+p.identity().Email+">") {
			return nil, &BranchChangedError{Branch: c.Branch, Commit: tip, Committer: who}
		}
		tipTree, err := p.git().Run(ctx, "rev-parse", tip+"^{tree}")
		if err != nil {
			return nil, fmt.Errorf("read the tree of %s: %w", c.Branch, err)
		}
		if strings.TrimSpace(tipTree) == tree {
			return &pushed{Commit: tip, Unchanged: true}, nil
		}
		parent = tip
	}
	msg := c.Message
	if msg == "" {
		msg = c.Title
	}
	commit, err := p.commitTree(ctx, tree, parent, msg)
	if err != nil {
		return nil, err
	}
	err = workspace.PushBranch(ctx, workspace.PushOptions{RemoteOptions: p.Remote, Commit: commit, Branch: c.Branch, Protected: c.Protected})
	if err != nil {
		return nil, err
	}
	return &pushed{Commit: commit}, nil
}

// commitTree makes a commit of tree on parent as agentfix's identity,
// without touching the work tree, the index or any ref.
func (p *Publisher) commitTree(ctx context.Context, tree, parent, msg string) (string, error) {
	id := p.identity()
	env := []string{
		"GIT_AUTHOR_NAME=" + id.Name, "GIT_AUTHOR_EMAIL=" + id.Email,
		"GIT_COMMITTER_NAME=" + id.Name, "GIT_COMMITTER_EMAIL=" + id.Email,
	}
	out, err := p.git().Exec(ctx, gitrun.Cmd{Args: []string{"-c", "commit.gpgsign=false", "commit-tree", tree, "-p", parent, "-F", "-"}, Env: env, Stdin: []byte(msg)})
	if err != nil {
		return "", fmt.Errorf("commit the fix: %w", err)
	}
	return strings.TrimSpace(out), nil
}

// fixTree writes HEAD's tree plus the work tree's version of files as a
// tree object, through a temporary index so the user's index is untouched.
func (p *Publisher) fixTree(ctx context.Context, files []string) (string, error) {
	if len(files) == 0 {
		return "", fmt.Errorf("the fix changes no files")
	}
	tmp, err := os.MkdirTemp("", "agentfix-index-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	git, env := p.git(), []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"read-tree", "HEAD"}, Env: env}); err != nil {
		return "", err
	}
	if _, err := git.Exec(ctx, gitrun.Cmd{Args: append([]string{"add", "--all", "--"}, files...), Env: env}); err != nil {
		return "", err
	}
	out, err := git.Exec(ctx, gitrun.Cmd{Args: []string{"write-tree"}, Env: env})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// git is the runner for the work tree; only fetch and push send the token.
func (p *Publisher) git() gitrun.Runner { return p.Remote.Runner() }

// CheckoutBranch fetches branch from the remote and checks its tip out
// (detached), for running checks on a pull request's head. It returns the
// commit.
func (p *Publisher) CheckoutBranch(ctx context.Context, branch string) (string, error) {
	tip, err := workspace.FetchBranch(ctx, p.Remote, branch)
	if err != nil {
		return "", err
	}
	if tip == "" {
		return "", fmt.Errorf("branch %s does not exist on the remote", branch)
	}
	if _, err := p.git().Run(ctx, "checkout", "--quiet", "--detach", tip); err != nil {
		return "", fmt.Errorf("check out %s: %w", branch, err)
	}
	return tip, nil
}

func (p *Publisher) identity() workspace.Identity {
	if p.Identity.Name == "" || p.Identity.Email == "" {
		return workspace.DefaultIdentity
	}
	return p.Identity
}
