package githubfake

import (
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// Review is a pull request review as the fake holds it.
type Review struct {
	ID int64
	// PR is the pull request's number.
	PR   int
	User string
	// State is the REST API's, upper case: APPROVED, CHANGES_REQUESTED,
	// COMMENTED, DISMISSED or PENDING (webhook payloads spell it in lower
	// case).
	State       string
	Body        string
	CommitID    string
	SubmittedAt time.Time
}

// ReviewComment is an inline comment on a pull request's diff: one of a
// review's comments, or a reply in the thread of another (InReplyTo, the
// thread's first comment).
type ReviewComment struct {
	ID        int64
	PR        int
	ReviewID  int64
	InReplyTo int64
	User      string
	Body      string
	Path      string
	// Line is the line of the file's new version (side RIGHT) the
	// comment sits on.
	Line      int
	DiffHunk  string
	CommitID  string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Review states.
const (
	ReviewApproved         = "APPROVED"
	ReviewChangesRequested = "CHANGES_REQUESTED"
	ReviewCommented        = "COMMENTED"
	ReviewPending          = "PENDING"
)

// AddReview submits a review of PR number with its inline comments, as
// rv.User would: zero fields get defaults (state COMMENTED, the head
// commit, now; a comment's diff hunk from the git directory). The author
// leaves the PR's requested reviewers, as on GitHub. It returns the
// review's id and its comments' ids.
func (s *Server) AddReview(fullName string, number int, rv Review, comments ...ReviewComment) (int64, []int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(fullName)
	is := r.issues[number]
	if is == nil || is.PR == nil {
		panic(fmt.Sprintf("githubfake: AddReview: %s#%d is not a pull request", fullName, number))
	}
	if rv.State == "" {
		rv.State = ReviewCommented
	}
	stored := s.addReview(r, is, rv.User, rv.State, rv.Body, rv.CommitID)
	if !rv.SubmittedAt.IsZero() {
		stored.SubmittedAt = rv.SubmittedAt
	}
	var ids []int64
	for _, c := range comments {
		c.User = rv.User
		ids = append(ids, s.addReviewComment(r, is, stored, c).ID)
	}
	return stored.ID, ids
}

// addReview stores a submitted review; s.mu held.
func (s *Server) addReview(r *repo, is *Issue, user, state, body, commit string) *Review {
	s.nextID++
	if commit == "" {
		commit, _ = s.branchSHA(s.repos[key(is.PR.HeadRepo)], is.PR.Head)
		if commit == "" {
			commit = is.PR.HeadSHA
		}
	}
	rv := &Review{ID: s.nextID, PR: is.Number, User: user, State: state, Body: body, CommitID: commit, SubmittedAt: s.now().UTC().Truncate(time.Second)}
	r.reviews[rv.ID] = rv
	if state != ReviewPending {
		is.PR.RequestedReviewers = slices.DeleteFunc(is.PR.RequestedReviewers, func(l string) bool { return strings.EqualFold(l, user) })
	}
	return rv
}

// addReviewComment stores c as a comment of review rv; s.mu held.
func (s *Server) addReviewComment(r *repo, is *Issue, rv *Review, c ReviewComment) *ReviewComment {
	s.nextID++
	now := s.now().UTC()
	c.ID, c.PR, c.ReviewID, c.CommitID = s.nextID, is.Number, rv.ID, rv.CommitID
	c.CreatedAt, c.UpdatedAt = now, now
	if c.DiffHunk == "" && c.InReplyTo == 0 {
		c.DiffHunk = s.diffHunk(r, is, c.Path, c.Line)
	}
	r.reviewComment[c.ID] = &c
	return &c
}

// Reviews returns copies of PR number's reviews, oldest first.
func (s *Server) Reviews(fullName string, number int) []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Review
	for _, rv := range s.mustRepo(fullName).reviews {
		if rv.PR == number {
			out = append(out, *rv)
		}
	}
	slices.SortFunc(out, func(a, b Review) int { return int(a.ID - b.ID) })
	return out
}

// ReviewComments returns copies of PR number's inline comments and
// replies, oldest first.
func (s *Server) ReviewComments(fullName string, number int) []ReviewComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return reviewComments(s.mustRepo(fullName), func(c *ReviewComment) bool { return c.PR == number })
}

