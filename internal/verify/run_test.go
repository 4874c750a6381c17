package verify

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/fixtures"
)

// project copies the shared sample project name (testdata/projects) into
// a fresh directory, so runs do not write into the source tree or see each
// other's markers.
func project(t *testing.T, name string) string {
	t.Helper()
	src := fixtures.Path("projects", name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// runIn runs cmds in dir with the test's environment plus extra.
func runIn(t *testing.T, dir string, cmds []string, opts Options, extra ...string) *Report {
	t.Helper()
	opts.Dir = dir
	if opts.Timeout == 0 {
		opts.Timeout = 3 * time.Minute
	}
	opts.Environ = append(fixtures.Environ(), extra...)
	rep, err := Run(context.Background(), cmds, opts)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmds, err)
	}
	return rep
}

func needTool(t *testing.T, name string) { t.Helper(); fixtures.NeedTool(t, name) }

func TestRunGoPassing(t *testing.T) {
	t.Parallel()
	rep := runIn(t, project(t, "gopass"), []string{"go test ./...", "go vet ./..."}, Options{})
	if !rep.Passed || len(rep.Commands) != 2 {
		t.Fatalf("report = %+v, want two passing commands", rep)
	}
	c := rep.Commands[0]
	if strings.Join(c.Argv, " ") != "go test -json ./..." {
		t.Errorf("argv = %q, want -json added after test", c.Argv)
	}
	if c.ExitCode != 0 || len(c.Failures) != 0 || c.TimedOut || c.Truncated {
		t.Errorf("result = %+v", c)
	}
	if !strings.Contains(c.Output, "ok  \texample.com/gopass/calc") || strings.Contains(c.Output, `"Action"`) {
		t.Errorf("output should be go test's text, not JSON:\n%s", c.Output)
	}
	if rep.Signature() != "" {
		t.Errorf("a passing report has signature %q, want empty", rep.Signature())
	}
}

func TestRunGoFailing(t *testing.T) {
	t.Parallel()
	dir := project(t, "gofail")
	rep := runIn(t, dir, []string{"go test ./..."}, Options{})
	if rep.Passed {
		t.Fatal("report passed, want failed")
	}
	c := rep.Commands[0]
	if c.ExitCode != 1 {
		t.Errorf("exit code = %d, want 1", c.ExitCode)
	}
	got := map[string]Failure{}
	for _, f := range c.Failures {
		got[f.Test] = f
	}
	if len(got) != 2 {
		t.Fatalf("failures = %+v, want TestSub and TestTable/one", c.Failures)
	}
	sub := got["TestSub"]
	if sub.Package != "example.com/gofail/calc" || sub.File != "calc/calc_test.go" || sub.Line != 14 {
		t.Errorf("TestSub = %+v, want package example.com/gofail/calc at calc/calc_test.go:14", sub)
	}
	if !strings.Contains(sub.Output, "Sub(3, 1) = 4, want 2") || !strings.Contains(sub.Output, "checking Sub") {
		t.Errorf("TestSub output lacks the log and the error:\n%s", sub.Output)
	}
	if f, ok := got["TestTable/one"]; !ok || f.Line != 25 {
		t.Errorf("TestTable/one = %+v, want a leaf failure at line 25", f)
	}
	if _, ok := got["TestTable"]; ok {
		t.Error("the parent TestTable is reported besides its failing subtest")
	}
	if _, ok := got["TestAdd"]; ok {
		t.Error("passing TestAdd reported as failing")
	}
	target, ok := Targeted("go test ./...", c.Failures)
	if want := "go test ./calc -run '^(TestSub|TestTable)$'"; !ok || target != want {
		t.Errorf("Targeted = %q, %v; want %q", target, ok, want)
	}
	// The targeted command finds the same failures, so the signature holds.
	again := runIn(t, dir, []string{target}, Options{})
	if again.Signature() != rep.Signature() || rep.Signature() == "" {
		t.Errorf("signature of the targeted re-run %q != %q", again.Signature(), rep.Signature())
	}
}

