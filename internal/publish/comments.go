package publish

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
)

// Comment posts a new comment on issue or PR number.
func (p *Publisher) Comment(ctx context.Context, number int, body string) (int64, error) {
	c, _, err := p.GH.Issues.CreateComment(ctx, p.Owner, p.Repo, number, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return 0, fmt.Errorf("comment on #%d: %w", number, err)
	}
	return c.GetID(), nil
}

// StatusComment keeps the one comment on issue or PR number that carries
// marker: it edits it in place when it exists (found by the marker, since
// the Actions token cannot ask who it is) and creates it otherwise. The
// returned id lets later stages edit it without searching again.
func (p *Publisher) StatusComment(ctx context.Context, number int, id int64, marker, body string) (int64, error) {
	if id == 0 {
		found, _, err := p.FindComment(ctx, number, marker)
		if err != nil {
			return 0, err
		}
		id = found
	}
	if id != 0 {
		if _, _, err := p.GH.Issues.EditComment(ctx, p.Owner, p.Repo, id, &github.IssueComment{Body: github.String(body)}); err != nil {
			return 0, fmt.Errorf("edit status comment %d on #%d: %w", id, number, err)
		}
		return id, nil
	}
	return p.Comment(ctx, number, body)
}

// FindComment returns the id and text of the first comment on number
// containing marker, or 0 and "".
func (p *Publisher) FindComment(ctx context.Context, number int, marker string) (int64, string, error) {
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := p.GH.Issues.ListComments(ctx, p.Owner, p.Repo, number, opts)
		if err != nil {
			return 0, "", fmt.Errorf("list comments of #%d: %w", number, err)
		}
		for _, c := range cs {
			if strings.Contains(c.GetBody(), marker) {
				return c.GetID(), c.GetBody(), nil
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return 0, "", nil
		}
		opts.Page = resp.NextPage
	}
}

// TrackingIssue opens the one issue carrying marker, or updates its title
// and body when it exists: the open one, else the most recent closed one,
// which is reopened (the checks broke again; its history stays in one
// place). The issues list includes pull requests; those are skipped.
func (p *Publisher) TrackingIssue(ctx context.Context, marker, title, body string, labels []string) (*Outcome, error) {
	found, err := p.findTracking(ctx, marker)
	if err != nil {
		return nil, err
	}
	if found != nil {
		req := &github.IssueRequest{Title: github.String(title), Body: github.String(body)}
		verb := "updated"
		if found.GetState() == "closed" {
			req.State, verb = github.String("open"), "reopened"
		}
		i, _, err := p.GH.Issues.Edit(ctx, p.Owner, p.Repo, found.GetNumber(), req)
		if err != nil {
			return nil, fmt.Errorf("update tracking issue #%d: %w", found.GetNumber(), err)
		}
		p.logf("%s tracking issue #%d", verb, i.GetNumber())
		return &Outcome{Number: i.GetNumber(), URL: i.GetHTMLURL()}, nil
	}
	req := &github.IssueRequest{Title: github.String(title), Body: github.String(body)}
	if len(labels) > 0 {
		req.Labels = &labels
	}
	i, _, err := p.GH.Issues.Create(ctx, p.Owner, p.Repo, req)
	if err != nil {
		return nil, fmt.Errorf("open tracking issue %q: %w", title, err)
	}
	p.logf("opened tracking issue #%d", i.GetNumber())
	return &Outcome{Number: i.GetNumber(), URL: i.GetHTMLURL(), Created: true}, nil
}

// CloseTrackingIssue closes the open issue carrying marker, if there is
// one, with comment; nil when there was none.
func (p *Publisher) CloseTrackingIssue(ctx context.Context, marker, comment string) (*Outcome, error) {
	found, err := p.findTracking(ctx, marker)
	if err != nil || found == nil || found.GetState() != "open" {
		return nil, err
	}
	n := found.GetNumber()
	if _, err := p.Comment(ctx, n, comment); err != nil {
		return nil, err
	}
	if _, _, err := p.GH.Issues.Edit(ctx, p.Owner, p.Repo, n, &github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")}); err != nil {
		return nil, fmt.Errorf("close tracking issue #%d: %w", n, err)
	}
	p.logf("closed tracking issue #%d", n)
	return &Outcome{Number: n, URL: found.GetHTMLURL()}, nil
}

// findTracking is the issue carrying marker: the open one, else the most
// recently opened closed one, else nil.
func (p *Publisher) findTracking(ctx context.Context, marker string) (*github.Issue, error) {
	opts := &github.IssueListByRepoOptions{State: "all", ListOptions: github.ListOptions{PerPage: 100}}
	var closed *github.Issue
	for {
		is, resp, err := p.GH.Issues.ListByRepo(ctx, p.Owner, p.Repo, opts)
		if err != nil {
			return nil, fmt.Errorf("list issues of %s/%s: %w", p.Owner, p.Repo, err)
		}
		for _, i := range is {
			if i.IsPullRequest() || !strings.Contains(i.GetBody(), marker) {
				continue
			}
			if i.GetState() == "open" {
				return i, nil
			}
			if closed == nil || i.GetNumber() > closed.GetNumber() {
				closed = i
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return closed, nil
		}
		opts.Page = resp.NextPage
	}
}

// IssueComment is one comment of an issue, as a task reads it.
type IssueComment struct {
	ID     int64
	Author string
	Body   string
	// Marker is true for agentfix's own comments.
	Marker bool
}

// IssueComments returns the comments of issue number, oldest first.
func (p *Publisher) IssueComments(ctx context.Context, number int) ([]IssueComment, error) {
	var out []IssueComment
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := p.GH.Issues.ListComments(ctx, p.Owner, p.Repo, number, opts)
		if err != nil {
			return nil, fmt.Errorf("list comments of #%d: %w", number, err)
		}
		for _, c := range cs {
			out = append(out, IssueComment{ID: c.GetID(), Author: c.GetUser().GetLogin(), Body: c.GetBody(), Marker: strings.Contains(c.GetBody(), "<!-- agentfix")})
		}
		if resp == nil || resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}
