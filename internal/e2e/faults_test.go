package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/ollamafake"
)

func TestBranchChangedByAHumanIsLeftAlone(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	w.run("issues", labeledPayload(n, "agent-fix", "alice")).wantResult(t, 0, "fixed")
	branch := "agent-fix/issue-" + itoa(n)

	// Alice pushes her own commit onto agentfix's branch.
	dir := t.TempDir()
	gitT(t, dir, nil, "clone", "-q", "-b", branch, "file://"+w.bare, "c")
	writeFiles(t, dir+"/c", map[string]string{"NOTES.md": "mine\n"})
	gitT(t, dir+"/c", nil, "add", ".")
	gitT(t, dir+"/c", humanID, "commit", "-q", "-m", "alice's change")
	gitT(t, dir+"/c", nil, "push", "-q", "origin", branch)
	humanTip := gitT(t, w.bare, nil, "rev-parse", "refs/heads/"+branch)

	w.clone("main")
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 1, "not-fixed")
	r.must(t, gitT(t, w.bare, nil, "rev-parse", "refs/heads/"+branch) == humanTip, "agentfix moved a branch a person pushed to")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "changed by Alice"), "status comment does not say why:\n%+v", st)
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 1, "a second PR was opened")
}

func TestRateLimitsAndServerErrorsAreWaitedOut(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	w.gh.RateLimitNext("GET", "/repos/octo/calc/collaborators/*/permission", 1, time.Now().Add(2*time.Second))
	w.gh.SecondaryRateLimitNext("GET", "/repos/octo/calc/issues/*/comments", 1, 429, time.Second)
	w.gh.FailNext("GET", "/repos/octo/calc/pulls", 2, 502)
	start := time.Now()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 0, "fixed")
	r.must(t, w.gh.PendingFaults() == 0, "%d injected faults never fired", w.gh.PendingFaults())
	r.must(t, time.Since(start) > time.Second, "the run did not wait for the rate limit")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 1, "want one PR")
}

func TestPushRejectedEndsNotFixed(t *testing.T) {
	w := newWorld(t, nil)
	hook := filepath.Join(w.bare, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'branch protection: agent-fix/* is locked' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 1, "not-fixed")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 0, "a PR was opened for a rejected push")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "rejected"), "status comment %+v", st)
	r.must(t, strings.Contains(r.stdout, "::warning::") && strings.Contains(r.stdout, "rejected"), "no warning annotation for the rejected push")
}

func TestUnverifiedFixGoesIntoTheStatusComment(t *testing.T) {
	w := newWorld(t, nil)
	w.env["INPUT_MAX_ROUNDS"] = "2"
	wrong := strings.Replace(fixDiff, "a + b", "a * b", 1)
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + wrong + "```\n")
	})
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 1, "not-fixed")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 0, "an unverified fix got a PR (pr.on_unverified is comment)")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "Not fixed") && strings.Contains(st[0].Body, "a * b"), "status comment lacks the reason and the diff: %+v", st)
	r.must(t, strings.Contains(st[0].Body, "/actions/runs/4242"), "status comment lacks the run link")
	out, _ := os.ReadFile(filepath.Join(w.ws, "calc.go"))
	r.must(t, string(out) == project["calc.go"], "the work tree was not restored")
}

func TestUnverifiedFixAsDraftPR(t *testing.T) {
	w := newWorld(t, nil)
	w.pushMain(map[string]string{".github/agent-fix.yml": "pr:\n  on_unverified: draft\nlimits:\n  max_rounds: 2\n"})
	wrong := strings.Replace(fixDiff, "a + b", "a * b", 1)
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + wrong + "```\n")
	})
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 1, "not-fixed")
	prs := w.gh.PullRequests(repoName, "")
	r.must(t, len(prs) == 1 && prs[0].PR.Draft && strings.Contains(prs[0].Body, "did **not** pass verification"), "want one draft PR saying it is unverified, got %+v", prs)
}

func TestDryRunPublishesNothing(t *testing.T) {
	w := newWorld(t, nil)
	w.env["INPUT_DRY_RUN"] = "true"
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 0, "fixed")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 0 && len(w.gh.Comments(repoName, n)) == 0, "a dry run wrote to GitHub")
	r.must(t, !strings.Contains(gitT(t, w.bare, nil, "branch", "--list"), "agent-fix/"), "a dry run pushed")
	r.must(t, strings.Contains(r.summary, "+\treturn a + b"), "the step summary lacks the diff:\n%s", r.summary)
}

func TestBrokenConfigExitsTwo(t *testing.T) {
	w := newWorld(t, nil)
	w.pushMain(map[string]string{".github/agent-fix.yml": "limits:\n  max_iteration: 3\n"})
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.must(t, r.code == 2, "want exit 2 for a config error")
	r.must(t, strings.Contains(r.stderr, "max_iteration"), "error does not name the key")
	r.must(t, strings.Contains(r.stdout, "::error::"), "no error annotation")
}

func TestModelServerDownIsAConfigError(t *testing.T) {
	w := newWorld(t, nil)
	w.env["INPUT_OLLAMA_HOST"] = "http://127.0.0.1:1"
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.must(t, r.code == 2, "want exit 2 when the model server cannot be reached")
	r.must(t, r.outputs["result"] == "not-fixed", "outputs %v", r.outputs)
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "Not fixed") && strings.Contains(st[0].Body, "127.0.0.1:1"), "the status comment does not say how the run ended: %+v", st)
}

// TestCreateRaceAdoptsTheExistingPR puts a proxy in front of the fake that
// hides open PRs from the first list call, as if another run opened its PR
// between agentfix's look-up and its create: the create meets 422 "already
// exists", and agentfix adopts that PR instead of failing or duplicating.
func TestCreateRaceAdoptsTheExistingPR(t *testing.T) {
	w := newWorld(t, nil)
	n := w.addIssue()
	first := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	first.wantResult(t, 0, "fixed")

	target, err := url.Parse(w.gh.URL())
	if err != nil {
		t.Fatal(err)
	}
	var hidden atomic.Bool
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls") && r.URL.Query().Get("head") != "" && !hidden.Swap(true) {
			rw.Header().Set("Content-Type", "application/json")
			rw.Write([]byte("[]"))
			return
		}
		rp.ServeHTTP(rw, r)
	}))
	defer proxy.Close()
	w.env["GITHUB_API_URL"] = proxy.URL + strings.TrimPrefix(w.gh.APIURL(), w.gh.URL())

	// A different fix this time, so the branch moves and the PR is updated.
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + strings.Replace(fixDiff, "+\treturn a + b", "+\treturn b + a", 1) + "```\n")
	})
	w.clone("main")
	r := w.run("issues", labeledPayload(n, "agent-fix", "alice"))
	r.wantResult(t, 0, "fixed")
	r.must(t, hidden.Load(), "the proxy never hid the PR; the test did not exercise the race")
	prs := w.gh.PullRequests(repoName, "")
	r.must(t, len(prs) == 1 && r.outputs["pr-number"] == first.outputs["pr-number"], "want the one PR %s adopted, got %d PRs, output %s", first.outputs["pr-number"], len(prs), r.outputs["pr-number"])
	saw422 := false
	for _, c := range w.gh.Calls() {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/pulls") && c.Status == 422 {
			saw422 = true
		}
	}
	r.must(t, saw422, "no 422 from the create")
	r.must(t, strings.Contains(gitT(t, w.bare, nil, "show", "refs/heads/agent-fix/issue-"+itoa(n)+":calc.go"), "b + a"), "the branch does not hold the new fix")
}