// TestRunGoInADirectory: go -C go test ./..., the command for a module in
// go/ of the repository, is go test: it gets -json, its failures are
// parsed from the event stream and named by their repository paths, and
// the targeted re-run finds them again.
func TestRunGoInADirectory(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	if err := os.CopyFS(filepath.Join(repo, "go"), os.DirFS(fixtures.Path("projects", "gofail"))); err != nil {
		t.Fatal(err)
	}
	allow := Options{Allow: []string{"go -C go test"}}
	rep := runIn(t, repo, []string{"go -C go test ./..."}, allow)
	c := rep.Commands[0]
	if strings.Join(c.Argv, " ") != "go -C go test -json ./..." {
		t.Errorf("argv = %q, want -json added after test", c.Argv)
	}
	var sub *Failure
	for k := range c.Failures {
		if c.Failures[k].Test == "TestSub" {
			sub = &c.Failures[k]
		}
	}
	if rep.Passed || sub == nil || sub.Package != "example.com/gofail/calc" || sub.File != "go/calc/calc_test.go" || sub.Line != 14 {
		t.Fatalf("failures = %+v, want TestSub of example.com/gofail/calc at go/calc/calc_test.go:14", c.Failures)
	}
	target, ok := Targeted("go -C go test ./...", c.Failures)
	if want := "go -C go test ./calc -run '^(TestSub|TestTable)$'"; !ok || target != want {
		t.Fatalf("Targeted = %q, %v; want %q", target, ok, want)
	}
	if again := runIn(t, repo, []string{target}, allow); again.Signature() != rep.Signature() {
		t.Errorf("signature of the targeted re-run %q != %q", again.Signature(), rep.Signature())
	}
}

func TestRunGoPanic(t *testing.T) {
	t.Parallel()
	// Stack frames are absolute paths, or module paths when the runner
	// builds with GOFLAGS=-trimpath (the tests' environment does).
	for _, goflags := range []string{"-count=1", "-trimpath -count=1"} {
		rep := runIn(t, project(t, "gopanic"), []string{"go test ./..."}, Options{}, "GOFLAGS="+goflags)
		fs := rep.Commands[0].Failures
		if rep.Passed || len(fs) != 1 {
			t.Fatalf("GOFLAGS=%s: failures = %+v, want one", goflags, fs)
		}
		f := fs[0]
		// The location is the frame that dereferenced nil, not the test.
		if f.Test != "TestLookup" || f.File != "panic_test.go" || f.Line != 10 {
			t.Errorf("GOFLAGS=%s: failure = %s %s:%d, want TestLookup at panic_test.go:10", goflags, f.Test, f.File, f.Line)
		}
		if !strings.Contains(f.Output, "nil pointer dereference") || !strings.Contains(f.Output, "\tpanic_test.go:10") {
			t.Errorf("GOFLAGS=%s: output lacks the panic at its repository path:\n%s", goflags, f.Output)
		}
	}
}

func TestRunGoBuildFailure(t *testing.T) {
	t.Parallel()
	dir := project(t, "gobuild")
	for _, cmd := range []string{"go test ./...", "go build ./...", "go vet ./..."} {
		rep := runIn(t, dir, []string{cmd}, Options{})
		fs := rep.Commands[0].Failures
		if rep.Passed || len(fs) == 0 {
			t.Fatalf("%s: failures = %+v, want a build failure", cmd, fs)
		}
		f := fs[0]
		if f.File != "build.go" || f.Line != 6 || !strings.Contains(f.Output, "undefined: tw") {
			t.Errorf("%s: failure = %+v, want build.go:6 undefined: tw", cmd, f)
		}
		if f.Package != "example.com/gobuild" {
			t.Errorf("%s: package = %q", cmd, f.Package)
		}
	}
}

