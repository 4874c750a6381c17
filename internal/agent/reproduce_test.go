package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// absTask is the issue of the abs project, whose tests pass: Abs(-2) is
// -2. Nothing fails before a change, so only a test can prove a fix.
var absTask = Task{Title: "Abs(-2) returns -2", Body: "It should return 2."}

const absPlan = `{"files": ["abs.go"], "steps": ["Return -x for negative x."]}`

// reproduceRun runs the loop on the abs project with a reproduction asked
// for, the model answering with replies in order.
func reproduceRun(t *testing.T, replies ...string) (*harness, *Result) {
	t.Helper()
	return reproduceIn(t, 0, replies...)
}

// reproduceIn is reproduceRun with limits.max_rounds set to rounds (the
// harness's when 0).
func reproduceIn(t *testing.T, rounds int, replies ...string) (*harness, *Result) {
	t.Helper()
	h := newHarness(t, "abs")
	if rounds > 0 {
		h.cfg.Limits.MaxRounds = rounds
	}
	return h, runReproducing(t, h, absTask, replies...)
}

// runReproducing runs task on h with a reproduction asked for, the model
// answering with replies in order, each of which must be asked for.
func runReproducing(t *testing.T, h *harness, task Task, replies ...string) *Result {
	t.Helper()
	for _, r := range replies {
		h.srv.Script(testModel, ollamafake.Text(r))
	}
	job := h.job(task)
	job.Reproduce = true
	res, err := Run(context.Background(), job)
	if err != nil {
		t.Fatalf("Run: %v\nlog:\n%s", err, h.log.String())
	}
	if left := h.srv.Unused(); len(left) > 0 {
		t.Errorf("scripted replies not asked for: %v", left)
	}
	return res
}

// asked is the last message of the model's i-th request (negative: from
// the end).
func (h *harness) asked(i int) string {
	chats := h.srv.Chats()
	if i < 0 {
		i += len(chats)
	}
	msgs := chats[i].Messages
	return msgs[len(msgs)-1].Content
}

// wantChecks fails unless the record's checks, by stage and outcome, are
// want ("reproduce=failed reproduced=passed full=passed").
func (h *harness) wantChecks(want string) {
	h.t.Helper()
	if got := strings.Join(h.checkStages(), " "); got != want {
		h.t.Errorf("checks = %s, want %s", got, want)
	}
}

func (h *harness) checkStages() []string {
	var out []string
	for _, e := range h.events() {
		var c Check
		if e.Kind == "check" && e.Decode(&c) == nil {
			out = append(out, c.Stage+"="+passFail(c.Report.Passed))
		}
	}
	return out
}

// The hollow fix: the model never writes a test and answers with a
// comment. The suite passes with it, as it did without it: unproven, never
// fixed, and the tree back where it started.
func TestHollowFixIsUnproven(t *testing.T) {
	t.Parallel()
	comment := reply(t, "abs-comment.diff")
	h, res := reproduceRun(t, comment, comment, comment, absPlan, comment)
	if res.Result != Unproven || res.StopReason != StopUnproven || !strings.Contains(res.StopDetail, "no test reproduced") {
		t.Fatalf("result %s/%s (%s), want unproven\n%s", res.Result, res.StopReason, res.StopDetail, h.log.String())
	}
	if res.Proof == nil || res.Proof.Kind != ProofNone || !strings.Contains(res.Diff, "Abs(-2) is 2") {
		t.Errorf("proof %+v, diff:\n%s", res.Proof, res.Diff)
	}
	h.assertPristine()
	// Each reproduce attempt was told why it did not count.
	if last := h.asked(2); !strings.Contains(last, "changes no test file (it changes abs.go)") || !strings.Contains(last, "**/*_test.go") {
		t.Errorf("third reproduce request:\n%s", last)
	}
}

// A test that passes on the unfixed code reproduces nothing: the model is
// told so, and with no better test the run ends unproven.
func TestPassingTestIsToldAndEndsUnproven(t *testing.T) {
	t.Parallel()
	zero := reply(t, "abs-passing-test.diff")
	h, res := reproduceRun(t, zero, zero, zero, absPlan, reply(t, "abs-fix.diff"))
	if res.Result != Unproven {
		t.Fatalf("result %s (%s), want unproven\n%s", res.Result, res.StopDetail, h.log.String())
	}
	if msg := h.asked(1); !strings.Contains(msg, "Your test passes on the code as it is now") || !strings.Contains(msg, "go test .") {
		t.Errorf("second reproduce request does not say the test passed:\n%s", msg)
	}
	h.wantChecks("reproduce=passed reproduce=passed reproduce=passed full=passed")
	h.assertPristine()
}

// The test, then the fix, in separate replies: proven. The PR carries
// both; the proof names the test, its failure before and its pass after.
func TestTestThenFixIsProven(t *testing.T) {
	t.Parallel()
	h, res := reproduceRun(t, reply(t, "abs-test.diff"), absPlan, reply(t, "abs-fix.diff"))
	if res.Result != Fixed || res.StopReason != StopVerified {
		t.Fatalf("result %s/%s (%s)\n%s", res.Result, res.StopReason, res.StopDetail, h.log.String())
	}
	p := res.Proof
	if p.Kind != ProofReproduced || strings.Join(p.Tests, ",") != "TestAbsNegative" || strings.Join(p.Files, ",") != "abs_test.go" {
		t.Fatalf("proof = %+v", p)
	}
	if p.Before == nil || p.Before.Passed || !strings.Contains(p.Before.Commands[0].Output, "Abs(-2) = -2, want 2") || p.After == nil || !p.After.Passed {
		t.Errorf("before %+v after %+v", p.Before, p.After)
	}
	if strings.Join(res.Files, ",") != "abs_test.go,abs.go" || !strings.Contains(res.Diff, "+func TestAbsNegative") || !strings.Contains(res.Diff, "+\t\treturn -x") {
		t.Errorf("files %v, diff:\n%s", res.Files, res.Diff)
	}
	h.wantChecks("reproduce=failed reproduced=passed full=passed")
	if !strings.Contains(h.file("abs_test.go"), "TestAbsNegative") || !strings.Contains(h.file("abs.go"), "return -x") {
		t.Error("the work tree does not hold the test and the fix")
	}
	if !strings.Contains(res.StopDetail, "TestAbsNegative, which fails without the fix") {
		t.Errorf("detail = %s", res.StopDetail)
	}
}

