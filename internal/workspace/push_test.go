package workspace

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// gitT runs git in dir and fails the test on error.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRemote makes a bare origin holding one commit on main and a clone of it.
func newRemote(t *testing.T) (bare, clone string) {
	t.Helper()
	root := t.TempDir()
	bare = filepath.Join(root, "origin.git")
	seed := filepath.Join(root, "seed")
	clone = filepath.Join(root, "clone")
	gitT(t, root, "init", "-q", "--bare", "-b", "main", bare)
	gitT(t, root, "init", "-q", "-b", "main", seed)
	if err := os.WriteFile(filepath.Join(seed, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, seed, "add", "a.txt")
	gitT(t, seed, "commit", "-q", "-m", "seed")
	gitT(t, seed, "push", "-q", bare, "main")
	gitT(t, root, "clone", "-q", "--depth=1", "file://"+bare, clone)
	return bare, clone
}

// commitFile commits content to name in dir and returns the commit id.
func commitFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", name)
	gitT(t, dir, "commit", "-q", "-m", "change "+name)
	return gitT(t, dir, "rev-parse", "HEAD")
}

func TestPushBranchCreatesAndFastForwards(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	ctx := context.Background()
	opts := RemoteOptions{Dir: clone}

	if tip, err := FetchBranch(ctx, opts, "agent-fix/issue-1"); err != nil || tip != "" {
		t.Fatalf("FetchBranch of a missing branch = %q, %v; want empty, nil", tip, err)
	}
	c1 := commitFile(t, clone, "b.txt", "1\n")
	if err := PushBranch(ctx, PushOptions{RemoteOptions: opts, Commit: c1, Branch: "agent-fix/issue-1", Protected: []string{"main"}}); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, bare, "rev-parse", "refs/heads/agent-fix/issue-1"); got != c1 {
		t.Fatalf("remote branch = %s, want %s", got, c1)
	}
	tip, err := FetchBranch(ctx, opts, "agent-fix/issue-1")
	if err != nil || tip != c1 {
		t.Fatalf("FetchBranch = %q, %v; want %s", tip, err, c1)
	}
	c2 := commitFile(t, clone, "b.txt", "2\n")
	if err := PushBranch(ctx, PushOptions{RemoteOptions: opts, Commit: c2, Branch: "agent-fix/issue-1"}); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, bare, "rev-parse", "refs/heads/agent-fix/issue-1"); got != c2 {
		t.Fatalf("remote branch = %s, want %s", got, c2)
	}
}

func TestPushBranchNeverForces(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	ctx := context.Background()
	opts := RemoteOptions{Dir: clone}
	base := gitT(t, clone, "rev-parse", "HEAD")
	c1 := commitFile(t, clone, "b.txt", "1\n")
	if err := PushBranch(ctx, PushOptions{RemoteOptions: opts, Commit: c1, Branch: "agent-fix/pr-2"}); err != nil {
		t.Fatal(err)
	}
	// A commit that does not descend from the remote tip must be refused.
	gitT(t, clone, "checkout", "-q", "-b", "other", base)
	c2 := commitFile(t, clone, "c.txt", "x\n")
	err := PushBranch(ctx, PushOptions{RemoteOptions: opts, Commit: c2, Branch: "agent-fix/pr-2"})
	var rej *PushRejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("non-fast-forward push: err = %v, want *PushRejectedError", err)
	}
	if !strings.Contains(rej.Reason, "fast-forward") && !strings.Contains(rej.Reason, "rejected") {
		t.Errorf("reason %q does not say why", rej.Reason)
	}
	if got := gitT(t, bare, "rev-parse", "refs/heads/agent-fix/pr-2"); got != c1 {
		t.Fatalf("remote branch moved to %s; want it left at %s", got, c1)
	}
}

func TestPushBranchRefusesProtected(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	before := gitT(t, bare, "rev-parse", "refs/heads/main")
	c1 := commitFile(t, clone, "b.txt", "1\n")
	for _, b := range []string{"main", "refs/heads/main"} {
		err := PushBranch(context.Background(), PushOptions{RemoteOptions: RemoteOptions{Dir: clone}, Commit: c1, Branch: b, Protected: []string{"main"}})
		if !errors.Is(err, ErrProtectedBranch) {
			t.Fatalf("push to %s: err = %v, want ErrProtectedBranch", b, err)
		}
	}
	if got := gitT(t, bare, "rev-parse", "refs/heads/main"); got != before {
		t.Fatal("the default branch moved")
	}
}

