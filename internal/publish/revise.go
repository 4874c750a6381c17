package publish

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/workspace"
)

// A revision is one commit agentfix adds to its own pull request's branch
// in answer to a review. Its message ends with two trailers: the revision's
// number, and the request it answers (a review, an inline comment, a
// comment), so that the branch itself says how many revisions it has had
// and which requests are answered — a re-run of the same event finds its
// commit there, and limits.max_revisions is counted from it.
const (
	revisionTrailer = "Agentfix-Revision"
	requestTrailer  = "Agentfix-Request"
)

var (
	revisionRE = regexp.MustCompile(`(?m)^` + revisionTrailer + `: (\d+)\s*$`)
	requestRE  = regexp.MustCompile(`(?m)^` + requestTrailer + `: (\S+)\s*$`)
)

// PRBranch is a pull request's head branch as a revision reads it: fetched
// with its history down to the base branch.
type PRBranch struct {
	Name string
	Base string
	// Tip and BaseTip are the commits the branches point at.
	Tip     string
	BaseTip string
	// Revisions are agentfix's revision commits on the branch (not on the
	// base), oldest first.
	Revisions []Revision
}

// Revision is one revision commit.
type Revision struct {
	Commit  string
	N       int
	Request string
}

// Answered returns the revision that answered request, or nil.
func (b *PRBranch) Answered(request string) *Revision {
	for i := range b.Revisions {
		if b.Revisions[i].Request == request {
			return &b.Revisions[i]
		}
	}
	return nil
}

// ReadPRBranch fetches branch and base with their history and reads the
// revisions agentfix made on branch. Only commits agentfix committed
// count: a trailer a person typed is not a revision.
func (p *Publisher) ReadPRBranch(ctx context.Context, branch, base string) (*PRBranch, error) {
	tips, err := workspace.FetchHistory(ctx, p.Remote, branch, base)
	if err != nil {
		return nil, err
	}
	b := &PRBranch{Name: branch, Base: base, Tip: tips[0], BaseTip: tips[1]}
	out, err := p.git().Run(ctx, "log", "--reverse", "--format=%H%x00%ce%x00%B%x1e", b.BaseTip+".."+b.Tip)
	if err != nil {
		return nil, fmt.Errorf("read the commits of %s: %w", branch, err)
	}
	for _, rec := range strings.Split(out, "\x1e") {
		f := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x00", 3)
		if len(f) != 3 || f[1] != p.identity().Email {
			continue
		}
		m := revisionRE.FindStringSubmatch(f[2])
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		r := Revision{Commit: f[0], N: n}
		if m := requestRE.FindStringSubmatch(f[2]); m != nil {
			r.Request = m[1]
		}
		b.Revisions = append(b.Revisions, r)
	}
	return b, nil
}

// Diff is the pull request's change: the branch against where it left its
// base (git diff base...head).
func (p *Publisher) Diff(ctx context.Context, b *PRBranch) (string, error) {
	out, err := p.git().Run(ctx, "diff", "--no-color", "--no-ext-diff", b.BaseTip+"..."+b.Tip)
	if err != nil {
		return "", fmt.Errorf("diff %s against %s: %w", b.Name, b.Base, err)
	}
	return out, nil
}

// FirstChanges are the paths the branch's first commit (the version the
// pull request was opened with) added or modified.
func (p *Publisher) FirstChanges(ctx context.Context, b *PRBranch) ([]string, error) {
	out, err := p.git().Run(ctx, "rev-list", "--reverse", b.BaseTip+".."+b.Tip)
	if err != nil {
		return nil, fmt.Errorf("read the commits of %s: %w", b.Name, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if first == "" {
		return nil, nil
	}
	out, err = p.git().Run(ctx, "diff-tree", "--no-commit-id", "--name-only", "--no-renames", "--diff-filter=AM", "-r", "-z", b.BaseTip, first)
	if err != nil {
		return nil, fmt.Errorf("read the first commit of %s: %w", b.Name, err)
	}
	var paths []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			paths = append(paths, f)
		}
	}
	return paths, nil
}

// Checkout checks commit out, detached, in the work tree.
func (p *Publisher) Checkout(ctx context.Context, commit string) error {
	if _, err := p.git().Run(ctx, "checkout", "--quiet", "--detach", commit); err != nil {
		return fmt.Errorf("check out %s: %w", gitrun.Short(commit), err)
	}
	return nil
}

// RevisionChange is one revision to push.
type RevisionChange struct {
	Branch string
	// Start is the branch's tip the revision was made on; it is checked
	// out (HEAD).
	Start string
	// Diff is the validated diff of the revision, applied to Start: what
	// is pushed is exactly it, never what the tests left in the work tree.
	Diff    string
	Message string
	// N is the revision's number; Request names what it answers.
	N       int
	Request string
	// Protected are branches never pushed to.
	Protected []string
}

// BranchMovedError says the branch is no longer where the revision
// started: someone pushed to it meanwhile. Nothing was pushed.
type BranchMovedError struct {
	Branch   string
	From, To string
}

func (e *BranchMovedError) Error() string {
	if e.To == "" {
		return fmt.Sprintf("branch %s was deleted while agentfix worked on it", e.Branch)
	}
	return fmt.Sprintf("branch %s moved from %s to %s while agentfix worked on it", e.Branch, gitrun.Short(e.From), gitrun.Short(e.To))
}

// Revise pushes one commit to c.Branch: c.Diff applied to c.Start, with
// the revision trailers, fast-forward, built and pushed from agentfix's
// own git directory (see Prepare), never from the work tree's .git. When
// the branch is no longer at c.Start it pushes nothing and returns a
// *BranchMovedError; a push that loses a race is a
// *workspace.PushRejectedError. It returns the commit.
func (p *Publisher) Revise(ctx context.Context, c RevisionChange) (string, error) {
	if p.origin == nil {
		return "", fmt.Errorf("revise %s: the work tree's origin was not read before the job ran (Publisher.Prepare)", c.Branch)
	}
	remote, cleanup, err := p.origin.Private(ctx, p.Remote)
	if err != nil {
		return "", fmt.Errorf("revise %s: %w", c.Branch, err)
	}
	defer cleanup()
	tip, err := workspace.RemoteTip(ctx, remote, c.Branch)
	if err != nil {
		return "", fmt.Errorf("revise %s: %w", c.Branch, err)
	}
	if tip != c.Start {
		return "", &BranchMovedError{Branch: c.Branch, From: c.Start, To: tip}
	}
	git := remote.Runner()
	tree, err := workspace.DiffTree(ctx, git, c.Start, c.Diff)
	if err != nil {
		return "", fmt.Errorf("revise %s: build the tree: %w", c.Branch, err)
	}
	msg := strings.TrimRight(c.Message, "\n") + fmt.Sprintf("\n%s: %d\n%s: %s\n", revisionTrailer, c.N, requestTrailer, c.Request)
	commit, err := workspace.CommitTree(ctx, git, tree, c.Start, msg, p.identity())
	if err != nil {
		return "", fmt.Errorf("revise %s: %w", c.Branch, err)
	}
	err = workspace.PushBranch(ctx, workspace.PushOptions{RemoteOptions: remote, Commit: commit, Branch: c.Branch, Protected: c.Protected})
	if err != nil {
		return "", err
	}
	p.logf("pushed revision %d (%s) to %s", c.N, gitrun.Short(commit), c.Branch)
	return commit, nil
}
