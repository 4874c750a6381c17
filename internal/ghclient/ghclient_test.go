package ghclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/ghclient"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

const repo = "octo/hello"

// sleeper records waits instead of sleeping.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func setup(t *testing.T) (*githubfake.Server, *github.Client, *sleeper) {
	t.Helper()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.RequireToken("ghs_secret")
	sl := &sleeper{}
	env := map[string]string{"GITHUB_API_URL": s.APIURL(), "INPUT_GITHUB-TOKEN": "ghs_secret"}
	o := ghclient.FromEnv(func(k string) string { return env[k] })
	o.Sleep = sl.sleep
	o.Now = func() time.Time { return now }
	gh, err := ghclient.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, gh, sl
}

func TestFromEnvToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"INPUT_GITHUB-TOKEN": "a", "GITHUB_TOKEN": "b"}, "a"},
		{map[string]string{"INPUT_GITHUB_TOKEN": "c", "GITHUB_TOKEN": "b"}, "c"},
		{map[string]string{"GITHUB_TOKEN": "b"}, "b"},
		{map[string]string{}, ""},
	} {
		o := ghclient.FromEnv(func(k string) string { return tc.env[k] })
		if o.Token != tc.want {
			t.Errorf("env %v: token %q, want %q", tc.env, o.Token, tc.want)
		}
	}
}

func TestTokenAndBaseURL(t *testing.T) {
	t.Parallel()
	s, gh, _ := setup(t)
	r, _, err := gh.Repositories.Get(context.Background(), "octo", "hello")
	if err != nil {
		t.Fatalf("get repo through %s: %v", s.APIURL(), err)
	}
	if r.GetDefaultBranch() != "main" {
		t.Errorf("default branch %q", r.GetDefaultBranch())
	}
	if gh.BaseURL.String() != s.APIURL()+"/" {
		t.Errorf("base URL %s, want %s/", gh.BaseURL, s.APIURL())
	}
}

func TestRetries5xx(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	s.FailNext("POST", "/repos/octo/hello/issues/*/comments", 2, 502)
	if _, _, err := gh.Issues.CreateComment(context.Background(), "octo", "hello", n, &github.IssueComment{Body: github.String("hello")}); err != nil {
		t.Fatalf("create comment after two 502s: %v", err)
	}
	if got := s.Comments(repo, n); len(got) != 1 || got[0].Body != "hello" {
		t.Errorf("comments %+v, want one with the body resent", got)
	}
	if w := sl.got(); len(w) != 2 || w[0] != time.Second || w[1] != 2*time.Second {
		t.Errorf("waits %v, want [1s 2s]", w)
	}
}

func TestGivesUpAfterRetries(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	// One try and three retries; a fifth attempt would succeed.
	s.FailNext("GET", "/repos/octo/hello", 4, 503)
	_, resp, err := gh.Repositories.Get(context.Background(), "octo", "hello")
	err = ghclient.Wrap("get repository", repo, resp, err)
	if ghclient.Status(err) != 503 {
		t.Fatalf("err %v, want a 503", err)
	}
	if !strings.Contains(err.Error(), "github: get repository octo/hello: 503") {
		t.Errorf("message %q does not name the call and the object", err)
	}
	if len(sl.got()) != 3 || s.PendingFaults() != 0 {
		t.Errorf("waits %v, faults left %d; want 3 retries", sl.got(), s.PendingFaults())
	}
}

func TestPrimaryRateLimitNear(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	s.RateLimitNext("GET", "", 1, now.Add(30*time.Second))
	if _, _, err := gh.Repositories.Get(context.Background(), "octo", "hello"); err != nil {
		t.Fatalf("after waiting for the reset: %v", err)
	}
	if w := sl.got(); len(w) != 1 || w[0] != 31*time.Second {
		t.Errorf("waits %v, want [31s]", w)
	}
	// go-github never saw the 403, so the next call goes out.
	if _, _, err := gh.Repositories.Get(context.Background(), "octo", "hello"); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

func TestPrimaryRateLimitFar(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	s.RateLimitNext("GET", "", 1, reset)
	_, resp, err := gh.Repositories.Get(context.Background(), "octo", "hello")
	err = ghclient.Wrap("get repository", repo, resp, err)
	var rl *github.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("err %v, want a RateLimitError", err)
	}
	if !strings.Contains(err.Error(), reset.UTC().Format(time.RFC3339)) {
		t.Errorf("message %q lacks the reset time", err)
	}
	if len(sl.got()) != 0 {
		t.Errorf("waited %v for a reset two hours away", sl.got())
	}
}

