package hardening

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// outcome is what every row checks after its own assertions.
type outcome struct {
	// diff: the model proposed fixDiff and it passed validation, so it
	// must be kept: on an agentfix branch, or in the status comment or
	// the step summary.
	diff bool
	// session is the job kind whose session record must be kept with its
	// result event; "" when the run never reached the loop.
	session string
	// agentBranches is how many agentfix branches origin may hold.
	agentBranches int
}

// settle runs the checks every row shares: no token anywhere, no duplicate
// PR, no lost diff, the session record kept, no partial push.
func (c *check) settle(w *world, r *actiontest.Result, o outcome) {
	c.t.Helper()
	leaks := w.leaks(r)
	c.must(r, len(leaks) == 0, "the token leaked into %v", leaks)

	heads := map[string]int{}
	for _, pr := range w.GH.PullRequests(actiontest.Repo, "open") {
		heads[pr.PR.HeadRepo+":"+pr.PR.Head]++
	}
	for _, n := range heads {
		if n > 1 {
			c.row.dupPRs += n - 1
		}
	}
	c.must(r, c.row.dupPRs == 0, "%d duplicate pull requests", c.row.dupPRs)

	if o.diff && !w.diffKept(r) {
		c.row.lostDiffs++
		c.must(r, false, "the model's diff is on no branch, in no comment and in no step summary")
	}
	if o.session != "" {
		paths := w.sessionPaths(o.session)
		c.must(r, len(paths) > 0, "no session record of %s kept in %s", o.session, w.RunnerTemp())
		for _, p := range paths {
			rec, err := os.ReadFile(p)
			c.must(r, err == nil && bytes.Contains(rec, []byte(`"kind":"result"`)), "session record %s not kept with its result (%v)", p, err)
		}
	}

	// No partial push: an agentfix branch holds a whole commit by
	// agentfix whose calc.go is the fix, or a person's commit left alone.
	var ours int
	for _, ref := range strings.Fields(gitOut(w.Origin, "for-each-ref", "--format=%(refname)", "refs/heads/agent-fix/")) {
		ours++
		who := gitOut(w.Origin, "log", "-1", "--format=%ce", ref)
		if strings.Contains(who, "agentfix") {
			calc := w.show(ref, "calc.go")
			c.must(r, calc == actiontest.FixedCalc, "%s holds a partial or foreign fix:\n%s", ref, calc)
		}
	}
	c.must(r, ours <= o.agentBranches, "origin holds %d agentfix branches, want at most %d", ours, o.agentBranches)
}

// leaks lists where the token shows up: prompts, GitHub (comments, issue
// and PR bodies), the session records and other files agentfix left under
// RUNNER_TEMP, the log (but for its ::add-mask::), the outputs, the step
// summary, origin's branches and commits, and the workspace's .git/config.
func (w *world) leaks(r *actiontest.Result) []string {
	var where []string
	has := func(place, s string) {
		if strings.Contains(s, token) {
			where = append(where, place)
		}
	}
	for _, req := range w.Ollama.Requests() {
		for _, m := range req.Messages {
			has("prompt", m.Content)
		}
	}
	for _, is := range w.GH.Issues(actiontest.Repo) {
		has("issue or PR body", is.Title+is.Body)
		for _, cm := range w.GH.Comments(actiontest.Repo, is.Number) {
			has("comment", cm.Body)
		}
	}
	filepath.WalkDir(w.RunnerTemp(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			has("file "+filepath.Base(p), string(b))
		}
		return nil
	})
	if r != nil {
		has("stdout", strings.ReplaceAll(r.Stdout, "::add-mask::"+token, ""))
		has("stderr", r.Stderr)
		has("step summary", r.Summary)
		for k, v := range r.Outputs {
			has("output "+k, v)
		}
	}
	for _, ref := range strings.Fields(gitOut(w.Origin, "for-each-ref", "--format=%(refname)")) {
		if exec.Command("git", "-C", w.Origin, "grep", "-q", "-F", token, ref).Run() == nil {
			where = append(where, "branch "+ref)
		}
	}
	has("commit messages", gitOut(w.Origin, "log", "--all", "--format=%B"))
	cfg, _ := os.ReadFile(filepath.Join(w.Workspace, ".git", "config"))
	has(".git/config", string(cfg))
	return where
}

// diffKept reports whether fixDiff's change survives the run somewhere a
// person can find it.
func (w *world) diffKept(r *actiontest.Result) bool {
	for _, ref := range strings.Fields(gitOut(w.Origin, "for-each-ref", "--format=%(refname)", "refs/heads/agent-fix/")) {
		if w.show(ref, "calc.go") == actiontest.FixedCalc {
			return true
		}
	}
	const added = "+\treturn a + b"
	for _, is := range w.GH.Issues(actiontest.Repo) {
		for _, cm := range w.GH.Comments(actiontest.Repo, is.Number) {
			if strings.Contains(cm.Body, added) {
				return true
			}
		}
	}
	return r != nil && strings.Contains(r.Summary, added)
}

func gitOut(dir string, args ...string) string {
	out, _ := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	return strings.TrimSpace(string(out))
}
