package repoctx

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestLookFindsWhatAModelWritesLoosely: the forms small models write a
// request in (a name without its file, the wrong file, quotes, a GitHub
// line anchor, pkg.Name, (*T).Method) are shown as meant; a name that
// several files define, or none, is answered with where it is, or that
// it is nowhere.
func TestLookFindsWhatAModelWritesLoosely(t *testing.T) {
	files := fixtureFiles()
	files["dates/format.go"] = "package dates\n\nimport \"fmt\"\n\nfunc (d *Date) String() string {\n\treturn fmt.Sprintf(\"%04d-%02d-%02d\", d.Year, d.Month, d.Day)\n}\n\nfunc pad(s string) string { return s }\n"
	files["text/pad.go"] = "package text\n\nfunc pad(s string) string { return \" \" + s }\n"
	files["dates/month_test.go"] = "package dates\n\nfunc leapYears() []int { return []int{2024} }\n"
	files["Makefile"] = "test:\n\tgo test ./...\n"
	ix, err := Open(context.Background(), newRepo(t, files))
	if err != nil {
		t.Fatal(err)
	}
	parseDate := span(12, 27)
	for _, c := range []lookCase{
		{req: "ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "`dates/parse.go:ParseDate`", path: "dates/parse.go", chunk: parseDate},
		{req: "dates.ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go:dates.ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "func ParseDate()", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/month.go:ParseDate", path: "dates/parse.go", chunk: parseDate,
			text: "dates/month.go defines no ParseDate; dates/parse.go does"},
		{req: "(*Date).String", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates/format.go:(*Date).String", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates/parse.go#L12-L14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go:L12-L14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "leapYears", path: "dates/month_test.go", chunk: span(3, 3)},
		{req: "pad", err: `"pad" is defined in dates/format.go, text/pad.go; ask for FILE:NAME`},
		{req: "dates/month.go:pad", path: "dates/month.go",
			err: `dates/month.go defines no function, method or type named "pad"; it defines: parseMonth, daysIn; "pad" is defined in dates/format.go, text/pad.go`},
		{req: "NoSuchThing", err: `no such file in the repository (git ls-files); use a path from the repository map; and no file defines a function, method or type named "NoSuchThing"`},
		{req: "dates/month.go:NoSuchThing", path: "dates/month.go",
			err: `dates/month.go defines no function, method or type named "NoSuchThing"; it defines: parseMonth, daysIn`},
		{req: "missing.go", err: "no such file in the repository (git ls-files); use a path from the repository map"},
		// The other ways models write FILE:NAME and FILE:START-END.
		{req: "dates/parse.go::ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go#ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go (ParseDate)", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go, ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "ParseDate in dates/parse.go", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go:ParseDate(s)", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go:func ParseDate(s string) (Date, error)", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go:type Date", path: "dates/parse.go", chunk: span(6, 7)},
		{req: "dates/parse.go:Date struct", path: "dates/parse.go", chunk: span(6, 7)},
		{req: "dates/format.go:func (d *Date) String() string", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates/format.go:(d *Date) String", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates.Date.String", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates/parse.go lines 12-14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go:lines 12 to 14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go:12:14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go:12\u201314", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go L12-14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "dates/parse.go#L12", path: "dates/parse.go", chunk: span(12, 12)},
		{req: "lines 12-14 of dates/parse.go", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "Makefile#L1-L2", path: "Makefile", chunk: span(1, 2)},
		{req: ":ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "Makefile:lines 1-2", path: "Makefile", chunk: span(1, 2)},
		// A lower-case method is no file's extension.
		{req: "dates/parse.go:dates.atoi(s)", path: "dates/parse.go", chunk: span(29, 35)},
		// A name in a file asked for in the wrong directory, or under
		// a name no file has: the file that defines it, and a note.
		{req: "parse.go:ParseDate", path: "dates/parse.go", chunk: parseDate,
			text: "(parse.go:ParseDate: no file parse.go; dates/parse.go defines ParseDate)"},
		{req: "src/dates/parse.go:ParseDate", path: "dates/parse.go", chunk: parseDate,
			text: "no file src/dates/parse.go; dates/parse.go defines ParseDate"},
		{req: "dates/dates.go:ParseDate", path: "dates/parse.go", chunk: parseDate,
			text: "no file dates/dates.go; dates/parse.go defines ParseDate"},
		{req: "pad.go:pad", path: "text/pad.go", chunk: span(3, 3)},
		{req: "lib/format.go:(*Date).String", path: "dates/format.go", chunk: span(5, 7)},
		{req: "dates:ParseDate", path: "dates/parse.go", chunk: parseDate,
			text: "(dates:ParseDate: dates: a directory of 5 files; dates/parse.go defines ParseDate)"},
		// Several files define it, and none of them has the name asked
		// for; or a range, which only the file asked for can mean.
		{req: "strings.go:pad", err: "no such file in the repository (git ls-files); use a path from the repository map"},
		{req: "src/parse.go:12-14", err: "no such file in the repository; did you mean dates/parse.go?"},
		// A whole file asked for in the wrong directory: the one file
		// of that name, and a note.
		{req: "src/format.go", path: "dates/format.go", chunk: span(1, 9),
			text: "(src/format.go: no file src/format.go; dates/format.go is the one file of that name)"},
		{req: "pad.go", path: "text/pad.go", chunk: span(1, 3)},
		// A path as a runner, a diff or GitHub writes it.
		{req: "/home/runner/work/cal/cal/dates/parse.go:12-14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "b/dates/parse.go:12-14", path: "dates/parse.go", chunk: span(12, 14)},
		{req: "/home/runner/work/cal/cal/.git/Makefile", err: "not a path inside the repository; use paths relative to the repository root, as the map shows them"},
		{req: "https://github.com/example/cal/blob/main/dates/parse.go#L12-L14", path: "dates/parse.go", chunk: span(12, 14)},
		// More of what models write.
		{req: "dates/parse.go - ParseDate", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go:ParseDate.", path: "dates/parse.go", chunk: parseDate},
		{req: "the ParseDate function", path: "dates/parse.go", chunk: parseDate},
		{req: "dates/parse.go lines 12 through 14", path: "dates/parse.go", chunk: span(12, 14)},
		// Several names: those the file defines, the others named.
		{req: "dates/month.go:parseMonth and leapDay", path: "dates/month.go", chunk: span(3, 10),
			text: `(dates/month.go:parseMonth and leapDay: dates/month.go defines no leapDay; no file defines "leapDay")`},
	} {
		c.check(t, ix)
	}
	l := ix.Look([]string{"dates/month.go:parseMonth, daysIn"}, map[string][]Chunk{}, 4000)
	if it := l.Items[0]; it.Error != "" || !reflect.DeepEqual(it.Chunks, []Chunk{{StartLine: 3, EndLine: 10, Symbols: []string{"parseMonth"}}, {StartLine: 12, EndLine: 21, Symbols: []string{"daysIn"}}}) {
		t.Errorf("two names: %+v", it)
	}
}

// TestLookShowsANameOfSeveralWhereItIs: a request for several names of
// one file, some of which another file defines, shows those there too,
// each as an item of its own after the requests asked; the answer says
// where each name the file does not define is, or that none does.
func TestLookShowsANameOfSeveralWhereItIs(t *testing.T) {
	files := fixtureFiles()
	files["dates/format.go"] = "package dates\n\nfunc pad(s string) string { return s }\n"
	files["text/pad.go"] = "package text\n\nfunc pad(s string) string { return \" \" + s }\n"
	ix, err := Open(context.Background(), newRepo(t, files))
	if err != nil {
		t.Fatal(err)
	}
	l := ix.Look([]string{"dates/month.go:parseMonth, ParseDate, pad and leapDay"}, map[string][]Chunk{}, 4000)
	if len(l.Items) != 2 {
		t.Fatalf("%d items, want the request's and ParseDate's: %+v", len(l.Items), l.Items)
	}
	it, there := l.Items[0], l.Items[1]
	if it.Path != "dates/month.go" || it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != 3 || it.Chunks[0].EndLine != 10 {
		t.Errorf("the request asked: %+v, want parseMonth's lines 3-10", it)
	}
	wantNote := `dates/month.go defines no ParseDate, pad, leapDay; dates/parse.go defines ParseDate, shown below; "pad" is defined in dates/format.go, text/pad.go; no file defines "leapDay"`
	if it.Note != wantNote {
		t.Errorf("note %q\nwant %q", it.Note, wantNote)
	}
	if there.Request != "dates/parse.go:ParseDate" || there.Path != "dates/parse.go" || there.Error != "" || len(there.Chunks) != 1 || there.Chunks[0].StartLine != 12 || there.Chunks[0].EndLine != 27 {
		t.Errorf("the request it leads to: %+v, want dates/parse.go:ParseDate's lines 12-27", there)
	}
	if m, p := strings.Index(l.Text, "func parseMonth"), strings.Index(l.Text, "func ParseDate"); m < 0 || p < m {
		t.Errorf("the text does not show parseMonth, then ParseDate:\n%s", l.Text)
	}

	// None of the names in the file asked for: an error that says where
	// they are, and each shown there.
	l = ix.Look([]string{"dates/month.go:ParseDate and atoi"}, map[string][]Chunk{}, 4000)
	var got []string
	for _, it := range l.Items {
		got = append(got, fmt.Sprintf("%s %s %v", it.Request, it.Path, it.Chunks != nil))
	}
	want := []string{"dates/month.go:ParseDate and atoi dates/month.go false", "dates/parse.go:ParseDate dates/parse.go true", "dates/parse.go:atoi dates/parse.go true"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items %q\nwant %q", got, want)
	}
	if e := l.Items[0].Error; e != "dates/month.go defines none of ParseDate, atoi; dates/parse.go defines ParseDate, shown below; dates/parse.go defines atoi, shown below" {
		t.Errorf("error %q", e)
	}

	// Past six names the others are not looked for: each is a pass over
	// the repository's files.
	l = ix.Look([]string{"dates/month.go:daysIn, A1, A2, A3, A4, A5, A6, ParseDate"}, map[string][]Chunk{}, 4000)
	if n := l.Items[0].Note; len(l.Items) != 1 || !strings.HasSuffix(n, `no file defines "A6"; not looked for elsewhere: ParseDate (ask for at most 6 names at a time)`) {
		t.Errorf("%d items, note %q", len(l.Items), n)
	}

	// What the request leads to and was asked for too is shown once.
	l = ix.Look([]string{"dates/month.go:daysIn, ParseDate", "dates/parse.go:ParseDate"}, map[string][]Chunk{}, 4000)
	if len(l.Items) != 2 || strings.Count(l.Text, "func ParseDate") != 1 {
		t.Errorf("%d items, ParseDate shown %d times, want 2 and once:\n%s", len(l.Items), strings.Count(l.Text, "func ParseDate"), l.Text)
	}
}

// lookCase is one request of a look and what its answer must be: the
// file and the one chunk shown, or the error; and text the answer holds.
type lookCase struct {
	req, path string
	chunk     Chunk
	err, text string
}

func (c lookCase) check(t *testing.T, ix *Index) {
	t.Helper()
	l := ix.Look([]string{c.req}, map[string][]Chunk{}, 4000)
	it := l.Items[0]
	switch {
	case it.Path != c.path:
		t.Errorf("%s: path %q, want %q (%+v)", c.req, it.Path, c.path, it)
	case c.err != "" && it.Error != c.err:
		t.Errorf("%s: error %q\nwant %q", c.req, it.Error, c.err)
	case c.err == "" && (it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != c.chunk.StartLine || it.Chunks[0].EndLine != c.chunk.EndLine):
		t.Errorf("%s: %+v, want chunk %d-%d", c.req, it, c.chunk.StartLine, c.chunk.EndLine)
	case !strings.Contains(l.Text, c.text):
		t.Errorf("%s: the answer does not say %q:\n%s", c.req, c.text, l.Text)
	case c.err == "" && it.Request != c.req:
		t.Errorf("%s: recorded as %q, not as asked", c.req, it.Request)
	}
}
