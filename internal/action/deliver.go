package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// gitHub delivers a pipeline outcome to GitHub: a verified fix as a pull
// request from branch into base, an unverified one as pr.on_unverified
// says, a nightly that cannot be fixed as the tracking issue; and the
// status comment throughout.
type gitHub struct {
	a *run
	// branch names the fix's branch once the outcome is known (a nightly's
	// depends on the failure's signature).
	branch func(*pipeline.Outcome) string
	base   string
	// fixes is the issue a fix closes; 0 for none.
	fixes int
	// fork: the PR comes from a fork, whose branch cannot take a PR.
	fork bool
	// nightly: failures that cannot be fixed go to the tracking issue.
	nightly bool
	// revise: the outcome is a revision of agentfix's own PR (see
	// revision.go), not a PR of its own.
	revise *revision
	poster *poster
}

var _ pipeline.Deliverer = (*gitHub)(nil)

// start begins posting progress to the status comment, bounded by the
// run's wall time.
func (g *gitHub) start(ctx context.Context) {
	cancel := func() {}
	if wall := g.a.cfg.Limits.WallTime.D(); wall > 0 {
		ctx, cancel = context.WithTimeout(ctx, wall)
	}
	ctx, stop := context.WithCancel(ctx)
	g.poster = newPoster(ctx, func() { stop(); cancel() }, g.a.status)
}

// Progress hands the stage to the poster; it never blocks.
func (g *gitHub) Progress(p pipeline.Progress) {
	stage := report.StageWorking
	switch p.Stage {
	case pipeline.StageChecking:
		stage = report.StageChecking
	case pipeline.StageRound:
		stage = report.StageRound
	}
	g.poster.offer(stage, p.Round, p.Model)
}

// Deliver publishes the outcome and settles the status comment.
func (g *gitHub) Deliver(ctx context.Context, o *pipeline.Outcome) error {
	g.poster.stop()
	a := g.a
	a.delivered = true
	g.fill(o)
	if g.revise != nil {
		return g.deliverRevision(ctx, o)
	}
	defer a.status.done(ctx)
	switch {
	case o.Err != nil:
		a.rep.Result, a.rep.Reason = report.NotFixed, o.Err.Error()
		return nil
	case o.Result == pipeline.Refused:
		a.rep.Result, a.rep.Reason = report.Refused, o.Reason
		return nil
	case o.Result == pipeline.NothingToDo && g.nightly && len(o.Before.Flaky) > 0:
		o.Result, o.Reason = pipeline.NotFixed, "the failures are flaky: they passed on a re-run"
		a.rep.Reason = o.Reason
		return g.track(ctx)
	case o.Result == pipeline.NothingToDo:
		a.rep.Result = report.NothingToDo
		if a.job.IsPR {
			a.rep.Result = report.Checked
		}
		if g.nightly {
			return g.untrack(ctx)
		}
		return nil
	case o.Result == pipeline.Fixed && g.fork:
		a.rep.Result = report.Fixed
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("#%d comes from a fork, so agentfix cannot open a pull request into its branch; the verified diff is below for its author to apply.", a.job.Number))
		return nil
	case o.Result == pipeline.Fixed:
		a.rep.Result = report.Fixed
		return g.publishFailed(o, g.openPR(ctx, o, a.cfg.PR.Draft))
	case o.Result == pipeline.Unproven:
		return g.unproven(ctx, o)
	case g.nightly:
		return g.track(ctx)
	}
	a.rep.Result = report.NotFixed
	cfg := o.Job.Config
	if cfg.PR.OnUnverified == config.OnUnverifiedDraft && o.Diff() != "" && !a.dryRun {
		if err := g.publishFailed(o, g.openPR(ctx, o, true)); err != nil {
			return err
		}
	}
	if cfg.PR.OnUnverified == config.OnUnverifiedNone {
		a.rep.Diff = ""
	}
	return nil
}