func TestRunGoHangIsKilledWithItsChildren(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	dir := project(t, "gohang")
	// Build once first, so the timeout measures the hang, not the compiler.
	warm := exec.Command("go", "test", "-count=1", "-run", "^$", "./...")
	warm.Dir = dir
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("warm-up build: %v\n%s", err, out)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	// Unsandboxed: the pids the test writes are the host's, and the process
	// group and marker kill are what is tested (sandbox_test.go has the
	// sandboxed twin).
	rep := runIn(t, dir, []string{"go test ./..."}, Options{Timeout: 8 * time.Second, KillGrace: 500 * time.Millisecond, Env: []string{"HANG_PIDFILE=" + pidfile}, Sandbox: Sandbox{Mode: SandboxOff}})
	c := rep.Commands[0]
	if rep.Passed || !c.TimedOut {
		t.Fatalf("result = %+v, want timed out", c)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the hanging test never started before the timeout: %v\n%s", err, c.Output)
	}
	for _, field := range strings.Fields(string(data)) {
		if alive(field) {
			t.Errorf("process %s outlived the run (pids: %s)", field, data)
		}
	}
	if len(c.Failures) != 1 || c.Failures[0].Test != "TestHang" || !strings.Contains(c.Failures[0].Output, "timeout") {
		t.Errorf("failures = %+v, want TestHang, still running at the timeout", c.Failures)
	}
}

