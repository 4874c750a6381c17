package hardening

// A row's world is an actiontest world (a bare origin seeded with a small
// Go project whose Add subtracts, a depth-1 workspace cloned from it, the
// two fakes, and the binary run with the Actions environment) plus what
// the matrices check on it.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/githubfake"
)

// token is the workflow token every run gets: a value recognisable
// anywhere it might leak.
const token = "ghs_CANARYhardening0TOKEN0x7f3a9c0123456"

// world is one row's GitHub, Ollama, origin and workspace.
type world struct {
	*actiontest.World
	// humanPRs is how many PRs people opened (addPR, forkPR).
	humanPRs int
}

// newWorld seeds origin with files (the buggy project when nil), clones
// the workspace and starts the fakes; every run also gets the token as
// GITHUB_TOKEN, where a careless child process would find it.
func newWorld(t *testing.T, files map[string]string) *world {
	t.Helper()
	w := &world{World: actiontest.New(t, token, files)}
	w.Env["GITHUB_TOKEN"] = token
	return w
}

// config pushes .github/agent-fix.yml onto main.
func (w *world) config(yml string) {
	w.T.Helper()
	w.PushMain(map[string]string{".github/agent-fix.yml": yml})
}

// addPR opens a PR by alice from a new branch holding files.
func (w *world) addPR(branch string, files map[string]string) int {
	head := w.PushBranch(branch, files)
	w.humanPRs++
	return w.GH.AddPR(actiontest.Repo, githubfake.Issue{Title: "Change " + branch, User: "alice", PR: &githubfake.PullRequest{Head: branch, HeadSHA: head}})
}

// sessionPaths are the session records the runs kept of a job kind
// (RUNNER_TEMP/agentfix/sessions/<time>-<job>-<title>.jsonl, the job being
// issue-N, pr-N or nightly).
func (w *world) sessionPaths(kind string) []string {
	job := map[string]string{"fix-issue": "issue-", "check-pr": "pr-", "nightly": "nightly"}[kind]
	ps, _ := filepath.Glob(filepath.Join(w.RunnerTemp(), "agentfix", "sessions", "*-"+job+"*.jsonl"))
	return ps
}

// status is the body of the one status comment on number, or "".
func (w *world) status(number int) string {
	st := w.StatusComments(number)
	if len(st) != 1 {
		return ""
	}
	return st[0].Body
}

// branchTip is the commit of an origin branch, "" when it does not exist.
func (w *world) branchTip(branch string) string {
	cmd := exec.Command("git", "-C", w.Origin, "rev-parse", "--verify", "-q", "refs/heads/"+branch)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// show is a file at a commit of origin, "" when absent.
func (w *world) show(rev, path string) string {
	out, err := exec.Command("git", "-C", w.Origin, "show", rev+":"+path).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
