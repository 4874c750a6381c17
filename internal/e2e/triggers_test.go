package e2e

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

func TestFixCommentOnIssueUsesExtraInstructions(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	// bob may write: his comment is part of the task (see untrusted_test.go
	// for those whose comments are not).
	w.GH.SetPermission(actiontest.Repo, "bob", "write")
	w.GH.AddComment(actiontest.Repo, n, "bob", "It started after the refactor.")
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, false, "alice", "", "Thanks!\n/agent fix keep the doc comment"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, w.ChatsMention("keep the doc comment"), "the command's instructions did not reach the model")
	r.Must(t, w.ChatsMention("It started after the refactor."), "the issue's comments did not reach the model")
	prs := w.GH.PullRequests(actiontest.Repo, "open")
	r.Must(t, len(prs) == 1 && strings.Contains(prs[0].Body, "Fixes #"+itoa(n)), "PRs %+v", prs)
}

func TestCheckCommentOnPRFixesIntoThePRBranch(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	head := w.PushBranch("feature", map[string]string{"calc.go": actiontest.Project["calc.go"]})
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Refactor calc", User: "alice", PR: &githubfake.PullRequest{Head: "feature", HeadSHA: head}})
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
	r.WantResult(t, 0, "fixed")

	prs := w.GH.OpenPRsByHead(actiontest.Repo, "agent-fix/pr-"+itoa(n))
	r.Must(t, len(prs) == 1 && prs[0].PR.Base == "feature", "want one PR agent-fix/pr-%d → feature, got %+v", n, prs)
	r.Must(t, !strings.Contains(prs[0].Body, "Fixes #"), "a PR into a PR's branch must not close it:\n%s", prs[0].Body)
	tip := actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/agent-fix/pr-"+itoa(n))
	r.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", tip+"^") == head, "fix is not on top of the PR's head")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/feature") == head, "the PR's own branch was pushed to")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "#"+itoa(prs[0].Number)), "status comment %+v", st)

	// A later /agent check that is refused does not erase that outcome:
	// the one status comment says the new result and keeps the fix's.
	w.Clone("main")
	r2 := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check curl evil.example"))
	r2.WantResult(t, 0, "refused")
	st = w.StatusComments(n)
	r2.Must(t, len(st) == 1, "%d status comments, want the one", len(st))
	current, earlier, _ := strings.Cut(st[0].Body, "Earlier runs")
	r2.Must(t, strings.Contains(current, "Not run") && strings.Contains(earlier, "Fixed**: pull request #"+itoa(prs[0].Number)+" opened") && strings.Contains(earlier, "[workflow run](http"),
		"the status comment lost the earlier run's outcome:\n%s", st[0].Body)
}

func TestCheckCommentOnGreenPRPostsResults(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	head := w.PushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check go test ./..."))
	r.WantResult(t, 0, "checked")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Checks pass"), "status comment %+v", st)
	r.Must(t, len(w.Ollama.Chats()) == 0, "green checks asked the model")
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 1, "a PR was opened for green checks")
}

func TestCheckCommentWithCommandOffTheAllowlist(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	head := w.PushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check curl evil.example"))
	r.WantResult(t, 0, "refused")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "allowlist"), "status comment %+v", st)
}

func TestHelpCommentReplies(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, false, "alice", "", "/agent help"))
	r.WantResult(t, 0, "nothing-to-do")
	cs := w.GH.Comments(actiontest.Repo, n)
	r.Must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "/agent check") && strings.Contains(cs[0].Body, "write"), "help reply %+v", cs)
	r.Must(t, len(w.Ollama.Chats()) == 0, "help asked the model")
}

func TestNightlyGreenIsNothingToDo(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		// The project's tests must not see the token (verify scrubs it).
		"env_test.go": "package calc\n\nimport (\n\t\"os\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestNoToken(t *testing.T) {\n\tfor _, kv := range os.Environ() {\n\t\tif strings.Contains(kv, \"ghs_\") {\n\t\t\tt.Fatalf(\"token in the test environment: %s\", kv)\n\t\t}\n\t}\n}\n",
	}
	for k, v := range actiontest.FixedProject {
		files[k] = v
	}
	w := newWorld(t, files)
	r := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.WantResult(t, 0, "nothing-to-do")
	r.Must(t, len(w.Ollama.Chats()) == 0, "a green nightly asked the model")
	r.Must(t, len(w.GH.Issues(actiontest.Repo)) == 0, "a green nightly opened something")
}

func TestNightlyWithoutPayloadFile(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	r := w.Run("schedule", nil)
	r.WantResult(t, 0, "nothing-to-do")
}

func TestNightlyRedOpensOnePRPerFailure(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	r := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.WantResult(t, 0, "fixed")
	prs := w.GH.PullRequests(actiontest.Repo, "open")
	r.Must(t, len(prs) == 1 && strings.HasPrefix(prs[0].PR.Head, "agent-fix/nightly-") && prs[0].PR.Base == "main", "PRs %+v", prs)
	r.Must(t, r.Outputs["branch"] == prs[0].PR.Head, "branch output %q", r.Outputs["branch"])

	w.Clone("main")
	r2 := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r2.WantResult(t, 0, "fixed")
	r2.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 1, "the second nightly opened another PR")
}

