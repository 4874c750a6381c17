package githubfake_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

const repo = "octo/hello"

func setup(t *testing.T) (*githubfake.Server, *github.Client) {
	t.Helper()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.SetBranch(repo, "main", "aaaa")
	return s, s.Client(t)
}

func TestPrefixRequired(t *testing.T) {
	t.Parallel()
	s, _ := setup(t)
	resp, err := http.Get(s.URL() + "/repos/" + repo)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET without %s prefix: status %d, want 404", githubfake.Prefix, resp.StatusCode)
	}
	if strings.HasSuffix(s.APIURL(), "/") {
		t.Errorf("APIURL %q ends in a slash; GITHUB_API_URL does not", s.APIURL())
	}
}

func TestPermission(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	for _, tc := range []struct{ role, perm string }{
		{"admin", "admin"}, {"maintain", "write"}, {"write", "write"}, {"triage", "read"}, {"read", "read"}, {"none", "none"},
	} {
		s.SetPermission(repo, "u-"+tc.role, tc.role)
		lvl, _, err := gh.Repositories.GetPermissionLevel(ctx, "octo", "hello", "u-"+tc.role)
		if err != nil {
			t.Fatalf("%s: %v", tc.role, err)
		}
		if lvl.GetPermission() != tc.perm || lvl.GetUser().GetRoleName() != tc.role {
			t.Errorf("role %s: permission %q role_name %q, want %q %q", tc.role, lvl.GetPermission(), lvl.GetUser().GetRoleName(), tc.perm, tc.role)
		}
	}
	if lvl, _, err := gh.Repositories.GetPermissionLevel(ctx, "octo", "hello", "Octo"); err != nil || lvl.GetPermission() != "admin" {
		t.Errorf("owner: %v %v, want admin", lvl.GetPermission(), err)
	}
	_, resp, err := gh.Repositories.GetPermissionLevel(ctx, "octo", "hello", "stranger")
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("non-collaborator: err %v, want a 404", err)
	}
}

func TestPullRequestLifecycle(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	issue := s.AddIssue(repo, githubfake.Issue{Title: "bug", Body: "it breaks"})
	newPR := &github.NewPullRequest{Title: github.String("fix"), Head: github.String("agent-fix/issue-1"), Base: github.String("main"), Body: github.String("Fixes #1")}

	_, _, err := gh.PullRequests.Create(ctx, "octo", "hello", newPR)
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != 422 {
		t.Fatalf("create with missing head branch: %v, want 422", err)
	}

	s.SetBranch(repo, "agent-fix/issue-1", "bbbb")
	pr, _, err := gh.PullRequests.Create(ctx, "octo", "hello", newPR)
	if err != nil {
		t.Fatal(err)
	}
	if pr.GetNumber() != issue+1 {
		t.Errorf("PR number %d, want %d (issues and PRs share numbers)", pr.GetNumber(), issue+1)
	}
	if pr.GetHead().GetSHA() != "bbbb" || pr.GetHead().GetLabel() != "octo:agent-fix/issue-1" {
		t.Errorf("head %+v", pr.GetHead())
	}

	_, _, err = gh.PullRequests.Create(ctx, "octo", "hello", newPR)
	if !errors.As(err, &er) || er.Message != "Validation Failed" || len(er.Errors) == 0 ||
		er.Errors[0].Message != "A pull request already exists for octo:agent-fix/issue-1." {
		t.Fatalf("second create: %#v, want 422 already exists in Errors[0]", err)
	}

	s.SetBranch(repo, "other", "cccc")
	if _, _, err := gh.PullRequests.Create(ctx, "octo", "hello", &github.NewPullRequest{Title: github.String("x"), Head: github.String("other"), Base: github.String("main")}); err != nil {
		t.Fatal(err)
	}
	list, _, err := gh.PullRequests.List(ctx, "octo", "hello", &github.PullRequestListOptions{Head: "octo:agent-fix/issue-1"})
	if err != nil || len(list) != 1 || list[0].GetNumber() != pr.GetNumber() {
		t.Errorf("list head=octo:agent-fix/issue-1: %d PRs, err %v; want exactly #%d", len(list), err, pr.GetNumber())
	}
	list, _, err = gh.PullRequests.List(ctx, "octo", "hello", &github.PullRequestListOptions{Head: "agent-fix/issue-1"})
	if err != nil || len(list) != 2 {
		t.Errorf("list head without owner: %d PRs, err %v; want both (GitHub ignores the filter)", len(list), err)
	}

	issues, _, err := gh.Issues.ListByRepo(ctx, "octo", "hello", nil)
	if err != nil || len(issues) != 3 {
		t.Fatalf("issues list: %d, err %v; want 3 (PRs included)", len(issues), err)
	}
	nPR := 0
	for _, is := range issues {
		if is.IsPullRequest() {
			nPR++
		}
	}
	if nPR != 2 {
		t.Errorf("%d issues are PRs, want 2", nPR)
	}

	if _, _, err := gh.PullRequests.Edit(ctx, "octo", "hello", pr.GetNumber(), &github.PullRequest{Body: github.String("new body")}); err != nil {
		t.Fatal(err)
	}
	got := s.OpenPRsByHead(repo, "agent-fix/issue-1")
	if len(got) != 1 || got[0].Body != "new body" {
		t.Errorf("after edit: %+v", got)
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	long := strings.Repeat("é", githubfake.MaxBodyChars+1)
	_, _, err := gh.Issues.CreateComment(ctx, "octo", "hello", n, &github.IssueComment{Body: github.String(long)})
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response.StatusCode != 422 {
		t.Errorf("comment over the limit: %v, want 422", err)
	}
	if _, _, err := gh.Issues.CreateComment(ctx, "octo", "hello", n, &github.IssueComment{Body: github.String(long[:len(long)-2])}); err != nil {
		t.Errorf("comment at the limit: %v", err)
	}
}

func TestComments(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	for i := 0; i < 35; i++ {
		s.AddComment(repo, n, "alice", "hello")
	}
	c, _, err := gh.Issues.CreateComment(ctx, "octo", "hello", n, &github.IssueComment{Body: github.String("<!-- agentfix -->\nworking")})
	if err != nil {
		t.Fatal(err)
	}
	if c.GetUser().GetLogin() != githubfake.DefaultIdentity {
		t.Errorf("comment by %q", c.GetUser().GetLogin())
	}
	// The status comment is on the second page: a client that does not
	// follow pagination misses it.
	page1, resp, err := gh.Issues.ListComments(ctx, "octo", "hello", n, nil)
	if err != nil || len(page1) != 30 || resp.NextPage != 2 {
		t.Fatalf("page 1: %d comments, next %d, err %v", len(page1), resp.NextPage, err)
	}
	page2, _, err := gh.Issues.ListComments(ctx, "octo", "hello", n, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{Page: 2}})
	if err != nil || len(page2) != 6 || page2[5].GetID() != c.GetID() {
		t.Fatalf("page 2: %d comments, err %v", len(page2), err)
	}
	if _, _, err := gh.Issues.EditComment(ctx, "octo", "hello", c.GetID(), &github.IssueComment{Body: github.String("<!-- agentfix -->\ndone")}); err != nil {
		t.Fatal(err)
	}
	all := s.Comments(repo, n)
	last := all[len(all)-1]
	if last.Body != "<!-- agentfix -->\ndone" || !last.Edited() {
		t.Errorf("after edit: %+v", last)
	}
}

