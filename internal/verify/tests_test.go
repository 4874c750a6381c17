package verify

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestTestPathsFollowTheRunners(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmds       []string
		test, code string
	}{
		{[]string{"go test ./..."}, "pkg/abs_test.go", "pkg/abs.go"},
		{[]string{"go test ./...", "go vet ./..."}, "pkg/testdata/in.txt", "pkg/data/in.txt"},
		{[]string{"pytest -q"}, "tests/test_abs.py", "absmod/abs.py"},
		{[]string{"python3 -m pytest"}, "absmod/abs_test.py", "absmod/testing.py"},
		{[]string{"npm test"}, "src/abs.test.js", "src/abs.js"},
		{[]string{"npx vitest run"}, "src/__tests__/abs.js", "src/tests.js"},
		{[]string{"cargo test"}, "tests/abs.rs", "src/abs.rs"},
		{[]string{"make test"}, "abs_test.go", "abs.go"},
		{[]string{"make test"}, "tests/test_abs.py", "abs.py"},
	} {
		globs := TestPaths(tc.cmds)
		if !IsTestFile(globs, tc.test) {
			t.Errorf("%q: %s is not a test file by %q", tc.cmds, tc.test, globs)
		}
		if IsTestFile(globs, tc.code) {
			t.Errorf("%q: %s is a test file by %q", tc.cmds, tc.code, globs)
		}
	}
	if g := TestPaths([]string{"go test ./..."}); slices.Contains(g, "**/test_*.py") {
		t.Errorf("a Go project's test paths include Python's: %q", g)
	}
}

func TestNarrowToTestFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   string
		files []string
		want  string
	}{
		{"go test ./...", []string{"abs_test.go"}, "go test ."},
		{"go test -race -run X ./... -args -v", []string{"a/x_test.go", "a/y_test.go", "b/z_test.go", "b/testdata/in"}, "go test -race ./a ./b -args -v"},
		{"go test ./...", []string{"testdata/in.txt"}, ""},
		{"pytest -q -k slow tests", []string{"tests/test_abs.py", "tests/conftest.py"}, "pytest -q -rA tests/test_abs.py"},
		{"python3 -m pytest", []string{"abs_test.py"}, "python3 -m pytest -rA abs_test.py"},
		{"npx jest --ci -t old", []string{"src/abs.test.js"}, "npx jest --ci src/abs.test.js"},
		{"npx vitest run", []string{"a.spec.ts"}, "npx vitest run a.spec.ts"},
		{"npm test", []string{"test/abs.test.js"}, ""},
		{"cargo test", []string{"tests/abs.rs"}, ""},
		{"make test", []string{"abs_test.go"}, ""},
		// go -C DIR: the packages as the go command sees them in DIR.
		{"go -C go test -race ./...", []string{"go/calc/sum_test.go", "go/x_test.go"}, "go -C go test -race ./calc ."},
		{"go -C=go test -json ./...", []string{"go/calc/sum_test.go"}, "go -C=go test ./calc"},
		{"go -C go test ./...", []string{"go/calc/sum_test.go", "web/calc_test.go"}, ""},
	} {
		got, ok := Narrow(tc.cmd, tc.files)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Narrow(%q, %q) = %q, %v; want %q", tc.cmd, tc.files, got, ok, tc.want)
		}
		if ok {
			if _, err := ParseCommand(got, []string{"go -C go test", "go -C=go test"}); err != nil {
				t.Errorf("Narrow(%q) = %q, which the allowlist refuses: %v", tc.cmd, got, err)
			}
		}
	}
}

// The passing tests a runner names are what proves a test ran: a command
// that exits 0 having skipped or not collected it proves nothing.
func TestSeenPassingGo(t *testing.T) {
	t.Parallel()
	dir := project(t, "gopass")
	rep := runIn(t, dir, []string{"go test ./..."}, Options{})
	if !rep.Passed {
		t.Fatalf("gopass failed:\n%s", rep.Commands[0].Output)
	}
	passed := Failure{Test: "TestAdd", Package: "example.com/gopass/calc"}
	if missing := rep.NotSeenPassing([]Failure{passed}); len(missing) != 0 {
		t.Errorf("%s passed but is not seen passing", passed.ID())
	}
	ghost := Failure{Test: "TestNeverWritten", Package: passed.Package}
	if missing := rep.NotSeenPassing([]Failure{ghost}); len(missing) != 1 {
		t.Errorf("a test that never ran is seen passing")
	}
}

func TestSeenPassingPytest(t *testing.T) {
	t.Parallel()
	needTool(t, "pytest")
	dir := project(t, "pytest")
	cmd, ok := Narrow("pytest -p no:cacheprovider", []string{"tests/test_calc.py"})
	if !ok {
		t.Fatal("pytest not narrowed")
	}
	rep := runIn(t, dir, []string{cmd}, Options{}, "PYTHONDONTWRITEBYTECODE=1")
	add := Failure{Test: "tests/test_calc.py::test_add", Package: "tests/test_calc.py"}
	sub := Failure{Test: "tests/test_calc.py::test_sub", Package: "tests/test_calc.py"}
	if missing := rep.NotSeenPassing([]Failure{add, sub}); len(missing) != 1 || missing[0].Test != sub.Test {
		t.Errorf("not seen passing = %+v, want test_sub only\n%s", missing, rep.Commands[0].Output)
	}
	// Skipped by a conftest the fix added: not seen passing.
	os.WriteFile(filepath.Join(dir, "tests", "conftest.py"), []byte("import pytest\n\ndef pytest_collection_modifyitems(items):\n    for i in items:\n        i.add_marker(pytest.mark.skip(reason='x'))\n"), 0o644)
	rep = runIn(t, dir, []string{cmd}, Options{}, "PYTHONDONTWRITEBYTECODE=1")
	if !rep.Passed {
		t.Fatalf("skipped run failed:\n%s", rep.Commands[0].Output)
	}
	if missing := rep.NotSeenPassing([]Failure{add}); len(missing) != 1 {
		t.Errorf("a skipped test is seen passing:\n%s", rep.Commands[0].Output)
	}
}

func TestSeenPassingNodeTAP(t *testing.T) {
	t.Parallel()
	needTool(t, "node")
	needTool(t, "npm")
	dir := project(t, "node")
	rep := runIn(t, dir, []string{"npm test"}, Options{})
	add := Failure{Test: "add", Package: "test/calc.test.js"}
	sub := Failure{Test: "sub", Package: "test/calc.test.js"}
	zero := Failure{Test: "table > sub zero", Package: "test/calc.test.js"}
	missing := rep.NotSeenPassing([]Failure{add, sub, zero})
	if len(missing) != 1 || missing[0].Test != "sub" {
		t.Errorf("not seen passing = %+v, want sub only\n%s", missing, rep.Commands[0].Output)
	}
}