// RequestedReviewers returns the logins whose review PR number requests.
func (s *Server) RequestedReviewers(fullName string, number int) []string {
	is, ok := s.Issue(fullName, number)
	if !ok || is.PR == nil {
		return nil
	}
	return is.PR.RequestedReviewers
}

func reviewComments(r *repo, keep func(*ReviewComment) bool) []ReviewComment {
	var out []ReviewComment
	for _, c := range r.reviewComment {
		if keep(c) {
			out = append(out, *c)
		}
	}
	slices.SortFunc(out, func(a, b ReviewComment) int { return int(a.ID - b.ID) })
	return out
}

// pullsTree serves the sub-resources of a pull request whose paths
// overlap (pulls/{n}/comments and pulls/comments/{id}):
//
//	GET, POST    pulls/{n}/reviews
//	GET          pulls/{n}/reviews/{id}
//	GET          pulls/{n}/reviews/{id}/comments
//	GET, POST    pulls/{n}/comments              (in_reply_to makes a reply)
//	POST         pulls/{n}/comments/{id}/replies
//	GET          pulls/comments/{id}
//	GET, POST, DELETE pulls/{n}/requested_reviewers
func (s *Server) pullsTree(w http.ResponseWriter, r *http.Request, rp *repo) {
	parts := strings.Split(strings.Trim(r.PathValue("rest"), "/"), "/")
	if len(parts) == 2 && parts[0] == "comments" && r.Method == http.MethodGet {
		id, _ := strconv.ParseInt(parts[1], 10, 64)
		if c := rp.reviewComment[id]; c != nil {
			writeJSON(w, http.StatusOK, s.ghReviewComment(rp, c))
			return
		}
		notFound(w)
		return
	}
	n, err := strconv.Atoi(parts[0])
	is := rp.issues[n]
	if err != nil || is == nil || is.PR == nil || len(parts) < 2 {
		notFound(w)
		return
	}
	var id int64
	if len(parts) > 2 {
		if id, err = strconv.ParseInt(parts[2], 10, 64); err != nil {
			notFound(w)
			return
		}
	}
	switch route := r.Method + " " + parts[1] + "/" + strings.Join(parts[min(3, len(parts)):], "/"); {
	case len(parts) == 2 && route == "GET reviews/":
		s.listReviews(w, r, rp, is)
	case len(parts) == 2 && route == "POST reviews/":
		s.createReview(w, r, rp, is)
	case len(parts) == 3 && route == "GET reviews/":
		if rv := rp.reviews[id]; rv != nil && rv.PR == n {
			writeJSON(w, http.StatusOK, s.ghReview(rp, rv))
			return
		}
		notFound(w)
	case len(parts) == 4 && route == "GET reviews/comments":
		if rv := rp.reviews[id]; rv == nil || rv.PR != n {
			notFound(w)
			return
		}
		s.writeReviewComments(w, r, rp, func(c *ReviewComment) bool { return c.ReviewID == id })
	case len(parts) == 2 && route == "GET comments/":
		s.writeReviewComments(w, r, rp, func(c *ReviewComment) bool { return c.PR == n })
	case len(parts) == 2 && route == "POST comments/":
		s.createReviewComment(w, r, rp, is, 0)
	case len(parts) == 4 && route == "POST comments/replies":
		s.createReviewComment(w, r, rp, is, id)
	case len(parts) == 2 && parts[1] == "requested_reviewers":
		s.requestedReviewers(w, r, rp, is)
	default:
		notFound(w)
	}
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	var list []*Review
	for _, rv := range rp.reviews {
		if rv.PR == is.Number {
			list = append(list, rv)
		}
	}
	slices.SortFunc(list, func(a, b *Review) int { return int(a.ID - b.ID) })
	out := []*github.PullRequestReview{}
	for _, rv := range paginate(w, r, list) {
		out = append(out, s.ghReview(rp, rv))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) writeReviewComments(w http.ResponseWriter, r *http.Request, rp *repo, keep func(*ReviewComment) bool) {
	out := []*github.PullRequestComment{}
	list := reviewComments(rp, keep)
	for i := range paginate(w, r, list) {
		out = append(out, s.ghReviewComment(rp, &list[i]))
	}
	writeJSON(w, http.StatusOK, out)
}

// reviewEvents maps the create-review `event` to the state it leaves.
var reviewEvents = map[string]string{"APPROVE": ReviewApproved, "REQUEST_CHANGES": ReviewChangesRequested, "COMMENT": ReviewCommented, "": ReviewPending}

type reviewInput struct {
	CommitID string `json:"commit_id"`
	Body     string `json:"body"`
	Event    string `json:"event"`
	Comments []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Body string `json:"body"`
	} `json:"comments"`
}

// createReview submits a review by the token's identity. GitHub refuses
// approving or requesting changes on one's own PR, and a request for
// changes or a comment without a body.
func (s *Server) createReview(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	var in reviewInput
	if !decodeBody(w, r, &in) {
		return
	}
	state, ok := reviewEvents[in.Event]
	switch {
	case !ok:
		validationFailed(w, errorDetail{Resource: "PullRequestReview", Field: "event", Code: "invalid"})
		return
	case (state == ReviewChangesRequested || state == ReviewCommented) && strings.TrimSpace(in.Body) == "" && len(in.Comments) == 0:
		validationFailed(w, errorDetail{Resource: "PullRequestReview", Field: "body", Code: "missing_field"})
		return
	case (state == ReviewChangesRequested || state == ReviewApproved) && strings.EqualFold(is.User, s.identity):
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Message: "Unprocessable Entity",
			Errors: []errorDetail{{Code: "custom", Message: "Can not approve or request changes on your own pull request"}}})
		return
	case tooLong(w, "PullRequestReview", in.Body):
		return
	}
	for _, c := range in.Comments {
		if c.Path == "" || c.Line <= 0 {
			validationFailed(w, errorDetail{Resource: "PullRequestReviewComment", Field: "line", Code: "missing_field"})
			return
		}
	}
	rv := s.addReview(rp, is, s.identity, state, in.Body, in.CommitID)
	for _, c := range in.Comments {
		s.addReviewComment(rp, is, rv, ReviewComment{User: s.identity, Body: c.Body, Path: c.Path, Line: c.Line})
	}
	writeJSON(w, http.StatusOK, s.ghReview(rp, rv))
}

