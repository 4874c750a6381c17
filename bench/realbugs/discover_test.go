package main

import (
	"strings"
	"testing"
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
