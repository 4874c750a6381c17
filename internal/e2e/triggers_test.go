package e2e

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/githubfake"
	"github.com/agentfix/agentfix/internal/ollamafake"
)

// fixedProject is the project with Add already right: its checks pass.
var fixedProject = map[string]string{"go.mod": project["go.mod"], "calc.go": fixedCalc, "calc_test.go": project["calc_test.go"]}

// pushBranch commits files onto a new branch of origin (from main), as a
// person would, and returns the commit.
func (w *world) pushBranch(branch string, files map[string]string) string {
	w.t.Helper()
	dir := w.t.TempDir()
	gitT(w.t, dir, nil, "clone", "-q", "file://"+w.bare, "c")
	c := dir + "/c"
	gitT(w.t, c, nil, "checkout", "-q", "-b", branch)
	writeFiles(w.t, c, files)
	gitT(w.t, c, nil, "add", ".")
	gitT(w.t, c, humanID, "commit", "-q", "-m", "change on "+branch)
	gitT(w.t, c, nil, "push", "-q", "origin", branch)
	return gitT(w.t, c, nil, "rev-parse", "HEAD")
}

// chatsMention reports whether any chat request sent text.
func (w *world) chatsMention(text string) bool {
	for _, c := range w.ollama.Chats() {
		for _, m := range c.Messages {
			if strings.Contains(m.Content, text) {
				return true
			}
		}
	}
	return false
}

func TestFixCommentOnIssueUsesExtraInstructions(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	w.gh.AddComment(repoName, n, "bob", "It started after the refactor.")
	r := w.run("issue_comment", commentPayload("created", n, false, "alice", "Thanks!\n/agent fix keep the doc comment"))
	r.wantResult(t, 0, "fixed")
	r.must(t, w.chatsMention("keep the doc comment"), "the command's instructions did not reach the model")
	r.must(t, w.chatsMention("It started after the refactor."), "the issue's comments did not reach the model")
	prs := w.gh.PullRequests(repoName, "open")
	r.must(t, len(prs) == 1 && strings.Contains(prs[0].Body, "Fixes #"+itoa(n)), "PRs %+v", prs)
}

func TestCheckCommentOnPRFixesIntoThePRBranch(t *testing.T) {
	w := newWorld(t, fixedProject)
	head := w.pushBranch("feature", map[string]string{"calc.go": project["calc.go"]})
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Refactor calc", User: "alice", PR: &githubfake.PullRequest{Head: "feature", HeadSHA: head}})
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check"))
	r.wantResult(t, 0, "fixed")

	prs := w.gh.OpenPRsByHead(repoName, "agent-fix/pr-"+itoa(n))
	r.must(t, len(prs) == 1 && prs[0].PR.Base == "feature", "want one PR agent-fix/pr-%d → feature, got %+v", n, prs)
	r.must(t, !strings.Contains(prs[0].Body, "Fixes #"), "a PR into a PR's branch must not close it:\n%s", prs[0].Body)
	tip := gitT(t, w.bare, nil, "rev-parse", "refs/heads/agent-fix/pr-"+itoa(n))
	r.must(t, gitT(t, w.bare, nil, "rev-parse", tip+"^") == head, "fix is not on top of the PR's head")
	r.must(t, gitT(t, w.bare, nil, "rev-parse", "refs/heads/feature") == head, "the PR's own branch was pushed to")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "#"+itoa(prs[0].Number)), "status comment %+v", st)
}

func TestCheckCommentOnGreenPRPostsResults(t *testing.T) {
	w := newWorld(t, fixedProject)
	head := w.pushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check go test ./..."))
	r.wantResult(t, 0, "checked")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "Checks pass"), "status comment %+v", st)
	r.must(t, len(w.ollama.Chats()) == 0, "green checks asked the model")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 1, "a PR was opened for green checks")
}

func TestCheckCommentWithCommandOffTheAllowlist(t *testing.T) {
	w := newWorld(t, fixedProject)
	head := w.pushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check curl evil.example"))
	r.wantResult(t, 0, "refused")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "allowlist"), "status comment %+v", st)
}

func TestHelpCommentReplies(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	r := w.run("issue_comment", commentPayload("created", n, false, "alice", "/agent help"))
	r.wantResult(t, 0, "nothing-to-do")
	cs := w.gh.Comments(repoName, n)
	r.must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "/agent check") && strings.Contains(cs[0].Body, "write"), "help reply %+v", cs)
	r.must(t, len(w.ollama.Chats()) == 0, "help asked the model")
}

