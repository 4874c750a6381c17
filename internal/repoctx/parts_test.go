package repoctx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestIssuePartsPreferCodeToTestsAndDocs: an issue's words are those of
// the tests and the documentation that describe the behaviour as much as
// the code's. From an issue text (no failing test), the parts of test and
// documentation files count half against code's, so the function that
// handles negative totals comes before the thirty tests that say
// "negative total rounds down" (and which, counted in full, come first).
func TestIssuePartsPreferCodeToTestsAndDocs(t *testing.T) {
	var tests, readme strings.Builder
	tests.WriteString("package calc\n\nimport \"testing\"\n\n")
	readme.WriteString("# calc\n\n")
	for k := range 30 {
		fmt.Fprintf(&tests, "func TestRoundCase%d(t *testing.T) {\n\t// a negative total rounds down\n\tif got := Round(-%d); got != -%d {\n\t\tt.Errorf(\"negative total %%d rounds to %%d, want down\", -%d, got)\n\t}\n}\n\n", k, k, k+1, k)
		fmt.Fprintf(&readme, "## Case %d\n\nA negative total of -%d rounds down to -%d: negative totals round down.\n\n", k, k, k+1)
	}
	code := lookAlikes("calc", "step", "// Round rounds a total.\nfunc Round(total int) int {\n\treturn total\n}\n\n// fixSign handles a negative total.\nfunc fixSign(n int) int {\n\treturn n\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"README.md":         readme.String(),
		"calc/calc.go":      code,
		"calc/calc_test.go": tests.String(),
	})
	issue := "Negative totals do not round down\n\n`calc.Round(-3)` returns -3. A negative total should round down, as the README says negative totals round down, but a negative total is returned as it is.\n"
	r := rank(t, repo, issue)
	var files []*chosen
	for _, i := range r.order {
		files = append(files, &chosen{i: i})
	}
	site := lineOf(code, "func fixSign")
	for _, pt := range r.parts(files, false, r.score[r.order[0]], 1000) {
		switch p := r.ix.paths[files[pt.k].i]; {
		case p == "calc/calc.go" && pt.c.StartLine <= site && site <= pt.c.EndLine:
			return
		case isTestFile(p):
			t.Fatalf("a part of %s (%d-%d, %.3f) comes before fixSign", p, pt.c.StartLine, pt.c.EndLine, pt.score)
		}
	}
	t.Fatal("fixSign is no part")
}

// TestIssueTestsLeaveTheCodeItsRoom: thirty tests in three files share every
// word of a report, and would fill the pack before the room left over reaches the
// function the fix goes in (adjust, three calls below the function the
// report names, in a big file of look-alikes); a report's tests take a
// tenth of the code budget until the code has had its turn, so adjust is
// shown, and so is a test to model the reproducing test on.
func TestIssueTestsLeaveTheCodeItsRoom(t *testing.T) {
	files := map[string]string{
		"go.mod":        "module example.com/calc\n",
		"calc/round.go": "package calc\n\n// Round rounds an amount.\nfunc Round(n int) int {\n\treturn middle(n)\n}\n\nfunc middle(n int) int {\n\treturn deeper(n)\n}\n\nfunc deeper(n int) int {\n\treturn adjust(n)\n}\n",
	}
	code := lookAlikes("calc", "step", "// adjust returns n.\nfunc adjust(n int) int {\n\treturn n\n}\n")
	files["calc/calc.go"] = code
	for f := range 3 {
		var tests strings.Builder
		tests.WriteString("package calc\n\nimport \"testing\"\n\n")
		for k := range 10 {
			fmt.Fprintf(&tests, "func TestRoundNegative%d_%d(t *testing.T) {\n\t// a negative amount rounds down\n\tif got := Round(-%d); got != -%d {\n\t\tt.Errorf(\"negative amount %%d rounds to %%d, want down\", -%d, got)\n\t}\n}\n\n", f, k, k, k+1, k)
		}
		files[fmt.Sprintf("calc/round%d_test.go", f)] = tests.String()
	}
	repo := newRepo(t, files)
	issue := "Negative amounts do not round down\n\n`calc.Round(-3)` returns -3. A negative amount should round down, but a negative amount is returned as it is.\n"
	p := build(t, repo, issue, 2500)
	mustPackFunc(t, p, "calc/calc.go", code, "adjust")
	if !slices.ContainsFunc(paths(p), isTestFile) {
		t.Errorf("no test is shown to model the reproducing test on: %v", paths(p))
	}
}

