package repoctx

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseQueryFailingTest(t *testing.T) {
	q := parseQuery(`=== RUN   TestParseDate/leap_year
--- FAIL: TestParseDate (0.00s)
    --- FAIL: TestParseDate/leap_year (0.00s)
        date_test.go:57: ParseDate("2024-02-29") = 0001-01-01, want 2024-02-29
FAIL
FAIL	github.com/acme/cal/internal/dates	0.012s
FAIL
`)
	if !q.failing {
		t.Error("test output not recognised as failing test output")
	}
	if !slices.Equal(q.tests, []string{"TestParseDate"}) {
		t.Errorf("tests = %v, want [TestParseDate] (the subtest folded into its test)", q.tests)
	}
	if q.symbols["ParseDate"] != strong {
		t.Errorf("ParseDate strength = %v, want strong (%v): it is the failing test's subject", q.symbols["ParseDate"], strong)
	}
	if q.symbols["TestParseDate"] != strong {
		t.Errorf("the failing test itself must be looked up, got %v", q.symbols["TestParseDate"])
	}
	if !slices.Contains(q.dirs, "github.com/acme/cal/internal/dates") {
		t.Errorf("dirs = %v, want the FAIL line's package", q.dirs)
	}
	if len(q.paths) == 0 || q.paths[0] != (pathHint{"date_test.go", 57}) {
		t.Errorf("paths = %v, want date_test.go:57 first", q.paths)
	}
	if q.terms[0].text != "testparsedate" && q.terms[0].text != "parsedate" {
		t.Errorf("strongest term = %q, want the test's or its subject's whole name", q.terms[0].text)
	}
	for _, term := range q.terms {
		if stopword(term.text) {
			t.Errorf("stop word %q kept as a term", term.text)
		}
	}
}

func TestParseQueryStackTrace(t *testing.T) {
	q := parseQuery(`panic: runtime error: invalid memory address or nil pointer dereference [recovered]
goroutine 7 [running]:
testing.tRunner.func1.2({0x5f1c20, 0xc000012345})
	/usr/local/go/src/testing/testing.go:1632 +0x230
panic({0x5f1c20?, 0xc000012345?})
	/usr/local/go/src/runtime/panic.go:785 +0x132
github.com/acme/cal/store.(*Cache).Lookup(0x0, {0x6a1b2c, 0x3})
	/home/runner/work/cal/cal/store/cache.go:88 +0x1d
github.com/acme/cal/store.TestLookup(0xc0000a2000)
	/home/runner/work/cal/cal/store/cache_test.go:31 +0x45
`)
	if q.symbols["Lookup"] != strong || q.symbols["Cache"] != medium {
		t.Errorf("frame symbols = Lookup %v, Cache %v; want strong, medium", q.symbols["Lookup"], q.symbols["Cache"])
	}
	for _, p := range q.paths {
		if strings.Contains(p.path, "runtime/") || strings.Contains(p.path, "testing/") {
			t.Errorf("runtime or testing frame kept as a path hint: %v", p)
		}
	}
	if len(q.paths) != 2 || q.paths[0].path != "home/runner/work/cal/cal/store/cache.go" || q.paths[0].line != 88 {
		t.Errorf("paths = %v, want the panicking frame's file first", q.paths)
	}
	if !slices.Contains(q.dirs, "github.com/acme/cal/store") {
		t.Errorf("dirs = %v, want the frame's package", q.dirs)
	}
}

func TestParseQueryIssue(t *testing.T) {
	q := parseQuery("time: ParseDuration rejects \"1h30m\" with a space\n\n" +
		"Calling `time.ParseDuration(\"1h 30m\")` returns an error; the `parse_unit` helper in units.go seems to stop at the space.")
	if q.failing {
		t.Error("issue text taken for test output")
	}
	if q.symbols["ParseDuration"] != medium {
		t.Errorf("ParseDuration strength = %v, want medium (quoted, pkg.Name)", q.symbols["ParseDuration"])
	}
	if q.symbols["parse_unit"] != medium {
		t.Errorf("parse_unit strength = %v, want medium (quoted)", q.symbols["parse_unit"])
	}
	if !slices.Contains(q.pkgs, "time") {
		t.Errorf("pkgs = %v, want time (from time.ParseDuration)", q.pkgs)
	}
	if len(q.paths) != 1 || q.paths[0].path != "units.go" {
		t.Errorf("paths = %v, want units.go", q.paths)
	}
	var texts []string
	for _, term := range q.terms {
		texts = append(texts, term.text)
	}
	for _, want := range []string{"parseduration", "parse", "duration", "unit", "space"} {
		if !slices.Contains(texts, want) {
			t.Errorf("terms %v lack %q", texts, want)
		}
	}
}

