package hardening

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// refusedCommenter is a row for an actor whose /agent fix is refused with
// a reply quoting it and saying why.
func refusedCommenter(name, login, typ, role, reason string) scenario {
	return scenario{name, "refused: one reply quoting the command and saying " + reason + "; the model never asked", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		if role != "" {
			w.GH.SetPermission(actiontest.Repo, login, role)
		}
		n := w.AddIssue()
		r := w.Run("issue_comment", actiontest.CommentPayload("created", n, false, login, typ, "/agent fix now"))
		c.must(r, r.Code == 0 && r.Outputs["result"] == "refused", "want exit 0 and refused, got exit %d %q", r.Code, r.Outputs["result"])
		reply := w.replyTo(n)
		c.must(r, strings.Contains(reply, "> /agent fix now") && strings.Contains(reply, reason), "the reply does not quote the command and say %q:\n%s", reason, reply)
		c.must(r, len(w.Ollama.Requests()) == 0, "a refused command reached the model")
		c.see("exit 0 refused; reply: %q", statusLine(reply, "Reason:"))
		c.nothingChanged(w, r)
	}}
}

// ignoredComment is a row for a comment that is not a command: the run
// ends with nothing to do, the reason logged, no reply.
func ignoredComment(name, action, author, body, reason string, isPR bool) scenario {
	return scenario{name, "ignored: nothing-to-do, the reason logged, no reply, the model never asked", func(t *testing.T, c *check) {
		w := newWorld(t, actiontest.FixedProject)
		n := w.AddIssue()
		if isPR {
			n = w.addPR("feature", map[string]string{"calc.go": actiontest.Project["calc.go"]})
		}
		r := w.Run("issue_comment", actiontest.CommentPayload(action, n, isPR, author, "", body))
		c.must(r, r.Code == 0 && r.Outputs["result"] == "nothing-to-do", "want exit 0 and nothing-to-do, got exit %d %q", r.Code, r.Outputs["result"])
		why := logged(r, "event: ignored")
		c.must(r, strings.Contains(why, reason), "the log does not say why (%q):\n%s", reason, r.Stderr)
		c.must(r, len(w.GH.Comments(actiontest.Repo, n)) == 0, "an ignored comment got a reply")
		c.must(r, len(w.Ollama.Requests()) == 0, "an ignored comment reached the model")
		c.see("exit 0 nothing-to-do; %q", why)
		c.nothingChanged(w, r)
	}}
}

var trustAttacks = []scenario{
	refusedCommenter("commenter with read permission", "rita", "", "read", "read permission"),
	refusedCommenter("commenter with triage permission", "tom", "", "triage", "triage permission"),
	refusedCommenter("commenter with no permission", "mallory", "", "", "not a collaborator"),
	refusedCommenter("Bot actor (type Bot) with write permission", "helperbot", "Bot", "write", "bot"),
	refusedCommenter("login ending in [bot] (type User) with write permission", "mallory[bot]", "User", "write", "bot"),
	ignoredComment("agentfix's own comment", "created", "github-actions[bot]", "<!-- agentfix:status -->\n/agent fix", "", false),
	ignoredComment("/agent check inside a quote", "created", "alice", "> /agent check\nI would not run that.", "", true),
	ignoredComment("/agent check inside a code block", "created", "alice", "Try:\n```\n/agent check\n```\n", "", true),
	ignoredComment("/agent check hidden in an HTML comment", "created", "alice", "Looks good.\n<!--\n/agent check\n-->\n", "", true),
	ignoredComment("edited comment", "edited", "alice", "/agent check", "", true),
	{"fork PR without allow_forks", "refused: the reply says fork; nothing checked out or run", func(t *testing.T, c *check) {
		w := newWorld(t, actiontest.FixedProject)
		n := w.forkPR()
		r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
		c.must(r, r.Code == 0 && r.Outputs["result"] == "refused", "want exit 0 and refused, got exit %d %q", r.Code, r.Outputs["result"])
		reply := w.replyTo(n)
		c.must(r, strings.Contains(reply, "fork"), "the reply does not say fork:\n%s", reply)
		c.must(r, len(w.Ollama.Requests()) == 0, "the fork's code reached the loop")
		c.see("exit 0 refused; reply: %q", statusLine(reply, "fork"))
		c.nothingChanged(w, r)
	}},
	{".git/config holds an extraheader when running PR code", "refused (exit 2) before the fork's code runs: persist-credentials: false is asked for", func(t *testing.T, c *check) {
		w := newWorld(t, actiontest.FixedProject)
		w.config("triggers:\n  allow_forks: true\n")
		n := w.forkPR()
		actiontest.Git(t, w.Workspace, nil, "config", "--local", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3g=")
		r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
		c.must(r, r.Code == 2 && strings.Contains(r.Stdout, "::error::") && strings.Contains(r.Stdout, "persist-credentials: false"), "want exit 2 asking for persist-credentials: false")
		c.must(r, len(w.Ollama.Requests()) == 0, "the fork's code reached the loop")
		st := w.status(n)
		c.must(r, strings.Contains(st, "persist-credentials"), "the status comment does not say why:\n%s", st)
		c.must(r, gitOut(w.Workspace, "rev-parse", "HEAD") == gitOut(w.Origin, "rev-parse", "main"), "the fork's head was checked out")
		c.see("exit 2; status: %q", statusLine(st, "persist-credentials"))
		c.nothingChanged(w, r)
	}},
}

// forkPR opens a PR from mallory/calc whose head (buggy calc.go) is
// reachable as refs/pull/N/head, as GitHub serves it.
func (w *world) forkPR() int {
	w.T.Helper()
	w.GH.AddRepo("mallory/calc", "main")
	w.GH.SetBranch("mallory/calc", "evil", "1111111111111111111111111111111111111111")
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Refactor from a fork", User: "mallory",
		PR: &githubfake.PullRequest{Head: "evil", HeadRepo: "mallory/calc", HeadSHA: "1111111111111111111111111111111111111111"}})
	w.humanPRs++
	head := w.PushBranch("tmp-fork-head", map[string]string{"calc.go": actiontest.Project["calc.go"]})
	actiontest.Git(w.T, w.Origin, nil, "update-ref", "refs/pull/"+itoa(n)+"/head", head)
	actiontest.Git(w.T, w.Origin, nil, "update-ref", "-d", "refs/heads/tmp-fork-head")
	return n
}