// TestBuildShowsTheRestOfAFunctionMostlyShown: the failing test reaches
// Merge, too long to be shown whole in the first passes, and the output's
// words are in most of its body: those parts are shown. The fault is in
// lines of its middle that share no word with the output; the rest of the
// function is shown before other files' whole text.
func TestBuildShowsTheRestOfAFunctionMostlyShown(t *testing.T) {
	var b strings.Builder
	b.WriteString("package mrg\n\n// Merge copies the fields of src into dst.\nfunc Merge(dst, src map[string]int, o Options) {\n")
	for k := range 260 {
		switch {
		case k == 130:
			b.WriteString("\tif o.Keep {\n\t\treturn // a fault\n\t}\n")
		case k >= 100 && k < 160:
			fmt.Fprintf(&b, "\to.n%d = len(dst) + %d\n", k%4, k)
		default:
			fmt.Fprintf(&b, "\tmergeField(dst, src, \"f%d\")\n", k)
		}
	}
	b.WriteString("}\n\n// Options steer Merge.\ntype Options struct {\n\tKeep bool\n\tn0, n1, n2, n3 int\n}\n\nfunc mergeField(dst, src map[string]int, k string) {\n\tdst[k] = src[k]\n}\n")
	code := b.String()
	var doc strings.Builder
	doc.WriteString("// Package mrg merges maps.\npackage mrg\n\n")
	for k := range 150 {
		fmt.Fprintf(&doc, "// Note %d: Merge with Append keeps the fields of dst and adds those of src.\n", k)
	}
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/mrg\n",
		"mrg/merge.go":      code,
		"mrg/doc.go":        doc.String(),
		"mrg/merge_test.go": "package mrg\n\nimport \"testing\"\n\nfunc TestMergeAppend(t *testing.T) {\n\tdst, src := map[string]int{}, map[string]int{\"f1\": 1}\n\tMerge(dst, src, Options{Keep: true})\n\tif dst[\"f1\"] != 1 {\n\t\tt.Errorf(\"merge lost the fields of src: %v\", dst)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestMergeAppend (0.00s)\n    merge_test.go:9: merge lost the fields of src: map[]\nFAIL\nFAIL\texample.com/mrg\t0.002s\n"
	site := lineOf(code, "return // a fault")
	for _, budget := range []int{8500, 9000} {
		if f := fileOf(build(t, repo, failing, budget), "mrg/merge.go"); f == nil || !covers(f, site, site) {
			t.Errorf("at %d tokens the fault in Merge (mrg/merge.go:%d) is not shown: %+v", budget, site, f)
		}
	}
}

