package repoctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/tokens"
)

func TestLook(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	// On disk but not tracked: never shown.
	if err := os.WriteFile(filepath.Join(repo, "secret.env"), []byte("TOKEN=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string][]Chunk{"dates/month.go": {span(1, 3)}}
	l := ix.Look([]string{
		"dates/parse.go:ParseDate",
		"./dates/parse.go:12-14",
		"month.go",
		"dates/parse.go:Parse",
		"dates/parse.go:40-50",
		"dates/parse.go:9-3",
		"../outside.go",
		".git/config",
		"secret.env",
		"dates/month.go:1-2",
	}, shown, 4000)
	want := []struct {
		path, err string
		chunk     Chunk
		seen      bool
	}{
		{path: "dates/parse.go", chunk: span(12, 27)},
		{path: "dates/parse.go", chunk: span(12, 14), seen: true},
		{path: "dates/month.go", chunk: span(4, 21)},
		{path: "dates/parse.go", err: `defines no function, method or type named "Parse"; it defines: Date, ErrSyntax, ParseDate`},
		{path: "dates/parse.go", err: "the file has 35 lines; line 40 does not exist"},
		{path: "dates/parse.go", err: `"9-3" is not a line range`},
		{err: "not a path inside the repository"},
		{err: "no such file in the repository"},
		{err: "no such file in the repository"},
		{path: "dates/month.go", chunk: span(1, 2), seen: true},
	}
	if len(l.Items) != len(want) {
		t.Fatalf("%d items, want %d: %+v", len(l.Items), len(want), l.Items)
	}
	for k, w := range want {
		it := l.Items[k]
		switch {
		case it.Path != w.path:
			t.Errorf("%s: path %q, want %q", it.Request, it.Path, w.path)
		case w.err != "" && !strings.Contains(it.Error, w.err):
			t.Errorf("%s: error %q, want %q", it.Request, it.Error, w.err)
		case w.err == "" && (it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != w.chunk.StartLine || it.Chunks[0].EndLine != w.chunk.EndLine || it.Seen != w.seen):
			t.Errorf("%s: %+v, want chunk %d-%d seen=%v", it.Request, it, w.chunk.StartLine, w.chunk.EndLine, w.seen)
		}
	}
	if at := shownAt(l.Text, "func ParseDate(s string) (Date, error) {"); at != 13 {
		t.Errorf("ParseDate shown at line %d, want 13:\n%s", at, l.Text)
	}
	if !strings.Contains(l.Text, "\n## ./dates/parse.go:12-14: lines 12-14 are shown above\n") {
		t.Errorf("the answer for lines shown already is not the short one:\n%s", l.Text)
	}
	if strings.Contains(l.Text, "TOKEN") {
		t.Errorf("an untracked file was shown:\n%s", l.Text)
	}
	if l.Tokens != tokens.Estimate(l.Text) && l.Tokens < tokens.Estimate(l.Text) {
		t.Errorf("Tokens %d below the text's %d", l.Tokens, tokens.Estimate(l.Text))
	}
}

func TestLookBudget(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	// big/big.go does not fit 400 tokens: its outline is shown instead;
	// then the budget is used up.
	l := ix.Look([]string{"big/big.go", "big/big.go:Normalize", "big/big.go:1-120"}, map[string][]Chunk{}, 400)
	if it := l.Items[0]; !it.Outline || !strings.Contains(l.Text, "3-8: func Step0(x int) int") || !strings.Contains(l.Text, " more)") {
		t.Errorf("big file: %+v, want its outline, cut to fit\n%s", it, l.Text)
	}
	if it := l.Items[1]; it.Error != "" || shownAt(l.Text, "func Normalize(key string) string {") != 151 {
		t.Errorf("Normalize: %+v\n%s", it, l.Text)
	}
	if l.Tokens > 400 || tokens.Estimate(l.Text) > 400 {
		t.Errorf("look took %d tokens (text %d), over its budget of 400", l.Tokens, tokens.Estimate(l.Text))
	}
	last := l.Items[len(l.Items)-1]
	if !strings.Contains(last.Error, "look budget (400 tokens) is used up") {
		t.Errorf("last item %+v, want the budget refusal", last)
	}
}

// lookFixture is a file with one long function, Long (lines 3-122), and a
// short one after it, Short (lines 124-128).
func lookFixture() map[string]string {
	var b strings.Builder
	b.WriteString("package calc\n\nfunc Long(x int) int {\n")
	for i := 0; i < 118; i++ {
		fmt.Fprintf(&b, "\tx = x*31 + %d // step %d of the long function\n", i, i)
	}
	b.WriteString("}\n\nfunc Short(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n")
	return map[string]string{"calc/calc.go": b.String()}
}

func TestLookShowsOnlyTheLinesThePackDidNot(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	// The pack showed Long's head and a window in its middle.
	shown := map[string][]Chunk{"calc/calc.go": {span(3, 10), span(50, 60)}}
	l := ix.Look([]string{"calc/calc.go:Long"}, shown, 4000)
	it := l.Items[0]
	want := []Chunk{span(11, 49), span(61, 122)}
	if it.Error != "" || len(it.Chunks) != len(want) {
		t.Fatalf("Long: %+v, want chunks %v", it, want)
	}
	for k, c := range want {
		if it.Chunks[k].StartLine != c.StartLine || it.Chunks[k].EndLine != c.EndLine {
			t.Errorf("Long: chunks %v, want %v", it.Chunks, want)
		}
	}
	if strings.Contains(l.Text, "step 2 of") || strings.Contains(l.Text, "step 50 of") || !strings.Contains(l.Text, "step 8 of") {
		t.Errorf("the look showed lines the pack had shown, or not the others:\n%s", l.Text)
	}
	if got := shown["calc/calc.go"]; len(got) != 1 || got[0].StartLine != 3 || got[0].EndLine != 122 {
		t.Errorf("shown after the look: %v, want 3-122", got)
	}
}

func TestLookCutsALargeDefinitionAfterTheSmallOnes(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []string{"calc/calc.go:Long", "calc/calc.go:Short"}
	whole := ix.Look(reqs, map[string][]Chunk{}, 1<<20)
	long, short := whole.Items[0].Tokens, whole.Items[1].Tokens
	// Long alone fits, but not with Short: shown first, it would keep
	// Short out; it is shown after it instead, cut to what is left.
	budget := long + short/2
	if long <= budget/2 {
		t.Fatalf("fixture: Long costs %d tokens, not over half of %d", long, budget)
	}
	l := ix.Look(reqs, map[string][]Chunk{}, budget)
	lo, sh := l.Items[0], l.Items[1]
	if sh.Error != "" || !strings.Contains(l.Text, "func Short(x int) int {") {
		t.Errorf("Short: %+v, want it shown whole\n%s", sh, l.Text)
	}
	if lo.Error != "" || len(lo.Chunks) != 1 || lo.Chunks[0].StartLine != 3 || lo.Chunks[0].EndLine >= 122 || lo.Omitted == "" {
		t.Fatalf("Long: %+v, want its head shown and the rest named", lo)
	}
	if want := fmt.Sprintf("%d-122", lo.Chunks[0].EndLine+1); lo.Omitted != want || !strings.Contains(l.Text, "lines "+want+" not shown: the look budget is used up") {
		t.Errorf("Long: omitted %q, want %q said in the text\n%s", lo.Omitted, want, l.Text)
	}
	if strings.Index(l.Text, "func Long") > strings.Index(l.Text, "func Short") {
		t.Errorf("the answers are not in the order asked:\n%s", l.Text)
	}
	if l.Tokens > budget || tokens.Estimate(l.Text) > budget {
		t.Errorf("look took %d tokens (text %d), over its budget of %d", l.Tokens, tokens.Estimate(l.Text), budget)
	}
	// With no room for minCutLines lines, the answer says so.
	l = ix.Look(reqs, map[string][]Chunk{}, short+40)
	if !strings.Contains(l.Items[0].Error, "look budget") || l.Items[1].Error != "" {
		t.Errorf("tight budget: %+v", l.Items)
	}
}

func TestLookShowsTheRestOfAFileThePackShowedMostOf(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	whole := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{}, 1<<20).Items[0].Tokens
	// Too large to show whole, but the pack showed all of it but Short.
	budget := whole / 2
	l := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{"calc/calc.go": {span(1, 122)}}, budget)
	it := l.Items[0]
	if it.Outline || it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != 123 || !strings.Contains(l.Text, "func Short(x int) int {") {
		t.Errorf("%+v, want lines 123-128 shown, not the outline\n%s", it, l.Text)
	}
	// Nothing shown yet: the outline, as before.
	if it := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{}, budget).Items[0]; !it.Outline {
		t.Errorf("%+v, want the outline", it)
	}
}

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