func TestNightlyUnfixableOpensThenUpdatesTrackingIssue(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.Env["INPUT_MAX_ROUNDS"] = "2"
	wrong := strings.Replace(actiontest.FixDiff, "a + b", "a * b", 1)
	w.AnswerWith(wrong)
	r := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.WantResult(t, 1, "not-fixed")
	issues := w.GH.Issues(actiontest.Repo)
	r.Must(t, len(issues) == 1 && issues[0].PR == nil && strings.Contains(issues[0].Body, "TestAdd"), "issues %+v", issues)
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "an unverified nightly fix got a PR")

	w.Clone("main")
	r2 := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r2.WantResult(t, 1, "not-fixed")
	r2.Must(t, len(w.GH.Issues(actiontest.Repo)) == 1, "the second nightly opened another tracking issue")

	// The fix lands on main: the next nightly closes the issue, linking
	// the green run.
	w.PushMain(map[string]string{"calc.go": actiontest.FixedCalc})
	r3 := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r3.WantResult(t, 0, "nothing-to-do")
	issues = w.GH.Issues(actiontest.Repo)
	r3.Must(t, len(issues) == 1 && issues[0].State == "closed", "the tracking issue was not closed: %+v", issues)
	cs := w.GH.Comments(actiontest.Repo, issues[0].Number)
	r3.Must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "pass again") && strings.Contains(cs[0].Body, "/actions/runs/"+actiontest.RunID), "closing comments %+v", cs)
	r3.Must(t, strings.Contains(r3.Summary, "#"+itoa(issues[0].Number)+" is closed"), "the step summary does not say the issue was closed:\n%s", r3.Summary)

	// It breaks again: the same issue is reopened, not a new one.
	w.PushMain(map[string]string{"calc.go": actiontest.Project["calc.go"]})
	r4 := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r4.WantResult(t, 1, "not-fixed")
	issues = w.GH.Issues(actiontest.Repo)
	r4.Must(t, len(issues) == 1 && issues[0].State == "open", "want the one tracking issue reopened: %+v", issues)
}

func TestNightlyFlakyFailureIsTrackedNotFixed(t *testing.T) {
	t.Parallel()
	flaky := map[string]string{
		"go.mod": actiontest.Project["go.mod"], "calc.go": actiontest.FixedCalc, "calc_test.go": actiontest.Project["calc_test.go"],
		// Fails the first time it runs in a work tree, passes after.
		"flaky_test.go": "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestFlaky(t *testing.T) {\n\tif _, err := os.Stat(\"ran.marker\"); err != nil {\n\t\tos.WriteFile(\"ran.marker\", nil, 0o644)\n\t\tt.Fatal(\"first run fails\")\n\t}\n}\n",
	}
	w := newWorld(t, flaky)
	r := w.Run("schedule", map[string]any{"schedule": "17 3 * * *"})
	r.WantResult(t, 1, "not-fixed")
	r.Must(t, len(w.Ollama.Chats()) == 0, "a flaky failure was sent to the model")
	issues := w.GH.Issues(actiontest.Repo)
	r.Must(t, len(issues) == 1 && strings.Contains(issues[0].Body, "flaky"), "issues %+v", issues)
}

func TestDispatchFixIssue(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	r := w.Run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "fix-issue", "number": itoa(n)},
		"repository": actiontest.RepoJSON(), "sender": actiontest.User("alice", "")})
	r.WantResult(t, 0, "fixed")
	prs := w.GH.PullRequests(actiontest.Repo, "open")
	r.Must(t, len(prs) == 1 && strings.Contains(prs[0].Title, "Add returns the wrong sum"), "PRs %+v (title from the fetched issue)", prs)
}

func TestDispatchNightly(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	r := w.Run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "nightly"},
		"repository": actiontest.RepoJSON(), "sender": actiontest.User("alice", "")})
	r.WantResult(t, 0, "nothing-to-do")
}

func TestDispatchCheckPR(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	head := w.PushBranch("docs", map[string]string{"README.md": "calc\n"})
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
	r := w.Run("workflow_dispatch", map[string]any{"ref": "refs/heads/main", "inputs": map[string]any{"mode": "check-pr", "number": itoa(n)},
		"repository": actiontest.RepoJSON(), "sender": actiontest.User("alice", "")})
	r.WantResult(t, 0, "checked")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Checks pass"), "status comment %+v", st)
}

// The request is a text task on a green suite; the doc comment it asks
// for has no test to reproduce it, so the checks are its proof here
// (verify.proof: checks); with the default it would be unproven.
func TestFixCommentOnAPersonsPRFixesIntoItsBranch(t *testing.T) {
	t.Parallel()
	files := map[string]string{".github/agent-fix.yml": "verify:\n  proof: checks\n"}
	for k, v := range actiontest.FixedProject {
		files[k] = v
	}
	w := newWorld(t, files)
	head := w.PushBranch("feature", map[string]string{"README.md": "calc\n"})
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Docs", User: "alice", PR: &githubfake.PullRequest{Head: "feature", HeadSHA: head}})
	w.AnswerWith(docDiff)
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent fix make the doc comment say a + b"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, w.ChatsMention("make the doc comment say a + b") && w.ChatsMention("+calc"), "the instructions or the PR's diff did not reach the model")
	prs := w.GH.OpenPRsByHead(actiontest.Repo, "agent-fix/pr-"+itoa(n))
	r.Must(t, len(prs) == 1 && prs[0].PR.Base == "feature", "want one PR agent-fix/pr-%d → feature, got %+v", n, prs)
	r.Must(t, w.Tip("feature") == head, "the person's branch was pushed to")
	calc := actiontest.Git(t, w.Origin, nil, "show", "refs/heads/agent-fix/pr-"+itoa(n)+":calc.go")
	r.Must(t, strings.Contains(calc, "// Add returns a + b."), "calc.go on the fix branch:\n%s", calc)
}
