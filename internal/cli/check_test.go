package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/fixtures"
	"github.com/agentfix/agentfix/internal/testing/golden"
)

// checkProject copies a shared sample project (testdata/projects) into a new
// directory, with an optional .github/agent-fix.yml.
func checkProject(t *testing.T, name, config string) string {
	t.Helper()
	src := fixtures.Path("projects", name)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		os.MkdirAll(filepath.Join(dst, ".github"), 0o755)
		if err := os.WriteFile(filepath.Join(dst, ".github", "agent-fix.yml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// normalizeCheck replaces what changes from run to run: durations, the
// random stop-commands token, the temporary directory and panic details.
func normalizeCheck(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "$REPO")
	s = regexp.MustCompile(`\b[0-9a-f]{24}\b`).ReplaceAllString(s, "TOKEN")
	s = regexp.MustCompile(`\d+\.\d+s\b`).ReplaceAllString(s, "N.Ns")
	s = regexp.MustCompile(`"duration_ms": \d+`).ReplaceAllString(s, `"duration_ms": N`)
	// Panics: addresses, goroutine ids and the runtime's frames vary.
	s = regexp.MustCompile(`0x[0-9a-f]+`).ReplaceAllString(s, "0xX")
	s = regexp.MustCompile(`goroutine \d+`).ReplaceAllString(s, "goroutine N")
	// The sandbox's limits, and what sets them (a cgroup, rlimits), are
	// the machine's (see verify.describeLimits).
	s = regexp.MustCompile(`(throwaway home and /tmp); at most [^\n]*`).ReplaceAllString(s, "$1; LIMITS)")
	s = regexp.MustCompile(`"limits": "[^"]*"`).ReplaceAllString(s, `"limits": "LIMITS"`)
	s = regexp.MustCompile(`"limits_by": "[^"]*"`).ReplaceAllString(s, `"limits_by": "BY"`)
	s = regexp.MustCompile(`\d+ stack frames`).ReplaceAllString(s, "N stack frames")
	return s
}

// TestCheckGolden runs agentfix check on real projects and compares what
// a user sees with testdata/check/*.golden (go test ./internal/cli -run
// TestCheckGolden -update rewrites them).
func TestCheckGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, project, config string
		args                  []string
		env                   map[string]string
		code                  int
	}{
		{name: "pass", project: "gopass", args: []string{"--quiet"}, code: 0},
		{name: "fail", project: "gofail", args: []string{"--quiet"}, code: 1},
		{name: "config", project: "gofail", config: "verify:\n  commands: [\"go vet ./...\", \"go test ./calc -run TestSub\"]\n  flaky_reruns: 0\n", args: []string{"--quiet"}, code: 1},
		{name: "panic", project: "gopanic", args: []string{"--quiet"}, code: 1},
		{name: "build", project: "gobuild", args: []string{"--quiet"}, code: 1},
		{name: "json", project: "gofail", args: []string{"--json", "--quiet", "--", "go", "test", "./calc"}, code: 1},
		{name: "actions", project: "gofail", args: []string{"--", "go", "test", "./calc", "-run", "TestSub"}, env: map[string]string{"GITHUB_ACTIONS": "true"}, code: 1},
		{name: "actions-json", project: "gofail", args: []string{"--json", "--quiet", "--", "go", "test", "./calc", "-run", "TestSub"}, env: map[string]string{"GITHUB_ACTIONS": "true"}, code: 1},
		{name: "one-argument", project: "gofail", args: []string{"--quiet", "--", "go test ./calc -run TestSub"}, code: 1},
		{name: "one-argument-refused", project: "gopass", args: []string{"--quiet", "--", "curl example.com"}, code: 2},
		{name: "refused", project: "gopass", args: []string{"--", "sh", "-c", "go test ./... | tee log"}, code: 2},
		{name: "bad-config", project: "gopass", config: "verify:\n  commands: [\"go test ./... > log\"]\n", code: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := checkProject(t, tc.project, tc.config)
			var stdout, stderr bytes.Buffer
			env := MapEnv(tc.env, nil, &stdout, &stderr)
			code := Main(context.Background(), append([]string{"check", "--repo", dir}, tc.args...), env)
			got := normalizeCheck(stdout.String()+"--- stderr\n"+stderr.String(), dir)
			golden.Assert(t, filepath.Join("testdata", "check", tc.name+".golden"), got)
			if code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
		})
	}
}