// TestAroundAsksForAFileWhoseDirectoryThePlanLeftOut: a plan file that
// is not in the index but has the name of one that is is asked for as
// written, and the answer shows that one and says so; a new file is not
// asked for.
func TestAroundAsksForAFileWhoseDirectoryThePlanLeftOut(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, fixtureFiles()))
	if err != nil {
		t.Fatal(err)
	}
	steps := "In ParseDate, reject a day of 0."
	if got := ix.Around("dates/parse.go", steps); len(got) != 1 || got[0] != "dates/parse.go:ParseDate" {
		t.Errorf("Around(dates/parse.go) = %q", got)
	}
	if got := ix.Around("dates/leap.go", steps); got != nil {
		t.Errorf("Around(a new file) = %q, want nothing", got)
	}
	got := ix.Around("parse.go", steps)
	if len(got) != 1 || got[0] != "parse.go" {
		t.Fatalf("Around(parse.go) = %q, want the file as written", got)
	}
	l := ix.Look(got, map[string][]Chunk{}, 4000)
	if it := l.Items[0]; it.Path != "dates/parse.go" || !strings.Contains(l.Text, "(parse.go: no file parse.go; dates/parse.go is the one file of that name)") {
		t.Errorf("the answer for parse.go: %+v\n%s", it, l.Text)
	}
}

