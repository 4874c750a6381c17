package e2e

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// weakenDiff is a revision that also rewrites the PR's reproducing test
// so that it asks for nothing.
const weakenDiff = docDiff + "--- a/calc_test.go\n+++ b/calc_test.go\n@@ -9,7 +9,7 @@ func TestAddZero(t *testing.T) {\n }\n \n func TestAddTwoThree(t *testing.T) {\n-\tif got := Add(2, 3); got != 5 {\n+\tif got := Add(2, 3); got != got {\n \t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n \t}\n }\n"

// provenPR is agentfix's PR that fixes an issue on a green suite: its
// first commit carries the test that reproduced the issue.
func provenPR(t *testing.T) (*actiontest.World, string, int) {
	w, pr := openedPR(t, actiontest.GreenProject, func(w *actiontest.World) {
		w.AnswerReproduceWith(actiontest.ReproDiff, actiontest.FixDiff)
	})
	test := actiontest.Git(t, w.Origin, nil, "show", pr.PR.Head+":calc_test.go")
	if !strings.Contains(test, "func TestAddTwoThree") {
		t.Fatalf("the PR does not carry its reproducing test:\n%s", test)
	}
	return w, pr.PR.Head, pr.Number
}

// A proven fix stays proven through a revision: with verify.proof: test,
// the revision asks for no new reproducing test (and so is never
// unproven), the PR's test is still there, unchanged, and passes.
func TestRevisionOfAProvenPRKeepsItsProof(t *testing.T) {
	t.Parallel()
	w, head, number := provenPR(t)
	prs := w.GH.OpenPRsByHead(actiontest.Repo, head)
	before, test := w.Tip(head), actiontest.Git(t, w.Origin, nil, "show", head+":calc_test.go")
	payload, _ := review(w, prs[0], "bob")
	r := w.Run("pull_request_review", payload)
	r.WantResult(t, 0, "fixed")
	after := w.Tip(head)
	r.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", after+"^") == before, "the revision is not one commit on top of %s", before)
	r.Must(t, strings.Contains(actiontest.Git(t, w.Origin, nil, "show", after+":calc.go"), "// Add returns a + b."), "the revision lacks the change")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "show", after+":calc_test.go") == test, "the reproducing test changed")
	r.Must(t, !strings.Contains(r.Stderr, "reproduce: attempt"), "a revision asked for a new reproducing test:\n%s", r.Stderr)
	r.Must(t, strings.Contains(r.Stderr, "TestAddTwoThree") && strings.Contains(r.Stderr, "--- PASS: TestAddTwoThree"), "the kept test did not run and pass:\n%s", r.Stderr)
	pr, _ := w.GH.Issue(actiontest.Repo, number)
	r.Must(t, strings.Contains(pr.Body, "The tests of the first version (`calc_test.go`) were kept"), "the PR body does not say the proof was kept:\n%s", pr.Body)
}

// A revision that rewrites the PR's reproducing test is refused by the
// patch engine: nothing is pushed, the test stays, and the reply says
// why.
func TestRevisionMayNotEditTheReproducingTest(t *testing.T) {
	t.Parallel()
	w, head, number := provenPR(t)
	prs := w.GH.OpenPRsByHead(actiontest.Repo, head)
	before := w.Tip(head)
	w.AnswerWith(weakenDiff)
	payload, _ := review(w, prs[0], "bob")
	r := w.Run("pull_request_review", payload)
	r.WantResult(t, 1, "not-fixed")
	r.Must(t, w.Tip(head) == before, "a revision that edits the reproducing test was pushed")
	r.Must(t, strings.Contains(r.Stderr, "frozen"), "the log does not say the test is frozen:\n%s", r.Stderr)
	var reply string
	for _, c := range w.GH.Comments(actiontest.Repo, number) {
		if strings.Contains(c.Body, "agentfix:revision") {
			reply = c.Body
		}
	}
	r.Must(t, strings.Contains(reply, "nothing was pushed"), "reply:\n%s", reply)
}
