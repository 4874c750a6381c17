package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/trust"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// fixIssue runs the loop on the issue's text and publishes the fix as a PR
// that says "Fixes #N" from <prefix>issue-<N>.
func (a *actionRun) fixIssue(ctx context.Context) error {
	a.status(ctx, report.StageWorking)
	task, err := a.issueTask(ctx)
	if err != nil {
		return fmt.Errorf("fix: %w", err)
	}
	if len(a.cfg.Verify.Commands) == 0 {
		return exitcode2(fmt.Errorf("fix: no verify command: set verify.commands or the test-command input"))
	}
	// The checks before the fix are the PR's "before" evidence, and
	// failing tests tell the loop where to look.
	before, err := a.verify(ctx, a.cfg.Verify.Commands)
	if err != nil {
		return exitcode2IfRefused(fmt.Errorf("fix: before: %w", err))
	}
	a.rep.Before = checkOf(before)
	if !before.Passed {
		task.Failing = before
	}
	res, err := a.loop(ctx, task)
	if err != nil {
		return fmt.Errorf("fix: %w", err)
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchIssue, fmt.Sprint(a.job.Number))
	return a.deliver(ctx, res, branch, a.base)
}

// checkPR runs the checks on the PR's head and posts the result; when they
// fail, it runs the loop and opens a PR into the PR's head branch.
func (a *actionRun) checkPR(ctx context.Context) error {
	pr := a.job.PR
	a.status(ctx, report.StageChecking)
	if pr.Fork {
		// Allowed by triggers.allow_forks: the PR's code must find no token.
		if err := trust.CheckNoPersistedToken(ctx, a.dir); err != nil {
			return exitcode2(fmt.Errorf("check: %w", err))
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
	if pr.HeadSHA != "" && tip != pr.HeadSHA {
		a.rep.Result = report.Refused
		a.rep.Reason = fmt.Sprintf("the head of #%d moved from %.12s to %.12s while agentfix was starting; comment the command again to check the new commits", a.job.Number, pr.HeadSHA, tip)
		a.status(ctx, report.StageDone)
		return nil
	}
	cmds := a.cfg.Verify.Commands
	if a.job.Task != "" {
		cmds = []string{a.job.Task}
	}
	if len(cmds) == 0 {
		return exitcode2(fmt.Errorf("check: no verify command: set verify.commands, the test-command input, or write the command after /agent check"))
	}
	rep, err := a.verify(ctx, cmds)
	var refused *verify.RefusedError
	if errors.As(err, &refused) {
		a.rep.Result, a.rep.Reason = report.Refused, refused.Error()
		a.status(ctx, report.StageDone)
		return nil
	}
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	a.rep.Before = checkOf(rep)
	if rep.Passed {
		a.rep.Result = report.Checked
		a.status(ctx, report.StageDone)
		return nil
	}
	cfg := *a.cfg
	cfg.Verify.Commands = cmds
	res, err := a.loopWith(ctx, &cfg, agent.Task{Title: a.job.Title, Body: "Make the failing checks of pull request #" + fmt.Sprint(a.job.Number) + " pass.", Failing: rep})
	if err != nil {
		return fmt.Errorf("check: fix: %w", err)
	}
	if pr.Fork && res.Result == agent.Fixed {
		// A PR can only merge into a branch of this repository: the
		// verified diff goes into the status comment instead.
		a.fill(res)
		a.rep.Result = report.Fixed
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("#%d comes from a fork, so agentfix cannot open a pull request into its branch; the verified diff is below for its author to apply.", a.job.Number))
		a.status(ctx, report.StageDone)
		return nil
	}
	if pr.Fork {
		a.cfg.PR.OnUnverified = config.OnUnverifiedComment
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchPR, fmt.Sprint(a.job.Number))
	return a.deliver(ctx, res, branch, pr.HeadRef)
}

// nightly verifies the default branch. Green: nothing to do. Red: the
// verifier re-runs failures to rule out flakiness; a real failure gets the
// loop and a PR per failure signature; a flaky or unfixable one opens or
// updates the one tracking issue.
func (a *actionRun) nightly(ctx context.Context) error {
	if len(a.cfg.Verify.Commands) == 0 {
		return exitcode2(fmt.Errorf("nightly: no verify command: set verify.commands or the test-command input"))
	}
	if a.cfg.Verify.FlakyReruns < 1 {
		a.cfg.Verify.FlakyReruns = 1
	}
	rep, err := a.verify(ctx, a.cfg.Verify.Commands)
	if err != nil {
		return exitcode2IfRefused(fmt.Errorf("nightly: %w", err))
	}
	a.rep.Before = checkOf(rep)
	switch {
	case rep.Passed && len(rep.Flaky) == 0:
		a.rep.Result = report.NothingToDo
		return nil
	case rep.Passed:
		a.rep.Reason = "the failures are flaky: they passed on a re-run"
		return a.track(ctx)
	}
	res, err := a.loop(ctx, agent.Task{Title: "Fix the failing checks on " + a.base, Failing: rep})
	if err != nil {
		return fmt.Errorf("nightly: fix: %w", err)
	}
	if res.Result != agent.Fixed {
		a.fill(res)
		a.rep.Result = report.NotFixed
		return a.track(ctx)
	}
	branch := publish.BranchName(a.cfg.PR.BranchPrefix, publish.BranchNightly, rep.Signature())
	return a.deliver(ctx, res, branch, a.base)
}

// track opens or updates the nightly tracking issue; the run ends not
// fixed.
func (a *actionRun) track(ctx context.Context) error {
	a.rep.Result = report.NotFixed
	if !a.dryRun {
		out, err := a.pub.TrackingIssue(ctx, report.TrackingMarker, report.TrackingTitle, report.TrackingBody(a.rep, a.base), a.cfg.PR.Labels)
		if err != nil {
			return fmt.Errorf("nightly: publish: %w", err)
		}
		a.rep.Tracking = &report.PR{Number: out.Number, URL: out.URL, Created: out.Created}
	}
	return &notFixedError{reason: a.rep.Reason}
}

// deliver publishes the loop's result: a verified fix as a PR from branch
// into base; an unverified one as pr.on_unverified says.
func (a *actionRun) deliver(ctx context.Context, res *agent.Result, branch, base string) error {
	a.fill(res)
	switch {
	case res.Result == agent.NothingToDo:
		a.rep.Result = report.NothingToDo
		if a.job.IsPR {
			a.rep.Result = report.Checked
		}
		a.status(ctx, report.StageDone)
		return nil
	case res.Result == agent.Fixed:
		a.rep.Result = report.Fixed
		if err := a.openPR(ctx, res, branch, base, a.cfg.PR.Draft); err != nil {
			return a.publishFailed(ctx, err)
		}
		a.status(ctx, report.StageDone)
		return nil
	}
	a.rep.Result = report.NotFixed
	if a.cfg.PR.OnUnverified == config.OnUnverifiedDraft && res.Diff != "" && !a.dryRun {
		if err := applyDiff(ctx, a.dir, res.Diff); err != nil {
			a.rep.Notes = append(a.rep.Notes, "The unverified attempt could not be re-applied for a draft PR: "+err.Error())
		} else if err := a.openPR(ctx, res, branch, base, true); err != nil {
			return a.publishFailed(ctx, err)
		}
	}
	if a.cfg.PR.OnUnverified == config.OnUnverifiedNone {
		a.rep.Diff = ""
	}
	if a.job.IsPR {
		a.rep.Result = report.NotFixed
	}
	a.status(ctx, report.StageDone)
	return &notFixedError{reason: a.rep.Reason}
}

// openPR pushes the work tree's fix to branch and opens or updates its PR.
func (a *actionRun) openPR(ctx context.Context, res *agent.Result, branch, base string, draft bool) error {
	a.rep.PR = &report.PR{Branch: branch, Base: base, Draft: draft}
	if a.dryRun {
		a.rep.Notes = append(a.rep.Notes, "Dry run: nothing was pushed and no pull request was opened.")
		return nil
	}
	out, err := a.pub.Publish(ctx, publish.Change{
		Branch: branch, Base: base, Protected: []string{a.base},
		Files: res.Files, Message: actionCommitMessage(a.rep), Title: report.PRTitle(a.rep), Body: report.PRBody(a.rep),
		Labels: a.cfg.PR.Labels, Draft: draft,
	})
	if err != nil {
		return err
	}
	a.rep.PR = &report.PR{Number: out.Number, URL: out.URL, Branch: out.Branch, Base: out.Base, Draft: out.Draft || draft, Created: out.Created, Unchanged: out.Unchanged}
	return nil
}

// publishFailed reports a publish error in the status comment. A branch
// someone else pushed to, or a rejected push, ends not fixed with the
// reason; anything else is an error.
func (a *actionRun) publishFailed(ctx context.Context, err error) error {
	var changed *publish.BranchChangedError
	var rejected *workspace.PushRejectedError
	a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
	if a.rep.PR != nil && a.rep.PR.Number == 0 {
		a.rep.PR = nil
	}
	a.status(ctx, report.StageDone)
	if errors.As(err, &changed) || errors.As(err, &rejected) {
		return &notFixedError{reason: err.Error()}
	}
	return fmt.Errorf("publish: %w", err)
}

// issueTask is the issue's title, body and its comments (not agentfix's
// own), plus the extra instructions of the command.
func (a *actionRun) issueTask(ctx context.Context) (agent.Task, error) {
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

// exitcode2 marks err as a configuration problem (exit 2).
func exitcode2(err error) error { return exitcode.UsageError(err) }

// exitcode2IfRefused marks a refused verify command as a configuration
// problem.
func exitcode2IfRefused(err error) error {
	var refused *verify.RefusedError
	if errors.As(err, &refused) || errors.Is(err, verify.ErrStart) {
		return exitcode.UsageError(err)
	}
	return err
}

// environ is the base environment of the commands agentfix runs; verify
// scrubs the secrets out of it.
func environ() []string { return os.Environ() }
