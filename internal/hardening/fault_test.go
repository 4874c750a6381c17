package hardening

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// faults is the fault matrix: each row injects one fault into a run that
// would otherwise fix issue #N and open one PR.
var faults = concat(ollamaFaults, githubFaults, processFaults)

func TestFaultMatrix(t *testing.T) { runMatrix(t, "fault", faults) }

func concat(lists ...[]scenario) []scenario {
	var out []scenario
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// fixIssue runs the label trigger on a new issue and returns it with the
// result.
func fixIssue(w *world) (int, *actiontest.Result) {
	n := w.AddIssue()
	return n, w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
}

// wantFixed checks a run that survived its fault: exit 0, fixed, the fix
// on agent-fix/issue-N, one PR, the status comment saying so.
func (c *check) wantFixed(w *world, r *actiontest.Result, n int) {
	c.t.Helper()
	c.must(r, r.Code == 0 && r.Outputs["result"] == "fixed", "want exit 0 and result fixed, got exit %d %q", r.Code, r.Outputs["result"])
	prs := w.GH.PullRequests(actiontest.Repo, "open")
	c.must(r, len(prs) == 1, "want one open PR, got %d", len(prs))
	c.must(r, w.show("refs/heads/agent-fix/issue-"+itoa(n), "calc.go") == actiontest.FixedCalc, "agent-fix/issue-%d does not hold the fix", n)
	c.must(r, strings.Contains(w.status(n), "Fixed"), "the status comment does not say fixed:\n%s", w.status(n))
}

// wantNotFixed checks a run that ended without a fix: exit code, result
// not-fixed, no PR, and the status comment giving reason.
func (c *check) wantNotFixed(w *world, r *actiontest.Result, n, code int, reason string) {
	c.t.Helper()
	c.must(r, r.Code == code && r.Outputs["result"] == "not-fixed", "want exit %d and result not-fixed, got exit %d %q", code, r.Code, r.Outputs["result"])
	c.must(r, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a PR was opened")
	st := w.status(n)
	c.must(r, strings.Contains(st, "Not fixed") && strings.Contains(st, reason), "the status comment does not say not fixed with %q:\n%s", reason, st)
}

// logged is the first stderr line containing s, trimmed.
func logged(r *actiontest.Result, s string) string {
	for _, l := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(l, s) {
			return oneLine(strings.TrimPrefix(l, "agentfix: "))
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }
