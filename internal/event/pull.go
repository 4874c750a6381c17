package event

import (
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
)

// SetPullRequest fills j.PR from the pull request the caller fetched (the
// issue_comment payload only has its URL), including whether it comes from
// a fork. It also fills Title and Body when the payload had none
// (workflow_dispatch).
func (j *Job) SetPullRequest(pr *github.PullRequest) {
	if j.PR == nil {
		j.PR = &PullRequest{Number: pr.GetNumber()}
	}
	p := j.PR
	p.Resolved = true
	p.HeadRepo = pr.GetHead().GetRepo().GetFullName()
	p.HeadRef = pr.GetHead().GetRef()
	p.HeadSHA = pr.GetHead().GetSHA()
	p.BaseRepo = pr.GetBase().GetRepo().GetFullName()
	p.BaseRef = pr.GetBase().GetRef()
	p.State = pr.GetState()
	p.Author = pr.GetUser().GetLogin()
	p.HTMLURL = pr.GetHTMLURL()
	if p.BaseRepo == "" {
		p.BaseRepo = j.FullName()
	}
	// Head and base in different repositories is what makes a fork PR;
	// head.repo.fork alone is not (a fork's own branches have it too). A
	// deleted fork has no head repository at all.
	p.Fork = p.HeadRepo == "" || !strings.EqualFold(p.HeadRepo, p.BaseRepo)
	j.IsPR = true
	if j.Title == "" {
		j.Title = pr.GetTitle()
	}
	if j.Body == "" {
		j.Body = pr.GetBody()
	}
}

// Own reports whether the pull request is agentfix's: its head branch
// lives in the base repository and its name starts with prefix
// (pr.branch_prefix). Only such a PR is revised.
func (p *PullRequest) Own(prefix string) bool {
	return p != nil && p.Resolved && !p.Fork && prefix != "" && strings.HasPrefix(p.HeadRef, prefix)
}

// Settle decides what a job on a pull request asks once the pull request
// is known (SetPullRequest): `/agent fix` on agentfix's own PR revises it;
// a review of any other PR is ignored, and so is a revision of a closed
// PR. Jobs on an unresolved PR are left as they are.
func (j *Job) Settle(prefix string) {
	p := j.PR
	if p == nil || !p.Resolved {
		return
	}
	if j.Kind == KindFixPR && p.Own(prefix) {
		j.Kind = KindRevisePR
	}
	if j.Kind != KindRevisePR {
		return
	}
	switch {
	case !p.Own(prefix):
		head := p.HeadRepo + ":" + p.HeadRef
		if p.HeadRepo == "" {
			head = "a deleted repository"
		}
		ignore(j, fmt.Sprintf("reviews are answered only on agentfix's own pull requests (head branch %s… in %s); #%d's head is %s", prefix, j.FullName(), j.Number, head))
	case p.State != "" && p.State != "open":
		ignore(j, fmt.Sprintf("pull request #%d is %s; agentfix revises only open pull requests", j.Number, p.State))
	}
}
