package repoctx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestBuildFollowsTheAssertionsSubject: the failing test sets up much
// (more calls than the edges follow) before the call it asserts about;
// the line the output names compares that call's result, so the helper
// the call reaches is packed.
func TestBuildFollowsTheAssertionsSubject(t *testing.T) {
	var test, setup strings.Builder
	setup.WriteString("package calc\n\n")
	test.WriteString("package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n")
	for k := range 30 {
		fmt.Fprintf(&setup, "func prepare%d() int { return step%d(0, %d) }\n\n", k, k, k)
		fmt.Fprintf(&test, "\t_ = prepare%d()\n", k)
	}
	test.WriteString("\tgot := Total([]int{1, 2})\n\tif got != 3 {\n\t\tt.Errorf(\"got %d, want 3\", got)\n\t}\n}\n")
	big := lookalikes(60, "// deepHelper rounds the total.\nfunc deepHelper(total int) int {\n\treturn total - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/setup.go":     setup.String(),
		"calc/calc.go":      "package calc\n\n// Total sums values.\nfunc Total(values []int) int {\n\treturn deepHelper(len(values))\n}\n",
		"calc/calc_test.go": test.String(),
	})
	failing := fmt.Sprintf("--- FAIL: TestTotal (0.00s)\n    calc_test.go:%d: got 2, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n", lineOf(test.String(), "t.Errorf"))
	p := build(t, repo, failing, 2048)
	site := lineOf(big, "func deepHelper")
	if f := fileOf(p, "calc/big.go"); f == nil || !covers(f, site, site+2) {
		t.Fatalf("deepHelper (calc/big.go:%d), reached from the asserted Total, is not packed; files %v", site, paths(p))
	}
}

// TestBuildShowsTheAssertionsSubjectWholeBeforeTheSetUp: the failing
// line checks what decode returns, a function too big for one focused
// part of the budget (focusedShare); the test first calls eight set-up
// functions, each shown whole. decode, the assertion's subject, may take
// subjectUnits parts: it is shown whole, its bug included, before the
// set-up takes the room.
func TestBuildShowsTheAssertionsSubjectWholeBeforeTheSetUp(t *testing.T) {
	subjectBeforeSetUp(t, 40, 5000)
}

// TestBuildShowsALongSubjectWhole: the same, with decode longer than
// bigFocused lines but within the subjectUnits parts the assertion's
// subject may take: it is shown whole too, not its head and the lines the
// failure's words find.
func TestBuildShowsALongSubjectWhole(t *testing.T) {
	if lines := strings.Count(bigDecode(110, ""), "\n"); lines <= bigFocused {
		t.Fatalf("decode has %d lines, want more than bigFocused (%d)", lines, bigFocused)
	}
	subjectBeforeSetUp(t, 110, 14000)
}

// subjectBeforeSetUp packs, within budget, the failure of a test that
// calls cases/5 set-up functions, then checks what decode, of cases
// cases, returns, and fails t unless decode is shown whole.
func subjectBeforeSetUp(t *testing.T, cases, budget int) {
	t.Helper()
	code := "package calc\n\n" + bigDecode(cases, "n = -1")
	var setup, calls strings.Builder
	setup.WriteString("package calc\n")
	for k := range cases / 5 {
		fmt.Fprintf(&setup, "\n// prepare%d readies table %d.\nfunc prepare%d() []int {\n\tt := make([]int, %d)\n", k, k, k, k+4)
		for j := range 20 {
			fmt.Fprintf(&setup, "\tt[%d%%len(t)] += %d\n", j, j*k+1)
		}
		setup.WriteString("\treturn t\n}\n")
		fmt.Fprintf(&calls, "\tprepare%d()\n", k)
	}
	test := "package calc\n\nimport \"testing\"\n\nfunc TestDecodeEmpty(t *testing.T) {\n" + calls.String() + "\tif got := decode(nil); got != 0 {\n\t\tt.Errorf(\"decode(nil) = %d, want 0\", got)\n\t}\n}\n"
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/calc\n", "calc/decode.go": code, "calc/setup.go": setup.String(), "calc/calc_test.go": test})
	p := build(t, repo, errorfOutput("calc", "TestDecodeEmpty", test, "decode(nil) = -1, want 0"), budget)
	from, to := lineOf(code, "// decode reads"), strings.Count(code, "\n")
	if f := fileOf(p, "calc/decode.go"); f == nil || !covers(f, from, to) {
		t.Fatalf("decode (calc/decode.go:%d-%d, its bug at line %d) is not shown whole; files %v, calc/decode.go %+v", from, to, lineOf(code, "n = -1"), paths(p), f)
	}
}