func TestCheckJSONShape(t *testing.T) {
	t.Parallel()
	dir := checkProject(t, "gofail", "")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"check", "--repo", dir, "--json"}, MapEnv(nil, nil, &stdout, &stderr))
	var rep struct {
		Passed   bool `json:"passed"`
		Commands []struct {
			Argv     []string `json:"argv"`
			ExitCode int      `json:"exit_code"`
			Duration *int64   `json:"duration_ms"`
			TimedOut *bool    `json:"timed_out"`
			Trunc    *bool    `json:"truncated"`
			Failures []struct {
				Test, Package, File, Output string
				Line                        int
			} `json:"failures"`
		} `json:"commands"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	if code != 1 || rep.Passed || len(rep.Commands) != 1 {
		t.Fatalf("exit %d, report %+v", code, rep)
	}
	c := rep.Commands[0]
	if c.Duration == nil || c.TimedOut == nil || c.Trunc == nil || c.ExitCode != 1 || len(c.Failures) != 2 {
		t.Errorf("command = %+v", c)
	}
	if f := c.Failures[0]; f.Test != "TestSub" || f.File != "calc/calc_test.go" || f.Line != 14 || f.Package != "example.com/gofail/calc" {
		t.Errorf("failure = %+v", f)
	}
	// Without --quiet the live output goes to stderr, never into the JSON.
	if !strings.Contains(stderr.String(), "$ go test -json ./...") || !strings.Contains(stderr.String(), "--- FAIL: TestSub") {
		t.Errorf("stderr lacks the live output:\n%s", stderr.String())
	}
}

func TestCheckFlags(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	o, err := parseCheck(MapEnv(nil, nil, &out, &out), []string{"--repo", "r", "--json", "--", "go", "test", "-run", "X|Y", "./..."})
	if err != nil {
		t.Fatal(err)
	}
	if o.cfg.repo != "r" || !o.json || o.quiet || strings.Join(o.command, " ") != "go test -run X|Y ./..." {
		t.Errorf("options = %+v", o)
	}
	out.Reset()
	if code := Main(context.Background(), []string{"check", "--help"}, MapEnv(nil, nil, &out, &out)); code != 0 || !strings.Contains(out.String(), "Usage: agentfix check --repo DIR [--json]") {
		t.Errorf("--help: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := Main(context.Background(), []string{"check", "--no-such-flag"}, MapEnv(nil, nil, &out, &out)); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}

// TestCheckFlaky: the test's marker reaches the child through the
// environment the command was given, passed on because verify.env names
// it, and lies in the work tree, the one place a sandboxed test writes.
func TestCheckFlaky(t *testing.T) {
	t.Parallel()
	dir := checkProject(t, "goflaky", "verify:\n  env: [FLAKY_MARKER]\n")
	env := map[string]string{"FLAKY_MARKER": filepath.Join(dir, ".ran-once")}
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"check", "--repo", dir, "--quiet", "--", "go", "test", "-count=1", "./..."}, MapEnv(env, nil, &stdout, &stderr))
	got := normalizeCheck(stdout.String(), dir)
	want := "PASS  go test -count=1 ./... (1 flaky test passed on re-run after N.Ns)\n" +
		"    flaky: TestFlaky (example.com/goflaky) at flaky_test.go:16 (failed, then passed on a re-run)\n" +
		"all verify commands passed\n"
	if code != 0 || got != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s\nstderr: %s", code, got, want, stderr.String())
	}
}