// TestParseQueryLeavesOutGoEnv: the go version and go env output that a
// bug report template asks for names the reporter's machine; its quoted
// values and its GOMOD's go.mod are not the bug's.
func TestParseQueryLeavesOutGoEnv(t *testing.T) {
	body := "Get says a missing key is there\n\nCalling `kv.Get(\"x\")` on an empty store returns true.\n"
	for name, head := range map[string]string{
		"unix": "```\n$ go version\ngo version go1.22.3 linux/amd64\n$ go env\nGO111MODULE=''\nGOARCH='amd64'\nGOFLAGS=''\n" +
			"GOMOD='/home/dev/src/app/go.mod'\nGOOS='linux'\nCGO_ENABLED='1'\nCC='gcc'\nCGO_CFLAGS='-O2 -g'\n" +
			"GOGCCFLAGS='-fPIC -m64 -pthread -fmessage-length=0'\n```\n\n",
		"windows": "go version go1.21.5 windows/amd64\n\nset GOARCH=amd64\nset GOOS=windows\nset GOPATH=C:\\Users\\dev\\go\nset GOMOD=C:\\src\\app\\go.mod\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			got, want := parseQuery(head+body), parseQuery(body)
			if !reflect.DeepEqual(got.symbols, want.symbols) || !reflect.DeepEqual(got.terms, want.terms) ||
				!reflect.DeepEqual(got.paths, want.paths) || !reflect.DeepEqual(got.quoted, want.quoted) || !reflect.DeepEqual(got.pkgs, want.pkgs) {
				t.Errorf("with go env's output: symbols %v, paths %v, quoted %v, terms %v\nwant those of the report alone: %v, %v, %v, %v",
					got.symbols, got.paths, got.quoted, got.terms, want.symbols, want.paths, want.quoted, want.terms)
			}
		})
	}
	// A command run with a variable, or a line or two of them, is the
	// report's own.
	for _, text := range []string{
		"Building for Windows breaks:\n\nGOOS=windows go build ./...\n",
		"With these set it works:\n\nGOFLAGS=-mod=mod\nGOWORK=off\n",
	} {
		if got := withoutGoEnv(text); got != text {
			t.Errorf("withoutGoEnv(%q) = %q, want it unchanged", text, got)
		}
	}
}

func TestTestSubjects(t *testing.T) {
	got := map[string]float64{}
	for _, s := range testSubjects("TestReader_ReadRune") {
		got[s.name] = s.strength
	}
	if got["Reader_ReadRune"] != strong || got["Reader"] != medium || got["ReadRune"] != medium {
		t.Errorf("subjects of TestReader_ReadRune = %v", got)
	}
	got = map[string]float64{}
	for _, s := range testSubjects("TestParseDurationErrors") {
		got[s.name] = s.strength
	}
	if got["ParseDurationErrors"] != strong || got["ParseDuration"] <= got["Parse"] || got["ParseDuration"] == 0 {
		t.Errorf("subjects of TestParseDurationErrors = %v; the longer prefix must weigh more", got)
	}
}

func TestQueryTermsBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 500; i++ {
		b.WriteString("word")
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26))
		b.WriteByte(' ')
	}
	if n := len(parseQuery(b.String()).terms); n != maxTerms {
		t.Errorf("%d terms kept, want at most %d", n, maxTerms)
	}
}

func TestQueryTermsAreTheSameEveryTime(t *testing.T) {
	t.Parallel()
	// Symbols of equal weight: their terms tie, and the tie must not be
	// broken by a map's order.
	symbols := map[string]float64{}
	for _, name := range []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet", "Kilo", "Lima", "Mike", "November", "Oscar", "Papa"} {
		symbols[name] = 1
	}
	want := queryTerms("a failure in Alpha", symbols)
	for i := 0; i < 20; i++ {
		if got := queryTerms("a failure in Alpha", symbols); !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d gave other terms:\n got %v\nwant %v", i, got, want)
		}
	}
}

// TestParseQueryLeavesOutHTMLTags: the tags GitHub renders in a report
// (a log folded in <details>, a <br>, a link) are markup; the words they
// wrap are the reporter's. In a code span or a fenced block, Markdown
// shows a tag as written, and it stays.
func TestParseQueryLeavesOutHTMLTags(t *testing.T) {
	plain := "Decode drops the summary line\n\nStack trace\n\n```\npanic: index out of range\n```\n\nSee the docs page for Decode.\n"
	tagged := "Decode drops the summary line<br>\n\n<details><summary>Stack trace</summary>\n\n```\npanic: index out of range\n```\n\n</details>\n\nSee the <a href=\"https://example.com/docs\">docs page</a> for <code>Decode</code>.\n"
	got, want := parseQuery(tagged), parseQuery(plain)
	if !reflect.DeepEqual(got.symbols, want.symbols) || !reflect.DeepEqual(got.terms, want.terms) || !reflect.DeepEqual(got.quoted, want.quoted) {
		t.Errorf("with tags: symbols %v, quoted %v, terms %v\nwant those without: %v, %v, %v", got.symbols, got.quoted, got.terms, want.symbols, want.quoted, want.terms)
	}
	for _, text := range []string{
		"The template renders `<details>` as text.\n",
		"The template:\n\n```html\n<details><summary>x</summary></details>\n```\n",
	} {
		if got := withoutHTMLTags(text); got != text {
			t.Errorf("withoutHTMLTags(%q) = %q, want it unchanged", text, got)
		}
	}
	if got, want := strings.Fields(withoutHTMLTags("a <details open><summary>Logs</summary>b</details><br/>c\n")), []string{"a", "Logs", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("withoutHTMLTags = %q, want %q", got, want)
	}
}

// TestParseQueryGoConvey: GoConvey says where an assertion failed on two
// lines, the file, then "Line 15:"; that is the file's line 15, as
// kv_test.go:15 would be.
func TestParseQueryGoConvey(t *testing.T) {
	q := parseQuery("x\nFailures:\n\n  * /src/kv/kv_test.go \n  Line 15:\n  Expected: true\n  Actual:   false\n\n\n1 total assertion\n\n--- FAIL: TestStore (0.00s)\nFAIL\nFAIL\texample.com/kv\t0.005s\nFAIL\n")
	if !slices.Contains(q.paths, pathHint{path: "src/kv/kv_test.go", line: 15}) {
		t.Errorf("paths = %v, want kv_test.go's line 15", q.paths)
	}
}
