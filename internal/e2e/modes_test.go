package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/cli"
	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// The two modes, `agentfix fix` on a checkout and the action on an issue,
// run the same pipeline. These tests run both on the same project and the
// same model and pin what they must agree on.

// modeRun is one run of either mode: its exit code and output.
type modeRun struct {
	code           int
	stdout, stderr string
}

// runFix runs `agentfix fix` in-process on the world's workspace, against
// its fake Ollama, with args after the common ones.
func runFix(w *actiontest.World, args ...string) modeRun {
	w.T.Helper()
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
	var stdout, stderr bytes.Buffer
	e := cli.MapEnv(env, nil, &stdout, &stderr)
	e.Environ = func() []string { return actiontest.BaseEnv() }
	e.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	full := append([]string{"fix", "--repo", w.Workspace, "--ollama-host", w.Ollama.URL, "--model", actiontest.Model}, args...)
	code := cli.Main(context.Background(), full, e)
	return modeRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// runMode runs mode on the world: `fix` with fixArgs, or the action on a
// newly labelled issue.
func runMode(w *actiontest.World, mode string, fixArgs ...string) modeRun {
	w.T.Helper()
	if mode == "fix" {
		return runFix(w, fixArgs...)
	}
	_, r := runIssue(w)
	return r
}

// runIssue labels a new issue and runs the action on it.
func runIssue(w *actiontest.World) (int, modeRun) {
	w.T.Helper()
	n := w.AddIssue()
	r := w.Run("issues", actiontest.LabeledPayload(n, "agent-fix", "alice"))
	return n, modeRun{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
}

func TestModesAgreeOnTheSeed(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"fix", "action"} {
		w := newWorld(t, nil)
		runMode(w, mode, "--task", "Add returns the wrong sum")
		chats := w.Ollama.Chats()
		if len(chats) == 0 {
			t.Fatalf("%s: the model was never asked", mode)
		}
		for i, c := range chats {
			if seed, ok := c.Seed(); !ok || seed != 42 {
				t.Errorf("%s: request %d: seed %d (sent: %v), want 42 in every mode", mode, i, seed, ok)
			}
		}
	}
}

func TestModesAgreeOnADirtyTree(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"fix", "action"} {
		w := newWorld(t, nil)
		os.WriteFile(filepath.Join(w.Workspace, "calc.go"), []byte("package calc\n// edited by a person\n"), 0o644)
		r := runMode(w, mode, "--task", "Add returns the wrong sum")
		if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "uncommitted changes") {
			t.Errorf("%s: exit %d, want 2 naming the uncommitted changes\n%s%s", mode, r.code, r.stdout, r.stderr)
		}
		if len(w.Ollama.Chats()) != 0 {
			t.Errorf("%s: the model was asked although the tree is dirty", mode)
		}
		if b, _ := os.ReadFile(filepath.Join(w.Workspace, "calc.go")); !strings.Contains(string(b), "edited by a person") {
			t.Errorf("%s: the person's edit was lost", mode)
		}
	}
}

func TestModesAgreeOnAMissingVerifyTool(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"fix", "action"} {
		w := newWorld(t, nil)
		w.PushMain(map[string]string{".github/agent-fix.yml": "verify:\n  commands: [\"agentfix-no-such-tool\"]\n  allow: [\"agentfix-no-such-tool\"]\n"})
		r := runMode(w, mode, "--failing")
		if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "agentfix-no-such-tool") {
			t.Errorf("%s: exit %d, want 2 naming the missing tool\n%s%s", mode, r.code, r.stdout, r.stderr)
		}
	}
}

func TestModesBothRunTheBeforeCheckForATextTask(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"fix", "action"} {
		w := newWorld(t, nil)
		runMode(w, mode, "--task", "Add returns the wrong sum")
		// The failing test reached the model with the issue's text: the
		// checks ran on the unchanged tree first.
		if !w.ChatsMention("TestAdd") {
			t.Errorf("%s: the failing test is not in the prompt: the before-check did not run", mode)
		}
	}
}

func TestModesAgreeOnCommitAndBranchConventions(t *testing.T) {
	t.Parallel()
	const prefix = "bots/"
	messages := map[string]string{}
	for _, mode := range []string{"fix", "action"} {
		w := newWorld(t, nil)
		w.PushMain(map[string]string{".github/agent-fix.yml": "pr:\n  branch_prefix: " + prefix + "\n"})
		var branch string
		if mode == "fix" {
			r := runFix(w, "--task", "Add returns the wrong sum")
			if r.code != 0 {
				t.Fatalf("fix: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			branch = strings.TrimSpace(actiontest.Git(t, w.Workspace, nil, "branch", "--show-current"))
			messages[mode] = actiontest.Git(t, w.Workspace, nil, "log", "-1", "--format=%B", branch)
		} else {
			n, r := runIssue(w)
			if r.code != 0 {
				t.Fatalf("action: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			branch = prefix + "issue-" + strconv.Itoa(n)
			messages[mode] = actiontest.Git(t, w.Origin, nil, "log", "-1", "--format=%B", branch)
		}
		if !strings.HasPrefix(branch, prefix) {
			t.Errorf("%s: branch %q does not start with pr.branch_prefix %q", mode, branch, prefix)
		}
	}
	for mode, msg := range messages {
		for _, want := range []string{"agentfix: Add returns the wrong sum\n\n", "\n- ", "Verified with: go test ./...\n", "Model: " + actiontest.Model + "\n", "\nGenerated-by: agentfix"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: commit message lacks %q:\n%s", mode, want, msg)
			}
		}
	}
	if !strings.Contains(messages["action"], "Fixes #") || strings.Contains(messages["fix"], "Fixes #") {
		t.Errorf("only the action's commit closes its issue:\nfix:\n%s\naction:\n%s", messages["fix"], messages["action"])
	}
}