// TestRankingAroundAsksForWhatTheQueryPointsAt: when a plan's steps name
// none of a file's definitions, the look asks for those the query points
// at most that the pack did not show whole, before the file itself.
func TestRankingAroundAsksForWhatTheQueryPointsAt(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	r := rank(t, repo, "big: Normalize returns the key unchanged when it is lower case")
	got := r.Around("big/big.go", "Fix the bug.", nil)
	if len(got) < 2 || got[0] != "big/big.go:Normalize" || got[len(got)-1] != "big/big.go" || len(got) > aroundNames+1 {
		t.Errorf("Around, steps naming nothing = %q, want big/big.go:Normalize first, the file last", got)
	}
	shown := []Chunk{span(1, 400)}
	if got := r.Around("big/big.go", "Fix the bug.", shown); len(got) != 1 || got[0] != "big/big.go" {
		t.Errorf("Around, the file shown whole = %q, want the file alone", got)
	}
	if got := r.Around("big/big.go", "In Step3, add one.", nil); len(got) != 1 || got[0] != "big/big.go:Step3" {
		t.Errorf("Around, steps naming Step3 = %q, want that alone", got)
	}
	if got := r.Around("big/new.go", "Fix the bug.", nil); got != nil {
		t.Errorf("Around, a new file = %q, want nothing", got)
	}
}

