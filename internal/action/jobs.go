package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/trust"
)

// fixIssue fixes the issue's text; a verified fix becomes a PR that says
// "Fixes #N" from <prefix>issue-<N> into the default branch.
func (a *run) fixIssue(ctx context.Context) error {
	a.status.post(ctx, report.StageWorking)
	task, err := a.issueTask(ctx)
	if err != nil {
		return fmt.Errorf("fix: %w", err)
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchIssue, fmt.Sprint(a.job.Number))
	return a.pipeline(ctx, pipeline.Job{Name: "issue-" + fmt.Sprint(a.job.Number), Config: a.cfg, Task: task},
		&gitHub{a: a, branch: func(*pipeline.Outcome) string { return branch }, base: a.base, fixes: a.job.Number})
}

// checkPR runs the checks on the PR's head and posts the result; when they
// fail, the pipeline fixes them into a PR into the PR's head branch (or,
// for a fork's PR, into a comment).
func (a *run) checkPR(ctx context.Context) error {
	a.status.post(ctx, report.StageChecking)
	if err := a.forkSafe(ctx); err != nil {
		return err
	}
	tip, err := a.pub.CheckoutBranch(ctx, a.headRef())
	if err != nil {
		return fmt.Errorf("check: workspace: %w", err)
	}
	var cmds []string
	if a.job.Task != "" {
		cmds = []string{a.job.Task}
	}
	task := agent.Task{Title: a.job.Title, Body: fmt.Sprintf("Make the failing checks of pull request #%d pass.", a.job.Number)}
	return a.intoPR(ctx, tip, pipeline.Job{Task: task, FromFailures: true, Commands: cmds})
}

// fixPR is `/agent fix` on someone else's PR: what the comment asks,
// fixed into a PR into the PR's head branch (for a fork's PR, into a
// comment), as check does with failing checks.
func (a *run) fixPR(ctx context.Context) error {
	pr := a.job.PR
	a.status.post(ctx, report.StageWorking)
	if err := a.forkSafe(ctx); err != nil {
		return err
	}
	b, err := a.pub.ReadPRBranch(ctx, a.headRef(), pr.BaseRef)
	if err != nil {
		return fmt.Errorf("fix: workspace: %w", err)
	}
	diff, err := a.pub.Diff(ctx, b)
	if err != nil {
		return fmt.Errorf("fix: workspace: %w", err)
	}
	if err := a.pub.Checkout(ctx, b.Tip); err != nil {
		return fmt.Errorf("fix: workspace: %w", err)
	}
	task := requestTask(request{number: a.job.Number, title: a.job.Title, original: prDescription(a.job.Body), base: pr.BaseRef, diff: diff,
		asker: a.job.Actor.Login, comment: a.job.Comment, instructions: a.job.Task})
	return a.intoPR(ctx, b.Tip, pipeline.Job{Task: task})
}

// forkSafe refuses to run a fork PR's code (allowed by
// triggers.allow_forks) while a token is on disk.
func (a *run) forkSafe(ctx context.Context) error {
	if !a.job.PR.Fork {
		return nil
	}
	if err := trust.CheckNoPersistedToken(ctx, a.dir); err != nil {
		return &ConfigError{fmt.Errorf("%s: %w", a.job.Kind, err)}
	}
	return nil
}

// headRef is the ref of the PR's head: its branch, or for a fork's PR the
// ref GitHub keeps in the base repository.
func (a *run) headRef() string {
	if pr := a.job.PR; pr.Fork {
		return fmt.Sprintf("refs/pull/%d/head", pr.Number)
	}
	return a.job.PR.HeadRef
}

// intoPR runs job on the PR's head (checked out at tip): a fix becomes a
// PR from <prefix>pr-<N> into the PR's head branch, or for a fork's PR a
// diff in the status comment.
func (a *run) intoPR(ctx context.Context, tip string, job pipeline.Job) error {
	pr := a.job.PR
	// The permission check approved the PR as the API showed it; code
	// pushed since then was not approved by anyone.
	if moved := trust.HeadMoved(a.job, tip); moved != "" {
		a.rep.Result, a.rep.Reason = report.Refused, moved
		a.status.done(ctx)
		return nil
	}
	cfg := a.cfg
	if pr.Fork {
		// A fork's branch cannot take a PR: an unverified attempt goes
		// into the comment, never into a draft PR.
		c := *a.cfg
		c.PR.OnUnverified = config.OnUnverifiedComment
		cfg = &c
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchPR, fmt.Sprint(a.job.Number))
	job.Name, job.Config = "pr-"+fmt.Sprint(a.job.Number), cfg
	return a.pipeline(ctx, job, &gitHub{a: a, branch: func(*pipeline.Outcome) string { return branch }, base: pr.HeadRef, fork: pr.Fork})
}

// nightly verifies the default branch. Green: nothing to do. Red: the
// verifier re-runs failures to rule out flakiness; a real failure gets a
// PR per failure signature; a flaky or unfixable one opens or updates the
// one tracking issue.
func (a *run) nightly(ctx context.Context) error {
	cfg := *a.cfg
	cfg.Verify.FlakyReruns = max(cfg.Verify.FlakyReruns, 1)
	task := agent.Task{Title: "Fix the failing checks on " + a.base}
	branch := func(o *pipeline.Outcome) string {
		return publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchNightly, o.Before.Signature())
	}
	return a.pipeline(ctx, pipeline.Job{Name: "nightly", Config: &cfg, Task: task, FromFailures: true},
		&gitHub{a: a, branch: branch, base: a.base, nightly: true})
}

// pipeline runs job in the workspace with the GitHub deliverer d.
func (a *run) pipeline(ctx context.Context, job pipeline.Job, d *gitHub) error {
	job.Repo, job.Deliver = a.dir, d
	d.start(ctx)
	out, err := pipeline.Run(ctx, job, a.opts.Deps)
	if out != nil && out.Session != "" {
		a.logf("session record %s", out.Session)
	}
	return err
}

// issueTask is the issue's title, body and its comments (not agentfix's
// own), plus the extra instructions of the command.
func (a *run) issueTask(ctx context.Context) (agent.Task, error) {
	j := a.job
	var b strings.Builder
	b.WriteString(strings.TrimSpace(j.Body))
	comments, err := a.pub.IssueComments(ctx, j.Number)
	if err != nil {
		return agent.Task{}, err
	}
	for _, c := range comments {
		if c.Marker || (j.Comment != nil && c.ID == j.Comment.ID) {
			continue
		}
		fmt.Fprintf(&b, "\n\n---\nComment by @%s:\n%s", c.Author, strings.TrimSpace(c.Body))
	}
	if j.Task != "" {
		fmt.Fprintf(&b, "\n\n---\nInstructions from @%s:\n%s", j.Actor.Login, j.Task)
	}
	return agent.Task{Title: j.Title, Body: b.String()}, nil
}