// TestBuildTrimsALongFailingTestToTheLinesNamed: a table-driven failing
// test is mostly its table. When the output names a line in it, its head
// and that line's neighbourhood are shown, and the room its table would
// take goes to the code the test calls; a long test the output names no
// line of is still shown whole.
func TestBuildTrimsALongFailingTestToTheLinesNamed(t *testing.T) {
	var test strings.Builder
	test.WriteString("package sv\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\ttests := []struct {\n\t\tversion string\n\t\terr     bool\n\t}{\n")
	for k := range 60 {
		fmt.Fprintf(&test, "\t\t{\"%d.%d.%d-alpha.beta+build.%d\", %v},\n", k, k+1, k+2, k, k%3 == 0)
	}
	test.WriteString("\t}\n\tfor _, tc := range tests {\n\t\tif err := Parse(tc.version); tc.err && err == nil {\n\t\t\tt.Fatalf(\"expected error for version: %s\", tc.version)\n\t\t}\n\t}\n}\n")
	test.WriteString("\nfunc TestCompare(t *testing.T) {\n\tcases := []struct{ a, b string }{\n")
	for k := range 66 {
		fmt.Fprintf(&test, "\t\t{\"%d.%d.%d-rc.%d\", \"%d.%d.%d\"},\n", k, k+1, k+2, k, k+3, k+4, k+5)
	}
	test.WriteString("\t}\n\tfor _, c := range cases {\n\t\tcheckOrder(t, c.a, c.b)\n\t}\n}\n\nfunc checkOrder(t *testing.T, a, b string) {\n\tif Compare(a, b) >= 0 {\n\t\tt.Errorf(\"%s is not before %s\", a, b)\n\t}\n}\n")
	var code strings.Builder
	code.WriteString("package sv\n\nimport \"strings\"\n\n// Parse checks a version's syntax.\nfunc Parse(s string) error {\n\tparts := strings.SplitN(s, \"+\", 2)\n")
	for k := range 12 {
		fmt.Fprintf(&code, "\tif len(parts[0]) > %d && parts[0][%d] == '.' && checkSegment(parts[0], %d) != nil {\n\t\treturn errSyntax\n\t}\n", k+40, k, k)
	}
	code.WriteString("\tif len(parts) == 2 {\n\t\treturn nil // a fault: the metadata goes unchecked\n\t}\n\treturn nil\n}\n\nvar errSyntax = errorString(\"bad syntax\")\n\ntype errorString string\n\nfunc (e errorString) Error() string { return string(e) }\n\nfunc checkSegment(s string, at int) error {\n\tif at >= len(s) {\n\t\treturn errSyntax\n\t}\n\treturn nil\n}\n\n// Compare orders two versions.\nfunc Compare(a, b string) int { return strings.Compare(a, b) }\n")
	src, tests := code.String(), test.String()
	repo := newRepo(t, map[string]string{
		"go.mod":           "module example.com/sv\n",
		"sv/parse.go":      src,
		"sv/parse_test.go": tests,
	})
	named := lineOf(tests, "t.Fatalf(\"expected error")
	failing := fmt.Sprintf("--- FAIL: TestParse (0.00s)\n    parse_test.go:%d: expected error for version: 0.1.2-alpha.beta+build.0\nFAIL\nFAIL\texample.com/sv\t0.002s\n", named)
	site := lineOf(src, "a fault")
	decl := lineOf(tests, "func TestParse")
	row := lineOf(tests, "\"30.31.32")
	for _, budget := range []int{2600, 4000} {
		p := build(t, repo, failing, budget)
		if f := fileOf(p, "sv/parse.go"); f == nil || !covers(f, site, site) {
			t.Errorf("at %d tokens the fault in Parse (sv/parse.go:%d) is not shown: %+v", budget, site, f)
		}
		f := fileOf(p, "sv/parse_test.go")
		switch {
		case f == nil || !covers(f, decl, decl+2) || !covers(f, named-1, named+1):
			t.Errorf("at %d tokens the failing test's head (line %d) and the line the output names (%d) are not shown: %+v", budget, decl, named, f)
		case covers(f, row, row):
			t.Errorf("at %d tokens the middle of the failing test's table (line %d) is shown: the test is not trimmed: %+v", budget, row, f.Chunks)
		}
	}
	// The output names no line of TestCompare past its head: it is shown
	// whole, table and all.
	lo, hi := lineOf(tests, "func TestCompare"), lineOf(tests, "checkOrder(t, c.a, c.b)")+2
	p := build(t, repo, "--- FAIL: TestCompare (0.00s)\n    parse_test.go:"+fmt.Sprint(lineOf(tests, "t.Errorf(\"%s is not"))+": 5.6.7-rc.5 is not before 8.9.10\nFAIL\n", 6000)
	if f := fileOf(p, "sv/parse_test.go"); f == nil || !covers(f, lo, hi) {
		t.Errorf("TestCompare (lines %d-%d), which the output names no line of, is not shown whole: %+v", lo, hi, f)
	}
}

