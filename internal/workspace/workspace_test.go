package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// newRepo makes a git repository with one commit holding files.
func newRepo(t *testing.T, files map[string]string) *Repo {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "--quiet", "--initial-branch=main")
	for name, body := range files {
		write(t, dir, name, body)
	}
	run(t, dir, "add", "--all")
	run(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "initial")
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenFindsRootFromSubdirectory(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a/b/c.txt": "x\n"})
	sub, err := Open(context.Background(), filepath.Join(r.Root, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if sub.Root != r.Root {
		t.Errorf("Root = %s, want %s", sub.Root, r.Root)
	}
	_, err = Open(context.Background(), t.TempDir())
	var nr *NotARepoError
	if !errors.As(err, &nr) {
		t.Errorf("Open(non-repo) = %v, want *NotARepoError", err)
	}
}

func TestCheckpointRefusesDirtyTree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "one\n"})
	write(t, r.Root, "a.txt", "mine\n")
	_, err := r.Checkpoint(context.Background())
	var de *DirtyError
	if !errors.As(err, &de) || len(de.Files) != 1 || de.Files[0] != "a.txt" {
		t.Fatalf("Checkpoint on dirty tree = %v, want *DirtyError naming a.txt", err)
	}
	if !strings.Contains(err.Error(), "commit or stash") {
		t.Errorf("message %q does not say what to do", err)
	}
	if got := read(t, r.Root, "a.txt"); got != "mine\n" {
		t.Errorf("user's change was touched: %q", got)
	}
}

func TestRestoreReturnsToCheckpointAndKeepsUntrackedFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t, map[string]string{"a.txt": "one\n", ".gitignore": "*.log\n"})
	write(t, r.Root, "notes.txt", "user notes\n") // untracked, the user's
	cp, err := r.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write(t, r.Root, "a.txt", "changed\n")
	write(t, r.Root, "new/dir/b.go", "package b\n")
	write(t, r.Root, "made.log", "ignored but created by the patch\n")
	if err := r.Restore(ctx, cp, "made.log", "a.txt", "new/dir/b.go"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, r.Root, "a.txt"); got != "one\n" {
		t.Errorf("a.txt = %q, want restored", got)
	}
	for _, gone := range []string{"new", "made.log"} {
		if _, err := os.Stat(filepath.Join(r.Root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still exists after restore", gone)
		}
	}
	if got := read(t, r.Root, "notes.txt"); got != "user notes\n" {
		t.Errorf("user's untracked file = %q", got)
	}
	if err := r.CheckClean(ctx); err != nil {
		t.Error(err)
	}
}

