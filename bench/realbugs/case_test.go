package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCasesOfSeveralSets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.json", `[{"id": "x@v1.0.1"}, {"id": "y@v2.0.1"}]`)
	b := write("b.json", `[{"id": "z@v0.3.1"}]`)
	again := write("again.json", `[{"id": "w@v1.1.1"}, {"id": "y@v2.0.1"}]`)

	cs, err := readCases(a + "," + b)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, " "); got != "x@v1.0.1 y@v2.0.1 z@v0.3.1" {
		t.Errorf("cases of a and b = %s; want a's, then b's", got)
	}

	_, err = readCases(a + "," + again)
	if err == nil || !strings.Contains(err.Error(), "y@v2.0.1 is in "+a+" and in "+again) {
		t.Errorf("a case in two sets: err = %v; want one that names it and both files", err)
	}
	if _, err := readCases(a + "," + filepath.Join(dir, "none.json")); err == nil {
		t.Error("a set that does not exist: no error")
	}
}
