// Package publish puts a verified fix where a person can review it: one
// deterministic branch per job, pushed fast-forward (never forced, never to
// the default branch), one pull request per branch found again on re-runs,
// one status comment per issue or PR edited in place, and one nightly
// tracking issue. Every step is idempotent: running a job twice leaves the
// same branch, the same PR and the same comment.
package publish

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/workspace"
)

// Publisher publishes into one repository from one work tree.
type Publisher struct {
	GH    *github.Client
	Owner string
	Repo  string
	// Remote is the work tree and how to reach its origin (the token goes
	// only to the git processes that push and fetch).
	Remote workspace.RemoteOptions
	// Identity commits; workspace.DefaultIdentity when empty.
	Identity workspace.Identity
	// Log receives one line per action; nil discards.
	Log io.Writer
	// Self is the login the token writes as (see Identify); ActionsBot
	// when empty. Marked comments and issues count as agentfix's own only
	// when Self wrote them.
	Self string

	origin *workspace.Origin // read by Prepare
}

// Change is a fix to publish as a pull request.
type Change struct {
	// Branch is the agentfix branch (see BranchName).
	Branch string
	// Base is the branch the PR merges into.
	Base string
	// Protected are branches never pushed to (the default branch).
	Protected []string
	// Diff is the validated diff: the commit is From with Diff applied,
	// never what the work tree holds after the tests ran.
	Diff string
	// From is the commit Diff applies to: the work tree's HEAD when the
	// job started.
	From    string
	Message string
	Title   string
	Body    string
	Labels  []string
	Draft   bool
}

// Outcome is the pull request a Change ended in.
type Outcome struct {
	Number int
	URL    string
	Branch string
	Base   string
	Commit string
	Draft  bool
	// Created is true when this run opened the PR; false when it found
	// one from an earlier run.
	Created bool
	// Unchanged is true when the branch already held this fix.
	Unchanged bool
}

// Job kinds a branch can be named for.
const (
	BranchIssue   = "issue"
	BranchPR      = "pr"
	BranchNightly = "nightly"
	// BranchLocal names the branch `agentfix fix` commits a fix on.
	BranchLocal = "local"
)

// BranchName is the one branch of a job: <prefix><kind>-<id>, e.g.
// agent-fix/issue-7, agent-fix/pr-12, agent-fix/nightly-3f2a9c.
func BranchName(prefix, kind, id string) string {
	return prefix + kind + "-" + id
}

// Publish pushes the fix to c.Branch and opens the pull request, or
// updates the one already open for that branch.
func (p *Publisher) Publish(ctx context.Context, c Change) (*Outcome, error) {
	if c.Branch == "" || c.Base == "" {
		return nil, fmt.Errorf("publish: branch and base are required")
	}
	if c.Branch == c.Base {
		return nil, fmt.Errorf("publish: refusing to push the fix to its own base branch %s", c.Base)
	}
	for _, b := range c.Protected {
		if b == c.Branch {
			return nil, fmt.Errorf("publish %s: %w", c.Branch, workspace.ErrProtectedBranch)
		}
	}
	ps, err := p.pushFix(ctx, &c)
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", c.Branch, err)
	}
	if ps.Unchanged {
		p.logf("branch %s already holds this fix (%s); nothing pushed", c.Branch, gitrun.Short(ps.Commit))
	} else {
		p.logf("pushed %s to %s", gitrun.Short(ps.Commit), c.Branch)
	}
	pr, created, err := p.ensurePR(ctx, &c)
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", c.Branch, err)
	}
	if len(c.Labels) > 0 {
		if _, _, err := p.GH.Issues.AddLabelsToIssue(ctx, p.Owner, p.Repo, pr.GetNumber(), c.Labels); err != nil {
			return nil, fmt.Errorf("publish %s: add labels %v to #%d: %w", c.Branch, c.Labels, pr.GetNumber(), err)
		}
	}
	return &Outcome{
		Number: pr.GetNumber(), URL: pr.GetHTMLURL(), Branch: c.Branch, Base: c.Base,
		Commit: ps.Commit, Draft: pr.GetDraft(), Created: created, Unchanged: ps.Unchanged,
	}, nil
}

// ensurePR finds the open PR from c.Branch and updates its title and body,
// or opens one. A 422 "already exists" (another run won the race) adopts
// the existing PR.
func (p *Publisher) ensurePR(ctx context.Context, c *Change) (*github.PullRequest, bool, error) {
	existing, err := p.findPR(ctx, c.Branch)
	if err != nil {
		return nil, false, err
	}
	if existing == nil {
		pr, _, err := p.GH.PullRequests.Create(ctx, p.Owner, p.Repo, &github.NewPullRequest{
			Title: github.String(c.Title), Body: github.String(c.Body),
			Head: github.String(c.Branch), Base: github.String(c.Base),
			Draft: github.Bool(c.Draft), MaintainerCanModify: github.Bool(true),
		})
		if err == nil {
			p.logf("opened pull request #%d (%s → %s)", pr.GetNumber(), c.Branch, c.Base)
			return pr, true, nil
		}
		if !alreadyExists(err) {
			return nil, false, fmt.Errorf("create pull request %s → %s: %w", c.Branch, c.Base, err)
		}
		existing, err = p.findPR(ctx, c.Branch)
		if err != nil {
			return nil, false, err
		}
		if existing == nil {
			return nil, false, fmt.Errorf("create pull request %s → %s: GitHub says one already exists, but none is open from %s:%s", c.Branch, c.Base, p.Owner, c.Branch)
		}
	}
	pr, _, err := p.GH.PullRequests.Edit(ctx, p.Owner, p.Repo, existing.GetNumber(), &github.PullRequest{
		Title: github.String(c.Title), Body: github.String(c.Body),
	})
	if err != nil {
		return nil, false, fmt.Errorf("update pull request #%d: %w", existing.GetNumber(), err)
	}
	p.logf("updated pull request #%d", pr.GetNumber())
	return pr, false, nil
}

// findPR returns the open pull request whose head is owner:branch, or nil.
// The owner: prefix matters: GitHub ignores a bare branch name and returns
// every open PR.
func (p *Publisher) findPR(ctx context.Context, branch string) (*github.PullRequest, error) {
	opts := &github.PullRequestListOptions{State: "open", Head: p.Owner + ":" + branch, ListOptions: github.ListOptions{PerPage: 100}}
	prs, _, err := p.GH.PullRequests.List(ctx, p.Owner, p.Repo, opts)
	if err != nil {
		return nil, fmt.Errorf("list pull requests from %s:%s: %w", p.Owner, branch, err)
	}
	for _, pr := range prs {
		// Check the head anyway, in case a server ignores the filter.
		if pr.GetHead().GetRef() == branch && strings.EqualFold(pr.GetHead().GetRepo().GetOwner().GetLogin(), p.Owner) {
			return pr, nil
		}
		if pr.GetHead().GetRef() == branch && pr.GetHead().GetRepo() == nil {
			return pr, nil
		}
	}
	return nil, nil
}

// alreadyExists reports whether err is the 422 GitHub answers when a PR
// from that head already exists; the reason is in Errors[0].Message, the
// top-level message is only "Validation Failed".
func alreadyExists(err error) bool {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != 422 {
		return false
	}
	for _, e := range er.Errors {
		if strings.Contains(strings.ToLower(e.Message), "already exists") {
			return true
		}
	}
	return strings.Contains(strings.ToLower(er.Message), "already exists")
}

func (p *Publisher) logf(format string, args ...any) {
	if p.Log != nil {
		untrusted.Logf(p.Log, "publish: "+format, args...)
	}
}