// TestBuildShowsTheTypesTheSubjectBuilds: the failing line checks what
// find returns; find builds a hop, a type declared at the other end of
// a file of look-alikes, which no word of the failure names. The type is
// shown with find; mark, beside it, is not reached.
func TestBuildShowsTheTypesTheSubjectBuilds(t *testing.T) {
	types := "// hop is a step back to retry from.\ntype hop struct {\n\tpath string\n\tat   int\n}\n\n// mark is a visited place.\ntype mark struct {\n\tseen int\n}\n\n"
	find := "// Tree routes paths.\ntype Tree struct{ kids []*Tree }\n\n// find is the node of p, retrying from the last step back.\nfunc (tr *Tree) find(p string) *Tree {\n\tvar back *hop\n\tfor i, k := range tr.kids {\n\t\tif k != nil {\n\t\t\tback = &hop{path: p, at: i}\n\t\t}\n\t}\n\tif back == nil {\n\t\treturn nil\n\t}\n\treturn tr.kids[back.at]\n}\n"
	code := strings.Replace(lookAlikes("rt", "step", types), "package rt\n\n", "package rt\n\n"+find+"\n", 1)
	test := "package rt\n\nimport \"testing\"\n\nfunc TestFind(t *testing.T) {\n\ttr := &Tree{}\n\tif got := tr.find(\"/a\"); got == nil {\n\t\tt.Errorf(\"got nil\")\n\t}\n}\n"
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/rt\n", "rt/rt.go": code, "rt/rt_test.go": test})
	failing := fmt.Sprintf("--- FAIL: TestFind (0.00s)\n    rt_test.go:%d: got nil\nFAIL\nFAIL\texample.com/rt\t0.002s\n", lineOf(test, "\t\tt.Errorf("))
	p := build(t, repo, failing, 1000)
	mustPackFunc(t, p, "rt/rt.go", code, "(tr *Tree) find")
	f := fileOf(p, "rt/rt.go")
	if from := lineOf(code, "type hop struct"); !covers(f, from, from+3) {
		t.Errorf("hop (rt/rt.go:%d), which find builds, is not shown; rt/rt.go %+v", from, f)
	}
	r := rank(t, repo, failing)
	i := slices.Index(r.ix.paths, "rt/rt.go")
	if w := r.reached[i][lineOf(code, "type mark struct")]; w > 0 {
		t.Errorf("mark, which find does not build, is reached (%v)", w)
	}
}

// bigDecode is a function decode of a switch with cases look-alike cases
// and, halfway down, the case of an empty record, doing stmt.
func bigDecode(cases int, stmt string) string {
	var b strings.Builder
	b.WriteString("// decode reads a record.\nfunc decode(b []byte) int {\n\tn := 0\n\tswitch {\n")
	for k := range cases {
		if k == cases/2 {
			fmt.Fprintf(&b, "\tcase len(b) == 0:\n\t\t%s\n", stmt)
		}
		fmt.Fprintf(&b, "\tcase len(b) > %d && b[%d] == 'x':\n\t\tn += int(b[%d]) * %d\n", k+1, k, k, k+3)
	}
	b.WriteString("\t}\n\treturn n\n}\n")
	return b.String()
}