// TestBuildShowsEveryFileTheOutputNamesFirst: two tests fail. One panics
// through four big functions of engine.go, whose frames raise that file far
// above the others; the other fails with an error message that only
// names.go writes, four calls below what the test calls. Every file a line
// of the output points at gets its best part in before any file gets a
// second: the message's function (and the fault in it) is shown.
func TestBuildShowsEveryFileTheOutputNamesFirst(t *testing.T) {
	var eng strings.Builder
	eng.WriteString("package app\n\n// Parse reads a config.\nfunc Parse(text string) (*Config, error) {\n\tc := &Config{}\n")
	for k := range 30 {
		fmt.Fprintf(&eng, "\tc.opt%d = len(text) + %d // parse option %d of the config text\n", k%5, k, k)
	}
	eng.WriteString("\treturn c, load(c)\n}\n\n")
	for s := 1; s <= 4; s++ {
		fmt.Fprintf(&eng, "// step%d runs stage %d of the run.\nfunc step%d(c *Config) {\n", s, s, s)
		for k := range 35 {
			fmt.Fprintf(&eng, "\tc.opt%d += %d // stage %d, config option %d\n", k%5, k, s, k)
		}
		if s < 4 {
			fmt.Fprintf(&eng, "\tstep%d(c)\n", s+1)
		} else {
			eng.WriteString("\tpanic(\"boom\")\n")
		}
		eng.WriteString("}\n\n")
	}
	eng.WriteString("// Run runs the config.\nfunc Run(c *Config) {\n\tstep1(c)\n}\n\n// Config is the parsed configuration.\ntype Config struct{ opt0, opt1, opt2, opt3, opt4 int; names []string }\n")
	engine := eng.String()
	names := "package app\n\nimport \"fmt\"\n\nfunc load(c *Config) error { return verify(c) }\n\nfunc verify(c *Config) error { return walk(c) }\n\nfunc walk(c *Config) error { return checkNames(c.names) }\n\n// checkNames reports a name given twice.\nfunc checkNames(names []string) error {\n\tseen := map[string]bool{}\n\tfor _, n := range names {\n\t\tif seen[n] {\n\t\t\treturn fmt.Errorf(\"duplicate option name %s\", n)\n\t\t}\n\t\tseen[n] = true // the fault: a name is never unseen between sections\n\t}\n\treturn nil\n}\n"
	test := "package app\n\nimport \"testing\"\n\nfunc TestNames(t *testing.T) {\n\tif _, err := Parse(\"[a]\\nx=1\\n[b]\\nx=2\\n\"); err != nil {\n\t\tt.Errorf(\"two sections: %v\", err)\n\t}\n}\n\nfunc TestRun(t *testing.T) {\n\tc, _ := Parse(\"\")\n\tRun(c)\n}\n"
	files := map[string]string{"go.mod": "module example.com/app\n", "app/engine.go": engine, "app/names.go": names, "app/app_test.go": test}
	line := func(s string) int { return lineOf(engine, s) }
	failing := fmt.Sprintf("--- FAIL: TestNames (0.00s)\n    app_test.go:7: two sections: duplicate option name x\n--- FAIL: TestRun (0.00s)\npanic: boom [recovered]\n\ngoroutine 7 [running]:\nexample.com/app.step4(0xc000010000)\n\t/tmp/w/app/engine.go:%d +0x25\nexample.com/app.step3(0xc000010000)\n\t/tmp/w/app/engine.go:%d +0x25\nexample.com/app.step2(0xc000010000)\n\t/tmp/w/app/engine.go:%d +0x25\nexample.com/app.step1(0xc000010000)\n\t/tmp/w/app/engine.go:%d +0x25\nexample.com/app.Run(...)\n\t/tmp/w/app/engine.go:%d\nexample.com/app.TestRun(0xc000007000)\n\t/tmp/w/app/app_test.go:13 +0x30\nFAIL\nFAIL\texample.com/app\t0.010s\n",
		line("\tpanic(\"boom\")"), line("\tstep4(c)"), line("\tstep3(c)"), line("\tstep2(c)"), line("\tstep1(c)"))
	repo := newRepo(t, files)
	site := lineOf(names, "the fault")
	for _, budget := range []int{4000, 5000, 6000} {
		if f := fileOf(build(t, repo, failing, budget), "app/names.go"); f == nil || !covers(f, site, site) {
			t.Errorf("at %d tokens the fault in checkNames (app/names.go:%d) is not shown: %+v", budget, site, f)
		}
	}
}

