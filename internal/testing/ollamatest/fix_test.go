package ollamatest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/cli"
)

// The scripted replies of the end-to-end fix: the plan answers the plan
// request (its last message holds the agent's plan request); the diff, or
// first a wrong diff and after the failed checks the right one, answer the
// patch requests.
const (
	fixPlan   = `{"files":["calc.go"],"steps":["Add subtracts b from a; make it return a + b."]}`
	fixDiff   = "--- a/calc.go\n+++ b/calc.go\n@@ -3,5 +3,5 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n \n"
	wrongDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -3,5 +3,5 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a * b\n }\n \n"
)

var planned = Reply{When: LastContains("Before writing any code, plan the fix."), Text: fixPlan}

// TestRealServerFix runs agentfix fix (in-process, through the command
// entry point) against a real Ollama server and a scripted model, on a copy of testdata/calc whose
// Add subtracts: it must plan, patch, verify with go test (feeding a
// failure back when the first diff is wrong), and commit the fix on a
// local branch.
func TestRealServerFix(t *testing.T) {
	s := Start(t)
	cases := []struct {
		name    string
		replies []Reply
		rounds  int
	}{
		{"first diff right", []Reply{planned, {Text: fixDiff}}, 1},
		{"wrong diff, then the right one", []Reply{planned, {When: LastContains("the checks failed"), Text: fixDiff}, {Text: wrongDiff}}, 2},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := fmt.Sprintf("coder%d", i)
			s.MustCreate(t, model, Model{ContextLength: 32768, Replies: c.replies})
			repo := gitRepo(t, filepath.Join("testdata", "calc"))
			rep, stderr := runFix(t, s, repo, model)
			if rep.Result != "fixed" || rep.Rounds != c.rounds || !strings.HasPrefix(rep.Branch, "agent-fix/local-") || rep.Commit == "" {
				t.Fatalf("report = %+v, want fixed in %d round(s) on an agent-fix/local-* branch\nstderr:\n%s", rep, c.rounds, stderr)
			}
			got := git(t, repo, "show", rep.Branch+":calc.go")
			if !strings.Contains(got, "return a + b") || strings.Contains(got, "return a - b") {
				t.Errorf("calc.go on %s:\n%s", rep.Branch, got)
			}
			// The session record holds every scripted reply as the model sent it.
			record, err := os.ReadFile(rep.Session)
			if err != nil {
				t.Fatalf("session record: %v", err)
			}
			for _, r := range c.replies {
				quoted, _ := json.Marshal(r.Text)
				if !bytes.Contains(record, quoted) {
					t.Errorf("session record lacks the reply %s", quoted)
				}
			}
		})
	}
}

// fixReport is the part of agentfix fix --json the tests read.
type fixReport struct {
	Result  string `json:"result"`
	Rounds  int    `json:"rounds"`
	Branch  string `json:"branch"`
	Commit  string `json:"commit"`
	Session string `json:"session"`
}

// runFix runs agentfix fix on repo with model from s, and returns its
// report and its log.
func runFix(t *testing.T, s *Server, repo, model string) (fixReport, string) {
	t.Helper()
	args := []string{"fix", "--repo", repo, "--json",
		"--task", "Add subtracts instead of adding",
		"--ollama-host", s.URL.String(), "--model", model, "--test-cmd", "go test ./..."}
	env := map[string]string{}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if name != "OLLAMA_HOST" && name != "GITHUB_ACTIONS" && !strings.HasPrefix(name, "AGENTFIX_") && !strings.HasPrefix(name, "INPUT_") {
			env[name] = value
		}
	}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := cli.Main(context.Background(), args, cli.MapEnv(env, nil, &stdout, &stderr))
	t.Logf("agentfix fix took %s\n%s", time.Since(start).Round(time.Millisecond), stderr.String())
	if code != 0 {
		t.Fatalf("agentfix fix: exit %d\nstderr:\n%s\nstdout:\n%s\nserver log (tail):\n%s", code, stderr.String(), stdout.String(), tail(s.Log(), 4000))
	}
	var rep fixReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("fix --json printed %q: %v", stdout.String(), err)
	}
	return rep, stderr.String()
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
