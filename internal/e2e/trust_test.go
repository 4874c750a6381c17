package e2e

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/githubfake"
)

// A stranger's command gets one reply quoting it and the reason, and the
// run ends refused with exit 0, so the workflow does not turn red.
func TestRefusedActors(t *testing.T) {
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
				w.gh.SetPermission(repoName, tc.login, tc.role)
			}
			n := w.addIssue()
			r := w.run("issue_comment", commentPayload("created", n, false, tc.login, "/agent fix now"))
			r.wantResult(t, 0, "refused")
			cs := w.gh.Comments(repoName, n)
			r.must(t, len(cs) == 1, "want exactly one reply, got %+v", cs)
			r.must(t, strings.Contains(cs[0].Body, "> /agent fix now") && strings.Contains(cs[0].Body, tc.want), "reply does not quote the command and say %q:\n%s", tc.want, cs[0].Body)
			r.must(t, len(w.ollama.Chats()) == 0 && len(w.gh.PullRequests(repoName, "")) == 0, "a refused command did work")
		})
	}
}

func TestLabelerIsCheckedLikeACommenter(t *testing.T) {
	w := newWorld(t, nil)
	w.gh.SetPermission(repoName, "rita", "read")
	n := w.addIssue()
	r := w.run("issues", labeledPayload(n, "agent-fix", "rita"))
	r.wantResult(t, 0, "refused")
	cs := w.gh.Comments(repoName, n)
	r.must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "agent-fix"), "reply %+v", cs)
}

// Roles that may trigger agentfix, through a cheap command: /agent check
// on a green PR.
func TestAllowedRoles(t *testing.T) {
	for _, role := range []string{"admin", "maintain"} {
		t.Run(role, func(t *testing.T) {
			w := newWorld(t, fixedProject)
			w.gh.SetPermission(repoName, "carol", role)
			head := w.pushBranch("docs", map[string]string{"README.md": "calc\n"})
			n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Docs", User: "carol", PR: &githubfake.PullRequest{Head: "docs", HeadSHA: head}})
			r := w.run("issue_comment", commentPayload("created", n, true, "carol", "/agent check"))
			r.wantResult(t, 0, "checked")
		})
	}
}

func TestAllowedBotFromConfig(t *testing.T) {
	w := newWorld(t, nil)
	w.pushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_bots: [\"renovate[bot]\"]\n"})
	n := w.addIssue()
	r := w.run("issue_comment", commentPayload("created", n, false, "renovate[bot]", "/agent help"))
	r.wantResult(t, 0, "nothing-to-do")
	cs := w.gh.Comments(repoName, n)
	r.must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "renovate[bot]"), "help reply %+v", cs)
}

func TestForkPRCheckIsRefused(t *testing.T) {
	w := newWorld(t, fixedProject)
	w.gh.AddRepo("mallory/calc", "main")
	w.gh.SetBranch("mallory/calc", "evil", "1111111111111111111111111111111111111111")
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Totally safe", User: "alice",
		PR: &githubfake.PullRequest{Head: "evil", HeadRepo: "mallory/calc", HeadSHA: "1111111111111111111111111111111111111111"}})
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check"))
	r.wantResult(t, 0, "refused")
	cs := w.gh.Comments(repoName, n)
	r.must(t, len(cs) == 1 && strings.Contains(cs[0].Body, "fork"), "reply %+v", cs)
}

// Comments that are not commands for agentfix end the run silently.
func TestIgnoredComments(t *testing.T) {
	for _, tc := range []struct{ name, action, author, body string }{
		{"quoted", "created", "alice", "> /agent fix\nI would not do that."},
		{"code block", "created", "alice", "Try:\n```\n/agent fix\n```\n"},
		{"edited", "edited", "alice", "/agent fix"},
		{"own comment", "created", "github-actions[bot]", "<!-- agentfix:status -->\n/agent fix"},
		{"no command", "created", "alice", "Looks good to me."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, nil)
			n := w.addIssue()
			r := w.run("issue_comment", commentPayload(tc.action, n, false, tc.author, tc.body))
			r.wantResult(t, 0, "nothing-to-do")
			r.must(t, len(w.gh.Comments(repoName, n)) == 0, "an ignored comment got a reply")
			r.must(t, len(w.ollama.Chats()) == 0, "an ignored comment reached the model")
		})
	}
}

// pushMain commits files onto origin's main as a person and refreshes the
// workspace.
func (w *world) pushMain(files map[string]string) {
	w.t.Helper()
	dir := w.t.TempDir()
	gitT(w.t, dir, nil, "clone", "-q", "file://"+w.bare, "c")
	c := dir + "/c"
	writeFiles(w.t, c, files)
	gitT(w.t, c, nil, "add", ".")
	gitT(w.t, c, humanID, "commit", "-q", "-m", "update main")
	gitT(w.t, c, nil, "push", "-q", "origin", "main")
	w.clone("main")
}

// forkPR pushes the buggy calc.go as refs/pull/N/head (where GitHub keeps
// a fork PR's head in the base repository) and opens the PR from
// mallory/calc.
func (w *world) forkPR() int {
	w.t.Helper()
	head := w.pushBranch("tmp-fork-head", map[string]string{"calc.go": project["calc.go"]})
	gitT(w.t, w.bare, nil, "update-ref", "-d", "refs/heads/tmp-fork-head")
	w.gh.AddRepo("mallory/calc", "main")
	w.gh.SetBranch("mallory/calc", "evil", head)
	n := w.gh.AddPR(repoName, githubfake.Issue{Title: "Refactor from a fork", User: "mallory",
		PR: &githubfake.PullRequest{Head: "evil", HeadRepo: "mallory/calc", HeadSHA: head}})
	gitT(w.t, w.bare, nil, "update-ref", "refs/pull/"+itoa(n)+"/head", head)
	return n
}

func TestForkPRCheckWhenAllowedRunsWithoutTokenAndCommentsTheDiff(t *testing.T) {
	w := newWorld(t, fixedProject)
	w.pushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_forks: true\n"})
	n := w.forkPR()
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check"))
	r.wantResult(t, 0, "fixed")
	r.must(t, len(w.gh.PullRequests(repoName, "")) == 1, "a PR was opened into a fork's branch")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "fork") && strings.Contains(st[0].Body, "+\treturn a + b"), "status comment lacks the note and the diff: %+v", st)
	r.must(t, !strings.Contains(gitT(t, w.bare, nil, "branch", "--list"), "agent-fix/"), "a branch was pushed for a fork PR")
}

func TestForkPRCheckRefusesAPersistedToken(t *testing.T) {
	w := newWorld(t, fixedProject)
	w.pushMain(map[string]string{".github/agent-fix.yml": "triggers:\n  allow_forks: true\n"})
	n := w.forkPR()
	gitT(t, w.ws, nil, "config", "--local", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3g=")
	r := w.run("issue_comment", commentPayload("created", n, true, "alice", "/agent check"))
	r.must(t, r.code == 2 && strings.Contains(r.stderr, "persist-credentials: false"), "want exit 2 telling to set persist-credentials: false")
	r.must(t, len(w.ollama.Chats()) == 0, "the fork's code reached the loop")
	st := w.statusComments(n)
	r.must(t, len(st) == 1 && strings.Contains(st[0].Body, "persist-credentials"), "status comment does not say why: %+v", st)
}
