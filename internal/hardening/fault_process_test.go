package hardening

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// withTest is the project with calc_test.go replaced.
func withTest(test string) map[string]string {
	return map[string]string{"go.mod": actiontest.Project["go.mod"], "calc.go": actiontest.Project["calc.go"], "calc_test.go": test}
}

// hangingTest hangs when Add is wrong (when !fixed) or right (when fixed),
// after starting a child "sleep 3600.<n>" and writing the child's pid to
// pidFile. In the sandbox the pid is the PID namespace's, so the host finds
// the child by its arguments instead (see alive); pidFile lies in a
// directory the config makes writable (hangConfig).
func hangingTest(pidFile string, whenFixed bool) string {
	cond := "got != 5"
	if whenFixed {
		cond = "got == 5"
	}
	return fmt.Sprintf(`package calc

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); %s {
		child := exec.Command("sleep", %q)
		child.Start()
		os.WriteFile(%q, []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		time.Sleep(time.Hour)
	}
	if got := Add(2, 3); got != 5 {
		t.Fatalf("Add(2, 3) = %%d, want 5", got)
	}
}
`, cond, sleepArg(pidFile), pidFile)
}

// sleepArg is the unique duration the hanging test's child sleeps.
func sleepArg(pidFile string) string {
	h := fnv.New32a()
	h.Write([]byte(pidFile))
	return fmt.Sprintf("3600.%d", h.Sum32()%1000000)
}

// hangConfig makes the pid file's directory writable for the tests.
func hangConfig(pidFile, extra string) string {
	return "verify:\n  writable: [" + filepath.Dir(pidFile) + "]\n" + extra
}

// alive reports whether the hanging test's child still runs (a zombie
// waiting for its reaper counts as gone), and the pid the test wrote (0
// when it never ran).
func alive(pidFile string) (int, bool) {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, false
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		return 0, false
	}
	want := []byte("sleep\x00" + sleepArg(pidFile) + "\x00")
	entries, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, e := range entries {
		if cmd, _ := os.ReadFile(e); !bytes.Equal(cmd, want) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(filepath.Dir(e), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 0 && f[0] != "Z" && f[0] != "X" {
			return pid, true
		}
	}
	return pid, false
}

// gone waits for the process in pidFile to end, up to a minute: far more
// than a killed process takes to be reaped on a loaded machine.
func gone(pidFile string) (int, bool) {
	for i := 0; i < 600; i++ {
		pid, ok := alive(pidFile)
		if !ok {
			return pid, true
		}
		time.Sleep(100 * time.Millisecond)
	}
	pid, _ := alive(pidFile)
	return pid, false
}

// waitFile waits up to d for path to exist.
func waitFile(path string, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return true
		}
	}
	return false
}