// TestBuildFollowsWhatATestHandsItsHelper: the failing test hands a URI
// to its helper check, which calls UnmarshalText through an interface; of
// the package's 41 UnmarshalText methods the helper most likely means the
// URI's, whose callee validURI is the fix. The other 40 come one step
// further away, and validURI before them.
func TestBuildFollowsWhatATestHandsItsHelper(t *testing.T) {
	var b strings.Builder
	b.WriteString("package format\n\n")
	for k := range 40 {
		fmt.Fprintf(&b, "// Kind%d is a format of kind %d.\ntype Kind%d struct{ s string }\n\n// UnmarshalText reads a kind %d value.\nfunc (v *Kind%d) UnmarshalText(b []byte) error {\n\tif len(b) > %d {\n\t\treturn errTooLong\n\t}\n\tv.s = string(b)\n\treturn nil\n}\n\n", k, k, k, k, k, k+10)
	}
	b.WriteString("// URI is a format of URIs.\ntype URI struct{ s string }\n\n// UnmarshalText reads a URI.\nfunc (v *URI) UnmarshalText(b []byte) error {\n\tif !validURI(string(b)) {\n\t\treturn errTooLong\n\t}\n\tv.s = string(b)\n\treturn nil\n}\n\nfunc validURI(s string) bool {\n\treturn !strings.Contains(s, \"#@\") // the bug\n}\n")
	code := b.String()
	test := "package format\n\nimport \"testing\"\n\nfunc TestFormatURI(t *testing.T) {\n\tcheck(t, &URI{}, \"https://a.example#@frag\")\n}\n\nfunc check(t *testing.T, v interface{ UnmarshalText([]byte) error }, s string) {\n\tif err := v.UnmarshalText([]byte(s)); err != nil {\n\t\tt.Errorf(\"%q: %v\", s, err)\n\t}\n}\n"
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/format\n", "format/format.go": code, "format/format_test.go": test})
	failing := "--- FAIL: TestFormatURI (0.00s)\n    format_test.go:11: \"https://a.example#@frag\": too long\nFAIL\nFAIL\texample.com/format\t0.002s\n"
	for _, budget := range []int{800, 1200, 3000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			mustPackFunc(t, build(t, repo, failing, budget), "format/format.go", code, "validURI")
		})
	}
}

// TestBuildFollowsTheMethodsCalledOnTheAssertionsValues: the failing line
// looks a key up in the index the test built with idx.Build(words), after
// thirty set-up calls that use up the test's edges. Build made the index
// what Lookup finds, so it is part of the assertion's subject, and insert,
// below it, where the fault is, is shown.
func TestBuildFollowsTheMethodsCalledOnTheAssertionsValues(t *testing.T) {
	var code, test strings.Builder
	code.WriteString("package ix\n\n// Index maps words to counts.\ntype Index struct{ m map[string]int }\n\n// New is an empty Index.\nfunc New() *Index { return &Index{m: map[string]int{}} }\n\n" +
		"// Build adds words.\nfunc (x *Index) Build(words []string) {\n\tfor _, w := range words {\n\t\tx.insert(w)\n\t}\n}\n\n" +
		"func (x *Index) insert(w string) {\n\tx.m[w] = 1 // the fault: a second w is not counted\n}\n\n" +
		"// Lookup is the count of w.\nfunc (x *Index) Lookup(w string) int { return x.m[w] }\n")
	test.WriteString("package ix\n\nimport \"testing\"\n\nfunc TestLookup(t *testing.T) {\n")
	setUpMuch(&code, &test)
	test.WriteString("\tidx := New()\n\tidx.Build([]string{\"a\", \"a\"})\n\tif got := idx.Lookup(\"a\"); got != 2 {\n\t\tt.Errorf(\"Lookup(a) = %d, want 2\", got)\n\t}\n}\n")
	src := test.String()
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/ix\n", "ix/ix.go": code.String(), "ix/ix_test.go": src})
	failing := errorfOutput("ix", "TestLookup", src, "Lookup(a) = 1, want 2")
	mustPackFunc(t, build(t, repo, failing, 1000), "ix/ix.go", code.String(), "(x *Index) insert")
}