func TestSecondaryRateLimit(t *testing.T) {
	t.Parallel()
	for _, status := range []int{403, 429} {
		s, gh, sl := setup(t)
		n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
		s.SecondaryRateLimitNext("POST", "", 2, status, 20*time.Second)
		if _, _, err := gh.Issues.CreateComment(context.Background(), "octo", "hello", n, &github.IssueComment{Body: github.String("x")}); err != nil {
			t.Fatalf("%d: %v", status, err)
		}
		if w := sl.got(); len(w) != 2 || w[0] != 20*time.Second {
			t.Errorf("%d: waits %v, want two of 20s", status, w)
		}
		if len(s.Comments(repo, n)) != 1 {
			t.Errorf("%d: %d comments, want 1", status, len(s.Comments(repo, n)))
		}
	}
}

func TestSecondaryTooLong(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	s.SecondaryRateLimitNext("GET", "", 1, http.StatusForbidden, time.Hour)
	_, _, err := gh.Repositories.Get(context.Background(), "octo", "hello")
	var ab *github.AbuseRateLimitError
	if !errors.As(err, &ab) || len(sl.got()) != 0 {
		t.Errorf("err %v waits %v, want an AbuseRateLimitError without waiting", err, sl.got())
	}
}

func TestValidationMessage(t *testing.T) {
	t.Parallel()
	s, gh, _ := setup(t)
	s.SetBranch(repo, "main", "a")
	s.SetBranch(repo, "agent-fix/issue-1", "b")
	np := &github.NewPullRequest{Title: github.String("t"), Head: github.String("octo:agent-fix/issue-1"), Base: github.String("main")}
	if _, _, err := gh.PullRequests.Create(context.Background(), "octo", "hello", np); err != nil {
		t.Fatal(err)
	}
	_, resp, err := gh.PullRequests.Create(context.Background(), "octo", "hello", np)
	err = ghclient.Wrap("create pull request", "octo/hello agent-fix/issue-1", resp, err)
	if got := ghclient.ValidationMessage(err); !strings.HasPrefix(got, "A pull request already exists") {
		t.Errorf("ValidationMessage %q", got)
	}
	want := "github: create pull request octo/hello agent-fix/issue-1: 422 Validation Failed: A pull request already exists for octo:agent-fix/issue-1."
	if err.Error() != want {
		t.Errorf("message\n got %s\nwant %s", err, want)
	}
}

func TestBranchNotFound(t *testing.T) {
	t.Parallel()
	_, gh, _ := setup(t)
	_, resp, err := gh.Repositories.GetBranch(context.Background(), "octo", "hello", "agent-fix/issue-9", 0)
	err = ghclient.Wrap("get branch", "octo/hello agent-fix/issue-9", resp, err)
	if !ghclient.IsNotFound(err) {
		t.Errorf("GetBranch on a missing branch: %v, want IsNotFound", err)
	}
}

