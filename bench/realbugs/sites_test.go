package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/repoctx"
)

func TestIncidental(t *testing.T) {
	for _, c := range []struct {
		hunk string
		want bool
	}{
		{" func Version() string\n-\treturn \"5.4.0\"\n+\treturn \"5.4.1\"\n", true},
		{"\n-const Version = \"1.2.3\"\n+const Version = \"1.2.4\"\n", true},
		{" func (p *Parser) Parse() {\n-\t// old comment\n+\t// new comment\n\n", true},
		{"\n-var Version = \"1.22.1\"\n+var Version = \"1.22.2\"\n", true},
		{" var CurrentVersion = Version{\n-\tPatchLevel: 3,\n+\tPatchLevel: 4,\n", true},
		{" var (\n-\tVersion           = \"1.8.9\"\n-\tVersionPrerelease = \"dev\"\n+\tVersion           = \"1.8.10\"\n+\tVersionPrerelease = \"\"\n", true},
		// release-please marks the line it bumps with a comment.
		{"\n-const driverVersion = \"v1.11.1\" // x-release-please-version\n+const driverVersion = \"v1.11.2\" // x-release-please-version\n", true},
		{"\n-\tVersionMetadata = \"rc1\" // set by the release\n+\tVersionMetadata = \"\" // set by the release\n", true},
		// A version string built from code is code, comment or not.
		{"\n-var Version = \"1.2\" + suffix // the release\n+var Version = \"1.3\" + suffix // the release\n", false},
		// A prerelease marker is a version's only beside a version name.
		{" var (\n-\tprerelease = \"dev\"\n+\tprerelease = \"\"\n", false},
		// A number set outside a version literal is code.
		{" var defaults = Options{\n-\tRetries: 3,\n+\tRetries: 4,\n", false},
		// A version-like string returned outside a version function is code.
		{" func defaultTag() string\n-\treturn \"1.0\"\n+\treturn \"2.0\"\n", false},
		{" func Version() string\n-\treturn v.String()\n+\treturn v.Original()\n", false},
		{" func Parse(s string) error {\n-\tif s == \"\" {\n+\tif len(s) == 0 {\n", false},
	} {
		if got := incidental(c.hunk, 1, 1, nil, nil); got != c.want {
			t.Errorf("incidental(%q) = %v, want %v", c.hunk, got, c.want)
		}
	}
}

