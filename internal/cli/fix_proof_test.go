package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/fixtures"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// A real bug per test runner, fixed through `agentfix fix --task` on a
// project whose tests pass: nothing fails before the change, so the model
// must first write a test that fails, and the fix is judged by it. Each
// project is in testdata/projects; the model's replies are in
// testdata/replies.

// proofReport is the part of `fix --json` these tests read.
type proofReport struct {
	Result, Branch, StopReason, Diff string
	Files                            []string
	Proof                            struct {
		Kind          string
		Tests, Files  []string
		Before, After *struct{ Passed bool }
	}
}

func runFixJSON(t *testing.T, args ...string) (int, proofReport, string) {
	t.Helper()
	code, stdout, stderr := runFixCmd(t, append([]string{"fix", "--json"}, args...)...)
	var rep proofReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("exit %d, --json output is not JSON: %v\n%s\n%s", code, err, stdout, stderr)
	}
	return code, rep, stderr
}

func needTool(t *testing.T, name string) { t.Helper(); fixtures.NeedTool(t, name) }

// script makes srv answer with replies, in order.
func script(srv *ollamafake.Server, replies ...string) {
	for _, r := range replies {
		srv.Script(e2eModel, ollamafake.Text(r))
	}
}

func TestFixProvenGo(t *testing.T) {
	t.Parallel()
	repo := fixProject(t, "abs")
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	script(srv, fixReply(t, "abs-test.diff"), `{"files": ["abs.go"], "steps": ["Return -x for negative x."]}`, fixReply(t, "abs-fix.diff"))
	code, rep, stderr := runFixJSON(t, "--repo", repo, "--task", "Abs(-2) returns -2; it should return 2", "--ollama-host", srv.URL)
	if code != 0 || rep.Result != "fixed" {
		t.Fatalf("exit %d, result %s\n%s", code, rep.Result, stderr)
	}
	p := rep.Proof
	if p.Kind != "reproduced" || strings.Join(p.Tests, ",") != "TestAbsNegative" || strings.Join(p.Files, ",") != "abs_test.go" ||
		p.Before == nil || p.Before.Passed || p.After == nil || !p.After.Passed {
		t.Errorf("proof = %+v", p)
	}
	if got := fixGit(t, repo, "show", "--name-only", "--format=", rep.Branch); got != "abs.go\nabs_test.go\n" {
		t.Errorf("the branch's commit holds %q, want the test with the fix", got)
	}
}

func TestFixProvenPytest(t *testing.T) {
	t.Parallel()
	needTool(t, "pytest")
	repo := fixProject(t, "pyclamp")
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	script(srv, fixReply(t, "pyclamp-test.diff"), `{"files": ["clamp.py"], "steps": ["Return hi above the range."]}`, fixReply(t, "pyclamp-fix.diff"))
	code, rep, stderr := runFixJSON(t, "--repo", repo, "--task", "clamp(15, 0, 10) returns 15; it should return 10",
		"--test-cmd", "pytest -p no:cacheprovider", "--ollama-host", srv.URL)
	if code != 0 || rep.Result != "fixed" {
		t.Fatalf("exit %d, result %s\n%s", code, rep.Result, stderr)
	}
	if p := rep.Proof; p.Kind != "reproduced" || strings.Join(p.Tests, ",") != "tests/test_clamp.py::test_above" {
		t.Errorf("proof = %+v", p)
	}
	// The test ran narrowed to its file, with every pass named.
	if !strings.Contains(stderr, "pytest -p no:cacheprovider -rA tests/test_clamp.py") {
		t.Errorf("the reproduction did not run narrowed:\n%s", stderr)
	}
	if got := fixGit(t, repo, "show", rep.Branch+":clamp.py"); !strings.Contains(got, "return hi") {
		t.Errorf("clamp.py on the branch:\n%s", got)
	}
}

// The node project's model answers with the test and the fix in one
// reply: it is split, the test run alone on the unfixed code first.
func TestFixProvenNodeTestRunner(t *testing.T) {
	t.Parallel()
	needTool(t, "node")
	needTool(t, "npm")
	repo := fixProject(t, "nodeslug")
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	script(srv, fixReply(t, "nodeslug-test-and-fix.diff"))
	code, rep, stderr := runFixJSON(t, "--repo", repo, "--task", "slug('A B C') gives 'a-b c'", "--test-cmd", "npm test", "--ollama-host", srv.URL)
	if code != 0 || rep.Result != "fixed" {
		t.Fatalf("exit %d, result %s\n%s", code, rep.Result, stderr)
	}
	if p := rep.Proof; p.Kind != "reproduced" || strings.Join(p.Tests, ",") != "three words" || strings.Join(p.Files, ",") != "test/slug.test.js" {
		t.Errorf("proof = %+v", p)
	}
	if strings.Join(rep.Files, ",") != "test/slug.test.js,lib/slug.js" {
		t.Errorf("files = %v", rep.Files)
	}
	if len(srv.Chats()) != 1 {
		t.Errorf("%d requests for one reply with both the test and the fix", len(srv.Chats()))
	}
}

// The hollow case: a comment, and no test. The checks pass with it as
// they did without it: unproven, exit 1, the diff in --out-diff, the tree
// and the branches untouched; --allow-unproven keeps it with exit 0.
func TestFixHollowChangeIsUnproven(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		repo := fixProject(t, "abs")
		srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
		comment := fixReply(t, "abs-comment.diff")
		script(srv, comment, comment, comment, `{"files": ["abs.go"], "steps": ["Document Abs."]}`, comment)
		out := filepath.Join(t.TempDir(), "out.diff")
		args := []string{"--repo", repo, "--task", "Abs(-2) returns -2; it should return 2", "--out-diff", out, "--ollama-host", srv.URL}
		if allow {
			args = append(args, "--allow-unproven")
		}
		code, rep, stderr := runFixJSON(t, args...)
		if rep.Result != "unproven" || rep.Proof.Kind != "none" {
			t.Fatalf("allow=%v: result %s, proof %+v\n%s", allow, rep.Result, rep.Proof, stderr)
		}
		if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "Abs(-2) is 2") {
			t.Errorf("allow=%v: --out-diff: %v %s", allow, err, b)
		}
		if !allow {
			if code != 1 || rep.Branch != "" {
				t.Errorf("exit %d, branch %q; want 1 and none", code, rep.Branch)
			}
			if st := fixGit(t, repo, "status", "--porcelain"); st != "" {
				t.Errorf("tree changed:\n%s", st)
			}
			continue
		}
		if code != 0 || rep.Branch == "" {
			t.Errorf("--allow-unproven: exit %d, branch %q", code, rep.Branch)
		}
	}
	// The text form says it plainly.
	repo := fixProject(t, "abs")
	srv := ollamafake.New(t, ollamafake.Model{Name: e2eModel})
	comment := fixReply(t, "abs-comment.diff")
	script(srv, comment, comment, comment, `{"files": ["abs.go"], "steps": ["Document Abs."]}`, comment)
	code, stdout, _ := runFixCmd(t, "fix", "--repo", repo, "--task", "Abs(-2) returns -2", "--ollama-host", srv.URL)
	if code != 1 || !strings.Contains(stdout, "unproven after 1 round(s)") || !strings.Contains(stdout, "proof: none") || strings.Contains(stdout, "fixed in") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}