// TestLookSaysWhyATrackedFileIsNotShown: a request for a file git tracks
// that the index leaves out (a lock file, vendored code, a binary, a
// symbolic link, a submodule, the instructions for agents) says which it
// is; a directory lists its files; a file git does not track is not
// there, whatever is on disk.
func TestLookSaysWhyATrackedFileIsNotShown(t *testing.T) {
	files := map[string]string{
		"go.mod":                  "module example.com/x\n",
		"go.sum":                  "example.org/lib v1.0.0 h1:abc=\n",
		"vendor/example.org/a.go": "package a\n",
		"web/logo.png":            "\x89PNG",
		"AGENTS.md":               "Run go test ./...\n",
		"pkg/a.go":                "package pkg\n\nfunc A() {}\n",
		"pkg/a_test.go":           "package pkg\n",
		"pkg/b.go":                "package pkg\n",
		"pkg/inner/c.go":          "package inner\n",
		"pkg/inner/deep/d.go":     "package deep\n",
		"pkg/other/e.go":          "package other\n",
	}
	for k := range 14 {
		files[fmt.Sprintf("many/f%02d.go", k)] = "package many\n"
	}
	repo := newRepo(t, files)
	if err := os.Symlink("pkg/a.go", filepath.Join(repo, "link.go")); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "add", "link.go")
	// A submodule's entry: a commit of another repository (mode 160000).
	gitRun(t, repo, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,third_party/lib")
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("TOKEN=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ req, err string }{
		{"go.sum", "a lock file its package manager writes: not shown"},
		{"vendor/example.org/a.go", "vendored code (another project's, under vendor/, node_modules/ or the like): not shown"},
		{"web/logo.png", "a binary or minified file by its name: not shown"},
		{"AGENTS.md", "the repository's instructions for agents: read only from the base branch, into your prompt when it has them; not shown from the work tree"},
		{"link.go", "a symbolic link: not shown; ask for the file it points to"},
		{"third_party/lib", "a submodule (another repository): not shown"},
		{"pkg", "a directory of 6 files; ask for one of them: pkg/a.go, pkg/b.go, pkg/a_test.go, pkg/inner/, pkg/other/"},
		{"pkg/inner/", "a directory of 2 files; ask for one of them: pkg/inner/c.go, pkg/inner/deep/"},
		{"many", "a directory of 14 files; ask for one of them: many/f00.go, many/f01.go, many/f02.go, many/f03.go, many/f04.go, many/f05.go, many/f06.go, many/f07.go, many/f08.go, many/f09.go, many/f10.go, many/f11.go, 2 more files"},
		{"notes.txt", "no such file in the repository (git ls-files); use a path from the repository map"},
		{"pk", `no such file in the repository (git ls-files); use a path from the repository map; and no file defines a function, method or type named "pk"`},
	} {
		l := ix.Look([]string{c.req}, map[string][]Chunk{}, 4000)
		if it := l.Items[0]; it.Error != c.err || it.Path != "" || len(it.Chunks) > 0 {
			t.Errorf("%s: %+v\nwant error %q", c.req, it, c.err)
		}
		if strings.Contains(l.Text, "TOKEN") || strings.Contains(l.Text, "go test") || strings.Contains(l.Text, "h1:abc") {
			t.Errorf("%s: the answer shows what it must not:\n%s", c.req, l.Text)
		}
	}
}

// TestLookFindsMethodsInOtherLanguages: Class.method names a method of a
// Python or TypeScript class or a Rust impl, whose outline knows no
// receivers, and Type::method a Rust or C++ one; a definition written with
// its language's words (or its return type) is its name;
// and a name a named file does not define is looked for in files of that
// language only.
func TestLookFindsMethodsInOtherLanguages(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, map[string]string{
		"app/tool.py":  "import sys\n\n\ndef parse_date(text):\n    return text\n\n\nclass Report:\n    def render(self):\n        return 'report'\n\n    def title(self):\n        return 't'\n\n\ndef render():\n    pass\n",
		"web/app.ts":   "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Cart {\n  total(): number {\n    return 0;\n  }\n}\n",
		"web/util.js":  "export function sum(xs) {\n  return 0;\n}\n",
		"src/lib.rs":   "pub struct Cart {}\n\nimpl Cart {\n    pub fn total(&self) -> u32 {\n        0\n    }\n}\n\npub fn sum(a: u32) -> u32 {\n    a\n}\n",
		"src/cart.cpp": "#include \"cart.h\"\n\nint Cart::total() const {\n    return sum_;\n}\n\nstd::vector<Item> Cart::byOwner(const std::string &owner,\n                                bool all) {\n    return items_;\n}\n",
		"web/store.ts": "export class Store {\n  async load(\n    id: string,\n  ): Promise<Item> {\n    return this.fetch(\n      id,\n    );\n  }\n}\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []lookCase{
		{req: "app/tool.py:Report.render", path: "app/tool.py", chunk: span(9, 10)},
		{req: "Report.render", path: "app/tool.py", chunk: span(9, 10)},
		{req: "app/tool.py:def title(self)", path: "app/tool.py", chunk: span(12, 13)},
		{req: "app/tool.py:class Report", path: "app/tool.py", chunk: span(8, 13)},
		{req: "app/tool.py:Report.missing", path: "app/tool.py",
			err: `app/tool.py defines no function, method or type named "Report.missing"; it defines: parse_date, Report, render, title, render`},
		{req: "src/lib.rs:Cart.total", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "web/app.ts:Cart.total", path: "web/app.ts", chunk: span(6, 8)},
		{req: "src/lib.rs:pub fn total(&self) -> u32", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "web/app.ts:export function add", path: "web/app.ts", chunk: span(1, 3)},
		// sum is defined in Rust and in JavaScript: for a TypeScript
		// file, the JavaScript one.
		{req: "web/app.ts:sum", path: "web/util.js", chunk: span(1, 3)},
		// C++ and a method whose parameters span lines.
		{req: "src/cart.cpp:total", path: "src/cart.cpp", chunk: span(3, 5)},
		{req: "src/cart.cpp:Cart::byOwner", path: "src/cart.cpp", chunk: span(7, 10)},
		{req: "web/store.ts:Store.load", path: "web/store.ts", chunk: span(2, 8)},
		{req: "src/lib.rs:Cart::total", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "src/cart.cpp:int Cart::total() const", path: "src/cart.cpp", chunk: span(3, 5)},
		{req: "app/tool.py:sum", path: "app/tool.py",
			err: `app/tool.py defines no function, method or type named "sum"; it defines: parse_date, Report, render, title, render`},
	} {
		c.check(t, ix)
	}
}

