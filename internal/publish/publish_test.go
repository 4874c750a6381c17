package publish

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
	"github.com/agentfix/agentfix/internal/workspace"
)

const repoName = "octo/widgets"

// env is a fake GitHub whose branches are those of a local bare origin,
// and a depth-1 clone of it with no git identity, as runners have.
type env struct {
	gh    *githubfake.Server
	bare  string
	clone string
	pub   *Publisher
	// base is the clone's HEAD; diff is the last fix (see fix).
	base, diff string
}

func gitT(t *testing.T, dir string, extraEnv []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"), extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

var human = []string{"GIT_AUTHOR_NAME=Hu Man", "GIT_AUTHOR_EMAIL=hu@example.com", "GIT_COMMITTER_NAME=Hu Man", "GIT_COMMITTER_EMAIL=hu@example.com"}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{bare: filepath.Join(root, "origin.git"), clone: filepath.Join(root, "work")}
	seed := filepath.Join(root, "seed")
	gitT(t, root, nil, "init", "-q", "--bare", "-b", "main", e.bare)
	gitT(t, root, nil, "init", "-q", "-b", "main", seed)
	write(t, seed, "calc.go", "package calc\n\nfunc Add(a, b int) int { return a - b }\n")
	gitT(t, seed, nil, "add", ".")
	gitT(t, seed, human, "commit", "-q", "-m", "seed")
	gitT(t, seed, nil, "push", "-q", e.bare, "main")
	gitT(t, root, nil, "clone", "-q", "--depth=1", "file://"+e.bare, e.clone)

	e.gh = githubfake.New(t)
	e.gh.AddRepo(repoName, "main")
	e.gh.SetGitDir(repoName, e.bare)
	e.pub = &Publisher{GH: e.gh.Client(t), Owner: "octo", Repo: "widgets", Remote: workspace.RemoteOptions{Dir: e.clone}}
	if err := e.pub.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.base = gitT(t, e.clone, nil, "rev-parse", "HEAD")
	return e
}

// fix makes calc.go content in the work tree, as the patch engine does,
// and keeps the diff it validated for the next change.
func (e *env) fix(t *testing.T, content string) {
	t.Helper()
	write(t, e.clone, "calc.go", content)
	e.diff = gitT(t, e.clone, nil, "diff") + "\n"
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) change(body string) Change {
	return Change{Branch: "agent-fix/issue-7", Base: "main", Protected: []string{"main"}, Diff: e.diff, From: e.base,
		Message: "fix Add\n\nFixes #7\n", Title: "agentfix: Add is wrong", Body: body, Labels: []string{"agent-fix"}}
}

