package action

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/trust"
	"github.com/agentfix/agentfix/internal/untrusted"
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
	task, hidden := requestTask(request{number: a.job.Number, title: a.job.Title, original: prDescription(a.job.Body), base: pr.BaseRef, diff: diff,
		asker: a.job.Actor.Login, comment: a.job.Comment, instructions: a.job.Task})
	a.noteRequest(hidden)
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
	// From the default branch through the API, whatever the checkout
	// holds: a PR's head (a fork's, even) must not steer the model.
	job.Instructions = func(ctx context.Context) ([]instructions.File, error) {
		return instructions.Read(ctx, &instructions.GitHub{Repos: a.gh.Repositories, Owner: a.job.Owner, Repo: a.job.Repo, Branch: a.base})
	}
	// Where origin points is read now, before any code of the job runs.
	if err := a.pub.Prepare(ctx); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	d.start(ctx)
	out, err := pipeline.Run(ctx, job, a.opts.Deps)
	if out != nil && out.Session != "" {
		a.logf("session record %s", out.Session)
	}
	a.restore(ctx, out)
	return err
}

// restore puts the checkout back as the run found it, once the fix is
// published (from its own commit, not the work tree): the workflow's later
// steps see the commit they checked out, not a tree that is neither the
// base nor the fix.
func (a *run) restore(ctx context.Context, out *pipeline.Outcome) {
	if out == nil || out.Repo == nil || out.Checkpoint == nil {
		return
	}
	var extra []string
	if out.Loop != nil {
		extra = out.Loop.Files
	}
	if err := out.Repo.Restore(context.WithoutCancel(ctx), out.Checkpoint, extra...); err != nil {
		a.logf("workspace: the checkout could not be restored: %v", err)
	}
}

// issueTask is what the model reads of the issue, all of it words anyone
// may have written: the title and body as the trigger saw them; the
// comments written and last edited before the trigger by people with
// write permission (or listed in task.comment_authors), not agentfix's
// own; and the command's instructions. Each is cleaned of what a reader
// on GitHub does not see, and the whole is capped at task.max_bytes. What
// was left out is noted in the status comment, so that an attempt to
// steer the model is seen, not silent.
func (a *run) issueTask(ctx context.Context) (agent.Task, error) {
	j := a.job
	at := j.At
	if at.IsZero() {
		at = a.start
	}
	hidden := 0
	clean := func(s string) string {
		c := untrusted.Clean(s)
		hidden += c.Hidden
		return strings.TrimSpace(c.Text)
	}
	title := untrusted.Line(clean(j.Title))
	var b strings.Builder
	b.WriteString(clean(j.Body))
	comments, err := a.pub.IssueComments(ctx, j.Number)
	if err != nil {
		return agent.Task{}, err
	}
	writers := trust.NewWriters(a.gh.Repositories, j.Owner, j.Repo)
	var strangers []string
	late := 0
	for _, c := range comments {
		if c.Mine || (j.Comment != nil && c.ID == j.Comment.ID) {
			continue
		}
		if c.Created.After(at) || c.Updated.After(at) {
			late++
			continue
		}
		ok := slices.ContainsFunc(a.cfg.Task.CommentAuthors, func(l string) bool { return strings.EqualFold(l, c.Author) })
		if !ok {
			if ok, err = writers.CanWrite(ctx, c.Author); err != nil {
				return agent.Task{}, fmt.Errorf("comments: %w", err)
			}
		}
		if !ok {
			strangers = append(strangers, c.Author)
			continue
		}
		fmt.Fprintf(&b, "\n\n---\nComment by @%s:\n%s", c.Author, clean(c.Body))
	}
	if j.Task != "" {
		fmt.Fprintf(&b, "\n\n---\nInstructions from @%s:\n%s", j.Actor.Login, clean(j.Task))
	}
	body, cut := capText(b.String(), a.cfg.Task.MaxBytes-len(title))
	a.noteTask(hidden, strangers, late, cut)
	return agent.Task{Title: title, Body: body}, nil
}

// noteTask tells the maintainer, in the status comment and the step
// summary, what of the issue the model did not read.
func (a *run) noteTask(hidden int, strangers []string, late, cut int) {
	var notes []string
	if hidden > 0 {
		notes = append(notes, fmt.Sprintf("%d hidden passage(s) in the issue and its comments were ignored (%s): the model did not see them.", hidden, untrusted.HiddenKinds))
	}
	if len(strangers) > 0 {
		slices.Sort(strangers)
		names := slices.Compact(strangers)
		for i, n := range names {
			names[i] = untrusted.Code(n)
		}
		notes = append(notes, fmt.Sprintf("%d comment(s) by people without write permission were not shown to the model (%s); list an author in `task.comment_authors` to include theirs.", len(strangers), strings.Join(names, ", ")))
	}
	if late > 0 {
		notes = append(notes, fmt.Sprintf("%d comment(s) written or edited after the run was triggered were not shown to the model.", late))
	}
	if cut > 0 {
		notes = append(notes, fmt.Sprintf("The issue's text was cut to `task.max_bytes` (%d bytes); the model did not read its last %d bytes.", a.cfg.Task.MaxBytes, cut))
	}
	for _, n := range notes {
		a.logf("task: %s", n)
	}
	a.rep.Notes = append(a.rep.Notes, notes...)
}

// capText cuts s to at most n bytes, at a line break when there is one
// in its second half and never inside a rune, and says so at the end in
// words the model reads. It returns how many bytes were left out.
func capText(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	const note = "\n\n[The rest of the issue was cut here: it is longer than agentfix reads.]"
	keep := max(0, n-len(note))
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	head := s[:keep]
	if i := strings.LastIndexByte(head, '\n'); i > keep/2 {
		head = head[:i]
	}
	return strings.TrimSpace(head) + note, len(s) - len(head)
}
