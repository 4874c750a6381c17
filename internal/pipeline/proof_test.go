package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// absTask is the abs project's issue; its checks pass before any change.
var absTask = agent.Task{Title: "Abs(-2) returns -2", Body: "It should return 2."}

const absPlan = `{"files": ["abs.go"], "steps": ["Return -x for negative x."]}`

func (w *world) script(replies ...string) {
	for _, r := range replies {
		w.srv.Script(testModel, ollamafake.Text(r))
	}
}

// A text task on a green suite is proven by its test: the branch carries
// the test and the fix, and the commit names the test.
func TestTextTaskOnAGreenSuiteIsProvenByItsTest(t *testing.T) {
	t.Parallel()
	w := newWorldOn(t, "abs")
	w.script(w.reply("abs-test.diff"), absPlan, w.reply("abs-fix.diff"))
	local := &Local{}
	out, err := w.run(Job{Name: "local", Task: absTask, Deliver: local})
	if err != nil || out.Result != Fixed || out.Proof().Kind != agent.ProofReproduced {
		t.Fatalf("err %v, outcome %+v\n%s", err, out, w.log.String())
	}
	if files := w.git("show", "--name-only", "--format=", local.Branch); files != "abs.go\nabs_test.go\n" {
		t.Errorf("the commit holds %q, want the test and the fix", files)
	}
	msg := w.git("log", "-1", "--format=%B", local.Branch)
	if !strings.Contains(msg, "Reproduced by: TestAbsNegative (abs_test.go)") || strings.Contains(msg, "Unproven") {
		t.Errorf("commit message:\n%s", msg)
	}
}

// The hollow change (a comment) is unproven: an UnprovenError, no branch,
// the diff kept, the tree untouched. With AllowUnproven it is committed
// and its message says so.
func TestHollowChangeIsUnproven(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		w := newWorldOn(t, "abs")
		comment := w.reply("abs-comment.diff")
		w.script(comment, comment, comment, absPlan, comment)
		local := &Local{OutDiff: filepath.Join(t.TempDir(), "out.diff"), AllowUnproven: allow}
		out, err := w.run(Job{Name: "local", Task: absTask, Deliver: local})
		var unproven *UnprovenError
		if !errors.As(err, &unproven) || out.Result != Unproven || !strings.Contains(out.Reason, "no test reproduced") {
			t.Fatalf("allow=%v: err %v, outcome %+v\n%s", allow, err, out, w.log.String())
		}
		if b, err := os.ReadFile(local.OutDiff); err != nil || !strings.Contains(string(b), "Abs(-2) is 2") {
			t.Errorf("allow=%v: diff not written: %v", allow, err)
		}
		if !allow {
			if local.Branch != "" || w.git("status", "--porcelain") != "" || w.git("branch", "--list", "agent-fix/*") != "" {
				t.Errorf("an unproven change was kept: branch %q, status %q", local.Branch, w.git("status", "--porcelain"))
			}
			continue
		}
		msg := w.git("log", "-1", "--format=%B", local.Branch)
		if !strings.Contains(msg, "Unproven: no test reproduces the task") || strings.Contains(msg, "Fixes") {
			t.Errorf("commit message:\n%s", msg)
		}
	}
}

// A text task on a red suite needs no reproduction: the failing checks are
// the proof, and the model is never asked for a test.
func TestTextTaskOnARedSuiteIsProvenByTheFailingChecks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.script(planReply, w.reply("fix.diff"))
	out, err := w.run(Job{Task: agent.Task{Title: "Sum drops the first element"}})
	if err != nil || out.Result != Fixed {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	p := out.Proof()
	if p.Kind != agent.ProofFailingChecks || !strings.Contains(strings.Join(p.Tests, ","), "TestSum") || p.Before == nil || p.Before.Passed || p.After == nil || !p.After.Passed {
		t.Errorf("proof = %+v", p)
	}
	if len(w.srv.Chats()[0].Format) == 0 {
		t.Error("the first request is not the plan: a reproduction was asked for")
	}
}

// verify.proof: checks keeps the behaviour before proofs: a change the
// checks pass is fixed, with no proof.
func TestProofChecksOptsOut(t *testing.T) {
	t.Parallel()
	w := newWorldOn(t, "abs")
	w.cfg.Verify.Proof = config.ProofChecks
	w.script(absPlan, w.reply("abs-comment.diff"))
	out, err := w.run(Job{Task: absTask})
	if err != nil || out.Result != Fixed || out.Proof().Kind != agent.ProofNone {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
}

// A proven run replays byte for byte without a model server: the
// reproduction, its check on the unfixed code, the fix.
func TestReplayOfAProvenRunIsIdentical(t *testing.T) {
	t.Parallel()
	w := newWorldOn(t, "abs")
	w.script(w.reply("abs-test.diff"), absPlan, w.reply("abs-comment.diff"), w.reply("abs-fix.diff"))
	out, err := w.run(Job{Task: absTask})
	if err != nil || out.Result != Fixed {
		t.Fatalf("recording run: %v %+v", err, out)
	}
	w.git("checkout", "--quiet", "--", ".")
	rec := w.recording(out.Session)
	w.srv.Close()
	rep, err := w.replay(rec, "")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Identical || rep.Outcome.Diff() != out.Diff() || rep.Outcome.Proof().Kind != agent.ProofReproduced {
		t.Fatalf("replay not identical: %s", rep.Divergence)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("replay left changes:\n%s", st)
	}
}
