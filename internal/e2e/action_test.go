package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/githubfake"
)

// addIssue opens the buggy-Add issue in the fake and returns its number.
func (w *world) addIssue() int {
	return w.gh.AddIssue(repoName, githubfake.Issue{Title: "Add returns the wrong sum", Body: "Add(2, 3) gives -1.", User: "alice"})
}

// statusComments are agentfix's status comments on number.
func (w *world) statusComments(number int) []githubfake.Comment {
	var out []githubfake.Comment
	for _, c := range w.gh.Comments(repoName, number) {
		if strings.Contains(c.Body, "<!-- agentfix:status") {
			out = append(out, c)
		}
	}
	return out
}

func TestLabelFixesIssueAndReRunUpdatesTheSamePR(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 0, "fixed")

	prs := w.gh.PullRequests(repoName, "")
	r.must(t, len(prs) == 1, "want one PR, got %d", len(prs))
	pr := prs[0]
	branch := "agent-fix/issue-" + itoa(n)
	r.must(t, pr.PR.Head == branch && pr.PR.Base == "main", "PR %s → %s, want %s → main", pr.PR.Head, pr.PR.Base, branch)
	r.must(t, strings.Contains(pr.Body, "Fixes #"+itoa(n)), "PR body lacks Fixes #%d:\n%s", n, pr.Body)
	r.must(t, strings.Contains(pr.Body, "/octo/calc/actions/runs/4242"), "PR body lacks the run link:\n%s", pr.Body)
	r.must(t, strings.Contains(pr.Body, "| before | `go test") && strings.Contains(pr.Body, "TestAdd") && strings.Contains(pr.Body, "| after | `go test"), "PR body lacks the before/after evidence:\n%s", pr.Body)
	r.must(t, strings.Contains(pr.Body, "<details><summary>Session record"), "PR body lacks the session excerpt:\n%s", pr.Body)
	r.must(t, strings.Contains(pr.Body, model), "PR body lacks the model")
	r.must(t, len(pr.Body) <= 65536, "PR body is %d bytes", len(pr.Body))
	labels := w.gh.Labels(repoName, pr.Number)
	r.must(t, len(labels) == 1 && labels[0] == "agent-fix", "PR labels %v", labels)

	// The fix is on the branch, on top of main, committed by agentfix.
	tip := gitT(t, w.bare, nil, "rev-parse", "refs/heads/"+branch)
	main := gitT(t, w.bare, nil, "rev-parse", "refs/heads/main")
	r.must(t, gitT(t, w.bare, nil, "rev-parse", tip+"^") == main, "fix commit is not on top of main")
	r.must(t, gitT(t, w.bare, nil, "show", tip+":calc.go")+"\n" == fixedCalc, "branch does not hold the fix")
	r.must(t, strings.Contains(gitT(t, w.bare, nil, "log", "-1", "--format=%ce", tip), "agentfix"), "fix not committed by agentfix")
	cfg, _ := os.ReadFile(filepath.Join(w.ws, ".git", "config"))
	r.must(t, !strings.Contains(string(cfg), "extraheader") && !strings.Contains(string(cfg), token), "token written to .git/config:\n%s", cfg)
	r.must(t, !strings.Contains(strings.ReplaceAll(r.stdout, "::add-mask::"+token, "")+r.stderr, token), "token printed in the log")

	// Outputs, step summary, status comment.
	r.must(t, r.outputs["pr-number"] == itoa(pr.Number) && r.outputs["branch"] == branch && r.outputs["rounds"] == "1", "outputs %v", r.outputs)
	r.must(t, strings.HasSuffix(r.outputs["pr-url"], "/pull/"+itoa(pr.Number)), "pr-url %q", r.outputs["pr-url"])
	r.must(t, strings.Contains(r.summary, "## agentfix: fixed") && strings.Contains(r.summary, "#"+itoa(pr.Number)), "step summary:\n%s", r.summary)
	r.must(t, strings.Contains(r.stdout, "::notice::agentfix: fixed: "+r.outputs["pr-url"]), "no notice with the PR link:\n%s", r.stdout)
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "Fixed") && strings.Contains(st[0].Body, "#"+itoa(pr.Number)), "status comments %+v", st)

	edits := 0
	for _, c := range w.gh.Calls() {
		if c.Method == "PATCH" && strings.Contains(c.Path, "/issues/comments/") {
			edits++
		}
	}
	r.must(t, edits >= 2, "the status comment was edited %d times; want round 1 and the result", edits)

	// A re-run (a fresh checkout of main) finds the same branch and PR.
	w.clone("main")
	r2 := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r2.wantResult(t, 0, "fixed")
	prs = w.gh.PullRequests(repoName, "")
	r2.must(t, len(prs) == 1, "re-run opened a second PR: %d PRs", len(prs))
	r2.must(t, r2.outputs["pr-number"] == itoa(pr.Number), "re-run reports PR %s, want %d", r2.outputs["pr-number"], pr.Number)
	r2.must(t, gitT(t, w.bare, nil, "rev-parse", "refs/heads/"+branch) == tip, "re-run with the same fix moved the branch")
	r2.must(t, len(w.statusComments(n)) == 1, "re-run added a second status comment")
}

func itoa(n int) string { return strconv.Itoa(n) }
