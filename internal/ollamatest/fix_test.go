package ollamatest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The scripted replies of the end-to-end fix: the plan answers the plan
// request (its last message starts with the agent's plan request), the
// diff answers everything else.
const (
	fixPlan = `{"files":["calc.go"],"steps":["Add subtracts b from a; make it return a + b."]}`
	fixDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -3,5 +3,5 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n \n"
)

var coder = Model{
	ContextLength: 32768,
	Replies: []Reply{
		{When: LastContains("Before writing any code, plan the fix."), Text: fixPlan},
		{Text: fixDiff},
	},
}

// TestRealServerFix runs the built agentfix binary's fix command against a
// real Ollama server and the scripted model, on a copy of testdata/calc
// whose Add subtracts: it must plan, patch, verify with go test, and commit
// the fix on a local branch.
func TestRealServerFix(t *testing.T) {
	s := Start(t)
	s.MustCreate(t, "coder", coder)
	bin := buildAgentfix(t)
	repo := gitRepo(t, filepath.Join("testdata", "calc"))

	cmd := exec.Command(bin, "fix", "--repo", repo, "--json",
		"--task", "Add subtracts instead of adding",
		"--ollama-host", s.URL.String(), "--model", "coder", "--test-cmd", "go test ./...")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+s.URL.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("agentfix fix took %s", time.Since(start).Round(time.Millisecond))
	t.Log(stderr.String())
	if err != nil {
		t.Fatalf("agentfix fix: %v\nstderr:\n%s\nstdout:\n%s\nserver log (tail):\n%s", err, stderr.String(), stdout.String(), tail(s.Log(), 4000))
	}

	var rep struct {
		Result  string `json:"result"`
		Branch  string `json:"branch"`
		Commit  string `json:"commit"`
		Session string `json:"session"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("fix --json printed %q: %v", stdout.String(), err)
	}
	if rep.Result != "fixed" || !strings.HasPrefix(rep.Branch, "agent-fix/local-") || rep.Commit == "" {
		t.Fatalf("report = %+v, want fixed on an agent-fix/local-* branch\nstderr:\n%s", rep, stderr.String())
	}
	got := git(t, repo, "show", rep.Branch+":calc.go")
	if !strings.Contains(got, "return a + b") || strings.Contains(got, "return a - b") {
		t.Errorf("calc.go on %s:\n%s", rep.Branch, got)
	}

	// The session record holds both scripted replies as the model sent them.
	record, err := os.ReadFile(rep.Session)
	if err != nil {
		t.Fatalf("session record: %v", err)
	}
	for _, want := range []string{fixPlan, fixDiff} {
		quoted, _ := json.Marshal(want)
		if !bytes.Contains(record, quoted) {
			t.Errorf("session record lacks the reply %s", quoted)
		}
	}
}

// buildAgentfix builds cmd/agentfix into the test's temporary directory.
func buildAgentfix(t *testing.T) string {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	bin := filepath.Join(t.TempDir(), "agentfix")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/agentfix")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build agentfix: %v\n%s", err, out)
	}
	return bin
}

// gitRepo copies src into a new git repository with one commit.
func gitRepo(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	git(t, dst, "init", "-q", "-b", "main")
	git(t, dst, "add", ".")
	git(t, dst, "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "calc")
	return dst
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