func TestLabelsAndSearch(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	s.AddIssue(repo, githubfake.Issue{Title: "unrelated"})
	if _, _, err := gh.Issues.Create(ctx, "octo", "hello", &github.IssueRequest{Title: github.String("agentfix: nightly checks failing"), Labels: &[]string{"agent-fix"}}); err != nil {
		t.Fatal(err)
	}
	n := s.AddIssue(repo, githubfake.Issue{Title: "other"})
	if _, _, err := gh.Issues.AddLabelsToIssue(ctx, "octo", "hello", n, []string{"bug", "agent-fix"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Labels(repo, n); strings.Join(got, ",") != "bug,agent-fix" {
		t.Errorf("labels %v", got)
	}
	res, _, err := gh.Search.Issues(ctx, `repo:octo/hello is:issue is:open in:title "nightly checks failing"`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.GetTotal() != 1 || res.Issues[0].GetNumber() != 2 {
		t.Errorf("search by title: %d hits", res.GetTotal())
	}
	res, _, err = gh.Search.Issues(ctx, `repo:octo/hello label:agent-fix`, nil)
	if err != nil || res.GetTotal() != 2 {
		t.Errorf("search by label: %d hits, err %v", res.GetTotal(), err)
	}
}

func TestBranchesAndUser(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	s.SetBranch(repo, "agent-fix/issue-7", "dddd")
	b, _, err := gh.Repositories.GetBranch(ctx, "octo", "hello", "agent-fix/issue-7", 0)
	if err != nil || b.GetCommit().GetSHA() != "dddd" {
		t.Errorf("GetBranch: %v %v", b, err)
	}
	_, resp, err := gh.Repositories.GetBranch(ctx, "octo", "hello", "missing", 0)
	if err == nil || resp == nil || resp.StatusCode != 404 {
		t.Errorf("missing branch: %v, want 404", err)
	}
	ref, _, err := gh.Git.GetRef(ctx, "octo", "hello", "refs/heads/agent-fix/issue-7")
	if err != nil || ref.GetObject().GetSHA() != "dddd" {
		t.Errorf("GetRef: %v %v", ref, err)
	}
	_, resp, err = gh.Users.Get(ctx, "")
	if err == nil || resp.StatusCode != 403 {
		t.Errorf("GET /user: %v, want 403", err)
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	s.FailNext("GET", "/repos/octo/hello", 2, 502)
	for i := 0; i < 2; i++ {
		_, resp, err := gh.Repositories.Get(ctx, "octo", "hello")
		if err == nil || resp.StatusCode != 502 {
			t.Fatalf("call %d: %v, want 502", i, err)
		}
	}
	if _, _, err := gh.Repositories.Get(ctx, "octo", "hello"); err != nil {
		t.Fatalf("third call: %v", err)
	}

	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	s.RateLimitNext("", "/repos/octo/hello/issues/*", 1, reset)
	_, _, err := gh.Issues.Get(ctx, "octo", "hello", 1)
	var rl *github.RateLimitError
	if !errors.As(err, &rl) || !rl.Rate.Reset.Time.Equal(reset) {
		t.Fatalf("primary: %v, want RateLimitError resetting at %v", err, reset)
	}

	gh2 := s.Client(t)
	s.SecondaryRateLimitNext("POST", "", 1, 403, 30*time.Second)
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	_, _, err = gh2.Issues.CreateComment(ctx, "octo", "hello", n, &github.IssueComment{Body: github.String("x")})
	var ab *github.AbuseRateLimitError
	if !errors.As(err, &ab) || ab.GetRetryAfter() != 30*time.Second {
		t.Fatalf("secondary: %v, want AbuseRateLimitError with Retry-After 30s", err)
	}
	if s.PendingFaults() != 0 {
		t.Errorf("%d faults left", s.PendingFaults())
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := gh.Issues.CreateComment(context.Background(), "octo", "hello", n, &github.IssueComment{Body: github.String("x")}); err != nil {
				t.Error(err)
			}
			_ = s.Comments(repo, n)
		}()
	}
	wg.Wait()
	if got := len(s.Comments(repo, n)); got != 8 {
		t.Errorf("%d comments, want 8", got)
	}
}

func TestQuota(t *testing.T) {
	t.Parallel()
	s, gh := setup(t)
	ctx := context.Background()
	var mu sync.Mutex
	clock := time.Now()
	s.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	reset := clock.Add(time.Minute).Truncate(time.Second)
	s.SetQuota(2, reset)
	for want := 1; want >= 0; want-- {
		_, resp, err := gh.Repositories.Get(ctx, "octo", "hello")
		if err != nil || resp.Rate.Remaining != want {
			t.Fatalf("remaining %d, err %v; want %d", resp.Rate.Remaining, err, want)
		}
	}
	// A fresh client: the first has seen Remaining 0 and would refuse locally.
	raw, err := http.Get(s.APIURL() + "/repos/" + repo)
	if err != nil {
		t.Fatal(err)
	}
	raw.Body.Close()
	if raw.StatusCode != 403 || raw.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("spent window: %d remaining %q, want 403 with 0", raw.StatusCode, raw.Header.Get("X-RateLimit-Remaining"))
	}
	mu.Lock()
	clock = reset
	mu.Unlock()
	if _, _, err := s.Client(t).Repositories.Get(ctx, "octo", "hello"); err != nil {
		t.Fatalf("after the reset: %v", err)
	}
}