// One reply with the test and the fix is split: the test runs on the
// unfixed code first (and fails), then the fix is applied and proven,
// with no further request.
func TestTestAndFixInOneReplyIsSplit(t *testing.T) {
	t.Parallel()
	h, res := reproduceRun(t, reply(t, "abs-test-and-fix.diff"))
	if res.Result != Fixed || res.Proof.Kind != ProofReproduced || strings.Join(res.Proof.Tests, ",") != "TestAbsNegative" {
		t.Fatalf("result %s (%s) proof %+v\n%s", res.Result, res.StopDetail, res.Proof, h.log.String())
	}
	h.wantChecks("reproduce=failed reproduced=passed full=passed")
	if len(h.srv.Chats()) != 1 {
		t.Errorf("%d requests; the reply held both the test and the fix", len(h.srv.Chats()))
	}
}

// A model that writes a failing test and then weakens it instead of
// fixing the code is refused by the patch stage, told why, and ends not
// fixed with the tree back where it started.
func TestWeakeningTheFrozenTestIsRefused(t *testing.T) {
	t.Parallel()
	weaken := reply(t, "abs-weaken.diff")
	h, res := reproduceIn(t, 1, reply(t, "abs-test.diff"), absPlan, weaken, weaken, weaken)
	if res.Result != NotFixed {
		t.Fatalf("result %s (%s)\n%s", res.Result, res.StopDetail, h.log.String())
	}
	if msg := h.asked(-1); !strings.Contains(msg, "abs_test.go: is the test that reproduces the issue") || !strings.Contains(msg, "frozen") {
		t.Errorf("the refusal was not fed back:\n%s", msg)
	}
	h.wantChecks("reproduce=failed")
	h.assertPristine()
}

// After a failed round the tree goes back to the checkpoint with the
// frozen test in it, so the next round is judged by the same test.
func TestWrongFixThenRightKeepsTheTest(t *testing.T) {
	t.Parallel()
	h, res := reproduceRun(t, reply(t, "abs-test.diff"), absPlan, reply(t, "abs-comment.diff"), reply(t, "abs-fix.diff"))
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("result %s after %d rounds (%s)\n%s", res.Result, res.Rounds, res.StopDetail, h.log.String())
	}
	h.wantChecks("reproduce=failed reproduced=failed reproduced=passed full=passed")
	if strings.Contains(res.Diff, "Abs(-2) is 2") {
		t.Errorf("the failed round's change is in the fix:\n%s", res.Diff)
	}
}

// A test that does not compile for a reason other than a missing name is
// a broken test, not a reproduction.
func TestBrokenTestIsNotAReproduction(t *testing.T) {
	t.Parallel()
	broken := "```diff\n--- /dev/null\n+++ b/neg_test.go\n@@ -0,0 +1,5 @@\n+package abs\n+\n+import \"os\"\n+\n+func TestNeg(t *testing.T) { Abs(-1) }\n```\n"
	undefined := "```diff\n--- /dev/null\n+++ b/neg_test.go\n@@ -0,0 +1,9 @@\n+package abs\n+\n+import \"testing\"\n+\n+func TestNegate(t *testing.T) {\n+\tif Negate(2) != -2 {\n+\t\tt.Fatal(\"Negate(2) != -2\")\n+\t}\n+}\n```\n"
	h, res := reproduceRun(t, broken, undefined, absPlan, reply(t, "abs-comment.diff"), reply(t, "abs-comment.diff"))
	if msg := h.asked(1); !strings.Contains(msg, "it fails outside any test") {
		t.Errorf("second reproduce request:\n%s", msg)
	}
	// A missing function is what the task asks for: it reproduces.
	if res.Proof.Kind != ProofReproduced || strings.Join(res.Proof.Tests, ",") != "TestNegate" {
		t.Fatalf("proof %+v\n%s", res.Proof, h.log.String())
	}
	if res.Result != NotFixed {
		t.Errorf("result %s: a comment does not define Negate", res.Result)
	}
}

// A hostile fix that makes the frozen test pass without running it (a
// TestMain that exits 0 before any test) is not a fix: the runner never
// reports the reproducing test passing.
func TestFixThatSkipsTheFrozenTestIsNotProven(t *testing.T) {
	t.Parallel()
	skip := "```diff\n--- /dev/null\n+++ b/main_test.go\n@@ -0,0 +1,8 @@\n+package abs\n+\n+import (\n+\t\"os\"\n+\t\"testing\"\n+)\n+\n+func TestMain(m *testing.M) { os.Exit(0) }\n```\n"
	h, res := reproduceIn(t, 1, reply(t, "abs-test.diff"), absPlan, skip)
	if res.Result == Fixed {
		t.Fatalf("a fix that never runs the reproducing test is %s\n%s", res.Result, h.log.String())
	}
	f := res.Verify.Failures()
	if len(f) != 1 || f[0].Test != "TestAbsNegative" || !strings.Contains(f[0].Output, "did not report it passing") {
		t.Errorf("failures = %+v", f)
	}
	h.assertPristine()
}
