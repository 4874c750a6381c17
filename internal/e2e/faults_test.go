package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

func TestBranchChangedByAHumanIsLeftAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice")).WantResult(t, 0, "fixed")
	branch := "agent-fix/issue-" + itoa(n)

	// Alice pushes her own commit onto agentfix's branch.
	dir := t.TempDir()
	actiontest.Git(t, dir, nil, "clone", "-q", "-b", branch, "file://"+w.Origin, "c")
	actiontest.WriteFiles(t, dir+"/c", map[string]string{"NOTES.md": "mine\n"})
	actiontest.Git(t, dir+"/c", nil, "add", ".")
	actiontest.Git(t, dir+"/c", actiontest.HumanID, "commit", "-q", "-m", "alice's change")
	actiontest.Git(t, dir+"/c", nil, "push", "-q", "origin", branch)
	humanTip := actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/"+branch)

	w.Clone("main")
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 1, "not-fixed")
	r.Must(t, actiontest.Git(t, w.Origin, nil, "rev-parse", "refs/heads/"+branch) == humanTip, "agentfix moved a branch a person pushed to")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "changed by Alice"), "status comment does not say why:\n%+v", st)
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 1, "a second PR was opened")
}

func TestRateLimitsAndServerErrorsAreWaitedOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	w.GH.RateLimitNext("GET", "/repos/octo/calc/collaborators/*/permission", 1, time.Now().Add(time.Minute))
	w.GH.SecondaryRateLimitNext("GET", "/repos/octo/calc/issues/*/comments", 1, 429, time.Second)
	w.GH.FailNext("GET", "/repos/octo/calc/pulls", 2, 502)
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, w.GH.PendingFaults() == 0, "%d injected faults never fired", w.GH.PendingFaults())
	// The waits it asked for: until the primary limit's reset (a minute
	// ahead when the fault was set), and the secondary's Retry-After.
	var reset, retryAfter bool
	for _, d := range r.Waits {
		reset = reset || d > 30*time.Second && d <= 2*time.Minute
		retryAfter = retryAfter || d == time.Second
	}
	r.Must(t, reset && retryAfter, "the run did not wait for the rate limits: waits %v", r.Waits)
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 1, "want one PR")
}

func TestPushRejectedEndsNotFixed(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	hook := filepath.Join(w.Origin, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'branch protection: agent-fix/* is locked' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 1, "not-fixed")
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a PR was opened for a rejected push")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "rejected"), "status comment %+v", st)
	r.Must(t, strings.Contains(r.Stdout, "::warning::") && strings.Contains(r.Stdout, "rejected"), "no warning annotation for the rejected push")
}

func TestUnverifiedFixGoesIntoTheStatusComment(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.Env["INPUT_MAX_ROUNDS"] = "2"
	wrong := strings.Replace(actiontest.FixDiff, "a + b", "a * b", 1)
	w.AnswerWith(wrong)
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 1, "not-fixed")
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "an unverified fix got a PR (pr.on_unverified is comment)")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Not fixed") && strings.Contains(st[0].Body, "a * b"), "status comment lacks the reason and the diff: %+v", st)
	r.Must(t, strings.Contains(st[0].Body, "/actions/runs/4242"), "status comment lacks the run link")
	out, _ := os.ReadFile(filepath.Join(w.Workspace, "calc.go"))
	r.Must(t, string(out) == actiontest.Project["calc.go"], "the work tree was not restored")
}

func TestUnverifiedFixAsDraftPR(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.PushMain(map[string]string{".github/agent-fix.yml": "pr:\n  on_unverified: draft\nlimits:\n  max_rounds: 2\n"})
	wrong := strings.Replace(actiontest.FixDiff, "a + b", "a * b", 1)
	w.AnswerWith(wrong)
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 1, "not-fixed")
	prs := w.GH.PullRequests(actiontest.Repo, "")
	r.Must(t, len(prs) == 1 && prs[0].PR.Draft && strings.Contains(prs[0].Body, "did **not** pass verification"), "want one draft PR saying it is unverified, got %+v", prs)
}

func TestDryRunPublishesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.Env["INPUT_DRY_RUN"] = "true"
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 0 && len(w.GH.Comments(actiontest.Repo, n)) == 0, "a dry run wrote to GitHub")
	r.Must(t, !strings.Contains(actiontest.Git(t, w.Origin, nil, "branch", "--list"), "agent-fix/"), "a dry run pushed")
	r.Must(t, strings.Contains(r.Summary, "+\treturn a + b"), "the step summary lacks the diff:\n%s", r.Summary)
}

func TestBrokenConfigExitsTwo(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.PushMain(map[string]string{".github/agent-fix.yml": "limits:\n  max_iteration: 3\n"})
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.Must(t, r.Code == 2, "want exit 2 for a config error")
	// Said once, as an error annotation the runner shows with the log.
	r.Must(t, strings.Contains(r.Stdout, "::error::") && strings.Contains(r.Stdout, "max_iteration"), "no error annotation naming the key")
	r.Must(t, strings.Count(r.Stdout+r.Stderr, "max_iteration") == 1, "the error is not said exactly once")
}

func TestModelServerDownIsAConfigError(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.Env["INPUT_OLLAMA_HOST"] = "http://127.0.0.1:1"
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.Must(t, r.Code == 2, "want exit 2 when the model server cannot be reached")
	r.Must(t, r.Outputs["result"] == "not-fixed", "outputs %v", r.Outputs)
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "Not fixed") && strings.Contains(st[0].Body, "127.0.0.1:1"), "the status comment does not say how the run ended: %+v", st)
}

// TestCreateRaceAdoptsTheExistingPR puts a proxy in front of the fake that
// hides open PRs from the first list call, as if another run opened its PR
// between agentfix's look-up and its create: the create meets 422 "already
// exists", and agentfix adopts that PR instead of failing or duplicating.
func TestCreateRaceAdoptsTheExistingPR(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	n := w.AddIssue()
	first := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	first.WantResult(t, 0, "fixed")

	var hidden atomic.Bool
	w.InterceptGitHub(func(rw http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls") && r.URL.Query().Get("head") != "" && !hidden.Swap(true) {
			rw.Header().Set("Content-Type", "application/json")
			rw.Write([]byte("[]"))
			return true
		}
		return false
	})

	// A different fix this time, so the branch moves and the PR is updated.
	w.AnswerWith(strings.Replace(actiontest.FixDiff, "+\treturn a + b", "+\treturn b + a", 1))
	w.Clone("main")
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, hidden.Load(), "the proxy never hid the PR; the test did not exercise the race")
	prs := w.GH.PullRequests(actiontest.Repo, "")
	r.Must(t, len(prs) == 1 && r.Outputs["pr-number"] == first.Outputs["pr-number"], "want the one PR %s adopted, got %d PRs, output %s", first.Outputs["pr-number"], len(prs), r.Outputs["pr-number"])
	saw422 := false
	for _, c := range w.GH.Calls() {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/pulls") && c.Status == 422 {
			saw422 = true
		}
	}
	r.Must(t, saw422, "no 422 from the create")
	r.Must(t, strings.Contains(actiontest.Git(t, w.Origin, nil, "show", "refs/heads/agent-fix/issue-"+itoa(n)+":calc.go"), "b + a"), "the branch does not hold the new fix")
}
