package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNotABug: a failing run of the changed tests is a case only when a
// test failed; a build failure or a go test that never ran a test is not.
func TestNotABug(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"--- FAIL: TestX (0.00s)\n    x_test.go:9: got 1\nFAIL\nFAIL\tex.com/m\t0.01s\nFAIL\n", ""},
		{"panic: boom\n\ngoroutine 1 [running]:\nFAIL\tex.com/m\t0.01s\nFAIL\n", ""},
		{"# ex.com/m [ex.com/m.test]\n./x_test.go:3:2: undefined: New\nFAIL\tex.com/m [build failed]\nFAIL\n", "do not build before the fix"},
		{"go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n", "without a test failing: go: go.mod file not found"},
		{"", "without a test failing"},
	} {
		if got := notABug(c.out); c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("notABug(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

// TestDiffModulesFindsChangedSpecs: a release that changes a Ginkgo spec
// (in var _ = Describe(...)) and no Test function has its package's
// suite, the Test function that runs the specs, as its changed tests;
// one that changes a testify suite's method, the Test function that runs
// that suite; a release that changes a Test function has that one.
func TestDiffModulesFindsChangedSpecs(t *testing.T) {
	suite := "package kv_test\n\nimport \"testing\"\n\nfunc TestStore(t *testing.T) {\n\tRegisterFailHandler(Fail)\n\tRunSpecs(t, \"Store Suite\")\n}\n\nfunc TestOther(t *testing.T) {}\n"
	specs := func(want string) string {
		return "package kv_test\n\nvar _ = Describe(\"Store\", func() {\n\tIt(\"gets\", func() {\n\t\tExpect(Get()).To(Equal(" + want + "))\n\t})\n})\n"
	}
	kvSuite := func(want string) string {
		return "package kv_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/suite\"\n)\n\ntype KVSuite struct{ suite.Suite }\n\n" +
			"func TestKVSuite(t *testing.T) { suite.Run(t, new(KVSuite)) }\n\nfunc (s *KVSuite) TestGet() { s.Equal(" + want + ", Get()) }\n"
	}
	code := func(v string) string {
		return "package kv\n\n// Get is the value.\nfunc Get() int { return " + v + " }\n"
	}
	write := func(dir string, files map[string]string) {
		for p, src := range files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name      string
		testAfter map[string]string
		want      []string
	}{
		{"a spec", map[string]string{"kv/store_test.go": specs("2")}, []string{"TestStore"}},
		{"a Test function", map[string]string{"kv/suite_test.go": strings.Replace(suite, "TestOther(t *testing.T) {}", "TestOther(t *testing.T) { t.Log() }", 1)}, []string{"TestOther"}},
		{"a testify suite's method", map[string]string{"kv/kv_suite_test.go": kvSuite("2")}, []string{"TestKVSuite"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, after := t.TempDir(), t.TempDir()
			base := map[string]string{"go.mod": "module ex.com/kv\n", "kv/kv.go": code("1"), "kv/suite_test.go": suite, "kv/store_test.go": specs("1"), "kv/kv_suite_test.go": kvSuite("1")}
			write(before, base)
			write(after, base)
			write(after, map[string]string{"kv/kv.go": code("2")})
			write(after, c.testAfter)
			findSuites = true
			t.Cleanup(func() { findSuites = false })
			ch, err := diffModules(before, after)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(ch.tests); got != fmt.Sprint(map[string][]string{"kv": c.want}) {
				t.Errorf("tests = %s, want kv: %v", got, c.want)
			}
			// Without -suites, as the sets before it were found: only
			// changed Test functions.
			findSuites = false
			if ch, err = diffModules(before, after); err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{}
			if c.want[0] == "TestOther" {
				want["kv"] = c.want
			}
			if fmt.Sprint(ch.tests) != fmt.Sprint(want) {
				t.Errorf("without -suites, tests = %v, want %v", ch.tests, want)
			}
		})
	}
}

// TestGoTestSaysWhenItRanTooLong: the changed tests failing is the
// point, and no error; a run killed at goTestTimeout (a big module on a
// busy machine) is an error that says so, not a run that failed without a
// test failing.
func TestGoTestSaysWhenItRanTooLong(t *testing.T) {
	root := kvModule(t)
	out, failed, err := goTest(root, "kv", []string{"TestGet"})
	if err != nil || !failed || !strings.Contains(out, "Get found a missing key") {
		t.Errorf("a failing test: failed %v, err %v, output:\n%s", failed, err, out)
	}
	goTestTimeout = time.Millisecond
	t.Cleanup(func() { goTestTimeout = testTimeout })
	if _, _, err := goTest(root, "kv", []string{"TestGet"}); !errors.Is(err, errTooLong) || !strings.Contains(err.Error(), "ran past 1ms") {
		t.Errorf("a run past the timeout: %v, want errTooLong saying how long it ran", err)
	}
}
