package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

func TestLabelFixesIssueAndReRunUpdatesTheSamePR(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")

	prs := w.GH.PullRequests(actiontest.Repo, "")
	r.Must(t, len(prs) == 1, "want one PR, got %d", len(prs))
	pr := prs[0]
	branch := "agent-fix/issue-" + itoa(n)
	r.Must(t, pr.PR.Head == branch && pr.PR.Base == "main", "PR %s → %s, want %s → main", pr.PR.Head, pr.PR.Base, branch)
	r.Must(t, strings.Contains(pr.Body, "Fixes #"+itoa(n)), "PR body lacks Fixes #%d:\n%s", n, pr.Body)
	r.Must(t, strings.Contains(pr.Body, "/octo/calc/actions/runs/4242"), "PR body lacks the run link:\n%s", pr.Body)
	r.Must(t, strings.Contains(pr.Body, "| before | `go test") && strings.Contains(pr.Body, "TestAdd") && strings.Contains(pr.Body, "| after | `go test"), "PR body lacks the before/after evidence:\n%s", pr.Body)
	r.Must(t, strings.Contains(pr.Body, "<details><summary>Session record"), "PR body lacks the session excerpt:\n%s", pr.Body)
	r.Must(t, strings.Contains(pr.Body, actiontest.Model), "PR body lacks the model")
	r.Must(t, len(pr.Body) <= 65536, "PR body is %d bytes", len(pr.Body))
	labels := w.GH.Labels(actiontest.Repo, pr.Number)
	r.Must(t, len(labels) == 1 && labels[0] == "agent-fix", "PR labels %v", labels)

	// The fix is on the branch, on top of main, committed by agentfix.
	tip := actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/"+branch)
	main := actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/main")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", tip+"^") == main, "fix commit is not on top of main")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "show", tip+":calc.go")+"\n" == actiontest.FixedCalc, "branch does not hold the fix")
	r.Must(t, strings.Contains(actiontest.Git(t, w.Origin, nil, "log", "-1", "--format=%ce", tip), "agentfix"), "fix not committed by agentfix")
	cfg, _ := os.ReadFile(filepath.Join(w.Workspace, ".git", "config"))
	r.Must(t, !strings.Contains(string(cfg), "extraheader") && !strings.Contains(string(cfg), token), "token written to .git/config:\n%s", cfg)
	r.Must(t, !strings.Contains(strings.ReplaceAll(r.Stdout, "::add-mask::"+token, "")+r.Stderr, token), "token printed in the log")

	// Outputs, step summary, status comment.
	r.Must(t, r.Outputs["pr-number"] == itoa(pr.Number) && r.Outputs["branch"] == branch && r.Outputs["rounds"] == "1", "outputs %v", r.Outputs)
	r.Must(t, strings.HasSuffix(r.Outputs["pr-url"], "/pull/"+itoa(pr.Number)), "pr-url %q", r.Outputs["pr-url"])
	r.Must(t, strings.Contains(r.Summary, "## agentfix: fixed") && strings.Contains(r.Summary, "#"+itoa(pr.Number)), "step summary:\n%s", r.Summary)
	r.Must(t, strings.Contains(r.Stdout, "::notice::agentfix: fixed: "+r.Outputs["pr-url"]), "no notice with the PR link:\n%s", r.Stdout)
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Fixed") && strings.Contains(st[0].Body, "#"+itoa(pr.Number)), "status comments %+v", st)

	// The session record: an output, uploaded as an artifact the summary
	// and the status comment name.
	const artifact = "agentfix-session-" + actiontest.RunID + "-1-agent-fix"
	rec, err := os.ReadFile(r.Outputs["session"])
	r.Must(t, err == nil && len(rec) > 0 && strings.HasPrefix(r.Outputs["session"], w.RunnerTemp()), "session output %q: %v (%d bytes)", r.Outputs["session"], err, len(rec))
	r.Must(t, r.Outputs["session-artifact"] == artifact, "session-artifact output %q, want %s", r.Outputs["session-artifact"], artifact)
	r.Must(t, strings.Contains(r.Summary, "gh run download "+actiontest.RunID+" --name "+artifact) && strings.Contains(r.Summary, "agentfix replay agentfix-session/"+filepath.Base(r.Outputs["session"])), "step summary does not say how to fetch and replay the record:\n%s", r.Summary)
	r.Must(t, strings.Contains(st[0].Body, "Session record: artifact [`"+artifact+"`]("), "status comment does not link the session record:\n%s", st[0].Body)

	// The checkout is left as it was: on main, clean.
	r.Must(t, actiontest.Git(t, w.Workspace, nil, "status", "--porcelain") == "", "the workspace is dirty after the run:\n%s", actiontest.Git(t, w.Workspace, nil, "status", "--porcelain"))
	r.Must(t, actiontest.Git(t, w.Workspace, nil, "rev-parse", "HEAD") == main, "the workspace is no longer at main")

	edits := 0
	for _, c := range w.GH.Calls() {
		if c.Method == "PATCH" && strings.Contains(c.Path, "/issues/comments/") {
			edits++
		}
	}
	r.Must(t, edits >= 2, "the status comment was edited %d times; want round 1 and the result", edits)

	// A re-run (a fresh checkout of main) finds the same branch and PR.
	w.Clone("main")
	r2 := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r2.WantResult(t, 0, "fixed")
	prs = w.GH.PullRequests(actiontest.Repo, "")
	r2.Must(t, len(prs) == 1, "re-run opened a second PR: %d PRs", len(prs))
	r2.Must(t, r2.Outputs["pr-number"] == itoa(pr.Number), "re-run reports PR %s, want %d", r2.Outputs["pr-number"], pr.Number)
	r2.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/"+branch) == tip, "re-run with the same fix moved the branch")
	r2.Must(t, len(w.StatusComments(n)) == 1, "re-run added a second status comment")
}

func itoa(n int) string { return strconv.Itoa(n) }
