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
	pr := a.job.PR
	a.status.post(ctx, report.StageChecking)
	if pr.Fork {
		// Allowed by triggers.allow_forks: the PR's code must find no token.
		if err := trust.CheckNoPersistedToken(ctx, a.dir); err != nil {
			return &ConfigError{fmt.Errorf("check: %w", err)}
		}
	}
	ref := pr.HeadRef
	if pr.Fork {
		ref = fmt.Sprintf("refs/pull/%d/head", pr.Number)
	}
	tip, err := a.pub.CheckoutBranch(ctx, ref)
	if err != nil {
		return fmt.Errorf("check: workspace: %w", err)
	}
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
	var cmds []string
	if a.job.Task != "" {
		cmds = []string{a.job.Task}
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchPR, fmt.Sprint(a.job.Number))
	task := agent.Task{Title: a.job.Title, Body: fmt.Sprintf("Make the failing checks of pull request #%d pass.", a.job.Number)}
	return a.pipeline(ctx, pipeline.Job{Name: "pr-" + fmt.Sprint(a.job.Number), Config: cfg, Task: task, FromFailures: true, Commands: cmds},
		&gitHub{a: a, branch: func(*pipeline.Outcome) string { return branch }, base: pr.HeadRef, fork: pr.Fork})
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
	// Where origin points is read now, before any code of the job runs.
	if err := a.pub.Prepare(ctx); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
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