// TestAtShowsTheDefinitionOrTheLinesAround: a line is shown with the
// definition that holds it, or with the lines around it when none does
// or the one that does is large; a file the index does not show as named
// is nothing.
func TestAtShowsTheDefinitionOrTheLinesAround(t *testing.T) {
	files := fixtureFiles()
	var huge strings.Builder
	huge.WriteString("package big\n\nfunc Huge(x int) int {\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&huge, "\tx += %d\n", i)
	}
	huge.WriteString("\treturn x\n}\n")
	files["big/huge.go"] = huge.String()
	ix, err := Open(context.Background(), newRepo(t, files))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		line int
		want string
	}{
		{"dates/parse.go", 20, "dates/parse.go:12-27"}, // in ParseDate
		{"dates/parse.go", 4, "dates/parse.go:1-16"},   // the imports
		{"dates/parse.go", 34, "dates/parse.go:29-35"}, // in atoi, the last definition
		{"big/huge.go", 60, "big/huge.go:48-72"},       // in a function of 103 lines
		{"dates/parse.go", 36, ""},                     // past the end
		{"parse.go", 20, ""},                           // not the path of a file
		{"secret.env", 1, ""},                          // not in the repository
	} {
		if got := ix.At(c.file, c.line); got != c.want {
			t.Errorf("At(%s, %d) = %q, want %q", c.file, c.line, got, c.want)
		}
	}
}

// TestWithFilesAddsWhatAModelWrote: a test file the model wrote, not
// tracked yet, is added to the files ranked; a path out of the root,
// through a link out of it, a link, a file Open leaves out by its name
// or one that is not there is not.
func TestWithFilesAddsWhatAModelWrote(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	outside := t.TempDir()
	writeFiles(t, repo, map[string]string{"dates/leap_test.go": "package dates\n\nfunc TestLeap(t *testing.T) {}\n", "logo.png": "not code"})
	writeFiles(t, outside, map[string]string{"x_test.go": "package x\n"})
	if err := os.Symlink(outside, filepath.Join(repo, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x_test.go"), filepath.Join(repo, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	with := ix.WithFiles("dates/leap_test.go", "../x_test.go", "out/x_test.go", "link_test.go", "logo.png", "gone_test.go", "dates/parse.go")
	var added []string
	for _, p := range with.paths {
		if !slices.Contains(ix.paths, p) {
			added = append(added, p)
		}
	}
	if !reflect.DeepEqual(added, []string{"dates/leap_test.go"}) || len(with.paths) != len(ix.paths)+1 || !slices.IsSorted(with.paths) {
		t.Errorf("added %q (%d paths, %d before)", added, len(with.paths), len(ix.paths))
	}
	if slices.Contains(ix.paths, "dates/leap_test.go") {
		t.Error("WithFiles changed the index it was called on")
	}
}
