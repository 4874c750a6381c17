package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

func TestEnclosingAnInsertionNamesItsNeighbours(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nvar (\n\tfirst = 1\n\tsecond = 2\n\n\tthird = 3\n)\n\nfunc After() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gitInit(dir); err != nil {
		t.Fatal(err)
	}
	ix, err := repoctx.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Lines added after the blank line 6, in the var block.
	got := enclosing(ix, "p.go", Site{File: "p.go", Start: 6, End: 6, Before: 5, After: 7})
	if !slices.Equal(got, []string{"second", "third"}) {
		t.Errorf("enclosing = %v, want the specs either side: [second third]", got)
	}
	if got := enclosing(ix, "p.go", Site{File: "p.go", Start: 10, End: 10}); !slices.Equal(got, []string{"After"}) {
		t.Errorf("enclosing a changed line = %v, want [After]", got)
	}
}
