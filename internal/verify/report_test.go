package verify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func failing(fs ...Failure) *Report {
	return &Report{Commands: []CommandResult{{Argv: []string{"go", "test", "-json", "./..."}, ExitCode: 1, DurationMS: 1500, Failures: fs}}}
}

func TestSignature(t *testing.T) {
	t.Parallel()
	a := Failure{Test: "TestA", Package: "example.com/m", File: "a_test.go", Line: 3, Output: "got 1"}
	b := Failure{Test: "TestB", Package: "example.com/m", File: "b_test.go", Line: 9, Output: "got 2"}
	base := failing(a, b).Signature()
	if len(base) != 16 {
		t.Fatalf("signature %q, want 16 hex digits", base)
	}
	moved := a
	moved.Line, moved.Output = 30, "got 7"
	same := []*Report{failing(b, a), failing(moved, b), failing(a, b, a)}
	same[0].Commands[0].Argv = []string{"go", "test", "./pkg", "-run", "^(TestA|TestB)$"}
	for i, r := range same {
		if r.Signature() != base {
			t.Errorf("case %d: signature %q, want %q (order, lines, output and command do not matter)", i, r.Signature(), base)
		}
	}
	other := b
	other.Test = "TestC"
	if failing(a, other).Signature() == base || failing(a).Signature() == base {
		t.Error("different failing tests have the same signature")
	}
	if (&Report{Passed: true}).Signature() != "" {
		t.Error("a passing report has a signature")
	}
}

func TestSummaryFitsItsBudget(t *testing.T) {
	t.Parallel()
	var fs []Failure
	for _, name := range []string{"TestA", "TestB", "TestC"} {
		fs = append(fs, Failure{Test: name, Package: "example.com/m", File: "m_test.go", Line: 4,
			Output: "first line of " + name + "\n" + strings.Repeat("é noise\n", 2000) + "last line of " + name + "\n"})
	}
	rep := failing(fs...)
	full := rep.Summary(0)
	if !strings.HasPrefix(full, "FAIL  go test ./... (exit 1; 3 failures)\n") {
		t.Errorf("summary starts %q", full[:80])
	}
	for _, max := range []int{100, 1000, 4000, 20000} {
		s := rep.Summary(max)
		if len(s) > max || !utf8.ValidString(s) {
			t.Errorf("Summary(%d) is %d bytes (valid UTF-8: %v)", max, len(s), utf8.ValidString(s))
		}
		if max >= 1000 {
			for _, name := range []string{"TestA", "TestB", "TestC"} {
				if !strings.Contains(s, "--- "+name+" (example.com/m) at m_test.go:4") {
					t.Errorf("Summary(%d) lacks the heading of %s", max, name)
				}
			}
		}
		if max >= 4000 && (!strings.Contains(s, "last line of TestC") || !strings.Contains(s, "first line of TestA")) {
			t.Errorf("Summary(%d) lost the head or tail of the outputs", max)
		}
	}
	if got := rep.Commands[0].Verdict(); got != "FAIL  go test ./... (exit 1 after 1.5s; 3 failures)" {
		t.Errorf("verdict = %q", got)
	}
	if got := (&Report{Passed: true, Commands: []CommandResult{{Passed: true}}}).Summary(100); got != "all verify commands passed\n" {
		t.Errorf("passing summary = %q", got)
	}
}