// unproven settles a change that passes the checks with nothing to show
// it fixes the issue, as pr.on_unproven says: in the status comment, as a
// draft PR that refers to the issue without closing it, or only in the
// report. It never becomes a ready PR.
func (g *gitHub) unproven(ctx context.Context, o *pipeline.Outcome) error {
	a := g.a
	a.rep.Result = report.Unproven
	switch a.cfg.PR.OnUnproven {
	case config.OnUnverifiedNone:
		a.rep.Diff = ""
	case config.OnUnverifiedDraft:
		if o.Diff() == "" || a.dryRun || g.fork {
			return nil
		}
		err := g.publishFailed(o, g.openPR(ctx, o, true))
		if o.Result == pipeline.Unproven {
			a.rep.Result = report.Unproven // publishFailed says not-fixed when the push failed
		}
		return err
	}
	return nil
}

// openPR pushes the validated diff and opens or updates its PR. An
// unproven change refers to the issue; only a proven one closes it.
func (g *gitHub) openPR(ctx context.Context, o *pipeline.Outcome, draft bool) error {
	a := g.a
	branch := g.branch(o)
	a.rep.PR = &report.PR{Branch: branch, Base: g.base, Draft: draft}
	if a.dryRun {
		a.rep.Notes = append(a.rep.Notes, "Dry run: nothing was pushed and no pull request was opened.")
		return nil
	}
	out, err := a.pub.Publish(ctx, publish.Change{
		Branch: branch, Base: g.base, Protected: []string{a.base},
		Diff: o.Diff(), From: o.Checkpoint.Head, Message: pipeline.CommitMessage(o, commitInfo(o, g.fixes, a.rep.RunURL)),
		Title: report.PRTitle(a.rep), Body: report.PRBody(a.rep),
		Labels: a.cfg.PR.Labels, Draft: draft,
	})
	if err != nil {
		return err
	}
	a.rep.PR = &report.PR{Number: out.Number, URL: out.URL, Branch: out.Branch, Base: out.Base, Draft: out.Draft || draft, Created: out.Created, Unchanged: out.Unchanged}
	return nil
}

// commitInfo is what the commit of o says about the issue: it fixes it,
// or (unproven) only refers to it.
func commitInfo(o *pipeline.Outcome, issue int, runURL string) pipeline.CommitInfo {
	if o.Result == pipeline.Unproven {
		return pipeline.CommitInfo{Refs: issue, RunURL: runURL}
	}
	return pipeline.CommitInfo{Fixes: issue, RunURL: runURL}
}

// publishFailed settles a publish error: a branch someone else pushed to,
// or a rejected push, ends not fixed with the reason; anything else is the
// deliverer's error.
func (g *gitHub) publishFailed(o *pipeline.Outcome, err error) error {
	if err == nil {
		return nil
	}
	a := g.a
	a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
	if a.rep.PR != nil && a.rep.PR.Number == 0 {
		a.rep.PR = nil
	}
	var changed *publish.BranchChangedError
	var rejected *workspace.PushRejectedError
	if errors.As(err, &changed) || errors.As(err, &rejected) {
		o.Result, o.Reason = pipeline.NotFixed, err.Error()
		return nil
	}
	return fmt.Errorf("publish: %w", err)
}

// track opens or updates the nightly tracking issue; the run ends not
// fixed.
func (g *gitHub) track(ctx context.Context) error {
	a := g.a
	a.rep.Result = report.NotFixed
	if a.dryRun {
		return nil
	}
	out, err := a.pub.TrackingIssue(ctx, report.TrackingMarker, report.TrackingTitle, report.TrackingBody(a.rep, a.base), a.cfg.PR.Labels)
	if err != nil {
		return fmt.Errorf("nightly: publish: %w", err)
	}
	a.rep.Tracking = &report.PR{Number: out.Number, URL: out.URL, Created: out.Created}
	return nil
}

