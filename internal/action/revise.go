package action

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/publish"
	"github.com/agentfix/agentfix/internal/report"
	"github.com/agentfix/agentfix/internal/verify"
)

// revision is what a revision of agentfix's own PR carries from the start
// of the job to its delivery.
type revision struct {
	// start is the branch's tip the revision is made on.
	start string
	// request names what the revision answers, in its commit's trailer.
	request string
	// threads are the inline comments of the request.
	threads []publish.ReviewComment
}

// revisePR revises agentfix's own PR in answer to a review, an inline
// `/agent fix` or an `/agent fix` comment: the work starts from the PR's
// head, and a proven revision becomes one new commit on the same branch.
// A request already answered on the branch, or a branch that has had
// limits.max_revisions revisions, pushes nothing.
func (a *run) revisePR(ctx context.Context) error {
	j, pr := a.job, a.job.PR
	a.status.quiet = true
	a.rep.PR = &report.PR{Number: j.Number, URL: pr.HTMLURL, Branch: pr.HeadRef, Base: pr.BaseRef}
	v := &report.Revision{Max: a.cfg.Limits.MaxRevisions, Requester: j.Actor.Login}
	v.Request, v.RequestURL = a.requestName()
	v.Fixes, v.Into = a.branchTask(pr.HeadRef)
	a.rep.Revision = v
	rev := &revision{request: a.requestKey(), threads: a.threads}

	b, err := a.pub.ReadPRBranch(ctx, pr.HeadRef, pr.BaseRef)
	if err != nil {
		return fmt.Errorf("revise: workspace: %w", err)
	}
	if done := b.Answered(rev.request); done != nil {
		// A re-run of the same event: the branch already answers it.
		a.rep.Result = report.NothingToDo
		a.rep.Reason = fmt.Sprintf("revision %d (%.12s) on %s already answers this %s", done.N, done.Commit, pr.HeadRef, v.Request)
		a.logf("revise: %s", a.rep.Reason)
		return nil
	}
	if len(b.Revisions) >= v.Max {
		a.rep.Result = report.Refused
		a.rep.Reason = fmt.Sprintf("#%d has had %d revisions, the most limits.max_revisions allows; a person takes it from here", j.Number, len(b.Revisions))
		a.logf("revise: %s", a.rep.Reason)
		return a.answer(ctx, nil)
	}
	v.N = len(b.Revisions) + 1
	diff, err := a.pub.Diff(ctx, b)
	if err != nil {
		return fmt.Errorf("revise: workspace: %w", err)
	}
	// A person's commits pushed since the review are the head now: the
	// revision builds on them.
	if err := a.pub.Checkout(ctx, b.Tip); err != nil {
		return fmt.Errorf("revise: workspace: %w", err)
	}
	rev.start = b.Tip
	frozen, err := a.keptProof(ctx, b)
	if err != nil {
		return fmt.Errorf("revise: workspace: %w", err)
	}
	v.Kept = frozen
	original, err := a.originalTask(ctx, v)
	if err != nil {
		return fmt.Errorf("revise: %w", err)
	}
	task, hidden := requestTask(request{number: j.Number, title: j.Title, original: original, base: pr.BaseRef, diff: diff,
		asker: j.Actor.Login, review: j.Review, threads: rev.threads, comment: j.Comment, instructions: j.Task})
	a.noteRequest(hidden)
	return a.pipeline(ctx, pipeline.Job{Name: "revise-" + strconv.Itoa(j.Number), Config: a.cfg, Task: task, Revision: true, Frozen: frozen},
		&gitHub{a: a, branch: func(*pipeline.Outcome) string { return pr.HeadRef }, base: pr.BaseRef, revise: rev})
}

// keptProof are the test files of the pull request's first version: its
// proof (a reproducing test, or the tests its fix made pass). A revision
// keeps the proof the PR was opened with rather than writing a new one:
// no patch may change these files, and the suite, which runs them, must
// still pass.
func (a *run) keptProof(ctx context.Context, b *publish.PRBranch) ([]string, error) {
	changed, err := a.pub.FirstChanges(ctx, b)
	if err != nil {
		return nil, err
	}
	globs := a.cfg.Verify.TestPaths
	if len(globs) == 0 {
		globs = verify.TestPaths(a.cfg.Verify.Commands)
	}
	var tests []string
	for _, f := range changed {
		if verify.IsTestFile(globs, f) {
			tests = append(tests, f)
		}
	}
	return tests, nil
}

