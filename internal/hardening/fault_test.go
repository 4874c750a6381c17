package hardening

import (
	"strconv"
	"strings"
	"testing"
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
func fixIssue(w *world) (int, *result) {
	n := w.addIssue()
	return n, w.run("issues", labeledPayload(n, "alice"))
}

// wantFixed checks a run that survived its fault: exit 0, fixed, the fix
// on agent-fix/issue-N, one PR, the status comment saying so.
func (c *check) wantFixed(w *world, r *result, n int) {
	c.t.Helper()
	c.must(r, r.code == 0 && r.outputs["result"] == "fixed", "want exit 0 and result fixed, got exit %d %q", r.code, r.outputs["result"])
	prs := w.gh.PullRequests(repoName, "open")
	c.must(r, len(prs) == 1, "want one open PR, got %d", len(prs))
	c.must(r, w.show("refs/heads/agent-fix/issue-"+itoa(n), "calc.go") == fixedCalc, "agent-fix/issue-%d does not hold the fix", n)
	c.must(r, strings.Contains(w.status(n), "Fixed"), "the status comment does not say fixed:\n%s", w.status(n))
}

// wantNotFixed checks a run that ended without a fix: exit code, result
// not-fixed, no PR, and the status comment giving reason.
func (c *check) wantNotFixed(w *world, r *result, n, code int, reason string) {
	c.t.Helper()
	c.must(r, r.code == code && r.outputs["result"] == "not-fixed", "want exit %d and result not-fixed, got exit %d %q", code, r.code, r.outputs["result"])
	c.must(r, len(w.gh.PullRequests(repoName, "")) == 0, "a PR was opened")
	st := w.status(n)
	c.must(r, strings.Contains(st, "Not fixed") && strings.Contains(st, reason), "the status comment does not say not fixed with %q:\n%s", reason, st)
}

// logged is the first stderr line containing s, trimmed.
func logged(r *result, s string) string {
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.Contains(l, s) {
			return oneLine(strings.TrimPrefix(l, "agentfix: "))
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }
