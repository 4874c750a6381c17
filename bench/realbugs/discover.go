package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Selection rules for a release to become a case (see README.md).
const (
	maxCodeFiles = 3  // non-test .go files the fix changes
	maxFixLines  = 80 // lines added plus base lines changed in them
	testTimeout  = 4 * time.Minute
	failingLimit = 6000 // bytes of failing output kept, head and tail
)

// perModuleLimit is how many cases discover keeps per module, newest
// releases first (-per-module).
var perModuleLimit = 4

// discover walks consecutive patch releases of each module, newest first,
// and prints (as JSON, one case per line, without issue text) those whose
// release is a small code fix with a test change, where the changed tests
// fail on the earlier release and pass on the later one.
func discover(mods []string, out io.Writer, log io.Writer) error {
	enc := json.NewEncoder(out)
	for _, mod := range mods {
		vs, err := versions(mod)
		if err != nil {
			fmt.Fprintln(log, err)
			continue
		}
		kept := 0
		for k := len(vs) - 1; k > 0 && kept < perModuleLimit; k-- {
			before, after := vs[k-1], vs[k]
			mb, pb, ok1 := patchOf(before)
			ma, pa, ok2 := patchOf(after)
			if !ok1 || !ok2 || mb != ma || pa != pb+1 {
				continue
			}
			c, why := candidate(mod, before, after)
			if c == nil {
				fmt.Fprintf(log, "skip %s %s→%s: %s\n", mod, before, after, why)
				continue
			}
			fmt.Fprintf(log, "case %s %s→%s: %s %v\n", mod, before, after, c.Package, c.Tests)
			if err := enc.Encode(c); err != nil {
				return err
			}
			kept++
		}
	}
	return nil
}

// candidate checks one release against the selection rules and, if it
// passes them, runs its changed tests on both sides.
func candidate(mod, before, after string) (*Case, string) {
	bdir, err := goModDir(mod, before)
	if err != nil {
		return nil, err.Error()
	}
	adir, err := goModDir(mod, after)
	if err != nil {
		return nil, err.Error()
	}
	ch, err := diffModules(bdir, adir)
	switch {
	case err != nil:
		return nil, err.Error()
	case len(ch.sites) == 0:
		return nil, "no code change"
	case len(ch.codeFiles) > maxCodeFiles:
		return nil, fmt.Sprintf("%d code files changed", len(ch.codeFiles))
	case len(ch.newCode) > 0:
		return nil, "the fix adds files " + strings.Join(ch.newCode, ", ")
	case ch.added+ch.removed > maxFixLines:
		return nil, fmt.Sprintf("%d lines changed", ch.added+ch.removed)
	case len(ch.tests) != 1:
		return nil, fmt.Sprintf("changed tests in %d packages", len(ch.tests))
	}
	var pkg string
	var tests []string
	for d, ts := range ch.tests {
		pkg, tests = d, ts
	}
	if len(tests) > 6 {
		return nil, fmt.Sprintf("%d tests changed", len(tests))
	}
	c := &Case{Module: mod, Before: before, After: after, Package: pkg, Tests: tests}
	c.ID = caseID(mod, after)
	tmp, err := os.MkdirTemp("", "realbugs-")
	if err != nil {
		return nil, err.Error()
	}
	defer os.RemoveAll(tmp)
	broken := filepath.Join(tmp, "before")
	if err := c.buggyTree(bdir, adir, ch.testFiles, broken); err != nil {
		return nil, err.Error()
	}
	out, failed, err := goTest(broken, pkg, tests)
	if err != nil {
		return nil, "the changed tests before the fix: " + err.Error()
	}
	if !failed {
		return nil, "the changed tests pass before the fix"
	}
	if why := notABug(out); why != "" {
		return nil, why
	}
	fixed := filepath.Join(tmp, "after")
	if err := copyTree(adir, fixed); err != nil {
		return nil, err.Error()
	}
	aout, failed, err := goTest(fixed, pkg, tests)
	if err != nil {
		return nil, "the changed tests after the fix: " + err.Error()
	}
	if failed {
		return nil, "the changed tests fail after the fix too: " + firstLine(aout)
	}
	c.Failing = trimOutput([]byte(out), failingLimit)
	return c, ""
}

// notABug says why the output of the changed tests failing on the
// earlier release shows no bug ("" when it shows one): they do not build
// (a test of a new API), or go test failed before any test could (no
// go.mod in the earlier release).
func notABug(out string) string {
	switch {
	case strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]"):
		return "the changed tests do not build before the fix (new API)"
	case !strings.Contains(out, "FAIL"):
		return "go test failed before the fix without a test failing: " + firstLine(out)
	}
	return ""
}

// buggyTree writes the module before the fix with the release's test
// changes applied: the repository as a failing nightly run would see it.
func (c *Case) buggyTree(bdir, adir string, testFiles []string, dst string) error {
	if err := copyTree(bdir, dst); err != nil {
		return err
	}
	for _, p := range testFiles {
		b, err := os.ReadFile(filepath.Join(adir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// goTest runs the named tests of one package and reports whether they
// failed; the output is what `go test` prints. A run past goTestTimeout
// is killed, and the error says so (errTooLong): on a busy machine a big
// module's tests may take that long, and the pair is no less a case.
func goTest(dir, pkg string, tests []string) (string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), goTestTimeout)
	defer cancel()
	out, err := goTestCmd(ctx, dir, pkg, tests).CombinedOutput()
	if ctx.Err() != nil {
		return string(out), true, fmt.Errorf("go test ran past %v (a busy machine, or a test that hangs; run -discover again on this module alone): %w", goTestTimeout, errTooLong)
	}
	return string(out), err != nil, nil
}

// goTestEnv is what the go command runs a case's tests with: the
// module's requirements fetched as needed, no VCS stamp (the trees are
// no checkouts), no workspace around them.
var goTestEnv = []string{"GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off"}

// goTestCmd is go test of the named tests of one package of the module in
// dir, with flags before the package.
func goTestCmd(ctx context.Context, dir, pkg string, tests []string, flags ...string) *exec.Cmd {
	sorted := append([]string(nil), tests...)
	sort.Strings(sorted)
	args := append([]string{"test", "-count=1", "-run", "^(" + strings.Join(sorted, "|") + ")$"}, flags...)
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goTestEnv...)
	return cmd
}

func caseID(mod, after string) string {
	parts := strings.Split(mod, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && strings.HasPrefix(name, "v") && len(name) <= 3 {
		name = parts[len(parts)-2]
	}
	return name + "@" + after
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
