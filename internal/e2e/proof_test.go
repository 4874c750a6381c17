package e2e

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

func TestLabelOnAGreenSuiteOpensAProvenPRWithItsTest(t *testing.T) {
	w := newWorld(t, actiontest.GreenProject)
	w.AnswerReproduceWith(actiontest.ReproDiff, actiontest.FixDiff)
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")

	prs := w.GH.PullRequests(actiontest.Repo, "")
	r.Must(t, len(prs) == 1 && !prs[0].PR.Draft, "want one ready PR, got %+v", prs)
	body := prs[0].Body
	r.Must(t, strings.Contains(body, "Fixes #"+itoa(n)), "PR body lacks Fixes #%d:\n%s", n, body)
	r.Must(t, strings.Contains(body, "## Proof") && strings.Contains(body, "`TestAddTwoThree` (in `calc_test.go`)") &&
		strings.Contains(body, "Add(2, 3) = -1, want 5") && strings.Contains(body, "| with the fix | `go test .` | ✅ pass"),
		"PR body lacks the proof side by side:\n%s", body)
	tip := "refs/heads/agent-fix/issue-" + itoa(n)
	r.Must(t, strings.Contains(actiontest.Git(t, w.Origin, nil, "show", tip+":calc_test.go"), "func TestAddTwoThree"), "the PR does not carry the test")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "show", tip+":calc.go")+"\n" == actiontest.FixedCalc, "the PR does not carry the fix")
	r.Must(t, strings.Contains(r.Summary, "### Proof") && strings.Contains(r.Summary, "TestAddTwoThree"), "step summary lacks the proof:\n%s", r.Summary)
}

func TestLabelWithAHollowChangeIsUnproven(t *testing.T) {
	for _, tc := range []struct {
		onUnproven string
		check      func(t *testing.T, r *actiontest.Result, w *actiontest.World, n int)
	}{
		{"", func(t *testing.T, r *actiontest.Result, w *actiontest.World, n int) {
			r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "an unproven change got a PR")
			st := w.StatusComments(n)
			r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Unproven") && strings.Contains(st[0].Body, "e.g. Add(2, 3) is 5"), "status comment lacks the verdict and the diff: %+v", st)
		}},
		{"draft", func(t *testing.T, r *actiontest.Result, w *actiontest.World, n int) {
			prs := w.GH.PullRequests(actiontest.Repo, "")
			r.Must(t, len(prs) == 1 && prs[0].PR.Draft, "want one draft PR, got %+v", prs)
			body := prs[0].Body
			r.Must(t, strings.Contains(body, "Refs #"+itoa(n)) && !strings.Contains(body, "Fixes #") && strings.Contains(body, "no test shows"), "draft PR body:\n%s", body)
			r.Must(t, strings.Contains(prs[0].Title, "unproven"), "draft PR title %q", prs[0].Title)
			msg := actiontest.Git(t, w.Origin, nil, "log", "-1", "--format=%B", "refs/heads/agent-fix/issue-"+itoa(n))
			r.Must(t, strings.Contains(msg, "Refs #"+itoa(n)) && !strings.Contains(msg, "Fixes #"), "commit message:\n%s", msg)
		}},
		{"none", func(t *testing.T, r *actiontest.Result, w *actiontest.World, n int) {
			r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "an unproven change got a PR")
			st := w.StatusComments(n)
			r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Unproven") && !strings.Contains(st[0].Body, "e.g. Add(2, 3) is 5"), "status comment shows the diff with on_unproven: none: %+v", st)
		}},
	} {
		t.Run("on_unproven="+tc.onUnproven, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range actiontest.GreenProject {
				files[k] = v
			}
			if tc.onUnproven != "" {
				files[".github/agent-fix.yml"] = "pr:\n  on_unproven: " + tc.onUnproven + "\n"
			}
			w := newWorld(t, files)
			w.AnswerReproduceWith(actiontest.CommentDiff, actiontest.CommentDiff)
			n := w.AddIssue()
			r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
			r.WantResult(t, 1, "unproven")
			r.Must(t, strings.Contains(r.Summary, "## agentfix: unproven") && strings.Contains(r.Summary, "Unproven: no test shows"), "step summary:\n%s", r.Summary)
			r.Must(t, strings.Contains(r.Stdout, "::warning::agentfix: unproven"), "no warning annotation:\n%s", r.Stdout)
			tc.check(t, r, w, n)
		})
	}
}
