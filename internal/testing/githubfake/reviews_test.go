package githubfake_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// reviewedPR is a fake with PR #1 by the token's identity from
// agent-fix/issue-9 (one commit that changes line 2 of calc.go) into main,
// alice (write) and bob (read) as collaborators.
func reviewedPR(t *testing.T) (*githubfake.Server, *github.Client, int) {
	t.Helper()
	bare, work := newOrigin(t)
	writeFile(t, filepath.Join(work, "calc.go"), "package calc\nvar x = 1\nvar y = 2\n")
	git(t, work, "add", ".")
	git(t, work, "commit", "-q", "-m", "base")
	git(t, work, "push", "-q", bare, "main")
	writeFile(t, filepath.Join(work, "calc.go"), "package calc\nvar x = 10\nvar y = 2\n")
	git(t, work, "commit", "-q", "-am", "fix")
	git(t, work, "push", "-q", bare, "HEAD:agent-fix/issue-9")

	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.SetGitDir(repo, bare)
	s.SetPermission(repo, "alice", "write")
	s.SetPermission(repo, "bob", "read")
	n := s.AddPR(repo, githubfake.Issue{Title: "agentfix: fix x", User: githubfake.DefaultIdentity, PR: &githubfake.PullRequest{Head: "agent-fix/issue-9"}})
	return s, s.Client(t), n
}

func TestReviews(t *testing.T) {
	t.Parallel()
	s, gh, n := reviewedPR(t)
	ctx := context.Background()
	if _, _, err := gh.PullRequests.RequestReviewers(ctx, "octo", "hello", n, github.ReviewersRequest{Reviewers: []string{"alice"}}); err != nil {
		t.Fatal(err)
	}
	id, cids := s.AddReview(repo, n, githubfake.Review{User: "alice", State: githubfake.ReviewChangesRequested, Body: "x is wrong"},
		githubfake.ReviewComment{Path: "calc.go", Line: 2, Body: "ten?"})
	if got := s.RequestedReviewers(repo, n); len(got) != 0 {
		t.Errorf("requested reviewers after alice's review: %v, want none (a review answers the request)", got)
	}

	rv, _, err := gh.PullRequests.GetReview(ctx, "octo", "hello", n, id)
	if err != nil {
		t.Fatal(err)
	}
	pr, _, err := gh.PullRequests.Get(ctx, "octo", "hello", n)
	if err != nil {
		t.Fatal(err)
	}
	head := pr.GetHead().GetSHA()
	if rv.GetState() != "CHANGES_REQUESTED" || rv.GetBody() != "x is wrong" || rv.GetUser().GetLogin() != "alice" || rv.GetCommitID() != head || rv.SubmittedAt == nil {
		t.Errorf("review %+v", rv)
	}
	list, _, err := gh.PullRequests.ListReviews(ctx, "octo", "hello", n, nil)
	if err != nil || len(list) != 1 || list[0].GetID() != id {
		t.Fatalf("ListReviews = %v, %v", list, err)
	}
	cs, _, err := gh.PullRequests.ListReviewComments(ctx, "octo", "hello", n, id, nil)
	if err != nil || len(cs) != 1 {
		t.Fatalf("ListReviewComments = %v, %v", cs, err)
	}
	c := cs[0]
	want := "@@ -1,3 +1,3 @@\n package calc\n-var x = 1\n+var x = 10"
	if c.GetID() != cids[0] || c.GetPath() != "calc.go" || c.GetLine() != 2 || c.GetPullRequestReviewID() != id || c.GetDiffHunk() != want || c.InReplyTo != nil {
		t.Errorf("review comment %+v\ndiff hunk %q, want %q", c, c.GetDiffHunk(), want)
	}
	if got, _, err := gh.PullRequests.GetComment(ctx, "octo", "hello", cids[0]); err != nil || got.GetBody() != "ten?" {
		t.Errorf("GetComment = %v, %v", got, err)
	}

	// Another PR's review, an unknown review: 404.
	for _, path := range []string{fmt.Sprintf("reviews/%d", id+100), fmt.Sprintf("reviews/%d/comments", id+100)} {
		req, _ := gh.NewRequest("GET", fmt.Sprintf("repos/octo/hello/pulls/%d/%s", n, path), nil)
		if _, err := gh.Do(ctx, req, nil); !isStatus(err, http.StatusNotFound) {
			t.Errorf("GET %s: %v, want 404", path, err)
		}
	}
}

// TestReviewReplies: a reply goes into the comment's thread through the
// replies endpoint, carrying the thread's place; replying to a reply
// threads under the first comment, as GitHub does.
func TestReviewReplies(t *testing.T) {
	t.Parallel()
	s, gh, n := reviewedPR(t)
	ctx := context.Background()
	_, cids := s.AddReview(repo, n, githubfake.Review{User: "alice", Body: "see inline"}, githubfake.ReviewComment{Path: "calc.go", Line: 2, Body: "ten?"})

	reply := func(to int64, body string) (*github.PullRequestComment, error) {
		req, err := gh.NewRequest("POST", fmt.Sprintf("repos/octo/hello/pulls/%d/comments/%d/replies", n, to), map[string]string{"body": body})
		if err != nil {
			t.Fatal(err)
		}
		c := new(github.PullRequestComment)
		_, err = gh.Do(ctx, req, c)
		return c, err
	}
	r1, err := reply(cids[0], "done in abc123")
	if err != nil {
		t.Fatal(err)
	}
	if r1.GetInReplyTo() != cids[0] || r1.GetPath() != "calc.go" || r1.GetLine() != 2 || r1.GetUser().GetLogin() != githubfake.DefaultIdentity {
		t.Errorf("reply %+v", r1)
	}
	r2, err := reply(r1.GetID(), "and again")
	if err != nil || r2.GetInReplyTo() != cids[0] {
		t.Errorf("reply to a reply: %+v %v, want it threaded under %d", r2, err, cids[0])
	}
	// The older form: POST pulls/{n}/comments with in_reply_to.
	r3, _, err := gh.PullRequests.CreateCommentInReplyTo(ctx, "octo", "hello", n, "third", cids[0])
	if err != nil || r3.GetInReplyTo() != cids[0] {
		t.Errorf("in_reply_to: %+v %v", r3, err)
	}
	if _, err := reply(999999, "lost"); !isStatus(err, http.StatusNotFound) {
		t.Errorf("reply to an unknown comment: %v, want 404", err)
	}
	if _, err := reply(cids[0], " "); !isStatus(err, http.StatusUnprocessableEntity) {
		t.Errorf("empty reply: %v, want 422", err)
	}

	all, _, err := gh.PullRequests.ListComments(ctx, "octo", "hello", n, nil)
	if err != nil || len(all) != 4 {
		t.Fatalf("ListComments = %d comments, %v; want 4", len(all), err)
	}
	snap := s.ReviewComments(repo, n)
	if len(snap) != 4 || snap[1].Body != "done in abc123" || snap[1].InReplyTo != cids[0] {
		t.Errorf("state %+v", snap)
	}
	// Each reply is filed under a review of its own, as on GitHub.
	if rs := s.Reviews(repo, n); len(rs) != 4 || rs[1].State != githubfake.ReviewCommented || rs[1].User != githubfake.DefaultIdentity {
		t.Errorf("reviews %+v", rs)
	}
}

func TestCreateReview(t *testing.T) {
	t.Parallel()
	s, gh, n := reviewedPR(t)
	ctx := context.Background()
	s.SetIdentity("alice")
	rv, _, err := gh.PullRequests.CreateReview(ctx, "octo", "hello", n, &github.PullRequestReviewRequest{
		Body: github.String("two things"), Event: github.String("REQUEST_CHANGES"),
		Comments: []*github.DraftReviewComment{{Path: github.String("calc.go"), Line: github.Int(2), Body: github.String("why ten")}},
	})
	if err != nil || rv.GetState() != "CHANGES_REQUESTED" || rv.GetUser().GetLogin() != "alice" {
		t.Fatalf("CreateReview = %+v, %v", rv, err)
	}
	cs := s.ReviewComments(repo, n)
	if len(cs) != 1 || cs[0].ReviewID != rv.GetID() || !strings.HasSuffix(cs[0].DiffHunk, "+var x = 10") {
		t.Errorf("comments %+v", cs)
	}
	_, _, err = gh.PullRequests.CreateReview(ctx, "octo", "hello", n, &github.PullRequestReviewRequest{Event: github.String("COMMENT")})
	if !isStatus(err, http.StatusUnprocessableEntity) {
		t.Errorf("a comment review without a body: %v, want 422", err)
	}
	s.SetIdentity(githubfake.DefaultIdentity) // the PR's author
	_, _, err = gh.PullRequests.CreateReview(ctx, "octo", "hello", n, &github.PullRequestReviewRequest{Body: github.String("lgtm"), Event: github.String("APPROVE")})
	if !isStatus(err, http.StatusUnprocessableEntity) {
		t.Errorf("approving one's own PR: %v, want 422", err)
	}
}

func TestRequestedReviewers(t *testing.T) {
	t.Parallel()
	s, gh, n := reviewedPR(t)
	ctx := context.Background()
	pr, _, err := gh.PullRequests.RequestReviewers(ctx, "octo", "hello", n, github.ReviewersRequest{Reviewers: []string{"alice", "bob"}})
	if err != nil || len(pr.RequestedReviewers) != 2 {
		t.Fatalf("RequestReviewers = %+v, %v", pr, err)
	}
	got, _, err := gh.PullRequests.ListReviewers(ctx, "octo", "hello", n, nil)
	if err != nil || len(got.Users) != 2 || got.Users[0].GetLogin() != "alice" {
		t.Fatalf("ListReviewers = %+v, %v", got, err)
	}
	if _, err := gh.PullRequests.RemoveReviewers(ctx, "octo", "hello", n, github.ReviewersRequest{Reviewers: []string{"bob"}}); err != nil {
		t.Fatal(err)
	}
	if r := s.RequestedReviewers(repo, n); !slices.Equal(r, []string{"alice"}) {
		t.Errorf("after removing bob: %v", r)
	}
	for _, who := range []string{githubfake.DefaultIdentity, "stranger"} {
		_, _, err := gh.PullRequests.RequestReviewers(ctx, "octo", "hello", n, github.ReviewersRequest{Reviewers: []string{who}})
		if !isStatus(err, http.StatusUnprocessableEntity) {
			t.Errorf("requesting %s: %v, want 422", who, err)
		}
	}
}

func isStatus(err error, code int) bool {
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == code
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
