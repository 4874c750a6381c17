package action

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/workspace"
)

// deliverRevision publishes a revision: a proven one as one commit on the
// PR's branch, then the PR's evidence, one reply naming the commit, a
// threaded reply on each inline comment it addressed and the review asked
// for again; anything else as one reply saying why nothing was pushed.
func (g *gitHub) deliverRevision(ctx context.Context, o *pipeline.Outcome) error {
	a := g.a
	switch {
	case o.Err != nil:
		a.rep.Result, a.rep.Reason = report.NotFixed, o.Err.Error()
	case o.Result == pipeline.Refused:
		a.rep.Result, a.rep.Reason = report.Refused, o.Reason
	case o.Result == pipeline.Fixed:
		a.rep.Result = report.Fixed
		if err := g.pushRevision(ctx, o); err != nil {
			return err
		}
	default:
		a.rep.Result = report.NotFixed
	}
	if a.dryRun {
		a.rep.Notes = append(a.rep.Notes, "Dry run: nothing was pushed and no reply was posted.")
		return nil
	}
	return a.answer(ctx, g.revise)
}

// pushRevision pushes the proven revision. When a person pushed to the
// branch while agentfix worked, it builds on their head instead, if the
// revision still applies there and the checks still pass with it; their
// commits are kept either way, since nothing is ever forced.
func (g *gitHub) pushRevision(ctx context.Context, o *pipeline.Outcome) error {
	a, v := g.a, g.a.rep.Revision
	if a.dryRun {
		return nil
	}
	j := a.job
	change := publish.RevisionChange{
		Branch: j.PR.HeadRef, Start: g.revise.start, Diff: o.Diff(), N: v.N, Request: g.revise.request, Protected: []string{a.base},
		Message: pipeline.CommitMessage(o, pipeline.CommitInfo{RunURL: a.rep.RunURL, Subject: fmt.Sprintf("revise #%d for the %s by @%s", j.Number, v.Request, v.Requester)}),
	}
	commit, err := a.pub.Revise(ctx, change)
	var moved *publish.BranchMovedError
	if errors.As(err, &moved) && moved.To != "" {
		a.logf("revise: %v; building on it", moved)
		if err = g.rebase(ctx, o, moved.To); err == nil {
			change.Start = moved.To
			commit, err = a.pub.Revise(ctx, change)
		}
	}
	var rejected *workspace.PushRejectedError
	var stale *staleError
	switch {
	case err == nil:
		v.Commit = commit
		return nil
	case errors.As(err, &moved), errors.As(err, &rejected), errors.As(err, &stale):
		a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
		o.Result, o.Reason = pipeline.NotFixed, err.Error()
		return nil
	}
	a.rep.Result, a.rep.Reason = report.NotFixed, err.Error()
	return fmt.Errorf("publish: %w", err)
}

// staleError says a revision cannot go on top of what a person pushed
// while agentfix worked.
type staleError struct {
	tip, why string
}

func (e *staleError) Error() string {
	return fmt.Sprintf("someone pushed %.12s to the branch while agentfix worked, and %s; push again or comment the request again to revise on top of it", e.tip, e.why)
}

// rebase moves the proven revision onto tip, a head a person pushed while
// agentfix worked, and proves it again there with the full verify
// commands.
func (g *gitHub) rebase(ctx context.Context, o *pipeline.Outcome, tip string) error {
	a := g.a
	if err := o.Repo.Restore(ctx, o.Checkpoint, o.Loop.Files...); err != nil {
		return err
	}
	if _, err := workspace.FetchHistory(ctx, a.pub.Remote, a.job.PR.HeadRef); err != nil {
		return err
	}
	if err := a.pub.Checkout(ctx, tip); err != nil {
		return err
	}
	if err := o.Repo.ApplyDiff(ctx, o.Diff()); err != nil {
		return &staleError{tip: tip, why: "the revision does not apply on top of it: " + err.Error()}
	}
	d := a.opts.Deps
	rep, err := agent.CheckBefore(ctx, agent.Before{Repo: o.Repo.Root, Config: o.Job.Config, Log: d.Log, Environ: d.Environ, Actions: d.Getenv != nil && d.Getenv("GITHUB_ACTIONS") == "true"})
	if err != nil {
		return err
	}
	a.rep.After = checkOf(rep)
	if !rep.Passed {
		return &staleError{tip: tip, why: "with the revision on top of it the verify commands fail"}
	}
	return nil
}

// answer posts the reply on the PR. After a push it also updates the PR's
// evidence, replies in the thread of each inline comment the revision
// changed the file of, and asks the requester to review again. Every step
// is tried; their errors are returned together.
func (a *run) answer(ctx context.Context, rev *revision) error {
	v := a.rep.Revision
	if a.dryRun {
		return nil
	}
	var errs []error
	if v.Commit != "" {
		var threads []report.Thread
		for _, c := range rev.threads {
			threads = append(threads, report.Thread{ID: c.ID, Path: c.Path, Line: c.Line, URL: c.URL})
		}
		if c := a.job.Comment; c != nil && c.Inline {
			threads = append(threads, report.Thread{ID: c.ID, Path: c.Path, Line: c.Line, URL: c.HTMLURL})
		}
		for _, t := range threads {
			if slices.Contains(a.rep.Files, t.Path) {
				v.Answered = append(v.Answered, t)
			} else {
				v.Unanswered = append(v.Unanswered, t)
			}
		}
		errs = append(errs, a.pub.EditPRBody(ctx, a.job.Number, report.PRBody(a.rep)))
	}
	_, err := a.pub.Comment(ctx, a.job.Number, report.RevisionReply(a.rep))
	errs = append(errs, err)
	if v.Commit == "" {
		return wrapPublish(errors.Join(errs...))
	}
	for _, t := range v.Answered {
		errs = append(errs, a.pub.ReplyInThread(ctx, a.job.Number, t.ID, report.ThreadReply(a.rep, t)))
	}
	errs = append(errs, a.pub.RequestReview(ctx, a.job.Number, v.Requester))
	return wrapPublish(errors.Join(errs...))
}

func wrapPublish(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("publish: %w", err)
}
