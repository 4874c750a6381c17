package publish

import (
	"context"
	"fmt"
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

// Prepare reads where the work tree's origin points, before the job runs
// any code in it: the fix is pushed there from a git directory of
// agentfix's own, never from the work tree's .git (see
// workspace.Origin).
func (p *Publisher) Prepare(ctx context.Context) error {
	o, err := workspace.ReadOrigin(ctx, p.Remote)
	if err != nil {
		return err
	}
	p.origin = o
	return nil
}

// pushFix builds the commit of the validated diff on top of the remote
// branch (or on c.From when the branch is new) and pushes it fast-forward.
// Its tree is c.From's tree plus the diff, its parent the branch's old tip,
// so a re-run never needs to force; when the tree is the same as the tip's,
// nothing is pushed. It all happens in a git directory of agentfix's own
// that reads the work tree's objects: neither the work tree's files nor
// its .git (config, hooks, refs) play any part. Runners check out with
// depth 1, so nothing here needs history.
func (p *Publisher) pushFix(ctx context.Context, c *Change) (*pushed, error) {
	if p.origin == nil {
		return nil, fmt.Errorf("the work tree's origin was not read before the job ran (Publisher.Prepare)")
	}
	if c.From == "" {
		return nil, fmt.Errorf("the commit the fix applies to is not known")
	}
	remote, cleanup, err := p.origin.Private(ctx, p.Remote)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	git := remote.Runner()
	tree, err := workspace.DiffTree(ctx, git, c.From, c.Diff)
	if err != nil {
		return nil, fmt.Errorf("build the tree of the fix: %w", err)
	}
	tip, err := workspace.FetchBranch(ctx, remote, c.Branch)
	if err != nil {
		return nil, err
	}
	parent := c.From
	if tip != "" {
		who, err := git.Run(ctx, "log", "-1", "--format=%cn <%ce>", tip)
		if err != nil {
			return nil, fmt.Errorf("read the tip of %s: %w", c.Branch, err)
		}
		who = strings.TrimSpace(who)
		if !strings.HasSuffix(who, "<"+p.identity().Email+">") {
			return nil, &BranchChangedError{Branch: c.Branch, Commit: tip, Committer: who}
		}
		tipTree, err := git.Run(ctx, "rev-parse", tip+"^{tree}")
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
	commit, err := workspace.CommitTree(ctx, git, tree, parent, msg, p.identity())
	if err != nil {
		return nil, err
	}
	err = workspace.PushBranch(ctx, workspace.PushOptions{RemoteOptions: remote, Commit: commit, Branch: c.Branch, Protected: c.Protected})
	if err != nil {
		return nil, err
	}
	return &pushed{Commit: commit}, nil
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