// closurePanic is a repository whose test panics in a closure of counter,
// which the trace names only as Setup.counter.func1, through the adapter
// Func.Decode, which the test calls and the trace names, and whose doc
// shares the panic's words; counter counts n flags before the fault. It
// returns the repository, the failing output, the fault's line and the
// line of counter's signature.
func closurePanic(t *testing.T, n int) (repo, failing string, fault, head int) {
	t.Helper()
	var m strings.Builder
	m.WriteString("package cfg\n\n// Func adapts a function to a Mapper.\ntype Func func(v *int) error\n\n// Decode calls f: a runtime error, an invalid memory address or nil pointer dereference in f, is the error of the counter that failed.\nfunc (f Func) Decode(v *int) error { return f(v) }\n\n")
	m.WriteString("// counter counts the flags given.\nfunc counter() Func {\n\treturn func(v *int) error {\n")
	for k := range n {
		fmt.Fprintf(&m, "\t\t*v += %d // count flag %d\n", k, k)
	}
	m.WriteString("\t\tvar p *int\n\t\t*p = *v // the fault: a nil counter\n\t\treturn nil\n\t}\n}\n\n// Setup returns the counter.\nfunc Setup() Func { return counter() }\n")
	mapper := m.String()
	test := "package cfg\n\nimport \"testing\"\n\nfunc TestCounter(t *testing.T) {\n\tv := 0\n\tSetup().Decode(&v)\n}\n"
	files := map[string]string{"go.mod": "module example.com/cfg\n", "cfg/mapper.go": mapper, "cfg/cfg_test.go": test}
	fault, head = lineOf(mapper, "the fault"), lineOf(mapper, "func counter()")
	failing = fmt.Sprintf("--- FAIL: TestCounter (0.00s)\npanic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\ngoroutine 7 [running]:\nexample.com/cfg.Setup.counter.func1(0xc000010000)\n\t/tmp/w/cfg/mapper.go:%d +0x25\nexample.com/cfg.Func.Decode(...)\n\t/tmp/w/cfg/mapper.go:%d\nexample.com/cfg.TestCounter(0xc000007000)\n\t/tmp/w/cfg/cfg_test.go:7 +0x30\nFAIL\nFAIL\texample.com/cfg\t0.010s\n",
		fault, lineOf(mapper, "return f(v)"))
	return newRepo(t, files), failing, fault, head
}

// TestBuildShowsThePanicsFrameFirst: Decode outranks counter; but of the
// lines the output names in mapper.go the first is the frame nearest the
// panic, and the part holding it is the file's first part.
func TestBuildShowsThePanicsFrameFirst(t *testing.T) {
	repo, failing, fault, _ := closurePanic(t, 30)
	for _, budget := range []int{900, 1000, 1100} {
		if f := fileOf(build(t, repo, failing, budget), "cfg/mapper.go"); f == nil || !covers(f, fault, fault) {
			t.Errorf("at %d tokens the fault in counter (cfg/mapper.go:%d) is not shown: %+v", budget, fault, f)
		}
	}
}

// TestBuildShowsTheHeadOfTheDefinitionAFrameIsIn: counter is too long to
// show whole; the window around the fault comes with counter's signature,
// which says what the lines are in, before the rest of the file.
func TestBuildShowsTheHeadOfTheDefinitionAFrameIsIn(t *testing.T) {
	repo, failing, fault, head := closurePanic(t, 200)
	for _, budget := range []int{450, 500, 550, 600} {
		f := fileOf(build(t, repo, failing, budget), "cfg/mapper.go")
		if f == nil || !covers(f, fault, fault) {
			t.Errorf("at %d tokens the fault in counter (cfg/mapper.go:%d) is not shown: %+v", budget, fault, f)
			continue
		}
		if !covers(f, head, head) {
			t.Errorf("at %d tokens the fault is shown without the head of counter (cfg/mapper.go:%d) it is in: %+v", budget, head, f)
		}
	}
}
