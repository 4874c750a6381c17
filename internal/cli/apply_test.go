package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/golden"
)

const applyGreet = "package greet\n\n// Hello greets.\nfunc Hello() string {\n\treturn \"hello\"\n}\n"

// applyReplyOK is a sloppy reply: no git header, no a/ b/, no numbers.
const applyReplyOK = "Fix:\n\n```diff\n--- greet.go\n+++ greet.go\n@@ ... @@\n func Hello() string {\n-\treturn \"hello\"\n+\treturn \"hello, world\"\n }\n```\n"

// applyRepo is a git repository with one committed file and, if cfg is
// not empty, a .github/agent-fix.yml.
func applyRepo(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("greet.go", applyGreet)
	if cfg != "" {
		write(".github/agent-fix.yml", cfg)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// applyStatus is git status --porcelain: what the command changed.
func applyStatus(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func runApplyCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), append([]string{"apply"}, args...), MapEnv(nil, strings.NewReader(stdin), &out, &errb))
	return code, out.String(), errb.String()
}

func TestApplyWritesTheWorkTreeAndPrintsTheDiff(t *testing.T) {
	t.Parallel()
	dir := applyRepo(t, "")
	code, out, errOut := runApplyCLI(t, applyReplyOK, "--repo", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if got := applyStatus(t, dir); got != " M greet.go\n" {
		t.Errorf("git status = %q, want the file modified and not staged", got)
	}
	applyGolden(t, "applied", "stdout:\n"+out+"stderr:\n"+strings.ReplaceAll(errOut, dir, "$REPO"))
	// The printed diff is what git apply accepts: reverse it and the tree is clean.
	cmd := exec.Command("git", "apply", "-R", "-")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply -R of the printed diff: %v\n%s", err, b)
	}
	if got := applyStatus(t, dir); got != "" {
		t.Errorf("after reversing the diff, git status = %q", got)
	}
}

func TestApplyCheckWritesNothing(t *testing.T) {
	t.Parallel()
	dir := applyRepo(t, "")
	reply := filepath.Join(t.TempDir(), "reply.md")
	os.WriteFile(reply, []byte(applyReplyOK), 0o644)
	code, out, errOut := runApplyCLI(t, "", "--repo", dir, reply, "--check")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if got := applyStatus(t, dir); got != "" {
		t.Errorf("--check changed the tree: %q", got)
	}
	if !strings.Contains(out, "+\treturn \"hello, world\"") || !strings.Contains(errOut, "--check, nothing written") {
		t.Errorf("stdout %q\nstderr %q", out, errOut)
	}
}

func TestApplyRefusalsExit1AndChangeNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cfg, reply string
		want             []string // substrings of the JSON errors
	}{
		{"hunk not found", "", "```diff\n--- a/greet.go\n+++ b/greet.go\n@@ -4,3 +4,3 @@\n func Hello() string {\n-\treturn \"goodbye\"\n+\treturn \"hi\"\n }\n```\n",
			[]string{`"file": "greet.go"`, `"hunk": 1`, `you wrote \"\\treturn \\\"goodbye\\\"\"`}},
		{"denied by config", "paths:\n  deny: [\"*.go\"]\n", applyReplyOK, []string{`matches paths.deny pattern \"*.go\"`}},
		{"over max_changed_lines", "limits:\n  max_changed_lines: 1\n", applyReplyOK, []string{"limits.max_changed_lines is 1"}},
		{"all or nothing", "", applyReplyOK + "\n```diff\n--- a/missing.go\n+++ b/missing.go\n@@ -1 +1 @@\n-x\n+y\n```\n", []string{"missing.go", "does not exist"}},
		{"empty reply", "", "", []string{"the reply is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := applyRepo(t, tt.cfg)
			code, out, errOut := runApplyCLI(t, tt.reply, "--repo", dir, "--json", "-")
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout %s\nstderr %s", code, out, errOut)
			}
			var res struct {
				Applied bool
				Errors  []json.RawMessage
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Applied || len(res.Errors) == 0 {
				t.Fatalf("JSON %v: %s", err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("JSON lacks %s:\n%s", w, out)
				}
			}
			if got := applyStatus(t, dir); got != "" {
				t.Errorf("refused, but git status = %q", got)
			}
		})
	}
}

func TestApplyRefusalHumanOutput(t *testing.T) {
	t.Parallel()
	dir := applyRepo(t, "")
	code, out, errOut := runApplyCLI(t, "```diff\n--- a/greet.go\n+++ b/greet.go\n@@ ... @@\n func Hello() string {\n-\treturn \"goodbye\"\n+\treturn \"hi\"\n```\n", "--repo", dir)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	applyGolden(t, "refused", errOut)
}

// TestApplyRefusalReportsNoRepairs: a refused reply wrote nothing, so it
// must not say it created a file or repaired a hunk.
func TestApplyRefusalReportsNoRepairs(t *testing.T) {
	t.Parallel()
	dir := applyRepo(t, "")
	reply := "```diff\n--- a/new.go\n+++ b/new.go\n@@ -0,0 +1 @@\n+package greet\n```\n\n```diff\n--- a/greet.go\n+++ b/greet.go\n@@ -4,3 +4,3 @@\n func Hello() string {\n-\treturn \"goodbye\"\n+\treturn \"hi\"\n }\n```\n"
	code, _, errOut := runApplyCLI(t, reply, "--repo", dir)
	if code != 1 || !strings.Contains(errOut, "refused; nothing was changed") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "repaired:") || strings.Contains(errOut, "created it") {
		t.Errorf("a refused reply reports repairs:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.go")); err == nil {
		t.Error("new.go was written")
	}
}

func TestApplyUsageErrors(t *testing.T) {
	t.Parallel()
	dir := applyRepo(t, "")
	bad := applyRepo(t, "paths:\n  nope: 1\n")
	for name, args := range map[string][]string{
		"two replies":    {"--repo", dir, "a", "b"},
		"missing reply":  {"--repo", dir, filepath.Join(dir, "nope.md")},
		"missing repo":   {"--repo", filepath.Join(dir, "nope")},
		"bad config":     {"--repo", bad, "-"},
		"undefined flag": {"--repo", dir, "--frob"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := runApplyCLI(t, applyReplyOK, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s", code, errOut)
			}
			if got := applyStatus(t, dir); got != "" {
				t.Errorf("git status = %q", got)
			}
		})
	}
}

func applyGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", "apply", name+".golden"), got)
}