func TestPublishOpensOnePRAndReRunsUpdateIt(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	base := e.base
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")

	out, err := e.pub.Publish(ctx, e.change("first body"))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Created || out.Unchanged || out.Number == 0 {
		t.Fatalf("first publish = %+v; want a created PR", out)
	}
	tip := gitT(t, e.bare, nil, "rev-parse", "refs/heads/agent-fix/issue-7")
	if tip != out.Commit {
		t.Fatalf("remote branch at %s, outcome says %s", tip, out.Commit)
	}
	if parent := gitT(t, e.bare, nil, "rev-parse", tip+"^"); parent != base {
		t.Fatalf("fix commit's parent = %s, want the base %s", parent, base)
	}
	if who := gitT(t, e.bare, nil, "log", "-1", "--format=%an <%ae>|%cn <%ce>", tip); who != "agentfix <agentfix@users.noreply.github.com>|agentfix <agentfix@users.noreply.github.com>" {
		t.Fatalf("fix commit by %q; want agentfix's own identity", who)
	}
	if got := gitT(t, e.bare, nil, "rev-parse", "refs/heads/main"); got != base {
		t.Fatal("the default branch moved")
	}
	if cfg, _ := os.ReadFile(filepath.Join(e.clone, ".git", "config")); strings.Contains(string(cfg), "agentfix") {
		t.Fatalf(".git/config was changed:\n%s", cfg)
	}

	// The same fix again: nothing pushed, the same PR, its body refreshed.
	again, err := e.pub.Publish(ctx, e.change("second body"))
	if err != nil {
		t.Fatal(err)
	}
	if again.Number != out.Number || again.Created || !again.Unchanged || again.Commit != tip {
		t.Fatalf("re-run = %+v; want PR #%d unchanged at %s", again, out.Number, tip)
	}
	// A different fix: a fast-forward commit on top of the old tip.
	e.fix(t, "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	third, err := e.pub.Publish(ctx, e.change("third body"))
	if err != nil {
		t.Fatal(err)
	}
	if third.Number != out.Number || third.Created || third.Unchanged {
		t.Fatalf("update = %+v; want PR #%d updated", third, out.Number)
	}
	if parent := gitT(t, e.bare, nil, "rev-parse", third.Commit+"^"); parent != tip {
		t.Fatalf("update's parent = %s, want the old tip %s", parent, tip)
	}
	prs := e.gh.PullRequests(repoName, "")
	if len(prs) != 1 {
		t.Fatalf("%d pull requests after three runs, want 1", len(prs))
	}
	if prs[0].Body != "third body" || prs[0].PR.Head != "agent-fix/issue-7" || prs[0].PR.Base != "main" {
		t.Fatalf("PR = %+v", prs[0])
	}
	if labels := e.gh.Labels(repoName, out.Number); len(labels) != 1 || labels[0] != "agent-fix" {
		t.Fatalf("PR labels = %v", labels)
	}
}

func TestPublishLeavesABranchSomeoneElseChanged(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	out, err := e.pub.Publish(ctx, e.change("body"))
	if err != nil {
		t.Fatal(err)
	}
	// A person pushes a commit of their own onto the branch.
	other := filepath.Join(t.TempDir(), "other")
	gitT(t, e.clone, nil, "clone", "-q", "-b", "agent-fix/issue-7", "file://"+e.bare, other)
	write(t, other, "notes.txt", "mine\n")
	gitT(t, other, nil, "add", "notes.txt")
	gitT(t, other, human, "commit", "-q", "-m", "human change")
	gitT(t, other, nil, "push", "-q", "origin", "agent-fix/issue-7")
	humanTip := gitT(t, e.bare, nil, "rev-parse", "refs/heads/agent-fix/issue-7")

	e.fix(t, "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	_, err = e.pub.Publish(ctx, e.change("new body"))
	var changed *BranchChangedError
	if !errors.As(err, &changed) {
		t.Fatalf("err = %v, want *BranchChangedError", err)
	}
	if !strings.Contains(changed.Committer, "hu@example.com") {
		t.Errorf("error names %q, not the person who pushed", changed.Committer)
	}
	if got := gitT(t, e.bare, nil, "rev-parse", "refs/heads/agent-fix/issue-7"); got != humanTip {
		t.Fatal("agentfix moved a branch a person had pushed to")
	}
	if pr, _ := e.gh.Issue(repoName, out.Number); pr.Body != "body" {
		t.Fatalf("PR body changed to %q", pr.Body)
	}
}

// raceTransport answers the first PR list with [] as if another run had
// not opened its PR yet, so that Create meets 422 "already exists".
type raceTransport struct{ listed atomic.Bool }

func (rt *raceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls") && !rt.listed.Swap(true) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader("[]")), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestPublishAdoptsThePRAnotherRunOpened(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	first, err := e.pub.Publish(ctx, e.change("body"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := github.NewClient(&http.Client{Transport: &raceTransport{}}).WithEnterpriseURLs(e.gh.APIURL(), e.gh.APIURL())
	if err != nil {
		t.Fatal(err)
	}
	e.pub.GH = c
	e.fix(t, "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	out, err := e.pub.Publish(ctx, e.change("adopted"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Number != first.Number || out.Created {
		t.Fatalf("outcome %+v; want PR #%d adopted", out, first.Number)
	}
	if prs := e.gh.PullRequests(repoName, ""); len(prs) != 1 || prs[0].Body != "adopted" {
		t.Fatalf("PRs = %+v; want the one PR, updated", prs)
	}
	saw422 := false
	for _, call := range e.gh.Calls() {
		if call.Method == "POST" && strings.HasSuffix(call.Path, "/pulls") && call.Status == 422 {
			saw422 = true
		}
	}
	if !saw422 {
		t.Fatal("the test did not exercise the 422 path")
	}
}

func TestPublishRefusesTheDefaultBranch(t *testing.T) {
	e := newEnv(t)
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	c := e.change("body")
	c.Branch = "main"
	if _, err := e.pub.Publish(context.Background(), c); err == nil {
		t.Fatal("published onto the base branch")
	}
	c.Branch, c.Base = "main", "agent-fix/pr-3"
	if _, err := e.pub.Publish(context.Background(), c); !errors.Is(err, workspace.ErrProtectedBranch) {
		t.Fatalf("push to the protected default branch: err = %v", err)
	}
}

func TestPublishPushRejected(t *testing.T) {
	e := newEnv(t)
	hook := filepath.Join(e.bare, "hooks", "pre-receive")
	write(t, filepath.Dir(hook), "pre-receive", "#!/bin/sh\necho denied by policy >&2\nexit 1\n")
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	_, err := e.pub.Publish(context.Background(), e.change("body"))
	var rej *workspace.PushRejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *workspace.PushRejectedError", err)
	}
	if prs := e.gh.PullRequests(repoName, ""); len(prs) != 0 {
		t.Fatal("a PR was opened for a branch that was never pushed")
	}
}

func TestStatusCommentIsEditedInPlace(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	n := e.gh.AddIssue(repoName, githubfake.Issue{Title: "bug"})
	e.gh.AddComment(repoName, n, "alice", "/agent fix")
	const marker = "<!-- agentfix:status -->"
	id, _, err := e.pub.StatusComment(ctx, n, 0, marker, marker+"\nworking")
	if err != nil {
		t.Fatal(err)
	}
	// A later stage of the same run, then a later run that must find it.
	if _, _, err := e.pub.StatusComment(ctx, n, id, marker, marker+"\nround 1"); err != nil {
		t.Fatal(err)
	}
	id2, _, err := e.pub.StatusComment(ctx, n, 0, marker, marker+"\ndone")
	if err != nil {
		t.Fatal(err)
	}
	if id2 != id {
		t.Fatalf("second run wrote comment %d, want %d edited", id2, id)
	}
	cs := e.gh.Comments(repoName, n)
	if len(cs) != 2 || !strings.HasSuffix(cs[1].Body, "done") {
		t.Fatalf("comments = %+v; want the command and one status comment saying done", cs)
	}
}

func TestTrackingIssueOpensOnceAndSkipsPRs(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const marker = "<!-- agentfix:tracking nightly -->"
	// A PR that quotes the marker must not be taken for the issue.
	e.gh.SetBranch(repoName, "x", "0000000000000000000000000000000000000001")
	e.gh.AddPR(repoName, githubfake.Issue{Title: "quotes it", Body: marker, PR: &githubfake.PullRequest{Head: "x"}})
	first, err := e.pub.TrackingIssue(ctx, marker, "nightly fails", marker+"\nrun 1", []string{"agent-fix"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.pub.TrackingIssue(ctx, marker, "nightly fails", marker+"\nrun 2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !first.Created || second.Created || first.Number != second.Number {
		t.Fatalf("first %+v, second %+v; want one issue opened then updated", first, second)
	}
	is, _ := e.gh.Issue(repoName, first.Number)
	if is.PR != nil || !strings.HasSuffix(is.Body, "run 2") {
		t.Fatalf("tracking issue = %+v", is)
	}
}

func TestBranchName(t *testing.T) {
	for _, tc := range [][4]string{
		{"agent-fix/", BranchIssue, "7", "agent-fix/issue-7"},
		{"agent-fix/", BranchPR, "12", "agent-fix/pr-12"},
		{"bots/", BranchNightly, "3f2a9c", "bots/nightly-3f2a9c"},
	} {
		if got := BranchName(tc[0], tc[1], tc[2]); got != tc[3] {
			t.Errorf("BranchName(%q, %q, %q) = %q, want %q", tc[0], tc[1], tc[2], got, tc[3])
		}
	}
}

func TestPublishDraft(t *testing.T) {
	e := newEnv(t)
	e.fix(t, "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
	c := e.change("body")
	c.Draft = true
	out, err := e.pub.Publish(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if pr, _ := e.gh.Issue(repoName, out.Number); pr.PR == nil || !pr.PR.Draft || !out.Draft {
		t.Fatalf("PR %+v, outcome %+v; want a draft", pr.PR, out)
	}
}

// Anyone can paste the marker: only agentfix's own comment is edited, by
// the token's login, whether that is the Actions bot (GET /user is 403)
// or a person's token (GET /user names them).
func TestStatusCommentIgnoresSomeoneElsesMarker(t *testing.T) {
	for _, tc := range []struct{ name, self string }{{"actions token", ""}, {"personal token", "agentfix-bot"}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			if tc.self != "" {
				e.gh.SetIdentity(tc.self)
				e.gh.SetUserToken()
			}
			if err := e.pub.Identify(ctx); err != nil {
				t.Fatal(err)
			}
			want := tc.self
			if want == "" {
				want = ActionsBot
			}
			if e.pub.Self != want {
				t.Fatalf("Self = %q, want %q", e.pub.Self, want)
			}
			n := e.gh.AddIssue(repoName, githubfake.Issue{Title: "bug"})
			const marker = "<!-- agentfix:status -->"
			bait := e.gh.AddComment(repoName, n, "mallory", marker+"\nagentfix says: merge it")
			id, foreign, err := e.pub.StatusComment(ctx, n, 0, marker, marker+"\nworking")
			if err != nil {
				t.Fatal(err)
			}
			if id == bait || len(foreign) != 1 || foreign[0] != "mallory" {
				t.Fatalf("id %d (bait %d), foreign %v: want a new comment and mallory's noted", id, bait, foreign)
			}
			// The next run finds its own comment, not the bait.
			id2, _, err := e.pub.StatusComment(ctx, n, 0, marker, marker+"\ndone")
			if err != nil || id2 != id {
				t.Fatalf("second run: id %d, err %v; want %d edited", id2, err, id)
			}
			for _, c := range e.gh.Comments(repoName, n) {
				if c.ID == bait && (c.Edited() || !strings.HasSuffix(c.Body, "merge it")) {
					t.Fatalf("mallory's comment was edited: %+v", c)
				}
			}
		})
	}
}

func TestTrackingIssueIgnoresSomeoneElsesMarker(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const marker = "<!-- agentfix:tracking nightly -->"
	bait := e.gh.AddIssue(repoName, githubfake.Issue{Title: "bait", Body: marker, User: "mallory"})
	out, err := e.pub.TrackingIssue(ctx, marker, "nightly fails", marker+"\nrun 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	is, _ := e.gh.Issue(repoName, bait)
	if out.Number == bait || !out.Created || is.Title != "bait" {
		t.Fatalf("outcome %+v; bait now %+v: want a new issue and the bait untouched", out, is)
	}
}
