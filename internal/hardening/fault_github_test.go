package hardening

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

var githubFaults = []scenario{
	{"github: 502 then success", "retried after 1 s; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.GH.FailNext("GET", "/repos/octo/calc/pulls", 1, 502)
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		c.must(r, w.GH.PendingFaults() == 0, "the 502 never fired")
		retry := logged(r, "github: GET /api/v3/repos/octo/calc/pulls")
		c.must(r, retry != "", "the retry was not logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"github: primary rate limit, reset near", "waits for the reset, then fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.GH.RateLimitNext("GET", "/repos/octo/calc/collaborators/*/permission", 1, time.Now().Add(2*time.Second))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		c.must(r, w.GH.PendingFaults() == 0, "the rate limit never fired")
		wait := logged(r, "primary rate limit exhausted")
		c.must(r, strings.Contains(wait, "waiting"), "the wait for the reset was not logged")
		c.see("exit 0 fixed after %s; %q", r.Took.Round(time.Second), wait)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"github: primary rate limit, reset far", "fails at once, the reset time in the log and step summary; the re-run opens the one PR for the pushed fix", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		reset := time.Now().Add(time.Hour)
		w.GH.RateLimitNext("GET", "/repos/octo/calc/pulls", 1, reset)
		n, r := fixIssue(w)
		c.must(r, r.Code == 1 && r.Outputs["result"] == "not-fixed", "want exit 1 and not-fixed, got exit %d %q", r.Code, r.Outputs["result"])
		c.must(r, !strings.Contains(logged(r, "primary rate limit exhausted"), "waiting"), "the run waited for a reset an hour away: %s", logged(r, "primary rate limit exhausted"))
		// GitHub refuses every call until the reset, the status comment
		// too: the reason goes to the log and the step summary.
		c.must(r, strings.Contains(r.Summary, "rate limit") && strings.Contains(r.Summary, "reset"), "the step summary does not give the rate limit and its reset:\n%s", r.Summary)
		c.must(r, len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a PR was opened during the rate limit")
		c.see("run 1: exit 1 after %s; summary: %q", r.Took.Round(time.Second), statusLine(r.Summary, "rate limit"))
		w.Clone("main")
		r2 := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
		c.wantFixed(w, r2, n)
		c.see("re-run: exit 0, fixed, 1 PR")
		c.settle(w, r2, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"github: secondary rate limit (Retry-After)", "waits Retry-After, then fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.GH.SecondaryRateLimitNext("POST", "/repos/octo/calc/pulls", 1, 403, time.Second)
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		c.must(r, w.GH.PendingFaults() == 0, "the secondary limit never fired")
		c.see("exit 0 fixed; %q", logged(r, "github: POST"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"github: 422 pull request already exists", "adopts the PR a concurrent run opened: one PR, updated", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		var once sync.Once
		// A rival run opens the PR between agentfix's lookup and its
		// create, as two runs of one job racing would.
		w.InterceptGitHub(func(rw http.ResponseWriter, req *http.Request) bool {
			if req.Method == "POST" && strings.HasSuffix(req.URL.Path, "/repos/octo/calc/pulls") {
				once.Do(func() {
					var head string
					for _, ref := range strings.Fields(gitOut(w.Origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/agent-fix/")) {
						head = ref
					}
					w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "agentfix: rival run", User: "github-actions[bot]",
						PR: &githubfake.PullRequest{Head: head, HeadSHA: w.branchTip(head), Base: "main"}})
				})
			}
			return false
		})
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		prs := w.GH.PullRequests(actiontest.Repo, "")
		c.must(r, len(prs) == 1 && prs[0].Title != "agentfix: rival run", "the rival PR was not adopted and updated: %+v", prs)
		c.must(r, strings.Contains(r.Stderr, "updated pull request"), "no adoption logged")
		c.see("exit 0 fixed; 422 from create, then %q", logged(r, "updated pull request"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"github: push rejected (branch moved)", "not fixed, exit 1, the reason posted; the person's commit left alone, no PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		// A person pushes to the branch between agentfix's fetch and its
		// push: the hook moves the ref, so the push's update fails.
		hook := "#!/bin/sh\nwhile read old new ref; do\n  case \"$ref\" in refs/heads/agent-fix/*)\n    env -u GIT_QUARANTINE_PATH git update-ref \"$ref\" \"$(git rev-parse refs/heads/main)\" ;;\n  esac\ndone\nexit 0\n"
		if err := os.WriteFile(filepath.Join(w.Origin, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
			t.Fatal(err)
		}
		main := w.branchTip("main")
		n, r := fixIssue(w)
		c.wantNotFixed(w, r, n, 1, "rejected")
		c.must(r, w.branchTip("agent-fix/issue-"+itoa(n)) == main, "the branch does not hold the person's commit")
		c.see("exit 1 not-fixed; status: %q", statusLine(w.status(n), "rejected"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
}