var processFaults = []scenario{
	{"process: test hang", "killed with its process group after verify.timeout; the fix passes; fixed, one PR", func(t *testing.T, c *check) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		w := newWorld(t, withTest(hangingTest(pidFile, false)))
		w.config(hangConfig(pidFile, "  timeout: 15s\n"))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		pid, ok := gone(pidFile)
		c.must(r, pid > 0, "the hanging test never ran")
		c.must(r, ok, "the hanging test (pid %d) still runs", pid)
		c.must(r, strings.Contains(r.Summary, "timed out"), "the step summary does not say the checks timed out:\n%s", r.Summary)
		c.see("exit 0 fixed; hanging test pid %d killed; before: %q", pid, statusLine(r.Summary, "timed out"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"process: 50 MB of test output", "output capped: agentfix stays under 100 MB, PR body, comment and session record stay small; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, withTest(`package calc

import (
	"os"
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; i < 50*1024; i++ {
			os.Stdout.WriteString(line)
		}
		t.Fatalf("Add(2, 3) = %d, want 5", got)
	}
}
`))
		// The real process: its peak memory is measured.
		n := w.AddIssue()
		r := w.RunBinary("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
		c.wantFixed(w, r, n)
		prs := w.GH.PullRequests(actiontest.Repo, "")
		var recSize int64
		for _, p := range w.sessionPaths("fix-issue") {
			if fi, err := os.Stat(p); err == nil {
				recSize += fi.Size()
			}
		}
		c.must(r, len(prs) == 1 && len(prs[0].Body) <= 65536, "PR body too big")
		c.must(r, recSize < 4<<20, "session record is %d bytes", recSize)
		c.must(r, r.OwnRSS > 0 && r.OwnRSS < 100<<20, "agentfix peaked at %d MB", r.OwnRSS>>20)
		c.see("exit 0 fixed; PR body %d KB, status %d KB, session record %d KB; peak RSS agentfix ≈%d MB, largest child (go) %d MB",
			len(prs[0].Body)>>10, len(w.status(n))>>10, recSize>>10, r.OwnRSS>>20, r.MaxRSS>>20)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"process: SIGTERM during the model request", "the request is cancelled; exit non-zero at once; status posted; session record kept; nothing pushed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		var run atomic.Pointer[actiontest.Running]
		var signalled atomic.Int64
		// The reply would take hours: only a cancelled request lets the run
		// end, so no clock needs reading to tell.
		w.Ollama.Script(actiontest.Model, ollamafake.Text(actiontest.PlanJSON), ollamafake.Reply{Content: "```diff\n" + actiontest.FixDiff + "```\n", Started: func() {
			for run.Load() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			signalled.Store(time.Now().UnixNano())
			run.Load().Cmd.Process.Signal(syscall.SIGTERM)
		}}.Slowly(time.Hour))
		n := w.AddIssue()
		rn := w.Start("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
		run.Store(rn)
		r := rn.Wait()
		after := time.Since(time.Unix(0, signalled.Load()))
		c.must(r, signalled.Load() != 0, "the model request never started")
		c.must(r, r.Code != 0, "exit 0 after SIGTERM")
		c.must(r, len(w.Ollama.Chats()) == 2, "the cancelled request was retried: %d chats", len(w.Ollama.Chats()))
		st := w.status(n)
		c.must(r, strings.Contains(st, "Not fixed"), "the status comment does not say how the run ended:\n%s", st)
		c.must(r, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a PR was opened")
		c.see("exit %d %s %s after SIGTERM; status: %q", r.Code, r.Outputs["result"], after.Round(100*time.Millisecond), statusLine(st, "Not fixed"))
		c.settle(w, r, outcome{session: "fix-issue"})
	}},
	{"process: SIGTERM during the tests", "the test process group is killed; exit non-zero; status posted; session record kept; nothing pushed", func(t *testing.T, c *check) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		w := newWorld(t, withTest(hangingTest(pidFile, true)))
		w.config(hangConfig(pidFile, ""))
		n := w.AddIssue()
		rn := w.Start("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
		if !waitFile(pidFile, 60*time.Second) {
			rn.Cmd.Process.Kill()
			c.must(rn.Wait(), false, "the fixed test never started")
		}
		signalled := time.Now()
		rn.Cmd.Process.Signal(syscall.SIGTERM)
		r := rn.Wait()
		after := time.Since(signalled)
		pid, ok := gone(pidFile)
		c.must(r, ok, "the test (pid %d) still runs after agentfix exited", pid)
		c.must(r, r.Code != 0, "exit 0 after SIGTERM")
		st := w.status(n)
		c.must(r, strings.Contains(st, "Not fixed"), "the status comment does not say how the run ended:\n%s", st)
		c.must(r, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a PR was opened")
		out, _ := os.ReadFile(filepath.Join(w.Workspace, "calc.go"))
		c.must(r, string(out) == actiontest.Project["calc.go"], "the work tree was not restored")
		c.see("exit %d %s %s after SIGTERM; test pid %d killed; status: %q", r.Code, r.Outputs["result"], after.Round(100*time.Millisecond), pid, statusLine(st, "Not fixed"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue"})
	}},
	{"process: disk full writing the session record", "(agentfix fix --session /dev/full) reported once, the run stops before asking the model: exit 1, record-failed, tree untouched, no branch", func(t *testing.T, c *check) {
		// The action names its record itself (unique per loop), so this
		// row runs agentfix fix with --session on /dev/full, whose every
		// write fails with ENOSPC.
		w := newWorld(t, nil)
		cmd := exec.Command(actiontest.Bin(), "fix", "--repo", w.Workspace, "--task", "Add returns the wrong sum: Add(2, 3) gives -1.", "--session", "/dev/full")
		cmd.Env = append(actiontest.BaseEnv(), "OLLAMA_HOST="+w.Ollama.URL, "AGENTFIX_MODEL="+actiontest.Model, "GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com",
			"GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com", "GITHUB_TOKEN="+token)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		r := &actiontest.Result{Stdout: stdout.String(), Stderr: stderr.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.Code = ee.ExitCode()
		}
		msg := logged(r, "no space left on device")
		c.must(r, msg != "", "the full disk was not reported")
		c.must(r, strings.Count(r.Stderr, "session record: ") == 1, "the record failure was reported %d times", strings.Count(r.Stderr, "session record: "))
		c.must(r, r.Code == 1 && strings.Contains(r.Stdout+r.Stderr, "record-failed"), "want exit 1 and record-failed, got exit %d", r.Code)
		c.must(r, len(w.Ollama.Chats()) == 0, "the model was asked although nothing could be recorded")
		branch := strings.TrimSpace(gitOut(w.Workspace, "branch", "--list", "agent-fix/local-*", "--format=%(refname:short)"))
		c.must(r, branch == "", "a branch %s was committed without its record", branch)
		c.must(r, strings.TrimSpace(gitOut(w.Workspace, "status", "--porcelain")) == "", "the work tree was changed")
		c.see("exit %d record-failed before the first model call; %q", r.Code, msg)
		c.settle(w, r, outcome{})
	}},
}