// TestSpentWindow: a success that spends the window's last request must
// not leave go-github refusing the next call locally; the client waits for
// the reset instead.
func TestSpentWindow(t *testing.T) {
	t.Parallel()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	var mu sync.Mutex
	clock := time.Now()
	nowf := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	s.SetClock(nowf)
	var waits []time.Duration
	gh, err := ghclient.New(ghclient.Options{
		APIURL: s.APIURL(),
		Now:    nowf,
		Sleep: func(_ context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, d)
			clock = clock.Add(d)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.SetQuota(1, clock.Add(40*time.Second))
	for i := 0; i < 3; i++ {
		if _, _, err := gh.Repositories.Get(context.Background(), "octo", "hello"); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(waits) != 1 || waits[0] < 40*time.Second || waits[0] > 42*time.Second {
		t.Errorf("waits %v, want one of about 41s", waits)
	}
}

func TestSecondaryWithoutRetryAfter(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	s.Inject(githubfake.Fault{Method: "GET", Status: 403,
		Message:          "You have exceeded a secondary rate limit and have been temporarily blocked from content creation.",
		DocumentationURL: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
	if _, _, err := gh.Repositories.Get(context.Background(), "octo", "hello"); err != nil {
		t.Fatal(err)
	}
	if w := sl.got(); len(w) != 1 || w[0] != time.Minute {
		t.Errorf("waits %v, want [1m] (GitHub: at least a minute without Retry-After)", w)
	}
}

func TestPlain403NotRetried(t *testing.T) {
	t.Parallel()
	s, gh, sl := setup(t)
	s.FailNext("GET", "/user", 1, 403)
	_, resp, err := gh.Users.Get(context.Background(), "")
	if ghclient.Status(ghclient.Wrap("get user", "", resp, err)) != 403 || len(sl.got()) != 0 {
		t.Errorf("err %v waits %v: a plain 403 is an answer, not a limit", err, sl.got())
	}
}

// flaky fails the first n round trips with a network error.
type flaky struct {
	mu sync.Mutex
	n  int
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	fail := f.n > 0
	f.n--
	f.mu.Unlock()
	if fail {
		return nil, errors.New("connection reset by peer")
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestNetworkErrors(t *testing.T) {
	t.Parallel()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	n := s.AddIssue(repo, githubfake.Issue{Title: "t"})
	sl := &sleeper{}
	base := &flaky{n: 1}
	gh, err := ghclient.New(ghclient.Options{APIURL: s.APIURL(), Sleep: sl.sleep, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gh.Repositories.Get(context.Background(), "octo", "hello"); err != nil {
		t.Errorf("GET after one network error: %v", err)
	}
	// A POST may have reached GitHub before the connection broke: it is not
	// resent, or the comment could be posted twice.
	base.mu.Lock()
	base.n = 1
	base.mu.Unlock()
	if _, _, err := gh.Issues.CreateComment(context.Background(), "octo", "hello", n, &github.IssueComment{Body: github.String("x")}); err == nil {
		t.Error("POST after a network error was retried")
	}
	if w := sl.got(); len(w) != 1 {
		t.Errorf("waits %v, want one (for the GET)", w)
	}
}

// TestCancelDuringWait: the real sleep ends when the context does. The
// wait asked for is half an hour, so a sleep that ignored the context would
// hang the test (and fail it at its timeout) rather than let it pass; no
// clock is read, so a slow machine passes too.
func TestCancelDuringWait(t *testing.T) {
	t.Parallel()
	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.SecondaryRateLimitNext("GET", "", 1, 429, 30*time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var waits []string
	gh, err := ghclient.New(ghclient.Options{APIURL: s.APIURL(), MaxWait: time.Hour, Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, fmt.Sprintf(format, args...))
		time.AfterFunc(50*time.Millisecond, cancel) // during the wait, or just before it
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = gh.Repositories.Get(ctx, "octo", "hello")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the context's", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(waits) != 1 || !strings.Contains(waits[0], "waiting 30m0s") {
		t.Errorf("waits logged: %q, want the one for Retry-After", waits)
	}
}

func TestBaseURLs(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                "https://api.github.com/",
		"https://api.github.com":          "https://api.github.com/",
		"https://ghe.example.com/api/v3":  "https://ghe.example.com/api/v3/",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/v3/",
	} {
		gh, err := ghclient.New(ghclient.Options{APIURL: in})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := gh.BaseURL.String(); got != want {
			t.Errorf("APIURL %q: base %s, want %s", in, got, want)
		}
	}
}