// untrack closes the tracking issue of a nightly that found the checks
// passing again, linking this run.
func (g *gitHub) untrack(ctx context.Context) error {
	a := g.a
	if a.dryRun {
		return nil
	}
	out, err := a.pub.CloseTrackingIssue(ctx, report.TrackingMarker, report.TrackingClosed(a.rep, a.base))
	if err != nil {
		return fmt.Errorf("nightly: publish: %w", err)
	}
	if out != nil {
		a.rep.Tracking = &report.PR{Number: out.Number, URL: out.URL}
		a.rep.Notes = append(a.rep.Notes, fmt.Sprintf("The checks pass again: tracking issue #%d is closed.", out.Number))
	}
	return nil
}

// fill copies the outcome into the report.
func (g *gitHub) fill(o *pipeline.Outcome) {
	r := g.a.rep
	r.Before = checkOf(o.Before)
	if o.Before != nil && o.Before.Sandbox != nil {
		if o.Before.Sandbox.Enabled {
			r.Limits = o.Before.Sandbox.Limits
		} else {
			r.Unsandboxed = o.Before.Sandbox.Reason
		}
	}
	if o.Result != pipeline.Fixed {
		r.Reason = o.Reason
	}
	r.SessionFile = o.Session
	if o.Session != "" {
		if events, err := session.ReadFile(o.Session); err == nil {
			r.Session = agent.Outline(events, 200, 20000)
		}
	}
	r.Elapsed = o.Elapsed.Round(time.Second)
	res := o.Loop
	if res == nil {
		return
	}
	r.Rounds, r.Files, r.Diff = res.Rounds, res.Files, res.Diff
	if res.Model != "" {
		r.Model = res.Model
	}
	if res.Plan != nil {
		r.Plan = res.Plan.Steps
	}
	if res.Verify != nil {
		r.After = checkOf(res.Verify)
	}
	r.Verified = res.Result == agent.Fixed
	if len(res.Drift) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("The verify commands changed %s while they ran; what agentfix commits is the validated diff alone, without those changes.", strings.Join(codeAll(res.Drift), ", ")))
	}
	r.Proof = proofOf(res.Proof)
	if len(res.Files) > 0 {
		stop := untrusted.Markdown(o.Reason)
		if r.Verified {
			stop = fmt.Sprintf("the verify commands pass after %d round(s)", res.Rounds)
		}
		r.Summary = fmt.Sprintf("agentfix changed %s; %s.", strings.Join(codeAll(res.Files), ", "), stop)
	}
}

func codeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = untrusted.Code(s)
	}
	return out
}

// proofOf turns the loop's proof into the report package's view of it.
func proofOf(p *agent.Proof) *report.Proof {
	if p == nil {
		return nil
	}
	return &report.Proof{Kind: p.Kind, Tests: p.Tests, Files: p.Files, Before: checkOf(p.Before), After: checkOf(p.After)}
}

// checkOf turns a verify report into the report package's view of it.
func checkOf(rep *verify.Report) *report.Check {
	if rep == nil {
		return nil
	}
	c := &report.Check{Passed: rep.Passed}
	for _, cr := range rep.Commands {
		cmd := report.Command{Command: cr.Command(), Passed: cr.Passed, Duration: time.Duration(cr.DurationMS) * time.Millisecond, TimedOut: cr.TimedOut}
		for _, f := range cr.Failures {
			cmd.Failures = append(cmd.Failures, f.ID())
		}
		c.Commands = append(c.Commands, cmd)
	}
	for _, f := range rep.Flaky {
		c.Flaky = append(c.Flaky, f.ID())
	}
	if !rep.Passed {
		c.Summary = rep.Summary(8000)
	}
	for _, f := range rep.Flaky {
		c.Summary += fmt.Sprintf("\nflaky (failed, then passed on a re-run): %s\n%s\n", f.Title(), lastBytes(strings.TrimSpace(f.Output), 2000))
	}
	return c
}

// lastBytes is the end of s, at most n bytes of it.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "… " + strings.ToValidUTF8(s[len(s)-n:], "")
}
