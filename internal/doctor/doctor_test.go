package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/verify"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@x", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// goRepo makes a committed Go module checkout.
func goRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "init")
	return dir
}

// fakeGitHub answers GET /repos/o/r with the given push permission, under
// the /api/v3 prefix that GitHub Enterprise URLs use.
func fakeGitHub(t *testing.T, push bool) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v3/repos/o/r", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"Bad credentials"}`))
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"name": "r", "full_name": "o/r", "permissions": map[string]bool{"pull": true, "push": push}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v3"
}

func instant(ctx context.Context, d time.Duration) error { return ctx.Err() }

// TestDoctorCatchesEachMisconfiguration sets up a working environment, then
// breaks one thing per case and checks the doctor names it, with a fix.
func TestDoctorCatchesEachMisconfiguration(t *testing.T) {
	ollama := ollamafake.New(t,
		ollamafake.Model{Name: "qwen2.5-coder:14b", ContextLength: 32768, Tokenizer: "qwen2"},
		ollamafake.Model{Name: "tiny:1b", ContextLength: 4096},
	)
	ghGood, ghReadOnly := fakeGitHub(t, true), fakeGitHub(t, false)
	deadHost := func() string {
		s := httptest.NewServer(http.NotFoundHandler())
		s.Close()
		return s.URL
	}()

	type setup struct {
		repo     string
		env      map[string]string
		lookPath func(string) (string, error)
		limits   func(verify.Sandbox) verify.Limits
	}
	actionsEnv := func(gh string) map[string]string {
		return map[string]string{
			"OLLAMA_HOST": ollama.URL, "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "issues",
			"GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": gh, "INPUT_GITHUB-TOKEN": "tok",
			"PATH": os.Getenv("PATH"), // where bubblewrap is found
		}
	}
	tests := []struct {
		name    string
		mutate  func(t *testing.T, s *setup)
		failing string // the check that must fail; "" = all pass
		detail  string
	}{
		{name: "all good", failing: ""},
		{name: "not a repository", mutate: func(t *testing.T, s *setup) {
			s.repo = t.TempDir()
			os.WriteFile(filepath.Join(s.repo, "go.mod"), []byte("module x\n"), 0o644)
		}, failing: "repository", detail: "is not inside a git work tree"},
		{name: "dirty tree", mutate: func(t *testing.T, s *setup) {
			os.WriteFile(filepath.Join(s.repo, "go.mod"), []byte("module changed\n"), 0o644)
		}, failing: "repository", detail: "uncommitted changes"},
		{name: "invalid config", mutate: func(t *testing.T, s *setup) {
			os.MkdirAll(filepath.Join(s.repo, ".github"), 0o755)
			os.WriteFile(filepath.Join(s.repo, ".github", "agent-fix.yml"), []byte("modle: x\n"), 0o644)
			git(t, s.repo, "add", ".")
			git(t, s.repo, "commit", "-qm", "cfg")
		}, failing: "config", detail: `agent-fix.yml:1:1: unknown key "modle" (did you mean "model"?)`},
		{name: "ollama unreachable", mutate: func(t *testing.T, s *setup) { s.env["OLLAMA_HOST"] = deadHost }, failing: "ollama", detail: "cannot reach Ollama"},
		{name: "model missing", mutate: func(t *testing.T, s *setup) { s.env["AGENTFIX_MODEL"] = "llama3.1:70b" }, failing: "model", detail: "ollama pull llama3.1:70b"},
		{name: "model context too small", mutate: func(t *testing.T, s *setup) { s.env["AGENTFIX_MODEL"] = "tiny:1b" }, failing: "model", detail: "context length 4096 is below"},
		{name: "num_ctx larger than the model", mutate: func(t *testing.T, s *setup) {
			os.MkdirAll(filepath.Join(s.repo, ".github"), 0o755)
			os.WriteFile(filepath.Join(s.repo, ".github", "agent-fix.yml"), []byte("ollama: {num_ctx: 65536}\n"), 0o644)
			git(t, s.repo, "add", ".")
			git(t, s.repo, "commit", "-qm", "cfg")
		}, failing: "model", detail: "num_ctx 65536 is more than the model's context length 32768"},
		{name: "no verify command", mutate: func(t *testing.T, s *setup) {
			git(t, s.repo, "rm", "-q", "go.mod")
			git(t, s.repo, "commit", "-qm", "rm")
		}, failing: "verify commands", detail: "no test command could be detected"},
		{name: "verify tool missing", mutate: func(t *testing.T, s *setup) {
			s.lookPath = func(string) (string, error) { return "", errors.New("not found") }
		}, failing: "verify commands", detail: "go not found on PATH"},
		{name: "bubblewrap missing", mutate: func(t *testing.T, s *setup) { s.env["PATH"] = t.TempDir() }, failing: "sandbox", detail: "sudo apt-get install bubblewrap"},
		{name: "root without a writable cgroup", mutate: func(t *testing.T, s *setup) {
			s.limits = func(verify.Sandbox) verify.Limits {
				return verify.Limits{By: verify.LimitsRlimits, Unbound: "agentfix runs as root, which RLIMIT_NPROC does not bind", Fix: "delegate a cgroup (systemd: Delegate=yes on the runner service)"}
			}
		}, failing: "limits", detail: "NO process limit for the verify commands: agentfix runs as root, which RLIMIT_NPROC does not bind delegate a cgroup (systemd: Delegate=yes"},
		{name: "unsupported event", mutate: func(t *testing.T, s *setup) { s.env["GITHUB_EVENT_NAME"] = "push" }, failing: "event", detail: `event "push" is not one agentfix acts on`},
		{name: "no token", mutate: func(t *testing.T, s *setup) { delete(s.env, "INPUT_GITHUB-TOKEN") }, failing: "token", detail: "no GitHub token"},
		{name: "persisted credentials", mutate: func(t *testing.T, s *setup) {
			git(t, s.repo, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eA==")
		}, failing: "persist-credentials", detail: "persist-credentials: false"},
		{name: "token cannot push", mutate: func(t *testing.T, s *setup) { s.env["GITHUB_API_URL"] = ghReadOnly }, failing: "permissions", detail: "cannot push to o/r"},
		{name: "token rejected", mutate: func(t *testing.T, s *setup) { s.env["INPUT_GITHUB-TOKEN"] = "wrong" }, failing: "permissions", detail: "401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &setup{repo: goRepo(t), env: actionsEnv(ghGood), lookPath: func(f string) (string, error) { return "/usr/bin/" + f, nil },
				limits: func(verify.Sandbox) verify.Limits {
					return verify.Limits{By: verify.LimitsCgroupV2, Line: "at most 4096 MiB of memory, without swap, and 1024 processes and threads for the whole command (cgroup v2)"}
				}}
			if tt.mutate != nil {
				tt.mutate(t, s)
			}
			r := Run(context.Background(), Options{
				Repo: s.repo, Getenv: func(k string) string { return s.env[k] }, LookPath: s.lookPath,
				Ollama: llm.Options{Sleep: instant}, Limits: s.limits,
			})
			var out bytes.Buffer
			r.Print(&out)
			if tt.failing == "" {
				if !r.OK() {
					t.Fatalf("want all checks to pass:\n%s", out.String())
				}
				if c := r.Find("model"); c == nil || !strings.Contains(c.Detail, "windows sized for its tokenizer (qwen2)") {
					t.Errorf("the model check does not say the window is sized for the model's tokenizer:\n%s", out.String())
				}
				return
			}
			if r.OK() {
				t.Fatalf("want %q to fail:\n%s", tt.failing, out.String())
			}
			c := r.Find(tt.failing)
			if c == nil || c.OK || c.Skipped {
				t.Fatalf("check %q did not fail:\n%s", tt.failing, out.String())
			}
			if !strings.Contains(c.Detail+" "+c.Fix, tt.detail) {
				t.Errorf("check %q says %q / fix %q, want %q", tt.failing, c.Detail, c.Fix, tt.detail)
			}
			if c.Fix == "" {
				t.Errorf("check %q failed without a fix", tt.failing)
			}
			if !strings.Contains(out.String(), "✗ "+tt.failing) {
				t.Errorf("printed checklist lacks ✗ %s:\n%s", tt.failing, out.String())
			}
			for _, other := range r.Checks {
				if !other.OK && !other.Skipped && other.Name != tt.failing {
					t.Errorf("unrelated check %q failed too: %s", other.Name, other.Detail)
				}
			}
		})
	}
}

// TestLimitsCheckSaysTheMechanismInForceHere runs the real check: on this
// machine a verify command is limited by a cgroup, by rlimits, or not at
// all, and the doctor says which (failing when no process limit binds).
func TestLimitsCheckSaysTheMechanismInForceHere(t *testing.T) {
	t.Parallel()
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	env := map[string]string{"PATH": os.Getenv("PATH"), "OLLAMA_HOST": dead.URL}
	r := Run(context.Background(), Options{Repo: goRepo(t), Getenv: func(k string) string { return env[k] }, Ollama: llm.Options{Sleep: instant}})
	if c := r.Find("sandbox"); c == nil || !c.OK {
		t.Skipf("bubblewrap does not work here, so the limits are not checked: %+v", c)
	}
	c := r.Find("limits")
	if c == nil {
		t.Fatal("no limits check after a working sandbox")
	}
	want := verify.CheckLimits(verify.Sandbox{})
	t.Logf("limits: %+v", c)
	switch {
	case want.Unbound != "":
		if c.OK || !strings.Contains(c.Detail, "NO process limit") || !strings.Contains(c.Fix, "Delegate=yes") {
			t.Errorf("no process limit binds here (%s), yet the check says %+v", want.Unbound, c)
		}
	case !c.OK || !strings.HasPrefix(c.Detail, "at most") || !strings.Contains(c.Detail, "("+want.By):
		t.Errorf("the commands are limited by %s here, yet the check says %+v", want.By, c)
	}
}
