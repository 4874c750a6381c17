package publish

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"
)

// ReviewComment is one inline comment of a pull request review, as a
// revision reads it.
type ReviewComment struct {
	ID       int64
	Author   string
	Body     string
	Path     string
	Line     int
	DiffHunk string
	URL      string
}

// ReviewComments returns the inline comments of review reviewID on pull
// request number, oldest first.
//
// GitHub docs: REST "List comments for a pull request review".
func (p *Publisher) ReviewComments(ctx context.Context, number int, reviewID int64) ([]ReviewComment, error) {
	var out []ReviewComment
	opts := &github.ListOptions{PerPage: 100}
	for {
		cs, resp, err := p.GH.PullRequests.ListReviewComments(ctx, p.Owner, p.Repo, number, reviewID, opts)
		if err != nil {
			return nil, fmt.Errorf("list the comments of review %d on #%d: %w", reviewID, number, err)
		}
		for _, c := range cs {
			line := c.GetLine()
			if line == 0 {
				line = c.GetOriginalLine()
			}
			out = append(out, ReviewComment{ID: c.GetID(), Author: c.GetUser().GetLogin(), Body: c.GetBody(), Path: c.GetPath(), Line: line, DiffHunk: c.GetDiffHunk(), URL: c.GetHTMLURL()})
		}
		if resp == nil || resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// ReplyInThread answers inline comment commentID of pull request number
// in its thread.
//
// GitHub docs: REST "Create a reply for a review comment"
// (POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies).
func (p *Publisher) ReplyInThread(ctx context.Context, number int, commentID int64, body string) error {
	req, err := p.GH.NewRequest("POST", fmt.Sprintf("repos/%s/%s/pulls/%d/comments/%d/replies", p.Owner, p.Repo, number, commentID), map[string]string{"body": body})
	if err != nil {
		return err
	}
	if _, err := p.GH.Do(ctx, req, nil); err != nil {
		return fmt.Errorf("reply to review comment %d on #%d: %w", commentID, number, err)
	}
	return nil
}

// RequestReview asks login to review pull request number again.
//
// GitHub docs: REST "Request reviewers for a pull request".
func (p *Publisher) RequestReview(ctx context.Context, number int, login string) error {
	if _, _, err := p.GH.PullRequests.RequestReviewers(ctx, p.Owner, p.Repo, number, github.ReviewersRequest{Reviewers: []string{login}}); err != nil {
		return fmt.Errorf("request a review of #%d from @%s: %w", number, login, err)
	}
	return nil
}

// EditPRBody replaces pull request number's description.
func (p *Publisher) EditPRBody(ctx context.Context, number int, body string) error {
	if _, _, err := p.GH.PullRequests.Edit(ctx, p.Owner, p.Repo, number, &github.PullRequest{Body: github.String(body)}); err != nil {
		return fmt.Errorf("update the description of #%d: %w", number, err)
	}
	p.logf("updated pull request #%d", number)
	return nil
}
