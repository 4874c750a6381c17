package githubfake_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newOrigin is an empty bare repository and a work tree on main to push
// to it from; it skips t when git is not installed.
func newOrigin(t *testing.T) (bare, work string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bare = filepath.Join(t.TempDir(), "origin.git")
	work = t.TempDir()
	git(t, t.TempDir(), "init", "-q", "--bare", bare)
	git(t, work, "init", "-q", "-b", "main")
	return bare, work
}

// TestGitDir: with a bare repository attached, what is pushed is what the
// API reports, and PRs get refs/pull/<n>/head.
func TestGitDir(t *testing.T) {
	t.Parallel()
	bare, work := newOrigin(t)
	git(t, work, "commit", "-q", "--allow-empty", "-m", "base")
	git(t, work, "push", "-q", bare, "main")
	base := git(t, work, "rev-parse", "HEAD")

	s := githubfake.New(t)
	s.AddRepo(repo, "main")
	s.SetGitDir(repo, bare)
	gh := s.Client(t)
	ctx := context.Background()

	b, _, err := gh.Repositories.GetBranch(ctx, "octo", "hello", "main", 0)
	if err != nil || b.GetCommit().GetSHA() != base {
		t.Fatalf("GetBranch(main) = %v, %v; want %s", b.GetCommit().GetSHA(), err, base)
	}
	np := &github.NewPullRequest{Title: github.String("t"), Head: github.String("octo:agent-fix/issue-1"), Base: github.String("main")}
	if _, _, err := gh.PullRequests.Create(ctx, "octo", "hello", np); err == nil {
		t.Fatal("PR for a branch that was never pushed was created")
	}

	git(t, work, "push", "-q", bare, "main:agent-fix/issue-1")
	_, _, err = gh.PullRequests.Create(ctx, "octo", "hello", np)
	var er *github.ErrorResponse
	if !errors.As(err, &er) || len(er.Errors) == 0 || !strings.HasPrefix(er.Errors[0].Message, "No commits between") {
		t.Fatalf("PR with no new commits: %v, want 422 No commits between", err)
	}

	git(t, work, "commit", "-q", "--allow-empty", "-m", "fix")
	fix := git(t, work, "rev-parse", "HEAD")
	git(t, work, "push", "-q", bare, "HEAD:agent-fix/issue-1")
	pr, _, err := gh.PullRequests.Create(ctx, "octo", "hello", np)
	if err != nil {
		t.Fatal(err)
	}
	if pr.GetHead().GetSHA() != fix || pr.GetBase().GetSHA() != base {
		t.Errorf("head %s base %s, want %s %s", pr.GetHead().GetSHA(), pr.GetBase().GetSHA(), fix, base)
	}
	if got := git(t, bare, "rev-parse", "refs/pull/1/head"); got != fix {
		t.Errorf("refs/pull/1/head = %s, want %s", got, fix)
	}

	// A fork PR: its commit is in the base repository's object store, as
	// on GitHub, and only reachable as refs/pull/<n>/head.
	git(t, work, "commit", "-q", "--allow-empty", "-m", "fork work")
	forkSHA := git(t, work, "rev-parse", "HEAD")
	git(t, work, "push", "-q", bare, "HEAD:refs/tmp/fork")
	n := s.AddPR(repo, githubfake.Issue{Title: "fork", User: "stranger", PR: &githubfake.PullRequest{Head: "main", HeadRepo: "stranger/hello", HeadSHA: forkSHA}})
	got, _, err := gh.PullRequests.Get(ctx, "octo", "hello", n)
	if err != nil {
		t.Fatal(err)
	}
	if got.GetHead().GetRepo().GetFullName() != "stranger/hello" || got.GetHead().GetSHA() != forkSHA || !got.GetHead().GetRepo().GetFork() {
		t.Errorf("fork PR head %+v", got.GetHead())
	}
	if ref := git(t, bare, "rev-parse", "refs/pull/2/head"); ref != forkSHA {
		t.Errorf("refs/pull/2/head = %s, want %s", ref, forkSHA)
	}
}
