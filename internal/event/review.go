package event

import (
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
)

// setPullRequest fills the job from a payload's full pull request (review
// payloads carry it, unlike issue_comment).
func setPullRequest(j *Job, pr *github.PullRequest) error {
	if pr == nil || pr.GetNumber() <= 0 {
		return fmt.Errorf("payload has no pull request number")
	}
	j.Number = pr.GetNumber()
	j.PR = &PullRequest{Number: j.Number, APIURL: pr.GetURL()}
	j.SetPullRequest(pr)
	return nil
}

// parseReview reads a pull_request_review event. A submitted review that
// requests changes, or comments, asks for a revision; Settle then ignores
// it unless the PR is agentfix's own. A comment-only review with neither
// body nor inline comments asks nothing, but the payload does not carry
// the inline comments: the action asks the API and ignores it then.
func parseReview(j *Job, payload []byte) error {
	var ev github.PullRequestReviewEvent
	if err := unmarshal(payload, &ev); err != nil {
		return err
	}
	j.Action = ev.GetAction()
	j.Trigger = TriggerReview
	if err := setPullRequest(j, ev.PullRequest); err != nil {
		return err
	}
	r := ev.GetReview()
	j.Review = &Review{ID: r.GetID(), State: strings.ToLower(r.GetState()), Body: r.GetBody(), HTMLURL: r.GetHTMLURL(), CommitID: r.GetCommitID()}
	j.At = r.GetSubmittedAt().Time
	j.Actor = actor(r.GetUser())
	if j.Actor.Login == "" {
		j.Actor = actor(ev.Sender)
	}
	switch {
	case j.Action != "submitted":
		ignore(j, fmt.Sprintf("pull_request_review/%s does not trigger agentfix (only submitted)", j.Action))
	case HasMarker(j.Review.Body):
		ignore(j, "the review was written by agentfix (it carries the hidden marker)")
	case j.Review.State == ReviewChangesRequested || j.Review.State == ReviewCommented:
		j.Kind = KindRevisePR
		j.Task = strings.TrimSpace(j.Review.Body)
	default:
		ignore(j, fmt.Sprintf("a review in state %q asks for no change", j.Review.State))
	}
	return nil
}

// parseReviewComment reads a pull_request_review_comment event: an inline
// comment counts only when it holds a command, like an issue comment.
func parseReviewComment(j *Job, payload []byte, t config.Triggers) error {
	var ev github.PullRequestReviewCommentEvent
	if err := unmarshal(payload, &ev); err != nil {
		return err
	}
	j.Action = ev.GetAction()
	j.Trigger = TriggerReviewComment
	if err := setPullRequest(j, ev.PullRequest); err != nil {
		return err
	}
	c := ev.GetComment()
	line := c.GetLine()
	if line == 0 {
		line = c.GetOriginalLine()
	}
	j.Comment = &Comment{ID: c.GetID(), Body: c.GetBody(), HTMLURL: c.GetHTMLURL(), Inline: true,
		Path: c.GetPath(), Line: line, DiffHunk: c.GetDiffHunk(), ReviewID: c.GetPullRequestReviewID()}
	j.At = c.GetCreatedAt().Time
	cmd := commentCommand(j, c.GetUser(), ev.Sender, t)
	if cmd == nil {
		return nil
	}
	switch cmd.Verb {
	case VerbHelp:
		j.Kind = KindHelp
	case VerbCheck:
		j.Kind = KindCheckPR
	default:
		j.Kind = KindFixPR
	}
	return nil
}