// alive reports whether pid is a process that is not a zombie.
func alive(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestRunOutputIsCapped(t *testing.T) {
	t.Parallel()
	rep := runIn(t, project(t, "gobig"), []string{"go test ./..."}, Options{OutputCap: 1 << 20})
	c := rep.Commands[0]
	if !c.Truncated {
		t.Fatal("50 MB of output not marked truncated")
	}
	if len(c.Output) > 1<<20+200 {
		t.Errorf("kept %d bytes, cap is 1 MiB", len(c.Output))
	}
	for _, want := range []string{"line 00000 ", "line 51199 ", "agentfix cut", "printed 50 MB"} {
		if !strings.Contains(c.Output, want) {
			t.Errorf("capped output lacks %q", want)
		}
	}
	if len(c.Failures) != 1 || len(c.Failures[0].Output) > perFailureCap+200 || !strings.Contains(c.Failures[0].Output, "printed 50 MB") {
		t.Errorf("failure output not trimmed to its cap, or lost its tail")
	}
}

func TestRunHidesTokens(t *testing.T) {
	t.Parallel()
	secrets := []string{
		"GITHUB_TOKEN=ghs_secret0000000001", "GH_TOKEN=ghs_secret0000000002",
		"ACTIONS_RUNTIME_TOKEN=secret0000000003", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=secret0000000004",
		"AWS_SECRET_ACCESS_KEY=secret0000000005", "NPM_TOKEN=secret0000000006",
		"INPUT_GITHUB-TOKEN=ghs_secret0000000001", "COPY_OF_TOKEN_VALUE=ghs_secret0000000001",
		"AGENTFIX_VISIBLE=plain-value",
	}
	// AGENTFIX_VISIBLE is passed by name, as verify.env does.
	rep := runIn(t, project(t, "gotoken"), []string{"go test -count=1 ./..."}, Options{Env: []string{"AGENTFIX_VISIBLE"}}, secrets...)
	c := rep.Commands[0]
	if !rep.Passed {
		t.Errorf("the test saw a secret:\n%s", c.Output)
	}
	if !strings.Contains(c.Output, "AGENTFIX_VISIBLE=plain-value") {
		t.Fatalf("the test did not print its environment, so this test proves nothing:\n%s", c.Output)
	}
	if strings.Contains(c.Output, "secret00") {
		t.Errorf("a secret value reached the output:\n%s", c.Output)
	}
}

func TestRunFlaky(t *testing.T) {
	t.Parallel()
	dir := project(t, "goflaky")
	// The marker is in the work tree: the only place a sandboxed test writes.
	marker := "FLAKY_MARKER=" + filepath.Join(dir, ".ran-once-1")
	rep := runIn(t, dir, []string{"go test -count=1 ./..."}, Options{FlakyReruns: 1, Env: []string{marker}})
	if !rep.Passed || len(rep.Flaky) != 1 || rep.Flaky[0].Test != "TestFlaky" {
		t.Fatalf("report = %+v, want passed with TestFlaky flaky", rep)
	}
	if c := rep.Commands[0]; c.ExitCode != 1 || len(c.Failures) != 0 {
		t.Errorf("command = exit %d, failures %+v; want the first exit code and no failures", c.ExitCode, c.Failures)
	}

	// Without re-runs the same test is a failure.
	marker = "FLAKY_MARKER=" + filepath.Join(dir, ".ran-once-2")
	rep = runIn(t, dir, []string{"go test -count=1 ./..."}, Options{Env: []string{marker}})
	if rep.Passed || len(rep.Flaky) != 0 {
		t.Errorf("without re-runs: report = %+v, want failed", rep)
	}
}

func TestRunRealFailureIsNotFlaky(t *testing.T) {
	t.Parallel()
	rep := runIn(t, project(t, "gofail"), []string{"go test ./calc"}, Options{FlakyReruns: 2})
	if rep.Passed || len(rep.Flaky) != 0 || len(rep.Commands[0].Failures) != 2 {
		t.Errorf("report = %+v, want two failures and nothing flaky", rep)
	}
}

func TestRunPytest(t *testing.T) {
	t.Parallel()
	needTool(t, "pytest")
	dir := project(t, "pytest")
	rep := runIn(t, dir, []string{"pytest -p no:cacheprovider"}, Options{}, "PYTHONDONTWRITEBYTECODE=1")
	fs := rep.Commands[0].Failures
	want := []Failure{
		{Test: "tests/test_calc.py::test_sub", Package: "tests/test_calc.py", File: "tests/test_calc.py", Line: 11},
		{Test: "tests/test_calc.py::test_sub_table[1-1-0]", Package: "tests/test_calc.py", File: "tests/test_calc.py", Line: 16},
		{Test: "tests/test_calc.py::TestCalc::test_method", Package: "tests/test_calc.py", File: "tests/test_calc.py", Line: 21},
	}
	if len(fs) != len(want) {
		t.Fatalf("failures = %+v, want %d\n%s", fs, len(want), rep.Commands[0].Output)
	}
	for i, w := range want {
		got := fs[i]
		got.Output = ""
		if got != w {
			t.Errorf("failure %d = %+v, want %+v", i, got, w)
		}
	}
	if !strings.Contains(fs[0].Output, "assert 4 == 2") {
		t.Errorf("output of test_sub lacks the assertion:\n%s", fs[0].Output)
	}
	target, ok := Targeted("pytest -p no:cacheprovider", fs)
	if !ok {
		t.Fatal("no targeted pytest command")
	}
	again := runIn(t, dir, []string{target}, Options{}, "PYTHONDONTWRITEBYTECODE=1")
	if again.Signature() != rep.Signature() || !strings.Contains(again.Commands[0].Output, "3 failed in") {
		t.Errorf("targeted %q: signature %q != %q or did not run only the 3 failures:\n%s", target, again.Signature(), rep.Signature(), again.Commands[0].Output)
	}
}

func TestRunNodeTest(t *testing.T) {
	t.Parallel()
	needTool(t, "node")
	needTool(t, "npm")
	dir := project(t, "node")
	for _, tc := range []struct {
		cmd   string
		allow []string
	}{{"npm test", nil}, {"node --test", []string{"node --test"}}} {
		rep := runIn(t, dir, []string{tc.cmd}, Options{Allow: tc.allow})
		fs := rep.Commands[0].Failures
		if rep.Passed || len(fs) != 2 {
			t.Fatalf("%s: failures = %+v, want sub and table > sub one\n%s", tc.cmd, fs, rep.Commands[0].Output)
		}
		if fs[0].Test != "sub" || fs[0].File != "test/calc.test.js" || fs[0].Line != 10 {
			t.Errorf("%s: first failure = %+v, want sub at test/calc.test.js:10", tc.cmd, fs[0])
		}
		if fs[1].Test != "table > sub one" || fs[1].Line != 18 {
			t.Errorf("%s: second failure = %+v, want 'table > sub one' at line 18", tc.cmd, fs[1])
		}
	}
}

func TestRunRefusesBeforeRunningAnything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	_, err := Run(context.Background(), []string{"go version", "touch " + marker}, Options{Dir: dir})
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("err = %v, want *RefusedError", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command ran although another was refused")
	}
}