func TestCommitDiffOnNewBranchWithOwnIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t, map[string]string{"a.txt": "one\n"})
	cp, err := r.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write(t, r.Root, "a.txt", "two\n")
	write(t, r.Root, "b.txt", "new\n")
	run(t, r.Root, "add", "-N", "b.txt")
	diff := run(t, r.Root, "diff")
	run(t, r.Root, "reset", "-q")
	if drift, err := r.Drift(ctx, cp, diff); err != nil || len(drift) != 0 {
		t.Fatalf("Drift of the work tree that holds just the diff = %v, %v", drift, err)
	}
	// What the tests do after the fix is applied: rewrite a file of the
	// fix, leave a file behind.
	write(t, r.Root, "a.txt", "two\nAKIAIOSFODNN7EXAMPLE\n")
	write(t, r.Root, "scratch.txt", "not part of the fix\n")
	drift, err := r.Drift(ctx, cp, diff)
	if err != nil || strings.Join(drift, " ") != "a.txt scratch.txt" {
		t.Errorf("Drift = %v, %v; want a.txt and scratch.txt", drift, err)
	}

	sha, err := r.CommitDiff(ctx, "agent-fix/local-x", cp.Head, diff, "fix: the thing\n", Identity{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := r.Branch(ctx); b != "agent-fix/local-x" {
		t.Errorf("branch = %q", b)
	}
	if got, _ := r.Show(ctx, "agent-fix/local-x", "a.txt"); got != "two\n" {
		t.Errorf("branch a.txt = %q, want the validated content", got)
	}
	if got, _ := r.Show(ctx, "agent-fix/local-x", "b.txt"); got != "new\n" {
		t.Errorf("branch b.txt = %q", got)
	}
	if got, _ := r.Show(ctx, "main", "a.txt"); got != "one\n" {
		t.Errorf("main a.txt = %q", got)
	}
	who := run(t, r.Root, "log", "-1", "--format=%cn <%ce>|%s", sha)
	if strings.TrimSpace(who) != "agentfix <agentfix@users.noreply.github.com>|fix: the thing" {
		t.Errorf("commit = %q", who)
	}
	if _, err := r.Show(ctx, sha, "scratch.txt"); err == nil {
		t.Error("an untracked file outside the fix was committed")
	}
	// The work tree is left as the tests left it, against the new HEAD.
	if st := run(t, r.Root, "status", "--porcelain"); st != " M a.txt\n?? scratch.txt\n" {
		t.Errorf("status after the commit:\n%s", st)
	}
	cfg := read(t, r.Root, ".git/config")
	if strings.Contains(cfg, "agentfix") || strings.Contains(cfg, "[user]") {
		t.Errorf(".git/config gained an identity:\n%s", cfg)
	}
	if _, err := r.CommitDiff(ctx, "agent-fix/local-x", cp.Head, diff, "again\n", Identity{}); err == nil {
		t.Error("CommitDiff moved a branch that exists")
	}
	if _, err := r.CommitDiff(ctx, "bad..name", cp.Head, diff, "x\n", Identity{}); err == nil {
		t.Error("CommitDiff accepted an invalid name")
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Fix: Sum() returns the wrong total!": "fix-sum-returns-the-wrong-total",
		"   ":                                 "task",
		"ÄÖ über":                             "ber",
		strings.Repeat("abc ", 30):            "abc-abc-abc-abc-abc-abc-abc-abc-abc-abc",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStatusSeesRenamesSpacesAndDetachedHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t, map[string]string{"a b.txt": "one\n", "old.txt": "x\n"})
	run(t, r.Root, "mv", "old.txt", "new name.txt")
	write(t, r.Root, "a b.txt", "two\n")
	write(t, r.Root, "dir/un tracked.txt", "u\n")
	st, err := r.status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.changed, "|"); got != "a b.txt|new name.txt" && got != "new name.txt|a b.txt" {
		t.Errorf("changed = %q", got)
	}
	if len(st.untracked) != 1 || st.untracked[0] != "dir/un tracked.txt" {
		t.Errorf("untracked = %q", st.untracked)
	}
	if st.branch != "main" || len(st.head) != 40 {
		t.Errorf("branch %q head %q", st.branch, st.head)
	}
	run(t, r.Root, "reset", "--quiet", "--hard")
	run(t, r.Root, "checkout", "--quiet", "--detach")
	if b, err := r.Branch(ctx); err != nil || b != "" {
		t.Errorf("detached: Branch = %q, %v", b, err)
	}
	cp, err := r.Checkpoint(ctx)
	if err != nil || cp.Branch != "" {
		t.Errorf("detached checkpoint: %+v %v", cp, err)
	}
}

func TestRestoreRefusesWhenHeadMoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t, map[string]string{"a.txt": "one\n"})
	cp, err := r.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write(t, r.Root, "a.txt", "two\n")
	run(t, r.Root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-am", "moved")
	write(t, r.Root, "a.txt", "three\n")
	if err := r.Restore(ctx, cp); err == nil || !strings.Contains(err.Error(), "HEAD moved") {
		t.Fatalf("Restore = %v", err)
	}
	if got := read(t, r.Root, "a.txt"); got != "three\n" {
		t.Errorf("a.txt = %q: nothing may be reset when HEAD moved", got)
	}
}

func TestCheckpointNeedsACommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run(t, dir, "init", "--quiet")
	r, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Checkpoint(context.Background()); err == nil || !strings.Contains(err.Error(), "no commit yet") {
		t.Errorf("Checkpoint = %v", err)
	}
}