// readReview reads the inline comments of the review that asks for a
// revision, leaving out agentfix's own. A comment-only review with no body
// and no comments asks for nothing: the job is ignored.
func (a *run) readReview(ctx context.Context) error {
	j := a.job
	cs, err := a.pub.ReviewComments(ctx, j.Number, j.Review.ID)
	if err != nil {
		return err
	}
	for _, c := range cs {
		// A review's comments are its author's, the person trust checked;
		// any other author's text does not reach the model.
		if !event.HasMarker(c.Body) && strings.EqualFold(c.Author, j.Actor.Login) {
			a.threads = append(a.threads, c)
		}
	}
	if j.Review.State == event.ReviewCommented && strings.TrimSpace(j.Review.Body) == "" && len(a.threads) == 0 {
		j.Kind, j.IgnoreReason = event.KindIgnore, "the review has no text and no inline comments: it asks for nothing"
	}
	return nil
}

// requestKey names what the revision answers, for its commit's trailer.
func (a *run) requestKey() string {
	j := a.job
	switch {
	case j.Review != nil:
		return fmt.Sprintf("review-%d", j.Review.ID)
	case j.Comment != nil && j.Comment.Inline:
		return fmt.Sprintf("review-comment-%d", j.Comment.ID)
	case j.Comment != nil:
		return fmt.Sprintf("comment-%d", j.Comment.ID)
	}
	return "dispatch"
}

// requestName says what asked for the revision, and links to it.
func (a *run) requestName() (string, string) {
	j := a.job
	switch {
	case j.Review != nil:
		return "review", j.Review.HTMLURL
	case j.Comment != nil && j.Comment.Inline:
		return "inline comment", j.Comment.HTMLURL
	case j.Comment != nil:
		return "comment", j.Comment.HTMLURL
	}
	return "request", ""
}

// branchTask reads what the PR was opened for from its branch's name:
// <prefix>issue-N fixes issue N, <prefix>pr-N the checks of PR N.
func (a *run) branchTask(branch string) (fixes, into int) {
	rest := strings.TrimPrefix(branch, a.cfg.PR.BranchPrefix)
	if n, ok := strings.CutPrefix(rest, publish.BranchIssue+"-"); ok {
		fixes, _ = strconv.Atoi(n)
	}
	if n, ok := strings.CutPrefix(rest, publish.BranchPR+"-"); ok {
		into, _ = strconv.Atoi(n)
	}
	return fixes, into
}

// originalTask is the task the PR was opened for: the issue it fixes, the
// checks of the PR it merges into, or (a nightly fix) its description,
// which holds the failures.
func (a *run) originalTask(ctx context.Context, v *report.Revision) (string, error) {
	switch {
	case v.Fixes > 0:
		is, _, err := a.gh.Issues.Get(ctx, a.job.Owner, a.job.Repo, v.Fixes)
		if err != nil {
			return "", fmt.Errorf("get issue #%d: %w", v.Fixes, err)
		}
		return fmt.Sprintf("Issue #%d: %s\n\n%s", v.Fixes, strings.TrimSpace(is.GetTitle()), strings.TrimSpace(is.GetBody())), nil
	case v.Into > 0:
		return fmt.Sprintf("Make the failing checks of pull request #%d pass.", v.Into), nil
	}
	return prDescription(a.job.Body), nil
}

// prDescription is a PR's description without the parts a model needs
// least (agentfix's session excerpt and footer), at most 4000 bytes.
func prDescription(body string) string {
	if i := strings.Index(body, "<details>"); i >= 0 {
		body = body[:i]
	}
	body = strings.TrimSpace(body)
	if len(body) > 4000 {
		body = strings.ToValidUTF8(body[:4000], "") + "\n…"
	}
	return body
}