func TestRunMissingTool(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), []string{"agentfix-no-such-tool test"}, Options{Dir: t.TempDir(), Allow: []string{"agentfix-no-such-tool test"}})
	if !errors.Is(err, ErrStart) || !strings.Contains(err.Error(), "agentfix-no-such-tool") {
		t.Errorf("err = %v, want ErrStart naming the tool", err)
	}
}

func TestRunCargo(t *testing.T) {
	t.Parallel()
	needTool(t, "cargo")
	dir := project(t, "cargo")
	rep := runIn(t, dir, []string{"cargo test"}, Options{FlakyReruns: 1}, "CARGO_TARGET_DIR="+filepath.Join(t.TempDir(), "target"))
	fs := rep.Commands[0].Failures
	if rep.Passed || len(fs) != 2 {
		t.Fatalf("failures = %+v, want 2\n%s", fs, rep.Commands[0].Output)
	}
	if fs[0].Test != "tests::panics" || fs[0].File != "src/lib.rs" || fs[0].Line != 22 {
		t.Errorf("first failure = %s %s:%d, want tests::panics at src/lib.rs:22", fs[0].Test, fs[0].File, fs[0].Line)
	}
	if fs[1].Test != "tests::sub_works" || fs[1].Line != 11 || !strings.Contains(fs[1].Output, "left: 4") {
		t.Errorf("second failure = %+v, want tests::sub_works at line 11", fs[1])
	}
}

// marked lists the live processes whose environment holds kv.
func marked(t *testing.T, kv string) []string {
	t.Helper()
	var pids []string
	entries, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, e := range entries {
		env, err := os.ReadFile(e)
		pid := filepath.Base(filepath.Dir(e))
		if err == nil && strings.Contains("\x00"+string(env), "\x00"+kv+"\x00") && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestRunKillsShellChildren runs make, whose recipe starts a background
// sleep, one in its own session and one in the foreground: the timeout
// must leave none of them. The sleeps last a day, so a Run that waited for
// them would hang the test rather than pass it; no clock is read.
func TestRunKillsShellChildren(t *testing.T) {
	t.Parallel()
	needTool(t, "make")
	needTool(t, "setsid")
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	id := "MAKEHANG_ID=" + randomHex()
	rep := runIn(t, project(t, "makehang"), []string{"make test"}, Options{Timeout: time.Second, KillGrace: 200 * time.Millisecond}, id)
	c := rep.Commands[0]
	if !c.TimedOut || rep.Passed {
		t.Errorf("result = %+v, want timed out", c)
	}
	if !strings.Contains(c.Output, "started") || len(c.Failures) != 1 || !strings.Contains(c.Failures[0].Output, "killed after the 1s timeout") {
		t.Errorf("output %q, failures %+v", c.Output, c.Failures)
	}
	if left := marked(t, id); len(left) > 0 {
		t.Errorf("processes %v outlived the run", left)
	}
}

func TestRunCancelled(t *testing.T) {
	t.Parallel()
	needTool(t, "make")
	needTool(t, "setsid")
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	id := "MAKEHANG_ID=" + randomHex()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, []string{"make test"}, Options{Dir: project(t, "makehang"), Environ: append(os.Environ(), id), KillGrace: 200 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's error", err)
	}
	if left := marked(t, id); len(left) > 0 {
		t.Errorf("processes %v outlived the run", left)
	}
}

// TestRunPanicElsewhereIsNotFlaky: the panic is located in package a while
// the failing test is in b. A re-run narrowed to a's directory would run no
// test and exit 0; that must not make the failure flaky.
func TestRunPanicElsewhereIsNotFlaky(t *testing.T) {
	t.Parallel()
	rep := runIn(t, project(t, "gocross"), []string{"go test ./..."}, Options{FlakyReruns: 1})
	fs := rep.Commands[0].Failures
	if rep.Passed || len(rep.Flaky) != 0 || len(fs) != 1 {
		t.Fatalf("report = %+v, want one failure, nothing flaky", rep)
	}
	if f := fs[0]; f.Test != "TestFirstOfNothing" || f.Package != "example.com/gocross/b" || f.File != "a/a.go" || f.Line != 6 {
		t.Errorf("failure = %s %s at %s:%d, want TestFirstOfNothing in b at a/a.go:6", f.Test, f.Package, f.File, f.Line)
	}
}