// fileSitesOf is the sites of the change of file name from before to after.
func fileSitesOf(t *testing.T, name, before, after string) []Site {
	t.Helper()
	dir := t.TempDir()
	b, a := filepath.Join(dir, "before.go"), filepath.Join(dir, "after.go")
	if err := os.WriteFile(b, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a, []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	sites, _, _, err := fileSites(b, a, name)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// TestFileSitesSkipCommentBlocks: a line of prose inside a /* */ block
// (validator v10.30.5 rewords its doc.go) is a comment's change, not a
// site; a changed line of code that shares a line with a comment is.
func TestFileSitesSkipCommentBlocks(t *testing.T) {
	sitesOf := func(before, after string) []Site { return fileSitesOf(t, "doc.go", before, after) }
	doc := "/*\nPackage p checks ports.\n\n# Port\n\n%s\n*/\npackage p\n\nconst Max = %s /* the highest */\n"
	before := fmt.Sprintf(doc, "This validates that the value falls within 1 to 65,535.", "65535")
	if got := sitesOf(before, fmt.Sprintf(doc, "This validates that an integer value falls within 1-65,535.", "65535")); len(got) != 0 {
		t.Errorf("a reworded line of a block comment gave sites %v, want none", got)
	}
	if got := sitesOf(before, fmt.Sprintf(doc, "This validates that the value falls within 1 to 65,535.", "1<<16 - 1")); len(got) != 1 || got[0].Start != 10 {
		t.Errorf("a changed constant before a comment on its line gave sites %v, want line 10", got)
	}
	if got := sitesOf(before, strings.Replace(before, "*/\npackage p", "*/ package p\nvar x = 1", 1)); len(got) == 0 {
		t.Errorf("code added after a comment's end on its line gave no site")
	}
}

// TestFileSitesKeepCodeStartingWithAStar: in a Go file, a changed line
// is a comment only where the file's comments say so; a dereference
// (*p = v) starts with a star as a block comment's middle line does.
func TestFileSitesKeepCodeStartingWithAStar(t *testing.T) {
	before := "package p\n\nfunc Set(p *int) {\n\t*p = 1\n}\n"
	got := fileSitesOf(t, "p.go", before, strings.Replace(before, "*p = 1", "*p = 2", 1))
	if len(got) != 1 || got[0].Start != 4 {
		t.Errorf("a changed dereference gave sites %v, want line 4", got)
	}
	// Where the comments are not known, a line that starts like one is.
	if !incidental("\n-\t* old prose\n+\t* new prose\n", 1, 1, nil, nil) {
		t.Errorf("a star line of a file of unknown comments counted as code")
	}
}

func TestCommentLines(t *testing.T) {
	src := "// Package p.\npackage p /* inline */\n\n/*\nprose\n*/\nvar a = 1 // trailing\n/* lead */ var b = 2\n"
	got := commentLines([]byte(src))
	for l, want := range map[int]bool{1: true, 2: false, 3: false, 4: true, 5: true, 6: true, 7: false, 8: false} {
		if got[l] != want {
			t.Errorf("line %d: comment %v, want %v", l, got[l], want)
		}
	}
}

func TestFileSitesSkipBlankLines(t *testing.T) {
	sitesOf := func(before, after string) []Site {
		t.Helper()
		sites := fileSitesOf(t, "p.go", before, after)
		if len(sites) != 1 {
			t.Fatalf("sites %v, want one", sites)
		}
		return sites
	}
	shown := func(lo, hi int) []repoctx.Chunk { return []repoctx.Chunk{{StartLine: lo, EndLine: hi}} }

	// A new function between A (line 3) and B (line 5): git puts it after
	// the blank line 4; either function next to it shows where it goes.
	ins := sitesOf("package p\n\nfunc A() {}\n\nfunc B() {}\n", "package p\n\nfunc A() {}\n\nfunc New() {}\n\nfunc B() {}\n")[0]
	if ins.Start != 4 || ins.Before != 3 || ins.After != 5 {
		t.Errorf("insertion %+v, want after line 4, between lines 3 and 5", ins)
	}
	if !inChunks(shown(1, 3), ins) || !inChunks(shown(5, 5), ins) || inChunks(shown(4, 4), ins) {
		t.Errorf("insertion %+v: want it seen with the line before or after it, not with the blank line alone", ins)
	}

	// A changed statement and the blank line after it: the site is the
	// statement.
	ch := sitesOf("package p\n\nfunc C() {\n\ta := 1\n\n\tb := 2\n\t_, _ = a, b\n}\n", "package p\n\nfunc C() {\n\ta := 3\n\tb := 2\n\t_, _ = a, b\n}\n")[0]
	if ch.Start != 4 || ch.End != 4 || ch.Before != 0 || ch.After != 0 {
		t.Errorf("changed range %+v, want 4-4 (the blank line 5 after it left out)", ch)
	}
}

// TestChangeIn: a change seen from a repository that holds the module in
// a directory names the same files and lines under it.
func TestChangeIn(t *testing.T) {
	c := &change{
		sites:     []Site{{File: "kv/store.go", Start: 3, End: 4}},
		codeFiles: []string{"kv/store.go"},
		testFiles: []string{"kv/store_test.go", "testdata/a.txt"},
		tests:     map[string][]string{"kv": {"TestGet"}},
	}
	if got := c.in(""); got != c {
		t.Errorf("in(\"\") is a copy, want the change itself")
	}
	d := c.in("go")
	if d.sites[0] != (Site{File: "go/kv/store.go", Start: 3, End: 4}) || d.codeFiles[0] != "go/kv/store.go" ||
		d.testFiles[1] != "go/testdata/a.txt" || len(d.tests["go/kv"]) != 1 {
		t.Errorf("in(\"go\") = %+v", d)
	}
	if c.sites[0].File != "kv/store.go" || c.codeFiles[0] != "kv/store.go" {
		t.Errorf("in changed the change it was called on: %+v", c)
	}
}