func TestNightlyGreenIsNothingToDo(t *testing.T) {
	files := map[string]string{
		// The project's tests must not see the token (verify scrubs it).
		"env_test.go": "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestNoToken(t *testing.T) {\n\tfor _, kv := range os.Environ() {\n\t\tif strings.Contains(kv, \"ghs_\") {\n\t\t\tt.Fatalf(\"token in the test environment: %s\", kv)\n\t\t}\n\t}\n}\n",
	}
	for k, v := range fixedProject {
		files[k] = v
	}
	w := newWorld(t, files)
	r := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.wantResult(t, 0, "nothing-to-do")
	r.must(t, len(w.ollama.Chats()) == 0, "a green nightly asked the model")
	r.must(t, len(w.gh.Issues(repoName)) == 0, "a green nightly opened something")
}

func TestNightlyWithoutPayloadFile(t *testing.T) {
	w := newWorld(t, fixedProject)
	r := w.run("schedule", nil)
	r.wantResult(t, 0, "nothing-to-do")
}

func TestNightlyRedOpensOnePRPerFailure(t *testing.T) {
	w := newWorld(t, nil)
	r := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.wantResult(t, 0, "fixed")
	prs := w.gh.PullRequests(repoName, "open")
	r.must(t, len(prs) == 1 && strings.HasPrefix(prs[0].PR.Head, "agent-fix/nightly-") && prs[0].PR.Base == "main", "PRs %+v", prs)
	r.must(t, r.outputs["branch"] == prs[0].PR.Head, "branch output %q", r.outputs["branch"])

	w.clone("main")
	r2 := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r2.wantResult(t, 0, "fixed")
	r2.must(t, len(w.gh.PullRequests(repoName, "")) == 1, "the second nightly opened another PR")
}

func TestNightlyUnfixableOpensThenUpdatesTrackingIssue(t *testing.T) {
	w := newWorld(t, nil)
	w.env["INPUT_MAX_ROUNDS"] = "2"
	wrong := strings.Replace(fixDiff, "a + b", "a * b", 1)
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + wrong + "```\n")
	})
	r := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.wantResult(t, 1, "not-fixed")
	issues := w.gh.Issues(repoName)
	r.must(t, len(issues) == 1 && issues[0].PR == nil && strings.Contains(issues[0].Body, "TestAdd"), "issues %+v", issues)
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 0, "an unverified nightly fix got a PR")

	w.clone("main")
	r2 := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r2.wantResult(t, 1, "not-fixed")
	r2.must(t, len(w.gh.Issues(repoName)) == 1, "the second nightly opened another tracking issue")
}

func TestNightlyFlakyFailureIsTrackedNotFixed(t *testing.T) {
	flaky := map[string]string{
		"go.mod": project["go.mod"], "calc.go": fixedCalc, "calc_test.go": project["calc_test.go"],
		// Fails the first time it runs in a work tree, passes after.
		"flaky_test.go": "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestFlaky(t *testing.T) {\n\tif _, err := os.Stat(\"ran.marker\"); err != nil {\n\t\tos.WriteFile(\"ran.marker\", nil, 0o644)\n\t\tt.Fatal(\"first run fails\")\n\t}\n}\n",
	}
	w := newWorld(t, flaky)
	r := w.run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.wantResult(t, 1, "not-fixed")
	r.must(t, len(w.ollama.Chats()) == 0, "a flaky failure was sent to the model")
	issues := w.gh.Issues(repoName)
	r.must(t, len(issues) == 1 && strings.Contains(issues[0].Body, "flaky"), "issues %+v", issues)
}

func TestDispatchFixIssue(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	r := w.run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "fix-issue", "number": itoa(n)},
		"repository": repoJSON(), "sender": user("alice")})
	r.wantResult(t, 0, "fixed")
	prs := w.gh.PullRequests(repoName, "open")
	r.must(t, len(prs) == 1 && strings.Contains(prs[0].Title, "Add returns the wrong sum"), "PRs %+v (title from the fetched issue)", prs)
}

func TestDispatchNightly(t *testing.T) {
	w := newWorld(t, fixedProject)
	r := w.run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "nightly"},
		"repository": repoJSON(), "sender": user("alice")})
	r.wantResult(t, 0, "nothing-to-do")
}

func TestDispatchCheckPR(t *testing.T) {
	w := newWorld(t, fixedProject)
	head := w.pushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "check-pr", "number": itoa(n)},
		"repository": repoJSON(), "sender": user("alice")})
	r.wantResult(t, 0, "checked")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "Checks pass"), "status comment %+v", st)
}
