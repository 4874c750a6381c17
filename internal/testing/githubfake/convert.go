package githubfake

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// The fake answers with go-github's own types, so the JSON has the field
// names the client reads.

func ghUser(login string) *github.User {
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return &github.User{Login: github.String(login), Type: github.String(typ), ID: github.Int64(userID(login))}
}

// userID is a stable id for login.
func userID(login string) int64 {
	var h int64 = 7
	for _, c := range strings.ToLower(login) {
		h = h*31 + int64(c)
	}
	if h < 0 {
		h = -h
	}
	return h%1_000_000 + 1
}

func ts(t time.Time) *github.Timestamp { return &github.Timestamp{Time: t} }

func (s *Server) ghRepo(r *repo) *github.Repository {
	return &github.Repository{
		ID:            github.Int64(userID(r.fullName())),
		Name:          github.String(r.name),
		FullName:      github.String(r.fullName()),
		Owner:         ghUser(r.owner),
		DefaultBranch: github.String(r.defaultBranch),
		Private:       github.Bool(r.private),
		HTMLURL:       github.String(s.URL() + "/" + r.fullName()),
		URL:           github.String(s.APIURL() + "/repos/" + r.fullName()),
		CloneURL:      github.String(s.URL() + "/" + r.fullName() + ".git"),
	}
}

func (s *Server) ghLabels(names []string) []*github.Label {
	out := []*github.Label{}
	for _, n := range names {
		out = append(out, &github.Label{Name: github.String(n), Color: github.String("ededed")})
	}
	return out
}

func (s *Server) ghIssue(r *repo, is *Issue) *github.Issue {
	kind := "issues"
	if is.PR != nil {
		kind = "pull"
	}
	n := 0
	for _, c := range r.comments {
		if c.Issue == is.Number {
			n++
		}
	}
	g := &github.Issue{
		ID:            github.Int64(userID(r.fullName())*100000 + int64(is.Number)),
		Number:        github.Int(is.Number),
		Title:         github.String(is.Title),
		Body:          github.String(is.Body),
		State:         github.String(is.State),
		User:          ghUser(is.User),
		Labels:        s.ghLabels(is.Labels),
		Comments:      github.Int(n),
		CreatedAt:     ts(is.CreatedAt),
		UpdatedAt:     ts(is.UpdatedAt),
		HTMLURL:       github.String(fmt.Sprintf("%s/%s/%s/%d", s.URL(), r.fullName(), kind, is.Number)),
		URL:           github.String(fmt.Sprintf("%s/repos/%s/issues/%d", s.APIURL(), r.fullName(), is.Number)),
		RepositoryURL: github.String(s.APIURL() + "/repos/" + r.fullName()),
	}
	if is.PR != nil {
		g.PullRequestLinks = &github.PullRequestLinks{
			URL:     github.String(fmt.Sprintf("%s/repos/%s/pulls/%d", s.APIURL(), r.fullName(), is.Number)),
			HTMLURL: g.HTMLURL,
		}
	}
	return g
}

func (s *Server) ghPR(r *repo, is *Issue) *github.PullRequest {
	pr := is.PR
	headOwner, _, _ := strings.Cut(pr.HeadRepo, "/")
	var headRepo *github.Repository
	if hr := s.repos[key(pr.HeadRepo)]; hr != nil {
		headRepo = s.ghRepo(hr)
	} else if pr.HeadRepo != "" {
		o, n, _ := strings.Cut(pr.HeadRepo, "/")
		headRepo = &github.Repository{Name: github.String(n), FullName: github.String(pr.HeadRepo), Owner: ghUser(o), Fork: github.Bool(true)}
	}
	if headRepo != nil && !strings.EqualFold(pr.HeadRepo, r.fullName()) {
		headRepo.Fork = github.Bool(true)
	}
	headSHA := pr.HeadSHA
	if sha, ok := s.branchSHA(s.repos[key(pr.HeadRepo)], pr.Head); ok {
		headSHA = sha
	}
	baseSHA, _ := s.branchSHA(r, pr.Base)
	g := &github.PullRequest{
		ID:                  github.Int64(userID(r.fullName())*100000 + int64(is.Number)),
		Number:              github.Int(is.Number),
		Title:               github.String(is.Title),
		Body:                github.String(is.Body),
		State:               github.String(is.State),
		Draft:               github.Bool(pr.Draft),
		Merged:              github.Bool(pr.Merged),
		MaintainerCanModify: github.Bool(pr.MaintainerCanModify),
		User:                ghUser(is.User),
		Labels:              s.ghLabels(is.Labels),
		CreatedAt:           ts(is.CreatedAt),
		UpdatedAt:           ts(is.UpdatedAt),
		HTMLURL:             github.String(fmt.Sprintf("%s/%s/pull/%d", s.URL(), r.fullName(), is.Number)),
		URL:                 github.String(fmt.Sprintf("%s/repos/%s/pulls/%d", s.APIURL(), r.fullName(), is.Number)),
		IssueURL:            github.String(fmt.Sprintf("%s/repos/%s/issues/%d", s.APIURL(), r.fullName(), is.Number)),
		Head: &github.PullRequestBranch{
			Label: github.String(headOwner + ":" + pr.Head),
			Ref:   github.String(pr.Head),
			SHA:   github.String(headSHA),
			Repo:  headRepo,
			User:  ghUser(headOwner),
		},
		Base: &github.PullRequestBranch{
			Label: github.String(r.owner + ":" + pr.Base),
			Ref:   github.String(pr.Base),
			SHA:   github.String(baseSHA),
			Repo:  s.ghRepo(r),
			User:  ghUser(r.owner),
		},
		RequestedReviewers: s.ghUsers(pr.RequestedReviewers),
	}
	return g
}

func (s *Server) ghComment(r *repo, c *Comment) *github.IssueComment {
	return &github.IssueComment{
		ID:        github.Int64(c.ID),
		Body:      github.String(c.Body),
		User:      ghUser(c.User),
		CreatedAt: ts(c.CreatedAt),
		UpdatedAt: ts(c.UpdatedAt),
		HTMLURL:   github.String(fmt.Sprintf("%s/%s/issues/%d#issuecomment-%d", s.URL(), r.fullName(), c.Issue, c.ID)),
		URL:       github.String(fmt.Sprintf("%s/repos/%s/issues/comments/%d", s.APIURL(), r.fullName(), c.ID)),
		IssueURL:  github.String(fmt.Sprintf("%s/repos/%s/issues/%d", s.APIURL(), r.fullName(), c.Issue)),
	}
}

// paginate returns the page of items the request asks for (page,
// per_page: default 30, at most 100) and sets the Link header GitHub sends.
func paginate[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	if per > 100 {
		per = 100
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page <= 0 {
		page = 1
	}
	last := (len(items) + per - 1) / per
	if last == 0 {
		last = 1
	}
	start := (page - 1) * per
	if start > len(items) {
		start = len(items)
	}
	end := min(start+per, len(items))
	link := func(p int, rel string) string {
		u := *r.URL
		u.Scheme, u.Host = "http", r.Host
		u.Path = Prefix + r.URL.Path
		qq := u.Query()
		qq.Set("page", strconv.Itoa(p))
		qq.Set("per_page", strconv.Itoa(per))
		u.RawQuery = qq.Encode()
		return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
	}
	var links []string
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"), link(page-1, "prev"))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	return items[start:end]
}

// escapeRef escapes a ref for a URL the way GitHub prints them.
func escapeRef(ref string) string { return (&url.URL{Path: ref}).EscapedPath() }

func (s *Server) ghUsers(logins []string) []*github.User {
	out := []*github.User{}
	for _, l := range logins {
		out = append(out, ghUser(l))
	}
	return out
}

func (s *Server) ghReview(r *repo, rv *Review) *github.PullRequestReview {
	return &github.PullRequestReview{
		ID:             github.Int64(rv.ID),
		User:           ghUser(rv.User),
		Body:           github.String(rv.Body),
		State:          github.String(rv.State),
		CommitID:       github.String(rv.CommitID),
		SubmittedAt:    ts(rv.SubmittedAt),
		HTMLURL:        github.String(fmt.Sprintf("%s/%s/pull/%d#pullrequestreview-%d", s.URL(), r.fullName(), rv.PR, rv.ID)),
		PullRequestURL: github.String(fmt.Sprintf("%s/repos/%s/pulls/%d", s.APIURL(), r.fullName(), rv.PR)),
	}
}

func (s *Server) ghReviewComment(r *repo, c *ReviewComment) *github.PullRequestComment {
	g := &github.PullRequestComment{
		ID:                  github.Int64(c.ID),
		PullRequestReviewID: github.Int64(c.ReviewID),
		User:                ghUser(c.User),
		Body:                github.String(c.Body),
		Path:                github.String(c.Path),
		Line:                github.Int(c.Line),
		OriginalLine:        github.Int(c.Line),
		Side:                github.String("RIGHT"),
		DiffHunk:            github.String(c.DiffHunk),
		CommitID:            github.String(c.CommitID),
		OriginalCommitID:    github.String(c.CommitID),
		CreatedAt:           ts(c.CreatedAt),
		UpdatedAt:           ts(c.UpdatedAt),
		HTMLURL:             github.String(fmt.Sprintf("%s/%s/pull/%d#discussion_r%d", s.URL(), r.fullName(), c.PR, c.ID)),
		URL:                 github.String(fmt.Sprintf("%s/repos/%s/pulls/comments/%d", s.APIURL(), r.fullName(), c.ID)),
		PullRequestURL:      github.String(fmt.Sprintf("%s/repos/%s/pulls/%d", s.APIURL(), r.fullName(), c.PR)),
	}
	if c.InReplyTo != 0 {
		g.InReplyTo = github.Int64(c.InReplyTo)
	}
	return g
}
