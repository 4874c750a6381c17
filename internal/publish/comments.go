package publish

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/event"
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
// marker and was written by agentfix (p.Self): it edits it in place when
// it exists and creates it otherwise. Anyone can paste the marker into a
// comment: those written by others are left alone, and their authors
// returned as foreign. The returned id lets later stages edit the comment
// without searching again.
func (p *Publisher) StatusComment(ctx context.Context, number int, id int64, marker, body string) (_ int64, foreign []string, _ error) {
	if id == 0 {
		found, _, others, err := p.FindComment(ctx, number, marker)
		if err != nil {
			return 0, nil, err
		}
		id, foreign = found, others
		for _, who := range others {
			p.logf("a comment on #%d by %s carries agentfix's status marker but was not written by %s; left alone", number, who, p.self())
		}
	}
	if id != 0 {
		if _, _, err := p.GH.Issues.EditComment(ctx, p.Owner, p.Repo, id, &github.IssueComment{Body: github.String(body)}); err != nil {
			return 0, foreign, fmt.Errorf("edit status comment %d on #%d: %w", id, number, err)
		}
		return id, foreign, nil
	}
	id, err := p.Comment(ctx, number, body)
	return id, foreign, err
}

// FindComment returns the id and text of agentfix's first comment on
// number containing marker (0 and "" when there is none), and the authors
// of others' comments containing it, which are never agentfix's.
func (p *Publisher) FindComment(ctx context.Context, number int, marker string) (int64, string, []string, error) {
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var foreign []string
	for {
		cs, resp, err := p.GH.Issues.ListComments(ctx, p.Owner, p.Repo, number, opts)
		if err != nil {
			return 0, "", nil, fmt.Errorf("list comments of #%d: %w", number, err)
		}
		for _, c := range cs {
			switch {
			case !strings.Contains(c.GetBody(), marker):
			case p.mine(c.GetUser()):
				return c.GetID(), c.GetBody(), foreign, nil
			default:
				foreign = append(foreign, c.GetUser().GetLogin())
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return 0, "", foreign, nil
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
			if !p.mine(i.GetUser()) {
				p.logf("issue #%d by %s carries agentfix's tracking marker but was not opened by %s; left alone", i.GetNumber(), i.GetUser().GetLogin(), p.self())
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
	// Created and Updated are when it was written and last edited.
	Created, Updated time.Time
	// Mine is true for agentfix's own comments: its marker, by its login.
	Mine bool
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
			out = append(out, IssueComment{
				ID: c.GetID(), Author: c.GetUser().GetLogin(), Body: c.GetBody(),
				Created: c.GetCreatedAt().Time, Updated: c.GetUpdatedAt().Time,
				Mine: event.HasMarker(c.GetBody()) && p.mine(c.GetUser()),
			})
		}
		if resp == nil || resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}
