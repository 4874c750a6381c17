package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// TestExecutedSites runs a module's failing tests with coverage: one
// panics (in a subtest), so only its recovery lets the profile be
// written. A site counts as run when the function it is in ran: a
// branch the bug kept the tests out of too.
func TestExecutedSites(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/calc\n\ngo 1.22\n",
		"calc/calc.go": `package calc

var names = map[int]string{
	1: "one",
}

func Sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	if n < 0 {
		return 0
	}
	return n
}

func Name(k int) string {
	var p *string
	if k > 1 {
		return *p
	}
	return names[k]
}

func Unrun() int {
	return 1
}
`,
		"calc/calc_test.go": `package calc

import "testing"

func TestSum(t *testing.T) {
	if Sum([]int{1, 2}) != 4 {
		t.Error("Sum is wrong")
	}
}

func TestName(t *testing.T) {
	t.Run("big", func(t *testing.T) {
		_ = Name(2)
	})
}
`,
		"other/other.go": "package other\n\nfunc Unused() int {\n\treturn 1\n}\n",
	}
	actiontest.WriteFiles(t, root, files)
	sites := []Site{
		{File: "calc/calc.go", Start: 10, End: 10},               // n += x: Sum ran
		{File: "calc/calc.go", Start: 13, End: 13},               // return 0: a branch not taken, of Sum, which ran
		{File: "calc/calc.go", Start: 4, End: 4},                 // the table's entry: in no function
		{File: "calc/calc.go", Start: 21, Before: 21, After: 22}, // after "return *p": Name ran, then panicked
		{File: "other/other.go", Start: 4, End: 4},               // a package the tests do not link
		{File: "calc/calc.go", Start: 27, End: 27},               // Unrun, in the tests' package
	}
	c := Case{ID: "calc@v1.0.1", Module: "example.com/calc", Package: "calc", Tests: []string{"TestSum", "TestName"}}
	runs, err := executedSites(c, root, sites)
	if err != nil {
		t.Fatal(err)
	}
	want := []siteRun{runExecuted, runExecuted, runNoCode, runExecuted, runSkipped, runSkipped}
	if !slices.Equal(runs, want) {
		t.Errorf("runs = %v, want %v", runs, want)
	}
	// calc.go has a site in Unrun, but others in functions that ran: the
	// tests lead to it. They do not lead to other.go.
	if got := unrunFiles(runs, sites); !slices.Equal(got, []string{"other/other.go"}) {
		t.Errorf("unrunFiles = %q, want other/other.go alone", got)
	}
	if got := runsString(runs, sites); got != "[in functions run 3, not run 2, in none 1; files not run: other/other.go]" {
		t.Errorf("runsString = %q", got)
	}
	// A file named once, whichever its sites' classes and order.
	mixed := []Site{{File: "a.go"}, {File: "a.go"}, {File: "a.go"}, {File: "b.go"}}
	if got := unrunFiles([]siteRun{runNoCode, runSkipped, runNoCode, runExecuted}, mixed); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("unrunFiles of a.go's sites in none, not run, none = %q, want a.go once", got)
	}
	// The tree measured is left as it was: the recovery is in a copy.
	b, err := os.ReadFile(filepath.Join(root, "calc/calc_test.go"))
	if err != nil || strings.Contains(string(b), "recover") {
		t.Errorf("the tree's test file was changed: %v\n%s", err, b)
	}
}

func TestParseProfileRejectsAnotherFormat(t *testing.T) {
	if _, err := parseProfile([]byte("mode: set\nnot a profile line\n"), "example.com/calc"); err == nil {
		t.Error("a line that is not a block: no error")
	}
	got, err := parseProfile([]byte("mode: set\nexample.com/calc/a.go:3.2,5.3 2 1\nexample.com/other/b.go:1.1,2.2 1 0\n"), "example.com/calc")
	if err != nil || len(got) != 1 || len(got["a.go"]) != 1 || got["a.go"][0] != (coverBlock{3, 5, true}) {
		t.Errorf("parseProfile = %v, %v; want a.go's block 3-5, run, only", got, err)
	}
}