func TestPushBranchRejectedByHook(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	hook := filepath.Join(bare, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho protected by policy >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c1 := commitFile(t, clone, "b.txt", "1\n")
	err := PushBranch(context.Background(), PushOptions{RemoteOptions: RemoteOptions{Dir: clone}, Commit: c1, Branch: "agent-fix/issue-3"})
	var rej *PushRejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *PushRejectedError", err)
	}
}

// TestPushBranchTokenOnlyInEnvironment serves the bare repository over smart
// HTTP (git http-backend as CGI) and requires the Authorization header the
// token should produce; the token must not end up in .git/config.
func TestPushBranchTokenOnlyInEnvironment(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	const token = "ghs_secretTOKEN123"
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+token))

	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("git-http-backend not installed")
	}
	var mu sync.Mutex
	var seen []string
	h := &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + filepath.Dir(bare), "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=agentfix"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get("Authorization")
		mu.Lock()
		seen = append(seen, got)
		mu.Unlock()
		if !strings.EqualFold(got, want) {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	gitT(t, clone, "remote", "set-url", "origin", srv.URL+"/origin.git")

	ctx := context.Background()
	c1 := commitFile(t, clone, "b.txt", "1\n")
	noToken := PushBranch(ctx, PushOptions{RemoteOptions: RemoteOptions{Dir: clone}, Commit: c1, Branch: "agent-fix/issue-4"})
	if noToken == nil {
		t.Fatal("push without a token succeeded; the server check is not working")
	}
	// The token is scoped to the server (GITHUB_SERVER_URL in the action).
	opts := RemoteOptions{Dir: clone, Token: token, Server: srv.URL}
	if err := PushBranch(ctx, PushOptions{RemoteOptions: opts, Commit: c1, Branch: "agent-fix/issue-4"}); err != nil {
		t.Fatal(err)
	}
	if tip, err := FetchBranch(ctx, opts, "agent-fix/issue-4"); err != nil || tip != c1 {
		t.Fatalf("FetchBranch over HTTP = %q, %v; want %s", tip, err, c1)
	}
	if got := gitT(t, bare, "rev-parse", "refs/heads/agent-fix/issue-4"); got != c1 {
		t.Fatalf("remote branch = %s, want %s", got, c1)
	}
	cfg, err := os.ReadFile(filepath.Join(clone, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), "extraheader") || strings.Contains(string(cfg), base64.StdEncoding.EncodeToString([]byte("x-access-token:"+token))) {
		t.Fatalf(".git/config holds the credential:\n%s", cfg)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the server saw no request")
	}
}

// TestPushBranchMasksToken names the remote after the token, so git
// prints it in its error.
func TestPushBranchMasksToken(t *testing.T) {
	t.Parallel()
	_, clone := newRemote(t)
	head := gitT(t, clone, "rev-parse", "HEAD")
	err := PushBranch(context.Background(), PushOptions{RemoteOptions: RemoteOptions{Dir: clone, Remote: "tok123secret", Token: "tok123secret"}, Commit: head, Branch: "x"})
	if err == nil {
		t.Fatal("push to a remote named by the token succeeded")
	}
	if strings.Contains(err.Error(), "tok123secret") {
		t.Fatalf("error shows the token: %v", err)
	}
}

func TestFetchBranchFullRefAndExactMatch(t *testing.T) {
	t.Parallel()
	bare, clone := newRemote(t)
	ctx := context.Background()
	c1 := commitFile(t, clone, "b.txt", "1\n")
	gitT(t, clone, "push", "-q", "origin", c1+":refs/pull/9/head")
	gitT(t, clone, "push", "-q", "origin", c1+":refs/heads/x/agent-fix/issue-1")
	tip, err := FetchBranch(ctx, RemoteOptions{Dir: clone}, "refs/pull/9/head")
	if err != nil || tip != c1 {
		t.Fatalf("FetchBranch(refs/pull/9/head) = %q, %v; want %s", tip, err, c1)
	}
	// ls-remote matches ref tails; x/agent-fix/issue-1 is not agent-fix/issue-1.
	if tip, err := FetchBranch(ctx, RemoteOptions{Dir: clone}, "agent-fix/issue-1"); err != nil || tip != "" {
		t.Fatalf("FetchBranch(agent-fix/issue-1) = %q, %v; want no branch", tip, err)
	}
	_ = bare
}
