package event

import (
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
