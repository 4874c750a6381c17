package repoctx

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

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
	if got := ix.Around("dates/parse.go", steps); len(got) != 2 || got[0] != "dates/parse.go:ParseDate" || got[1] != "dates/parse.go:2-4" {
		t.Errorf("Around(dates/parse.go) = %q, want ParseDate, then the package clause and imports", got)
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

// TestRankingBesideAsksForWhatTheQueryPointsAtThatThePlanDoesNotName: a
// file whose definitions the steps name gets the likeliest others, at
// most n, none of those named nor shown whole; a file whose steps name
// none, or that is not there, gets none (Around asks for those).
func TestRankingBesideAsksForWhatTheQueryPointsAtThatThePlanDoesNotName(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	r := rank(t, repo, "big: Normalize returns the key unchanged when it is lower case")
	got := r.Beside("big/big.go", "In Step3, add one.", nil, 2)
	if len(got) == 0 || len(got) > 2 || got[0] != "big/big.go:Normalize" || slices.Contains(got, "big/big.go:Step3") {
		t.Errorf("Beside, steps naming Step3 = %q, want big/big.go:Normalize first, at most 2, not Step3", got)
	}
	if got := r.Beside("big/big.go", "In Normalize, fold the rest.", nil, 2); slices.Contains(got, "big/big.go:Normalize") {
		t.Errorf("Beside, steps naming Normalize = %q, want it left out", got)
	}
	if got := r.Beside("big/big.go", "In Step3, add one.", []Chunk{span(1, 400)}, 2); got != nil {
		t.Errorf("Beside, the file shown whole = %q, want nothing", got)
	}
	if got := r.Beside("big/big.go", "Fix the bug.", nil, 2); got != nil {
		t.Errorf("Beside, steps naming nothing = %q, want nothing", got)
	}
	if got := r.Beside("big/new.go", "In Step3, add one.", nil, 2); got != nil {
		t.Errorf("Beside, a new file = %q, want nothing", got)
	}
}

// TestAroundAsksForTheImportsAPatchEdits: the package clause and imports
// of a Go file the plan will change come after its definitions and before
// the file, unless the pack shows them, and so do a Python file's import
// statements; a file without imports gets none; the answer shows them.
func TestAroundAsksForTheImportsAPatchEdits(t *testing.T) {
	files := fixtureFiles()
	files["wire/conn.go"] = "// Package wire speaks the protocol.\npackage wire\n\nimport (\n\t\"bufio\"\n\t\"net\"\n)\n\n" +
		"// Dial opens a connection.\nfunc Dial(addr string) (*bufio.Reader, error) {\n\tc, err := net.Dial(\"tcp\", addr)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn bufio.NewReader(c), nil\n}\n"
	files["wire/notes.py"] = "import os\n\n\ndef dial(addr):\n    return os.getenv(addr)\n"
	repo := newRepo(t, files)
	r := rank(t, repo, "wire: Dial fails on an address with a zone")
	if got := r.Around("wire/conn.go", "In Dial, keep the zone.", nil); !slices.Equal(got, []string{"wire/conn.go:Dial", "wire/conn.go:2-7"}) {
		t.Errorf("Around, steps naming Dial = %q, want Dial, then lines 2-7", got)
	}
	got := r.Around("wire/conn.go", "Fix the bug.", nil)
	if len(got) < 3 || got[len(got)-2] != "wire/conn.go:2-7" || got[len(got)-1] != "wire/conn.go" {
		t.Errorf("Around, steps naming nothing = %q, want the imports just before the file", got)
	}
	if got := r.Around("wire/conn.go", "In Dial, keep the zone.", []Chunk{span(1, 8)}); !slices.Equal(got, []string{"wire/conn.go:Dial"}) {
		t.Errorf("Around, the imports shown = %q, want Dial alone", got)
	}
	if got := r.Around("big/big.go", "In Step3, add one.", nil); !slices.Equal(got, []string{"big/big.go:Step3"}) {
		t.Errorf("Around, a file without imports = %q, want Step3 alone", got)
	}
	if got := r.Around("wire/notes.py", "In dial, keep the zone.", nil); !slices.Equal(got, []string{"wire/notes.py:dial", "wire/notes.py:1-1"}) {
		t.Errorf("Around, a Python file = %q, want dial, then its import statement", got)
	}
	if got := r.Around("go.mod", "Bump the go line.", nil); !slices.Equal(got, []string{"go.mod"}) {
		t.Errorf("Around, a file of no language = %q, want the file alone", got)
	}
	l := r.ix.Look([]string{"wire/conn.go:Dial", "wire/conn.go:2-7"}, map[string][]Chunk{}, 4000)
	if !strings.Contains(l.Text, "\"net\"") || l.Items[1].Error != "" {
		t.Errorf("the look at the imports does not show them: %+v\n%s", l.Items, l.Text)
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

func TestSiblingsAsksForTheDefinitionsOneWordApartFromThoseThePlanNames(t *testing.T) {
	src := `package match

type matcher struct{ next *matcher }

func (m *matcher) matcherFuncOr(a, b bool) bool  { return a || b }
func (m *matcher) matcherFuncAnd(a, b bool) bool { return a && b }
func (m *matcher) matcherFuncNot(a bool) bool     { return !a }
func (m *matcher) Get() bool                      { return m.next != nil }
func (m *matcher) Set(v *matcher)                 { m.next = v }

type other struct{}

func (other) matcherFuncAnd(a, b bool) bool { return a && b }

func Unmarshal(in string) string         { return in }
func UnmarshalKey(key, in string) string { return key + in }
func UnmarshalExactKey(in string) string { return in }
`
	ix, err := Open(context.Background(), newRepo(t, map[string]string{"match/match.go": src}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text  string
		shown []Chunk
		n     int
		want  []string
	}{
		// A word changed; the same receiver's only; the first n.
		{"In matcherFuncOr, check both.", nil, 2, []string{"match/match.go:matcher.matcherFuncAnd", "match/match.go:matcher.matcherFuncNot"}},
		{"In matcherFuncOr, check both.", nil, 1, []string{"match/match.go:matcher.matcherFuncAnd"}},
		// A word added; two words apart is no sibling.
		{"Change Unmarshal.", nil, 2, []string{"match/match.go:UnmarshalKey"}},
		// A word dropped, a word added in the middle.
		{"Change UnmarshalKey.", nil, 2, []string{"match/match.go:Unmarshal", "match/match.go:UnmarshalExactKey"}},
		// Sharing no word of four letters: none.
		{"Change Get.", nil, 2, nil},
		// Shown whole already: not asked for again.
		{"Change Unmarshal.", []Chunk{span(1, 20)}, 2, nil},
		// Naming none of the file's definitions: none.
		{"Fix the bug.", nil, 2, nil},
	} {
		if got := ix.Siblings("match/match.go", c.text, c.shown, c.n); !slices.Equal(got, c.want) {
			t.Errorf("Siblings(%q, n=%d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
	if got := ix.Siblings("match/new.go", "Change Unmarshal.", nil, 2); got != nil {
		t.Errorf("Siblings of a new file = %q, want nothing", got)
	}
}