// TestBuildFollowsWhatTheFailingLinesConditionTests: the failing line
// is a t.Errorf that names only the test's input; the if around it tests
// the value Render returned, after thirty set-up calls that use up the
// test's edges. The condition's variable is part of the assertion's
// subject: Render is followed first, and quote, below it, where the
// fault is, is shown. The condition's package name (time in time.Now())
// is no variable of the test's, whose methods made what it checks: the
// Now of the package, a look-alike, is not reached.
func TestBuildFollowsWhatTheFailingLinesConditionTests(t *testing.T) {
	repo, code, src := setUpMuchRepo(t, "rd", "// Render brackets s.\nfunc Render(s string) string {\n\treturn \"[\" + quote(s) + \"]\"\n}\n\n"+
		"func quote(s string) string {\n\treturn s // the fault: < is not escaped\n}\n\n"+
		"// Now is the render clock.\nfunc Now() int {\n\treturn tick()\n}\n\nfunc tick() int {\n\treturn 1\n}\n",
		"import (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestRender(t *testing.T) {\n",
		"\tin := \"a<b\"\n\tgot := Render(in)\n\tif got != \"[a&lt;b]\" && time.Now().Year() > 2000 {\n\t\tt.Errorf(\"wrong output for %q\", in)\n\t}\n}\n", nil)
	failing := errorfOutput("rd", "TestRender", src, "wrong output for \"a<b\"")
	mustPackFunc(t, build(t, repo, failing, 1000), "rd/rd.go", code, "quote")
	r := rank(t, repo, failing)
	i := slices.Index(r.ix.paths, "rd/rd.go")
	if w := r.reached[i][lineOf(code, "func tick(")]; w > 0 {
		t.Errorf("tick, under the package's Now, is reached (%v): time.Now() in the condition names no variable", w)
	}
}

// TestBuildFollowsTheAssertionInTheTestsHelper: the failing test sets up
// much, then hands its tree to check, a helper in another test file,
// whose t.Errorf is the line the output names: the test names no line
// of its own. What the helper's assertion is about (the node lookup
// returned) is the test's subject: lookup is followed first, and match,
// below it, where the fault is, is shown.
func TestBuildFollowsTheAssertionInTheTestsHelper(t *testing.T) {
	helper := "package rt\n\nimport \"testing\"\n\nfunc check(t *testing.T, tr *Tree, p string) {\n\tv := tr.lookup(p)\n\tif v == nil {\n\t\tt.Errorf(\"no route for %s\", p)\n\t}\n}\n"
	repo, code, _ := setUpMuchRepo(t, "rt", "// Tree routes paths.\ntype Tree struct{ paths []string }\n\n"+
		"// lookup finds the node of p.\nfunc (tr *Tree) lookup(p string) *string {\n\tfor k := range tr.paths {\n\t\tif match(tr.paths[k], p) {\n\t\t\treturn &tr.paths[k]\n\t\t}\n\t}\n\treturn nil\n}\n\n"+
		"func match(pattern, p string) bool {\n\treturn pattern == p // the fault: an exact compare\n}\n",
		"import \"testing\"\n\nfunc TestRoutes(t *testing.T) {\n",
		"\tcheck(t, &Tree{paths: []string{\"/a/*\"}}, \"/a/b\")\n}\n", map[string]string{"rt/helpers_test.go": helper})
	failing := fmt.Sprintf("--- FAIL: TestRoutes (0.00s)\n    helpers_test.go:%d: no route for /a/b\nFAIL\nFAIL\texample.com/rt\t0.002s\n", lineOf(helper, "\t\tt.Errorf("))
	mustPackFunc(t, build(t, repo, failing, 1000), "rt/rt.go", code, "match")
}

