package e2e

import (
	"maps"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// A stranger's command gets one reply quoting it and the reason, and the
// run ends refused with exit 0, so the workflow does not turn red.
func TestRefusedActors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, login, role, want string
	}{
		{"read", "rita", "read", "read permission"},
		{"triage", "tom", "triage", "triage permission"},
		{"not a collaborator", "mallory", "", "not a collaborator"},
		{"bot", "dependabot[bot]", "write", "bot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			if tc.role != "" {
				w.GH.SetPermission(actiontest.Repo, tc.login, tc.role)
			}
			n := w.AddIssue()
			r := w.Run("issue_comment", actiontest.CommentPayload("created", n, false, tc.login, "", "/agent fix now"))
			r.WantResult(t, 0, "refused")
			cs := w.GH.Comments(actiontest.Repo, n)
			r.Must(t, len(cs) == 1, "want exactly one reply, got %+v", cs)
			r.Must(t, strings.Contains(cs[0].Body, "> /agent fix now") && strings.Contains(cs[0].Body, tc.want), "reply does not quote the command and say %q:\n%s", tc.want, cs[0].Body)
			r.Must(t, len(w.Ollama.Chats()) == 0 && len(w.GH.PullRequests(actiontest.Repo, "")) == 0, "a refused command did work")
		})
	}
}

func TestLabelerIsCheckedLikeACommenter(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.GH.SetPermission(actiontest.Repo, "rita", "read")
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "rita"))
	r.WantResult(t, 0, "refused")
	cs := w.GH.Comments(actiontest.Repo, n)
	r.Must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "agent-fix"), "reply %+v", cs)
}

// Roles that may trigger agentfix, through a cheap command: /agent check
// on a green PR.
func TestAllowedRoles(t *testing.T) {
	t.Parallel()
	for _, role := range []string{"admin", "maintain"} {
		t.Run(role, func(t *testing.T) {
			w := newWorld(t, actiontest.FixedProject)
			w.GH.SetPermission(actiontest.Repo, "carol", role)
			head := w.PushBranch("docs", map[string]string{"README.md": "calc\n"})
			n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Docs", User: "carol", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
			r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "carol", "", "/agent check"))
			r.WantResult(t, 0, "checked")
		})
	}
}

func TestAllowedBotFromConfig(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.PushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_bots: [\"renovate[bot]\"]\n"})
	n := w.AddIssue()
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, false, "renovate[bot]", "", "/agent help"))
	r.WantResult(t, 0, "nothing-to-do")
	cs := w.GH.Comments(actiontest.Repo, n)
	r.Must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "renovate[bot]"), "help reply %+v", cs)
}

func TestForkPRCheckIsRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	w.GH.AddRepo("mallory/calc", "main")
	w.GH.SetBranch("mallory/calc", "evil", "1111111111111111111111111111111111111111")
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Totally safe", User: "alice",
		PR: &githubfake.PullRequest{Head: "evil", HeadRepo: "mallory/calc", HeadSHA: "1111111111111111111111111111111111111111"}})
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
	r.WantResult(t, 0, "refused")
	cs := w.GH.Comments(actiontest.Repo, n)
	r.Must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "fork"), "reply %+v", cs)
}

// Comments that are not commands for agentfix end the run silently.
func TestIgnoredComments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, action, author, body string }{
		{"quoted", "created", "alice", "> /agent fix\nI would not do that."},
		{"code block", "created", "alice", "Try:\n```\n/agent fix\n```\n"},
		{"edited", "edited", "alice", "/agent fix"},
		{"own comment", "created", "github-actions[bot]", "<!-- agentfix:status -->\n/agent fix"},
		{"no command", "created", "alice", "Looks good to me."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			n := w.AddIssue()
			r := w.Run("issue_comment", actiontest.CommentPayload(tc.action, n, false, tc.author, "", tc.body))
			r.WantResult(t, 0, "nothing-to-do")
			r.Must(t, len(w.GH.Comments(actiontest.Repo, n)) == 0, "an ignored comment got a reply")
			r.Must(t, len(w.Ollama.Chats()) == 0, "an ignored comment reached the model")
		})
	}
}

// forkPR pushes the buggy calc.go as refs/pull/N/head (where GitHub keeps
// a fork PR's head in the base repository) and opens the PR from
// mallory/calc.
func forkPR(w *actiontest.World) int {
	w.T.Helper()
	return forkPRWith(w, nil)
}

// forkPRWith is forkPR with more files on the fork's head.
func forkPRWith(w *actiontest.World, files map[string]string) int {
	w.T.Helper()
	onHead := map[string]string{"calc.go": actiontest.Project["calc.go"]}
	maps.Copy(onHead, files)
	head := w.PushBranch("tmp-fork-head", onHead)
	actiontest.Git(w.T, w.Origin, nil, "update-ref", "-d", "refs/heads/tmp-fork-head")
	w.GH.AddRepo("mallory/calc", "main")
	w.GH.SetBranch("mallory/calc", "evil", head)
	n := w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Refactor from a fork", User: "mallory",
		PR: &githubfake.PullRequest{Head: "evil", HeadRepo: "mallory/calc", HeadSHA: head}})
	actiontest.Git(w.T, w.Origin, nil, "update-ref", "refs/pull/"+itoa(n)+"/head", head)
	return n
}

func TestForkPRCheckWhenAllowedRunsWithoutTokenAndCommentsTheDiff(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	w.PushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_forks: true\n"})
	n := forkPR(w)
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
	r.WantResult(t, 0, "fixed")
	r.Must(t, len(w.GH.PullRequests(actiontest.Repo, "")) == 1, "a PR was opened into a fork's branch")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "fork") && strings.Contains(st[0].Body, "+\treturn a + b"), "status comment lacks the note and the diff: %+v", st)
	r.Must(t, !strings.Contains(actiontest.Git(t, w.Origin, nil, "branch", "--list"), "agent-fix/"), "a branch was pushed for a fork PR")
}

func TestForkPRCheckRefusesAPersistedToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t, actiontest.FixedProject)
	w.PushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_forks: true\n"})
	n := forkPR(w)
	actiontest.Git(t, w.Workspace, nil, "config", "--local", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3g=")
	r := w.Run("issue_comment", actiontest.CommentPayload("created", n, true, "alice", "", "/agent check"))
	r.Must(t, r.Code == 2 && strings.Contains(r.Stdout, "::error::") && strings.Contains(r.Stdout, "persist-credentials: false"), "want exit 2 telling to set persist-credentials: false")
	r.Must(t, len(w.Ollama.Chats()) == 0, "the fork's code reached the loop")
	st := w.StatusComments(n)
	r.Must(t, len(st) == 1 && strings.Contains(st[0].Body, "persist-credentials"), "status comment does not say why: %+v", st)
}
