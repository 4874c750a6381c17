package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/repoctx"
)

func TestShownName(t *testing.T) {
	prompt := "1005\tfunc (enc *Encoder) encodeSlice(b []byte) []byte {\n1013\t\treturn enc.encodeSliceAsArrayTable(b)\nTestParseDate fails\n"
	for _, c := range []struct {
		sym, want string
		ok        bool
	}{
		{"Encoder.encodeSlice", "encodeSlice", true},                         // a method as code shows it
		{"Encoder.encodeSliceAsArrayTable", "encodeSliceAsArrayTable", true}, // called on a value
		{"encodeSlice", "encodeSlice", true},
		{"Encoder.encodeSliceAsArray", "", false}, // only a longer name holds it
		{"ParseDate", "", false},                  // inside TestParseDate
		{"Encoder", "Encoder", true},
	} {
		got, ok := shownName(prompt, c.sym)
		if got != c.want || ok != c.ok {
			t.Errorf("shownName(%q) = %q, %v; want %q, %v", c.sym, got, ok, c.want, c.ok)
		}
	}
}

// indexOf is the index of a git repository holding files (path -> text).
func indexOf(t *testing.T, files map[string]string) *repoctx.Index {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := gitInit(dir); err != nil {
		t.Fatal(err)
	}
	ix, err := repoctx.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestEnclosingAnInsertionNamesItsNeighbours(t *testing.T) {
	ix := indexOf(t, map[string]string{"p.go": "package p\n\nvar (\n\tfirst = 1\n\tsecond = 2\n\n\tthird = 3\n)\n\nfunc After() {}\n"})
	// Lines added after the blank line 6, in the var block.
	got := enclosing(ix, "p.go", Site{File: "p.go", Start: 6, End: 6, Before: 5, After: 7})
	if !slices.Equal(got, []string{"second", "third"}) {
		t.Errorf("enclosing = %v, want the specs either side: [second third]", got)
	}
	if got := enclosing(ix, "p.go", Site{File: "p.go", Start: 10, End: 10}); !slices.Equal(got, []string{"After"}) {
		t.Errorf("enclosing a changed line = %v, want [After]", got)
	}
}

func TestWhyMissedSaysWhereEachSiteIs(t *testing.T) {
	ix := indexOf(t, map[string]string{
		// 1 package, 3 import, 5-7 A, 9-15 B, 17-19 C
		"a.go": "package p\n\nimport \"strings\"\n\nfunc A() string {\n\treturn strings.ToUpper(\"a\")\n}\n\nfunc B(n int) int {\n\tif n > 0 {\n\t\tn++\n\t}\n\tn--\n\treturn n\n}\n\nfunc C() int {\n\treturn 3\n}\n",
		"b.go": "package p\n\nfunc D() int {\n\treturn 4\n}\n",
	})
	// The pack shows A whole and B's first two lines.
	shown := map[string][]repoctx.Chunk{"a.go": {{StartLine: 5, EndLine: 7}, {StartLine: 9, EndLine: 10}}}
	ch := &change{sites: []Site{
		{File: "a.go", Start: 6, End: 6},   // shown
		{File: "a.go", Start: 13, End: 13}, // in B, shown in part
		{File: "a.go", Start: 18, End: 18}, // in C, not shown
		{File: "a.go", Start: 3, End: 3},   // the import
		{File: "b.go", Start: 4, End: 4},   // a file not packed
	}}
	missed, kinds := whyMissed(ix, shown, ch)
	want := map[string]int{missPart: 1, missDef: 1, missOutside: 1, missFile: 1}
	if !maps.Equal(kinds, want) {
		t.Errorf("kinds = %v, want %v", kinds, want)
	}
	for _, w := range []string{"a.go:13-13[B; " + missPart + "]", "a.go:18-18[C; " + missDef + "]", "a.go:3-3[; " + missOutside + "]", "b.go:4-4[D; " + missFile + "]"} {
		if !strings.Contains(missed, w) {
			t.Errorf("missed = %q, want it to hold %q", missed, w)
		}
	}
	if strings.Contains(missed, "a.go:6-6") {
		t.Errorf("missed = %q names the shown site a.go:6", missed)
	}
}

// TestLookReproShowsWhereTheTracePoints: the look:repro row shows the
// definition a reproducing test's panic frame names, in a file the issue's
// pack left out, read from the output as it was kept (the tree it ran
// in); not in a file the model wrote.
func TestLookReproShowsWhereTheTracePoints(t *testing.T) {
	defer func(b []int) { budgets = b }(budgets)
	budgets = []int{300} // a pack of the issue's function and little else
	var big strings.Builder
	big.WriteString("package m\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&big, "\n// Fill%d is a step.\nfunc Fill%d() int {\n\treturn %d\n}\n", i, i, i)
	}
	big.WriteString("\nfunc boom(w int) int {\n\tif w > 3 {\n\t\tpanic(\"boom\")\n\t}\n\treturn w\n}\n")
	boomLine := strings.Count(big.String(), "\n") - 3 // the panic's line
	ix := indexOf(t, map[string]string{
		"go.mod": "module example.com/m\n",
		// Frobnicate reaches boom through a value the engine does
		// not follow (not written here): only the trace leads there.
		"api.go":      "package m\n\n// Frobnicate frobs a widget: the frob of w, frobbed.\nfunc Frobnicate(w int) int {\n\treturn w + Fill1() + Fill2() + Fill3() + Fill4()\n}\n",
		"big.go":      big.String(),
		"api_test.go": "package m\n\nimport \"testing\"\n\nfunc TestFrob(t *testing.T) { Frobnicate(9) }\n",
	})
	root := ix.Root()
	failing := fmt.Sprintf("--- FAIL: TestFrob (0.00s)\npanic: boom [recovered, repanicked]\n\ngoroutine 7 [running]:\n"+
		"example.com/m.boom(...)\n\t/tmp/realbugs-123/before/big.go:%d\n"+
		"example.com/m.Frobnicate(0x9)\n\t/tmp/realbugs-123/before/api.go:5 +0x1d\n"+
		"example.com/m.TestFrob(0xc000102340)\n\t/tmp/realbugs-123/before/api_test.go:5 +0x1d\n"+
		"FAIL\texample.com/m\t0.01s\nFAIL\n", boomLine)
	ch := &change{codeFiles: []string{"big.go"}, sites: []Site{{File: "big.go", Start: boomLine - 1, End: boomLine - 1}}}
	rep := &reproduction{issue: "Frobnicate(9) panics", failures: failuresIn(failing, root), written: []string{"api_test.go"}}
	res, err := measureOne(context.Background(), root, rep.issue, ch, "t failing", rep)
	if err != nil {
		t.Fatal(err)
	}
	if r := res[key{who: "engine", budget: 300}]; r.shown != 0 {
		t.Fatalf("the pack shows boom already (%+v); the test shows nothing", r)
	}
	if r := res[key{who: "look:repro", budget: 300}]; r.shown != 1 {
		t.Errorf("look:repro = %+v, want the site in boom shown", r)
	}
	// What the model wrote is not shown: with big.go written too,
	// nothing of it is.
	rep.written = append(rep.written, "big.go")
	if res, err = measureOne(context.Background(), root, rep.issue, ch, "t failing", rep); err != nil {
		t.Fatal(err)
	}
	if r := res[key{who: "look:repro", budget: 300}]; r.shown != 0 {
		t.Errorf("look:repro = %+v, want nothing of the files written", r)
	}
}