// TestBuildFollowsTheSubjectsCallsAsWritten: the failing line checks
// what a call returned, after thirty set-up calls that use up the test's
// edges; the call is the assertion's subject however it is written, and
// the function below it, where the fault is, is shown. append is a
// builtin only when called plainly (append(s, x)): sl.append is the
// loop's method. Decode[int] names Decode through its type argument.
func TestBuildFollowsTheSubjectsCallsAsWritten(t *testing.T) {
	for _, c := range []struct {
		name, pkg, code, tail, msg, fault string
	}{
		{"a method named like a builtin", "sc", "// loop scrapes samples.\ntype loop struct{ seen map[string]bool }\n\n" +
			"func newLoop() *loop { return &loop{seen: map[string]bool{}} }\n\n" +
			"// append stores the samples of b and says how many are new.\nfunc (l *loop) append(b []string) (added int) {\n\tfor _, s := range b {\n\t\tadded += l.dedupe(s)\n\t}\n\treturn added\n}\n\n" +
			"func (l *loop) dedupe(s string) int {\n\tl.seen[s] = true\n\treturn 1 // the fault: a sample seen before counts again\n}\n",
			"\tsl := newLoop()\n\tadded := sl.append([]string{\"m 1\", \"m 1\"})\n\tif added != 1 {\n\t\tt.Errorf(\"added %d samples, want 1\", added)\n\t}\n}\n",
			"added 2 samples, want 1", "(l *loop) dedupe"},
		{"a generic function instantiated", "gd", "// Decode reads a value of type T from s.\nfunc Decode[T any](s string) (T, error) {\n\tvar v T\n\treturn v, parse(s, &v)\n}\n\n" +
			"func parse(s string, v any) error {\n\treturn nil // the fault: s is never read\n}\n",
			"\tn, err := Decode[int](\"42\")\n\tif err != nil || n != 42 {\n\t\tt.Errorf(\"got %d, %v; want 42\", n, err)\n\t}\n}\n",
			"got 0, <nil>; want 42", "parse"},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, code, src := setUpMuchRepo(t, c.pkg, c.code, "import \"testing\"\n\nfunc TestAnswer(t *testing.T) {\n", c.tail, nil)
			failing := errorfOutput(c.pkg, "TestAnswer", src, c.msg)
			mustPackFunc(t, build(t, repo, failing, 1000), c.pkg+"/"+c.pkg+".go", code, c.fault)
		})
	}
}

// TestBuildFollowsTheFunctionsATestsTableHolds: a table-driven test
// calls each row's function through a field (tt.fn(tt.in)); no call
// names Lower, the function of the failing row, in a file of look-alike
// functions. The functions the test hands on as values are followed as
// its calls: Lower, and fold, below it, where the fault is, are shown.
func TestBuildFollowsTheFunctionsATestsTableHolds(t *testing.T) {
	code := lookAlikes("cv", "Step", "// Upper upper-cases s.\nfunc Upper(s string) string {\n\treturn strings.ToUpper(s)\n}\n\n"+
		"// Lower lower-cases s.\nfunc Lower(s string) string {\n\treturn fold(s)\n}\n\nfunc fold(s string) string {\n\treturn s // the fault: nothing is folded\n}\n")
	test := "package cv\n\nimport \"testing\"\n\nfunc TestConv(t *testing.T) {\n" +
		"\ttests := []struct {\n\t\tname    string\n\t\tfn      func(string) string\n\t\tin, out string\n\t}{\n\t\t{\"up\", Upper, \"a\", \"A\"},\n\t\t{\"down\", Lower, \"A\", \"a\"},\n\t}\n" +
		"\tfor _, tt := range tests {\n\t\tif got := tt.fn(tt.in); got != tt.out {\n\t\t\tt.Errorf(\"%s: got %q, want %q\", tt.name, got, tt.out)\n\t\t}\n\t}\n}\n"
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/cv\n", "cv/cv.go": code, "cv/cv_test.go": test})
	failing := fmt.Sprintf("--- FAIL: TestConv (0.00s)\n    cv_test.go:%d: down: got \"A\", want \"a\"\nFAIL\nFAIL\texample.com/cv\t0.002s\n", lineOf(test, "\t\t\tt.Errorf("))
	p := build(t, repo, failing, 1000)
	mustPackFunc(t, p, "cv/cv.go", code, "Lower")
	mustPackFunc(t, p, "cv/cv.go", code, "fold")
}