// createReviewComment adds an inline comment, or a reply in the thread of
// comment parent (the replies endpoint, or in_reply_to). A reply goes to
// the thread's first comment and sits where it does; GitHub files it
// under a new review of its own.
func (s *Server) createReviewComment(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue, parent int64) {
	var in struct {
		Body      string `json:"body"`
		CommitID  string `json:"commit_id"`
		Path      string `json:"path"`
		Line      int    `json:"line"`
		InReplyTo int64  `json:"in_reply_to"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	if parent == 0 {
		parent = in.InReplyTo
	}
	c := ReviewComment{User: s.identity, Body: in.Body, Path: in.Path, Line: in.Line}
	if parent != 0 {
		p := rp.reviewComment[parent]
		if p == nil || p.PR != is.Number {
			notFound(w)
			return
		}
		if p.InReplyTo != 0 {
			p = rp.reviewComment[p.InReplyTo]
		}
		c.InReplyTo, c.Path, c.Line, c.DiffHunk = p.ID, p.Path, p.Line, p.DiffHunk
	}
	switch {
	case strings.TrimSpace(in.Body) == "":
		validationFailed(w, errorDetail{Resource: "PullRequestReviewComment", Field: "body", Code: "missing_field"})
		return
	case tooLong(w, "PullRequestReviewComment", in.Body):
		return
	case parent == 0 && (in.Path == "" || in.Line <= 0):
		validationFailed(w, errorDetail{Resource: "PullRequestReviewComment", Field: "line", Code: "missing_field"})
		return
	}
	rv := s.addReview(rp, is, s.identity, ReviewCommented, "", in.CommitID)
	writeJSON(w, http.StatusCreated, s.ghReviewComment(rp, s.addReviewComment(rp, is, rv, c)))
}

// requestedReviewers lists, requests or removes requested reviewers.
// GitHub refuses the PR's author and anyone who is not a collaborator.
func (s *Server) requestedReviewers(w http.ResponseWriter, r *http.Request, rp *repo, is *Issue) {
	if r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, &github.Reviewers{Users: s.ghUsers(is.PR.RequestedReviewers), Teams: []*github.Team{}})
		return
	}
	var in struct {
		Reviewers []string `json:"reviewers"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		for _, login := range in.Reviewers {
			_, collaborator := rp.perms[strings.ToLower(login)]
			switch {
			case strings.EqualFold(login, is.User):
				writeJSON(w, http.StatusUnprocessableEntity, errorBody{Message: "Review cannot be requested from pull request author."})
				return
			case !collaborator && !strings.EqualFold(login, rp.owner):
				writeJSON(w, http.StatusUnprocessableEntity, errorBody{Message: "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " + rp.fullName() + " repository."})
				return
			}
		}
		for _, login := range in.Reviewers {
			if !slices.ContainsFunc(is.PR.RequestedReviewers, func(l string) bool { return strings.EqualFold(l, login) }) {
				is.PR.RequestedReviewers = append(is.PR.RequestedReviewers, login)
			}
		}
		writeJSON(w, http.StatusCreated, s.ghPR(rp, is))
	case http.MethodDelete:
		for _, login := range in.Reviewers {
			is.PR.RequestedReviewers = slices.DeleteFunc(is.PR.RequestedReviewers, func(l string) bool { return strings.EqualFold(l, login) })
		}
		writeJSON(w, http.StatusOK, s.ghPR(rp, is))
	default:
		notFound(w)
	}
}

// diffHunk is the diff_hunk GitHub gives an inline comment on line of path:
// the PR's diff hunk holding that line of the new file, up to the line. It
// is "" without a git directory or when no hunk holds the line. s.mu held.
func (s *Server) diffHunk(r *repo, is *Issue, path string, line int) string {
	base, ok1 := s.branchSHA(r, is.PR.Base)
	head, ok2 := s.branchSHA(s.repos[key(is.PR.HeadRepo)], is.PR.Head)
	if !ok2 {
		head, ok2 = is.PR.HeadSHA, is.PR.HeadSHA != ""
	}
	if r.gitDir == "" || !ok1 || !ok2 || path == "" {
		return ""
	}
	out, err := exec.Command("git", "--git-dir", r.gitDir, "diff", base+"..."+head, "--", path).Output()
	if err != nil {
		return ""
	}
	var hunk []string
	newLine := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "@@") {
			hunk = []string{l}
			// @@ -a,b +c,d @@: c is the first new line.
			if f := strings.Fields(l); len(f) > 2 {
				start, _, _ := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
				newLine, _ = strconv.Atoi(start)
				newLine--
			}
			continue
		}
		if hunk == nil || l == "" || strings.HasPrefix(l, "\\") {
			continue // before the first hunk, the end, "\ No newline at end of file"
		}
		hunk = append(hunk, l)
		if strings.HasPrefix(l, "-") {
			continue
		}
		if newLine++; newLine == line {
			return strings.Join(hunk, "\n")
		}
	}
	return ""
}
