package repoctx

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBuildFollowsTheFailingTestsCallees: the fix site is a helper the
// failing test reaches through three calls, in a big file of many
// look-alike functions whose names the failure never says. It is packed,
// whole, because the test calls Total, Total calls middle, and middle
// calls deepHelper.
func TestBuildFollowsTheFailingTestsCallees(t *testing.T) {
	big := lookAlikes("calc", "step", "// deepHelper rounds the total.\nfunc deepHelper(total int) int {\n\treturn total - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/calc.go":      "package calc\n\n// Total sums values.\nfunc Total(values []int) int {\n\treturn middle(values, 0)\n}\n\nfunc middle(values []int, total int) int {\n\tfor _, v := range values {\n\t\ttotal = step3(total, v)\n\t}\n\treturn deepHelper(total)\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{1, 2}); got != 9 {\n\t\tt.Errorf(\"Total = %d, want 9\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 8, want 9\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 2048), "calc/big.go", big, "deepHelper")
}

// TestBuildPacksOnlyTheFailingTestsOfATestFile: a test file full of tests
// that share the failure's words would take the budget from the code
// under test; only the failing test (and the line the output names) is
// packed from it, and the code's helper gets the room.
func TestBuildPacksOnlyTheFailingTestsOfATestFile(t *testing.T) {
	var tests, code strings.Builder
	tests.WriteString("package calc\n\nimport \"testing\"\n\n")
	code.WriteString("package calc\n\n")
	for k := range 40 {
		fmt.Fprintf(&tests, "func TestTotalRounding%d(t *testing.T) {\n\tif got := Total([]int{%d, 2}); got != %d {\n\t\tt.Errorf(\"Total rounding = %%d, want %d\", got)\n\t}\n}\n\n", k, k, k+3, k+3)
		fmt.Fprintf(&code, "// round%d rounds a value.\nfunc round%d(value int) int {\n\treturn value + %d\n}\n\n", k, k, k)
	}
	tests.WriteString("func TestTotal(t *testing.T) {\n\tif got := Total([]int{1, 2}); got != 3 {\n\t\tt.Errorf(\"Total rounding = %d, want 3\", got)\n\t}\n}\n")
	code.WriteString("// Total sums values.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn fix(n)\n}\n\nfunc fix(n int) int {\n\treturn n - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/calc.go":      code.String(),
		"calc/calc_test.go": tests.String(),
	})
	last := strings.Count(tests.String(), "\n") - 2
	failing := fmt.Sprintf("--- FAIL: TestTotal (0.00s)\n    calc_test.go:%d: Total rounding = 2, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n", last)
	p := build(t, repo, failing, 1200)
	tf := fileOf(p, "calc/calc_test.go")
	if tf == nil || !covers(tf, last-2, last) {
		t.Fatalf("the failing test is not packed: %+v", tf)
	}
	for _, c := range tf.Chunks {
		if c.EndLine < last-3 {
			t.Errorf("another test of calc_test.go is packed: lines %d-%d %v", c.StartLine, c.EndLine, c.Symbols)
		}
	}
	site := strings.Count(code.String()[:strings.Index(code.String(), "func fix")], "\n") + 1
	if f := fileOf(p, "calc/calc.go"); f == nil || !covers(f, site, site+2) {
		t.Fatalf("fix (calc/calc.go:%d) is not packed; files %v", site, paths(p))
	}
}

// lookalikes is a Go file of n small functions that share no word with
// the failures below, then tail.
func lookalikes(n int, tail string) string {
	var b strings.Builder
	b.WriteString("package calc\n\n")
	for k := range n {
		fmt.Fprintf(&b, "// step%d adds a value to the total.\nfunc step%d(total, value int) int {\n\tif value < 0 {\n\t\treturn total\n\t}\n\treturn total + value + %d\n}\n\n", k, k, k)
	}
	b.WriteString(tail)
	return b.String()
}

// lineOf is the 1-based line of the first occurrence of s in text.
func lineOf(text, s string) int {
	return strings.Count(text[:strings.Index(text, s)], "\n") + 1
}

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

// TestBuildFollowsThePanicsFrames: the test panics inside decode, which
// the test reaches through more calls than the edges follow; the frame
// names decode's line, and decode's callee (the fix site, in a big file
// of look-alikes) is packed.
func TestBuildFollowsThePanicsFrames(t *testing.T) {
	big := lookalikes(60, "// readByte reads the next byte.\nfunc readByte(b []byte, i int) byte {\n\treturn b[i] // the bug: no bounds check\n}\n")
	code := "package calc\n\n// Parse parses b.\nfunc Parse(b []byte) int { return first(b) }\n\nfunc first(b []byte) int { return second(b) }\n\nfunc second(b []byte) int { return decode(b) }\n\nfunc decode(b []byte) int {\n\treturn int(readByte(b, 0))\n}\n"
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/calc.go":      code,
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestParseEmpty(t *testing.T) {\n\tParse(nil)\n}\n",
	})
	failing := fmt.Sprintf(`--- FAIL: TestParseEmpty (0.00s)
panic: runtime error: index out of range [0] with length 0 [recovered]

goroutine 7 [running]:
testing.tRunner.func1.2({0x5b1e40, 0xc000016108})
	/usr/local/go/src/testing/testing.go:1631 +0x24a
example.com/calc.readByte(...)
	/home/u/calc/calc/big.go:%d
example.com/calc.decode({0x0, 0x0, 0x0})
	/home/u/calc/calc/calc.go:%d +0x1d
example.com/calc.second(...)
	/home/u/calc/calc/calc.go:8
FAIL	example.com/calc	0.004s
`, lineOf(big, "return b[i]"), lineOf(code, "return int(readByte"))
	// Without the innermost frame, only decode's line points the way.
	failing = strings.Replace(failing, "example.com/calc.readByte(...)\n\t/home/u/calc/calc/big.go:"+fmt.Sprint(lineOf(big, "return b[i]"))+"\n", "", 1)
	p := build(t, repo, failing, 2048)
	site := lineOf(big, "func readByte")
	if f := fileOf(p, "calc/big.go"); f == nil || !covers(f, site, site+2) {
		t.Fatalf("readByte (calc/big.go:%d), called by the frame's decode, is not packed; files %v %+v", site, paths(p), fileOf(p, "calc/big.go"))
	}
}

// TestBuildFollowsCallsIntoTheModulesOtherPackages: the failing test calls
// its package's Total, which calls round.Half of another package of the
// module; the fix is there, in a big file of look-alike functions whose
// names the failure never says. It is packed because a call pkg.F()
// through an import of the module is followed into that package: an
// internal package, and the root of a module whose path ends in a major
// version (example.com/go-round/v2, package round), which the call names
// as goimports assumes it, not by the path's last element.
func TestBuildFollowsCallsIntoTheModulesOtherPackages(t *testing.T) {
	big := lookAlikes("round", "Step", "// Half halves the total.\nfunc Half(total int) int {\n\treturn total/2 - 1 // the bug\n}\n")
	for _, c := range []struct{ module, round, imp string }{
		{"example.com/calc", "internal/round/round.go", "example.com/calc/internal/round"},
		{"example.com/go-round/v2", "round.go", "example.com/go-round/v2"},
	} {
		t.Run(c.imp, func(t *testing.T) {
			repo := newRepo(t, map[string]string{
				"go.mod":            "module " + c.module + "\n",
				c.round:             big,
				"calc/calc.go":      "package calc\n\nimport \"" + c.imp + "\"\n\n// Total sums values and halves the sum.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn round.Half(n)\n}\n",
				"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{4, 2}); got != 3 {\n\t\tt.Errorf(\"Total = %d, want 3\", got)\n\t}\n}\n",
			})
			failing := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 2, want 3\nFAIL\nFAIL\t" + c.module + "/calc\t0.002s\n"
			mustPackFunc(t, build(t, repo, failing, 2048), c.round, big, "Half")
		})
	}
}

// TestAssumedName: the package name an import path suggests.
func TestAssumedName(t *testing.T) {
	for path, want := range map[string]string{
		"strings":                         "strings",
		"example.com/calc/internal/round": "round",
		"github.com/go-chi/chi/v5":        "chi",
		"github.com/pelletier/go-toml/v2": "toml",
		"gopkg.in/yaml.v3":                "yaml",
		"github.com/mattn/go-runewidth":   "runewidth",
		"example.com/v2":                  "example",
		"v2":                              "v2",
		"example.com/version":             "version",
	} {
		if got := assumedName(path); got != want {
			t.Errorf("assumedName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestBuildFollowsCallsIntoAModuleOutsideTheRoot: as
// TestBuildFollowsCallsIntoTheModulesOtherPackages, where the failing
// package's module is not the one at the repository's root: a repository
// whose module lives in a directory (no go.mod at the root), and one with
// a module nested in it whose path is not the root's path and the
// directory (go.etcd.io/etcd/v3 at the root, go.etcd.io/etcd/server/v3 in
// server/). The import resolves to the nested module's directory.
func TestBuildFollowsCallsIntoAModuleOutsideTheRoot(t *testing.T) {
	big := lookAlikes("round", "Step", "// Half halves the total.\nfunc Half(total int) int {\n\treturn total/2 - 1 // the bug\n}\n")
	for _, c := range []struct {
		name string
		mods map[string]string // go.mod files by path
	}{
		{"module in a directory", map[string]string{"server/go.mod": "module example.com/server/v3\n\ngo 1.22\n"}},
		{"nested module", map[string]string{
			"go.mod":        "module example.com/app/v3\n",
			"server/go.mod": "// The server, a module of its own.\nmodule \"example.com/app/server/v3\" // since v3.5\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mp := modulePath([]byte(c.mods["server/go.mod"]))
			files := map[string]string{
				"server/internal/round/round.go": big,
				"server/calc/calc.go":            "package calc\n\nimport \"" + mp + "/internal/round\"\n\n// Total sums values and halves the sum.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn round.Half(n)\n}\n",
				"server/calc/calc_test.go":       "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{4, 2}); got != 3 {\n\t\tt.Errorf(\"Total = %d, want 3\", got)\n\t}\n}\n",
			}
			maps.Copy(files, c.mods)
			repo := newRepo(t, files)
			failing := "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 2, want 3\nFAIL\nFAIL\t" + mp + "/calc\t0.002s\n"
			mustPackFunc(t, build(t, repo, failing, 2048), "server/internal/round/round.go", big, "Half")
		})
	}
}

// TestGoModules: an import path resolves to a directory only inside one
// of the repository's modules, the innermost that holds it, and not by a
// mere shared prefix; go.mod files the go command ignores declare none.
func TestGoModules(t *testing.T) {
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/calc\n",
		"v2/go.mod":           "module example.com/calc/v2\n",
		"tools/go.mod":        "module \"example.com/calctools\"\n",
		"lib/go.mod":          "module example.com/calc/library // in lib/\n",
		"testdata/mod/go.mod": "module example.com/fixture\n",
		"_old/go.mod":         "module example.com/old\n",
		"lib/internal/x/x.go": "package x\n",
		"tools/gen/gen.go":    "package main\n",
		"internal/round/r.go": "package round\n",
	})
	r := rank(t, repo, "TestX")
	for _, c := range []struct {
		path, dir string
		ok        bool
	}{
		{"example.com/calc", ".", true},
		{"example.com/calc/internal/round", "internal/round", true},
		{"example.com/calc/v2", "v2", true},
		{"example.com/calc/v2/internal/round", "v2/internal/round", true},
		{"example.com/calc/library/internal/x", "lib/internal/x", true},
		{"example.com/calctools/gen", "tools/gen", true},
		{"example.com/calculus/x", "", false},
		{"example.com/fixture", "", false},
		{"example.com/old/x", "", false},
		{"strings", "", false},
	} {
		if dir, ok := r.goModules().dir(c.path); dir != c.dir || ok != c.ok {
			t.Errorf("goModules().dir(%q) = %q, %v; want %q, %v", c.path, dir, ok, c.dir, c.ok)
		}
	}
	if got, want := r.goModules().roots(), []string{".", "lib", "tools", "v2"}; !slices.Equal(got, want) {
		t.Errorf("roots = %q, want %q", got, want)
	}
	for dir, want := range map[string]string{"lib/internal/x": "lib", "lib": "lib", "library/x": ".", "tools/gen": "tools", "internal/round": ".", ".": "."} {
		if got := r.goModules().holding(dir); got != want {
			t.Errorf("holding(%q) = %q, want %q", dir, got, want)
		}
	}
	var many goModules // a monorepo's: too many root packages to look in
	for k := range maxRootRegistries + 1 {
		many = append(many, goModule{path: fmt.Sprintf("example.com/m%d", k), dir: fmt.Sprintf("m%d", k)})
	}
	if got := many.roots(); !slices.Equal(got, []string{"."}) {
		t.Errorf("roots of %d modules = %q, want only the repository's root", len(many), got)
	}
	if dir, ok := (goModules{}).dir("example.com/calc"); ok {
		t.Errorf("no modules: dir = %q, true", dir)
	}
}

// TestBuildFollowsTheCalleesOfTheAPIAnIssueNames: a report names the API
// it called (`calc.Total`); the fix is in the internal package's helper
// Total calls, in a big file of look-alike functions that share the
// report's words. The helper is packed because the callees of a function
// an issue names are followed, into the module's other packages too.
func TestBuildFollowsTheCalleesOfTheAPIAnIssueNames(t *testing.T) {
	big := lookAlikes("round", "Total", "// Half halves a number.\nfunc Half(n int) int {\n\treturn n/2 - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":                  "module example.com/calc\n",
		"internal/round/round.go": big,
		"calc.go":                 "package calc\n\nimport \"example.com/calc/internal/round\"\n\n// Total sums values and halves the sum.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += v\n\t}\n\treturn round.Half(n)\n}\n",
	})
	issue := "`calc.Total` is wrong\n\nI called `calc.Total([]int{4, 2})` and expected the total 3, but the total is 2. Every total I try is one less than the total I expect.\n"
	mustPackFunc(t, build(t, repo, issue, 1200), "internal/round/round.go", big, "Half")
}

// lookAlikes is the source of package pkg: 60 functions prefix0... alike
// in shape and words, then last.
func lookAlikes(pkg, prefix, last string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for k := range 60 {
		fmt.Fprintf(&b, "// %s%d adds a value to the total.\nfunc %s%d(total, value int) int {\n\tif value < 0 {\n\t\treturn total\n\t}\n\treturn total + value + %d\n}\n\n", prefix, k, prefix, k, k)
	}
	b.WriteString(last)
	return b.String()
}

// mustPackFunc fails t unless p shows the first three lines of function
// name, defined in src, the source of file.
func mustPackFunc(t *testing.T, p *Pack, file, src, name string) {
	t.Helper()
	site := strings.Count(src[:strings.Index(src, "func "+name)], "\n") + 1
	if f := fileOf(p, file); f == nil || !covers(f, site, site+2) {
		t.Fatalf("%s (%s:%d) is not packed; files %v, %s %+v", name, file, site, paths(p), file, f)
	}
}

// TestBuildShowsABigReachedFunctionWholeWhenThereIsRoom: the failing test
// reaches decode, a function too big for one focused part of the budget
// (focusedShare), whose bug sits in a branch no word of the failure
// names. The first pass shows its head; the second, with room left, shows
// it whole, wherever the bug is.
func TestBuildShowsABigReachedFunctionWholeWhenThereIsRoom(t *testing.T) {
	code := lookAlikes("calc", "step", bigDecode(40, "n = -1"))
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/decode.go":    code,
		"calc/calc.go":      "package calc\n\n// Parse parses a record.\nfunc Parse(b []byte) int {\n\treturn decode(b)\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestParseEmpty(t *testing.T) {\n\tif got := Parse(nil); got != 0 {\n\t\tt.Errorf(\"Parse(nil) = %d, want 0\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestParseEmpty (0.00s)\n    calc_test.go:7: Parse(nil) = -1, want 0\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	p := build(t, repo, failing, 8192)
	from, to := lineOf(code, "// decode reads"), strings.Count(code, "\n")
	if f := fileOf(p, "calc/decode.go"); f == nil || !covers(f, from, to) {
		t.Fatalf("decode (calc/decode.go:%d-%d, its bug at line %d) is not shown whole; files %v, calc/decode.go %+v", from, to, lineOf(code, "n = -1"), paths(p), fileOf(p, "calc/decode.go"))
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

// TestBuildFocusesTheHelperTheNamedFunctionsShare: a report names two
// functions that fail alike (`conv.ToIntE`, `conv.ToBoolE`). ToIntE calls
// twenty helpers that share the report's words, and deref, which ToBoolE
// calls too. deref is packed because what several named functions reach
// is a focus, as a failing test's callee is; the callees of one named
// function are not, and the helpers' words would take its room.
func TestBuildFocusesTheHelperTheNamedFunctionsShare(t *testing.T) {
	big := lookAlikes("conv", "addValue", "// deref returns v.\nfunc deref(v any) any {\n\treturn v\n}\n")
	var toInt strings.Builder
	toInt.WriteString("package conv\n\n// ToIntE converts v to an int.\nfunc ToIntE(v any) (int, error) {\n\tv = deref(v)\n\tn, _ := v.(int)\n")
	for k := range 20 {
		fmt.Fprintf(&toInt, "\tn = addValue%d(n, %d)\n", k, k)
	}
	toInt.WriteString("\treturn n, nil\n}\n\n// ToBoolE converts v to a bool.\nfunc ToBoolE(v any) (bool, error) {\n\tv = deref(v)\n\tb, _ := v.(bool)\n\treturn b, nil\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":   "module example.com/conv\n",
		"deref.go": big,
		"conv.go":  toInt.String(),
	})
	issue := "Pointers: wrong value in ToIntE and ToBoolE\n\n```go\nn := 3\nconv.ToIntE(&n)   // 0, expected the value 3\nb := true\nconv.ToBoolE(&b)  // false, expected the value true\n```\n\nA pointer to a value should add the value to the total, as a value adds a value to the total; every total of a value is wrong.\n"
	mustPackFunc(t, build(t, repo, issue, 900), "deref.go", big, "deref")
}

// TestBuildSpendsLeftoverRoomOnCalleesPastTheEdges: the fix is four calls
// below the failing test, one past edgeDepth, in a big file of look-alike
// functions; with room left once everything else is packed, the callees
// of the shown functions are followed further, and it is shown.
func TestBuildSpendsLeftoverRoomOnCalleesPastTheEdges(t *testing.T) {
	repo, big, failing := fourCallsDown(t, nil)
	mustPackFunc(t, build(t, repo, failing, 4096), "calc/big.go", big, "deepest")
}

// TestBuildSpendsLeftoverRoomOnCalleesOfAPartlyShownFunction: the
// failing test reaches decode, too big to show whole, at the edges' last
// level; the fix is in fixup, which decode calls halfway down its body,
// in a big file of look-alike functions. Only decode's head is shown, but
// with room left its callees are followed as a shown function's are, and
// fixup is shown.
func TestBuildSpendsLeftoverRoomOnCalleesOfAPartlyShownFunction(t *testing.T) {
	decode := "package calc\n\n" + bigDecode(120, "n = fixup(n)")
	big := lookAlikes("calc", "step", "// fixup corrects a short record.\nfunc fixup(n int) int {\n\treturn n - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/decode.go":    decode,
		"calc/calc.go":      "package calc\n\n// Parse parses a record.\nfunc Parse(b []byte) int {\n\treturn middle(b)\n}\n\nfunc middle(b []byte) int {\n\treturn decode(b)\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestParseEmpty(t *testing.T) {\n\tif got := Parse(nil); got != 0 {\n\t\tt.Errorf(\"Parse(nil) = %d, want 0\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestParseEmpty (0.00s)\n    calc_test.go:7: Parse(nil) = -1, want 0\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	p := build(t, repo, failing, 4096)
	if f := fileOf(p, "calc/decode.go"); f == nil || covers(f, 4, strings.Count(decode, "\n")) {
		t.Fatalf("decode should be shown in part (its head), not whole nor left out: calc/decode.go %+v", f)
	}
	mustPackFunc(t, p, "calc/big.go", big, "fixup")
}

// TestBuildPacksDocumentationLast: a README shares every word of the
// failure, or of the issue, and outranks the code; the code comes first
// (for the failing test, the fix four calls down, in a big file), and the
// README only gets what is left, last.
func TestBuildPacksDocumentationLast(t *testing.T) {
	var readme strings.Builder
	readme.WriteString("# calc\n\n")
	for k := range 120 {
		fmt.Fprintf(&readme, "Total sums values: TestTotal checks that Total of %d values is the total, want the total %d.\n\n", k, k)
	}
	repo, big, failing := fourCallsDown(t, map[string]string{"README.md": readme.String()})
	issue := "Total sums values wrong\n\nThe total of the values 1 and 2 is 2; I want the total 3. What checks that?\n"
	for _, query := range []string{failing, issue} {
		p := build(t, repo, query, 8192)
		if query == failing {
			mustPackFunc(t, p, "calc/big.go", big, "deepest")
		}
		if ps := paths(p); len(ps) == 0 || ps[len(ps)-1] != "README.md" {
			t.Errorf("the README is not packed last for %q: %v", query[:20], ps)
		}
	}
}

// TestEdgesResolveGoCallsToGoDefinitions: a README beside the code shows
// a Go snippet defining middle and deeper, as the code does; the failing
// test's calls reach the code's definitions, never the README's.
func TestEdgesResolveGoCallsToGoDefinitions(t *testing.T) {
	readme := "# calc\n\n```go\nfunc middle(values []int, total int) int {\n\treturn deeper(total)\n}\n\nfunc deeper(total int) int {\n\treturn total\n}\n```\n"
	repo, _, failing := fourCallsDown(t, map[string]string{"calc/README.md": readme})
	r := rank(t, repo, failing)
	reached := map[string]int{}
	for i, m := range r.reached {
		reached[r.ix.paths[i]] = len(m)
	}
	if reached["calc/README.md"] > 0 || reached["calc/calc.go"] == 0 {
		t.Errorf("definitions reached per file = %v, want calc/calc.go's and none of calc/README.md", reached)
	}
}

// TestEdgesFollowTheDefinitionBuiltHere: the failing test reaches Glob,
// which calls hidden; hidden is defined three times, as a package is for
// several platforms (doublestar's isHiddenPath in utils_unix.go and
// utils_windows.go): in a file built here, in a file for another GOOS, and
// in a generator's file (//go:build ignore). The tests ran here, so the
// call meant the definition built here: only it is reached. A name only
// a file not built here defines keeps its file.
func TestEdgesFollowTheDefinitionBuiltHere(t *testing.T) {
	other := "plan9"
	if runtime.GOOS == other {
		other = "windows"
	}
	hidden := func(constraint string) string {
		return constraint + "package glob\n\n// hidden reports whether name is a hidden file.\nfunc hidden(name string) bool {\n\treturn len(name) > 0 && name[0] == '.'\n}\n"
	}
	repo := newRepo(t, map[string]string{
		"go.mod":                       "module example.com/glob\n",
		"glob/glob.go":                 "package glob\n\n// Glob lists the names that are not hidden.\nfunc Glob(names []string) []string {\n\tvar out []string\n\tfor _, n := range names {\n\t\tif !hidden(n) {\n\t\t\tout = append(out, n)\n\t\t}\n\t}\n\treturn out\n}\n",
		"glob/hidden.go":               hidden("//go:build !" + other + "\n\n"),
		"glob/hidden_" + other + ".go": hidden(""),
		"glob/gen.go":                  hidden("//go:build ignore\n\n"),
		"glob/glob_test.go":            "package glob\n\nimport \"testing\"\n\nfunc TestGlob(t *testing.T) {\n\tif got := Glob([]string{\".git\", \"a\"}); len(got) != 2 {\n\t\tt.Errorf(\"Glob = %v, want 2 names\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestGlob (0.00s)\n    glob_test.go:7: Glob = [a], want 2 names\nFAIL\nFAIL\texample.com/glob\t0.002s\n"
	r := rank(t, repo, failing)
	reached := map[string]int{}
	for i, m := range r.reached {
		reached[r.ix.paths[i]] = len(m)
	}
	if reached["glob/hidden.go"] == 0 || reached["glob/hidden_"+other+".go"] > 0 || reached["glob/gen.go"] > 0 {
		t.Errorf("definitions reached per file = %v, want glob/hidden.go's and none of glob/hidden_%s.go's or glob/gen.go's", reached, other)
	}
	defs := dirDefs([]dirFile{
		{0, "glob/hidden.go", []byte(hidden("//go:build !" + other + "\n\n"))},
		{1, "glob/hidden_" + other + ".go", []byte(hidden("") + "\nfunc console() int { return 1 }\n")},
	})
	if got := defs["hidden"]; !slices.Equal(got, []int{0}) {
		t.Errorf("hidden is defined for this build in files %v, want [0]", got)
	}
	if got := defs["console"]; !slices.Equal(got, []int{1}) {
		t.Errorf("console, defined only for another GOOS, is in files %v, want [1]", got)
	}
}

// TestBuildFollowsTheTestsStringsThroughARegistry: the failing test
// calls Var(s, "url"), and Var finds the check in a map from tag to
// function, so no call names isURL; the map's entry `"url": isURL,` is the
// edge, and isURL (the fix, among look-alike checks) is packed.
//
// The same when the registry is filled by calls, Add("url", isURL): the
// call's string and the name it registers are the edge.
func TestBuildFollowsTheTestsStringsThroughARegistry(t *testing.T) {
	for _, key := range []string{"url", "add:url"} {
		repo, checks := tagRegistry(t, key, "", "func isURL(s string) bool {\n\treturn len(s) > 100 // the bug\n}\n", map[string]string{
			"check/check_test.go": "package check\n\nimport \"testing\"\n\nfunc TestLinks(t *testing.T) {\n\tfor i, s := range []string{\"https://a.example\"} {\n\t\tif !Var(s, \"url\") {\n\t\t\tt.Fatalf(\"Index: %d failed\", i)\n\t\t}\n\t}\n}\n",
		})
		failing := "--- FAIL: TestLinks (0.00s)\n    check_test.go:8: Index: 0 failed\nFAIL\nFAIL\texample.com/check\t0.002s\n"
		mustPackFunc(t, build(t, repo, failing, 1500), "check/checks.go", checks, "isURL")
	}
}

// TestBuildFollowsAReportsWordsThroughARegistry: a report names a check
// by its tag (url_tag), which only a map literal ties to the function
// that checks it (isURL), and the fault is in what that calls. A tag that
// is a plain word (weblink) counts where the report quotes it as code.
func TestBuildFollowsAReportsWordsThroughARegistry(t *testing.T) {
	for _, tag := range []string{"url_tag", "weblink"} {
		repo, checks := tagRegistry(t, tag, "func isURL(s string) bool {\n\treturn hostPart(s) != \"\"\n}\n\n",
			"func hostPart(s string) string {\n\treturn s[:0] // the bug\n}\n", nil)
		issue := "The " + tag + " tag rejects every valid value\n\n`check.Var(\"https://a.example\", \"" + tag + "\")` returns false for a valid value.\n"
		mustPackFunc(t, build(t, repo, issue, 1200), "check/checks.go", checks, "hostPart")
	}
}

// TestBuildFollowsAReportsWordsThroughTheModulesRootRegistry: a report
// names no function, only a tag (`validate:"url_tag"`) that the module's
// root package maps to its check; the fault is in what the check calls.
// The root package is the module's, wherever its go.mod is: at the
// repository's root, or in a directory of it.
func TestBuildFollowsAReportsWordsThroughTheModulesRootRegistry(t *testing.T) {
	module := tagRegistryFiles("url_tag", "func isURL(s string) bool {\n\treturn hostPart(s) != \"\"\n}\n\n",
		"func hostPart(s string) string {\n\treturn s[:0] // the bug\n}\n")
	issue := "The url_tag tag rejects every valid value\n\nA field tagged `validate:\"url_tag\"` fails for https://a.example, a valid value.\n"
	for _, dir := range []string{"", "lib/"} {
		t.Run("module in "+strings.TrimSuffix("./"+dir, "/"), func(t *testing.T) {
			files := map[string]string{}
			for name, src := range module { // package check is the module's root package
				files[dir+strings.TrimPrefix(name, "check/")] = src
			}
			mustPackFunc(t, build(t, newRepo(t, files), issue, 1200), dir+"checks.go", module["check/checks.go"], "hostPart")
		})
	}
}

// TestBuildFollowsATestsServerToItsHandler: a test that serves a router
// with httptest.NewServer reaches the router's ServeHTTP through the
// standard library, and the fault is two calls below it.
func TestBuildFollowsATestsServerToItsHandler(t *testing.T) {
	big := lookAlikes("web", "step", "// match finds the route of p.\nfunc match(routes map[string]string, p string) string {\n\treturn routes[p] // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":     "module example.com/web\n",
		"web/big.go": big,
		"web/router.go": "package web\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\n// Router routes requests.\ntype Router struct{ routes map[string]string }\n\n" +
			"// New is a router.\nfunc New() *Router { return &Router{routes: map[string]string{\"a\": \"home\"}} }\n\n" +
			"func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {\n\tfmt.Fprint(w, r.lookup(req.URL.Path))\n}\n\n" +
			"func (r *Router) lookup(p string) string {\n\treturn match(r.routes, p)\n}\n",
		"web/router_test.go": "package web\n\nimport (\n\t\"io\"\n\t\"net/http\"\n\t\"net/http/httptest\"\n\t\"testing\"\n)\n\n" +
			"func TestServe(t *testing.T) {\n\tts := httptest.NewServer(New())\n\tdefer ts.Close()\n\tresp, err := http.Get(ts.URL + \"/a\")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tb, _ := io.ReadAll(resp.Body)\n" +
			"\tif string(b) != \"home\" {\n\t\tt.Errorf(\"body = %q, want %q\", b, \"home\")\n\t}\n}\n",
	})
	failing := "--- FAIL: TestServe (0.00s)\n    router_test.go:19: body = \"\", want \"home\"\nFAIL\nFAIL\texample.com/web\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 1500), "web/big.go", big, "match")
}

// TestBuildFollowsATestsValuesToTheMethodsCalledOnThem: the test builds a
// CSVFlag and hands it to the app, which calls Apply on every flag
// through an interface three calls down; of the package's 41 Apply
// methods, the one of the type the test built is the place.
func TestBuildFollowsATestsValuesToTheMethodsCalledOnThem(t *testing.T) {
	var flags strings.Builder
	flags.WriteString("package app\n\n")
	for k := range 41 {
		if k == 20 {
			flags.WriteString("// CSVFlag is a flag of comma-separated values.\ntype CSVFlag struct{ Name string }\n\n// Apply sets the flag's default.\nfunc (f *CSVFlag) Apply(set map[string]string) error {\n\tset[f.Name] = \"\" // the bug\n\treturn nil\n}\n\n")
			continue
		}
		fmt.Fprintf(&flags, "// IntFlag%d is a flag of ints.\ntype IntFlag%d struct{ Name string }\n\n// Apply sets the flag's default.\nfunc (f *IntFlag%d) Apply(set map[string]string) error {\n\tset[f.Name] = \"%d\"\n\treturn nil\n}\n\n", k, k, k, k)
	}
	repo := newRepo(t, map[string]string{
		"go.mod":       "module example.com/app\n",
		"app/flags.go": flags.String(),
		"app/app.go": "package app\n\n// Flag is a command-line flag.\ntype Flag interface{ Apply(set map[string]string) error }\n\n// App runs with its flags.\ntype App struct{ Flags []Flag }\n\n" +
			"// Run parses args with the app's flags.\nfunc (a *App) Run(args []string) (map[string]string, error) {\n\tset := map[string]string{}\n\treturn set, a.setup(set)\n}\n\n" +
			"func (a *App) setup(set map[string]string) error {\n\treturn applyFlags(a.Flags, set)\n}\n\n" +
			"func applyFlags(flags []Flag, set map[string]string) error {\n\tfor _, f := range flags {\n\t\tif err := f.Apply(set); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestDefaults(t *testing.T) {\n\ta := &App{Flags: []Flag{&CSVFlag{Name: \"s\"}}}\n\tset, _ := a.Run([]string{\"-s\", \"1,2\"})\n" +
			"\tif set[\"s\"] != \"1,2\" {\n\t\tt.Errorf(\"s = %q, want %q\", set[\"s\"], \"1,2\")\n\t}\n}\n",
	})
	failing := "--- FAIL: TestDefaults (0.00s)\n    app_test.go:9: s = \"\", want \"1,2\"\nFAIL\nFAIL\texample.com/app\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 1500), "app/flags.go", flags.String(), "(f *CSVFlag) Apply")
}

// TestBuildSpendsLeftoverRoomOnTheTablesOfWhatItShows: the failing test
// reaches Width, whose fault is in the table it looks runes up in, a
// package variable far down a file of look-alike tables that no word of
// the output names; the room left over shows it.
func TestBuildSpendsLeftoverRoomOnTheTablesOfWhatItShows(t *testing.T) {
	var b strings.Builder
	b.WriteString("package width\n\ntype table [][2]rune\n\n// Width is the number of cells r takes.\nfunc Width(r rune) int {\n\tif inTable(r, wide) {\n\t\treturn 2\n\t}\n\treturn 1\n}\n\n" +
		"func inTable(r rune, t table) bool {\n\tfor _, p := range t {\n\t\tif p[0] <= r && r <= p[1] {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n\n")
	for k := range 80 {
		if k == 60 {
			b.WriteString("var wide = table{\n\t{0x1100, 0x115F}, // the bug: no Hangul syllables\n}\n\n")
		}
		fmt.Fprintf(&b, "// script%d lists the code points of script %d.\nvar script%d = table{\n\t{%d, %d},\n\t{%d, %d},\n}\n\n", k, k, k, 1000*k, 1000*k+10, 1000*k+20, 1000*k+30)
	}
	code := b.String()
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/width\n",
		"width/width.go":      code,
		"width/width_test.go": "package width\n\nimport \"testing\"\n\nfunc TestWidth(t *testing.T) {\n\tif got := Width('\\uAC00'); got != 2 {\n\t\tt.Errorf(\"Width = %d, want 2\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestWidth (0.00s)\n    width_test.go:7: Width = 1, want 2\nFAIL\nFAIL\texample.com/width\t0.002s\n"
	site := lineOf(code, "var wide")
	p := build(t, repo, failing, 2000)
	if f := fileOf(p, "width/width.go"); f == nil || !covers(f, site, site+2) {
		t.Errorf("the table Width uses (width/width.go:%d) is not shown: %+v", site, f)
	}
}

// tagRegistry is a repository (with extra files) whose package check
// finds a check by its tag in a map literal: 40 look-alike tags, and key
// mapped to isURL. checks.go holds the map, first, the look-alikes' checks
// and last; it is returned with the repository. A key starting with "add:"
// (the rest is the key) makes the map filled by calls instead, in init:
// Add("tag0", isTag0).
func tagRegistry(t *testing.T, key, first, last string, extra map[string]string) (repo, checks string) {
	files := tagRegistryFiles(key, first, last)
	maps.Copy(files, extra)
	return newRepo(t, files), files["check/checks.go"]
}

// tagRegistryFiles are tagRegistry's files: go.mod and package check's.
func tagRegistryFiles(key, first, last string) map[string]string {
	var b strings.Builder
	if k, ok := strings.CutPrefix(key, "add:"); ok {
		b.WriteString("package check\n\nvar registry = map[string]func(string) bool{}\n\n// Add registers the check f of a tag.\nfunc Add(tag string, f func(string) bool) { registry[tag] = f }\n\nfunc init() {\n")
		for k := range 40 {
			fmt.Fprintf(&b, "\tAdd(\"tag%d\", isTag%d)\n", k, k)
		}
		fmt.Fprintf(&b, "\tAdd(%q, isURL)\n}\n\n%s", k, first)
	} else {
		b.WriteString("package check\n\nvar registry = map[string]func(string) bool{\n")
		for k := range 40 {
			fmt.Fprintf(&b, "\t\"tag%d\": isTag%d,\n", k, k)
		}
		fmt.Fprintf(&b, "\t%q: isURL,\n}\n\n%s", key, first)
	}
	for k := range 40 {
		fmt.Fprintf(&b, "// isTag%d reports whether s is a valid tag%d value.\nfunc isTag%d(s string) bool {\n\treturn len(s) > %d\n}\n\n", k, k, k, k)
	}
	b.WriteString(last)
	return map[string]string{
		"go.mod":          "module example.com/check\n",
		"check/checks.go": b.String(),
		"check/check.go":  "package check\n\n// Var checks s against the check tag names.\nfunc Var(s, tag string) bool {\n\treturn registry[tag](s)\n}\n",
	}
}

// TestBuildPacksTextAndBoilerplateLast: an API dump (api.txt, as
// urfave/cli's godoc-current.txt), a licence and a dotfile share the
// words of a failing test's output and of a report, and outrank the code;
// for either query they are packed after the code, with what is left.
func TestBuildPacksTextAndBoilerplateLast(t *testing.T) {
	var dump, licence strings.Builder
	for k := range 120 {
		fmt.Fprintf(&dump, "func Total(values []int) int\n    Total sums values: the total of %d values is the total %d.\n\n", k, k)
	}
	for k := range 12 {
		fmt.Fprintf(&licence, "Clause %d. The total of the values: TestTotal, Total want, calc Total values. FAIL of the total is not ours.\n", k)
	}
	last := map[string]string{
		"api.txt":       dump.String(),
		"LICENSE":       licence.String(),
		".editorconfig": "# Total values, TestTotal, the total calc want FAIL\n[*.go]\nindent_style = tab\n",
	}
	repo, big, failing := fourCallsDown(t, last)
	issue := "Total sums values wrong\n\nThe total of the values 1 and 2 is 2; I want the total 3. `calc.Total` sums values wrong.\n"
	for _, query := range []string{failing, issue} {
		p := build(t, repo, query, 2048)
		if query == failing {
			mustPackFunc(t, p, "calc/big.go", big, "deepest")
		}
		ps := paths(p)
		if !slices.Contains(ps, "calc/big.go") {
			t.Fatalf("for %q, calc/big.go is not packed: %v", query[:20], ps)
		}
		for k, f := range ps {
			if _, ok := last[f]; ok && slices.ContainsFunc(ps[k:], func(g string) bool { return !packedLast(g) }) {
				t.Errorf("for %q, %s is packed before code: %v", query[:20], f, ps)
			}
		}
	}
}

// TestPackedLast names the files that are packed after the code.
func TestPackedLast(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md": true, "docs/guide.rst": true, "godoc-current.txt": true, "testdata/api.TXT": true,
		"LICENSE": true, "LICENSE.txt": true, "sub/COPYING": true, "NOTICE": true, "AUTHORS": true, ".github/CODEOWNERS": true,
		".gitignore": true, ".golangci.yml": true, "pkg/.editorconfig": true,
		"main.go": false, "go.mod": false, "Makefile": false, "config.yaml": false, "licensing/check.go": false, ".github/workflows/ci.yml": false,
	} {
		if got := packedLast(p); got != want {
			t.Errorf("packedLast(%q) = %v, want %v", p, got, want)
		}
	}
}

// fourCallsDown is a repository (with extra files) whose failing test
// reaches the fix in deepest four calls down (TestTotal → Total → middle →
// deeper → deepest), in big, the source of calc/big.go, among look-alike
// functions; and the failing output.
func fourCallsDown(t *testing.T, extra map[string]string) (repo, big, failing string) {
	big = lookAlikes("calc", "step", "// deepest rounds the total.\nfunc deepest(total int) int {\n\treturn total - 1 // the bug\n}\n")
	files := map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/calc.go":      "package calc\n\n// Total sums values.\nfunc Total(values []int) int {\n\treturn middle(values, 0)\n}\n\nfunc middle(values []int, total int) int {\n\tfor _, v := range values {\n\t\ttotal += v\n\t}\n\treturn deeper(total)\n}\n\nfunc deeper(total int) int {\n\treturn deepest(total)\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{1, 2}); got != 3 {\n\t\tt.Errorf(\"Total = %d, want 3\", got)\n\t}\n}\n",
	}
	maps.Copy(files, extra)
	failing = "--- FAIL: TestTotal (0.00s)\n    calc_test.go:7: Total = 2, want 3\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	return newRepo(t, files), big, failing
}

// TestBuildFollowsTheMethodsOfTheValueATestHolds: thirty file systems
// have a MkdirAll and a Mkdir; the failing test holds a MemFs (from
// NewMemFs) and calls fs.MkdirAll, whose Mkdir calls newDir, where the
// fault is. Only MemFs's methods are followed, so the room goes to
// newDir rather than to the other file systems' look-alikes.
func TestBuildFollowsTheMethodsOfTheValueATestHolds(t *testing.T) {
	files := map[string]string{
		"go.mod":    "module example.com/vfs\n",
		"vfs/fs.go": "package vfs\n\n// Fs is a file system.\ntype Fs interface {\n\tMkdir(name string) error\n\tMkdirAll(name string) error\n}\n",
		"vfs/mem.go": "package vfs\n\nimport \"strings\"\n\n// MemFs keeps its files in memory.\ntype MemFs struct{ dirs map[string]*dir }\n\n// NewMemFs is an empty MemFs.\nfunc NewMemFs() Fs {\n\treturn &MemFs{dirs: map[string]*dir{}}\n}\n\n" +
			"// MkdirAll makes name and its parents.\nfunc (m *MemFs) MkdirAll(name string) error {\n\tparts := strings.Split(name, \"/\")\n\tfor k := range parts {\n\t\tif err := m.Mkdir(strings.Join(parts[:k+1], \"/\")); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n\n" +
			"// Mkdir makes name.\nfunc (m *MemFs) Mkdir(name string) error {\n\tm.dirs[name] = newDir(name)\n\treturn nil\n}\n\n" +
			"// Stat describes name.\nfunc (m *MemFs) Stat(name string) (*dir, bool) {\n\td, ok := m.dirs[name]\n\treturn d, ok\n}\n",
		"vfs/dir.go": "package vfs\n\nimport \"time\"\n\ntype dir struct {\n\tname    string\n\tmodTime time.Time\n}\n\nfunc newDir(name string) *dir {\n\treturn &dir{name: name} // the bug: no modTime\n}\n",
		"vfs/mem_test.go": "package vfs\n\nimport \"testing\"\n\nfunc TestMkdirAllModTime(t *testing.T) {\n\tfs := NewMemFs()\n\tif err := fs.MkdirAll(\"a/b\"); err != nil {\n\t\tt.Fatal(err)\n\t}\n" +
			"\td, _ := fs.(*MemFs).Stat(\"a\")\n\tif d.modTime.IsZero() {\n\t\tt.Errorf(\"a: mod time not set\")\n\t}\n}\n",
	}
	for k := range 30 {
		files[fmt.Sprintf("vfs/layer%d.go", k)] = fmt.Sprintf("package vfs\n\n// Layer%d is file system %d over a base.\ntype Layer%d struct{ base Fs }\n\n", k, k, k) +
			fmt.Sprintf("// MkdirAll makes name and its parents in layer %d.\nfunc (l *Layer%d) MkdirAll(name string) error {\n\tif name == \"\" {\n\t\treturn nil\n\t}\n\tfor k := 0; k < %d; k++ {\n\t\tname = \"layer%d/\" + name\n\t}\n\treturn l.base.MkdirAll(name)\n}\n\n", k, k, k, k) +
			fmt.Sprintf("// Mkdir makes name in layer %d.\nfunc (l *Layer%d) Mkdir(name string) error {\n\tif name == \"\" {\n\t\treturn nil\n\t}\n\tfor k := 0; k < %d; k++ {\n\t\tname = \"layer%d/\" + name\n\t}\n\treturn l.base.Mkdir(name)\n}\n", k, k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestMkdirAllModTime (0.00s)\n    mem_test.go:11: a: mod time not set\nFAIL\nFAIL\texample.com/vfs\t0.002s\n"
	for _, budget := range []int{2000, 2500} {
		mustPackFunc(t, build(t, repo, failing, budget), "vfs/dir.go", files["vfs/dir.go"], "newDir")
	}
}

// TestBuildKeepsTheMethodOfTheTypeTheOutputNames: the failing test builds
// a JSONFormatter and gets its other value from a table, and its output
// says TextFormatter.Format: that method is still followed and a focus,
// though the only type the test is seen to hold is another.
func TestBuildKeepsTheMethodOfTheTypeTheOutputNames(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/logx\n",
		"logx/json.go": "package logx\n\n// JSONFormatter writes entries as JSON.\ntype JSONFormatter struct{}\n\n// Format writes e as JSON.\nfunc (f *JSONFormatter) Format(e map[string]string) string {\n\treturn \"{}\"\n}\n",
		"logx/text.go": "package logx\n\n// TextFormatter writes entries as text.\ntype TextFormatter struct{}\n\n// Format writes e as key=value pairs.\nfunc (f *TextFormatter) Format(e map[string]string) string {\n\treturn \"\" // the bug\n}\n",
		"logx/fmt_test.go": "package logx\n\nimport \"testing\"\n\nfunc TestFormatters(t *testing.T) {\n\tj := &JSONFormatter{}\n\tif got := j.Format(nil); got != \"{}\" {\n\t\tt.Errorf(\"JSONFormatter.Format = %q\", got)\n\t}\n" +
			"\tif got := byName(\"text\").Format(map[string]string{\"a\": \"1\"}); got != \"a=1\" {\n\t\tt.Errorf(\"TextFormatter.Format = %q, want a=1\", got)\n\t}\n}\n",
		"logx/logx.go": "package logx\n\n// Formatter formats entries.\ntype Formatter interface{ Format(e map[string]string) string }\n\nvar formatters = map[string]Formatter{\"text\": &TextFormatter{}, \"json\": &JSONFormatter{}}\n\nfunc byName(name string) Formatter {\n\treturn formatters[name]\n}\n",
	}
	for k := range 30 {
		files[fmt.Sprintf("logx/sink%d.go", k)] = fmt.Sprintf("package logx\n\n// Sink%d keeps formatted entries.\ntype Sink%d struct{ lines []string }\n\n// Write keeps the entry as text formatted by the text formatter %d.\nfunc (s *Sink%d) Write(e map[string]string) {\n\tfor k, v := range e {\n\t\ts.lines = append(s.lines, k+\"=\"+v+\"%d\")\n\t}\n}\n", k, k, k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestFormatters (0.00s)\n    fmt_test.go:11: TextFormatter.Format = \"\", want a=1\nFAIL\nFAIL\texample.com/logx\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 600), "logx/text.go", files["logx/text.go"], "(f *TextFormatter) Format")
}

// TestBuildFollowsAMethodsCallsOnItsReceiver: the failing test holds a
// Cache and calls Lookup, which calls c.load; thirty stores have a load
// too. A method's call on its own receiver means its type's method, so
// only Cache.load is followed, and the room goes to decode, which it
// calls and where the fault is, not to the look-alikes.
func TestBuildFollowsAMethodsCallsOnItsReceiver(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/kv\n",
		"kv/cache.go": "package kv\n\n// Cache keeps decoded values.\ntype Cache struct{ raw map[string]string }\n\n// NewCache is an empty Cache.\nfunc NewCache() *Cache {\n\treturn &Cache{raw: map[string]string{\"a\": \"1\"}}\n}\n\n" +
			"// Lookup is the value of key.\nfunc (c *Cache) Lookup(key string) int {\n\treturn c.load(key)\n}\n\n" +
			"func (c *Cache) load(key string) int {\n\treturn decode(c.raw[key])\n}\n",
		"kv/decode.go":     "package kv\n\nimport \"strconv\"\n\nfunc decode(s string) int {\n\tn, _ := strconv.Atoi(s)\n\treturn n - 1 // the bug\n}\n",
		"kv/cache_test.go": "package kv\n\nimport \"testing\"\n\nfunc TestLookup(t *testing.T) {\n\tc := NewCache()\n\tif v := c.Lookup(\"a\"); v != 1 {\n\t\tt.Errorf(\"Lookup(a) = %d, want 1\", v)\n\t}\n}\n",
	}
	for k := range 30 {
		files[fmt.Sprintf("kv/store%d.go", k)] = fmt.Sprintf("package kv\n\n// Store%d reads values from disk %d.\ntype Store%d struct{ path string }\n\n", k, k, k) +
			fmt.Sprintf("func (s *Store%d) load(key string) int {\n\tif key == \"\" {\n\t\treturn 0\n\t}\n\tfor k := 0; k < %d; k++ {\n\t\tkey = \"store%d/\" + key\n\t}\n\treturn len(s.path + key)\n}\n", k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestLookup (0.00s)\n    cache_test.go:8: Lookup(a) = 0, want 1\nFAIL\nFAIL\texample.com/kv\t0.002s\n"
	for _, budget := range []int{1500, 2000, 2500, 3000} {
		mustPackFunc(t, build(t, repo, failing, budget), "kv/decode.go", files["kv/decode.go"], "decode")
	}
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

// TestBuildFollowsWhatTheTestFeedsTheCode: Parse hands the text the
// test gives it to decode only; the set-up functions it calls first get
// none of it. With room for Parse and one of its callees, decode is the
// one shown, though the set-up functions come first in the file. With
// every callee counted alike, the three set-up functions took the room.
func TestBuildFollowsWhatTheTestFeedsTheCode(t *testing.T) {
	var code strings.Builder
	code.WriteString("package calc\n\n")
	for _, name := range []string{"setupA", "setupB", "setupC"} {
		fmt.Fprintf(&code, "func %s() {\n", name)
		for k := range 25 {
			fmt.Fprintf(&code, "\tregister%d(%d)\n", k, k)
		}
		code.WriteString("}\n\n")
	}
	code.WriteString("// Parse reads a total.\nfunc Parse(text string) int {\n\tsetupA()\n\tsetupB()\n\tsetupC()\n\treturn decode(text)\n}\n\nfunc decode(s string) int {\n")
	for k := range 25 {
		fmt.Fprintf(&code, "\tif len(s) == %d {\n\t\treturn %d\n\t}\n", k, k)
	}
	code.WriteString("\treturn -1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/calc.go":      code.String(),
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tif got := Parse(\"12345678901234567890123456789\"); got != 29 {\n\t\tt.Errorf(\"Parse = %d, want 29\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestParse (0.00s)\n    calc_test.go:7: Parse = -1, want 29\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	p := build(t, repo, failing, 1400)
	mustPackFunc(t, p, "calc/calc.go", code.String(), "decode")
}

// TestDryCalls: the calls handed none of the function's inputs, directly
// or through a variable assigned from them.
func TestDryCalls(t *testing.T) {
	src := `package p

func (r *R) F(a string, b []int) {
	setup()
	x := strings.TrimSpace(a)
	use(x)
	for _, v := range b {
		each(v)
	}
	r.own()
	log(42)
	n := count()
	report(n)
	mixed(1)
	mixed(a)
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(dryCalls(f.Decls[0].(*ast.FuncDecl))))
	want := []string{"count", "log", "report", "setup"}
	if !slices.Equal(got, want) {
		t.Errorf("dryCalls = %v, want %v", got, want)
	}
}

// TestBuildFollowsTheFailingSubtest: TestWriter has thirty subtests that
// pass, each calling a helper of its own, and one that fails, whose
// assertion compares the buffer the writer wrote to: its subject names
// no call of the writer. The failing subtest's own calls are followed
// before the test's others use up edgeNodes, and reach escape, two calls
// below Write, where the fault is.
func TestBuildFollowsTheFailingSubtest(t *testing.T) {
	var code, test strings.Builder
	code.WriteString("package wr\n\nimport \"bytes\"\n\n// Writer writes entries to a buffer.\ntype Writer struct{ out *bytes.Buffer }\n\n// NewWriter writes to b.\nfunc NewWriter(b *bytes.Buffer) *Writer { return &Writer{out: b} }\n\n" +
		"// Write writes entry s.\nfunc (w *Writer) Write(s string) {\n\tw.out.WriteString(render(s))\n}\n\nfunc render(s string) string {\n\treturn \"[\" + escape(s) + \"]\"\n}\n\nfunc escape(s string) string {\n\treturn s // the fault: < is not escaped\n}\n")
	test.WriteString("package wr\n\nimport (\n\t\"bytes\"\n\t\"testing\"\n)\n\nfunc TestWriter(t *testing.T) {\n")
	for k := range 30 {
		fmt.Fprintf(&code, "\n// helper%d computes case %d.\nfunc helper%d(n int) int {\n\tif n > %d {\n\t\treturn n - %d\n\t}\n\treturn n + %d\n}\n", k, k, k, k, k, k)
		fmt.Fprintf(&test, "\tt.Run(\"case %d\", func(t *testing.T) {\n\t\tif helper%d(%d) != %d {\n\t\t\tt.Fatal(\"case %d\")\n\t\t}\n\t})\n", k, k, k, 2*k, k)
	}
	test.WriteString("\tt.Run(\"escapes\", func(t *testing.T) {\n\t\tvar buf bytes.Buffer\n\t\tw := NewWriter(&buf)\n\t\tw.Write(\"a<b\")\n\t\tif buf.String() != \"[a&lt;b]\" {\n\t\t\tt.Errorf(\"wrote %q\", buf.String())\n\t\t}\n\t})\n}\n")
	src := test.String()
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/wr\n", "wr/wr.go": code.String(), "wr/wr_test.go": src})
	failing := fmt.Sprintf("--- FAIL: TestWriter (0.00s)\n    --- FAIL: TestWriter/escapes (0.00s)\n        wr_test.go:%d: wrote \"[a<b]\"\nFAIL\nFAIL\texample.com/wr\t0.002s\n", lineOf(src, "\t\t\tt.Errorf(\"wrote"))
	mustPackFunc(t, build(t, repo, failing, 1200), "wr/wr.go", code.String(), "escape")
}

// TestBuildFollowsEachTypesCallOnItsReceiver: the test hands the Logger
// New returns to Emit, which calls its Info; two loggers have an Info that
// calls log on its own receiver. Each type's log is followed, not only
// the one found first (the JSON logger's, whose file sorts first): the
// text logger's, where the fault is, is reached and shown.
func TestBuildFollowsEachTypesCallOnItsReceiver(t *testing.T) {
	jsonLog := "package lg\n\ntype jsonLogger struct{}\n\nfunc (l *jsonLogger) Info(msg string) {\n\tl.log(msg)\n}\n\nfunc (l *jsonLogger) log(msg string) {\n\tout = append(out, \"{\\\"msg\\\": \"+msg+\"}\")\n}\n"
	textLog := "package lg\n\n// Logger logs messages.\ntype Logger interface{ Info(msg string) }\n\n// New is a text logger.\nfunc New() Logger { return &textLogger{} }\n\n// Emit logs msg to l.\nfunc Emit(l Logger, msg string) {\n\tl.Info(msg)\n}\n\nvar out []string\n\ntype textLogger struct{}\n\nfunc (l *textLogger) Info(msg string) {\n\tl.log(msg)\n}\n\nfunc (l *textLogger) log(msg string) {\n\tout = append(out, msg+\": \") // the fault: a separator after an empty message\n}\n"
	files := map[string]string{
		"go.mod":         "module example.com/lg\n",
		"lg/a_json.go":   jsonLog,
		"lg/text.go":     textLog,
		"lg/log_test.go": "package lg\n\nimport \"testing\"\n\nfunc TestInfo(t *testing.T) {\n\tEmit(New(), \"\")\n\tif got := out[0]; got != \"\" {\n\t\tt.Errorf(\"logged %q\", got)\n\t}\n}\n",
	}
	for k := range 12 {
		files[fmt.Sprintf("lg/other%d.go", k)] = fmt.Sprintf("package lg\n\n// Level%d is a logging level.\nfunc Level%d(msg string) string {\n\tif msg == \"\" {\n\t\treturn \"level %d\"\n\t}\n\treturn msg + \" level %d logged\"\n}\n", k, k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestInfo (0.00s)\n    log_test.go:8: logged \": \"\nFAIL\nFAIL\texample.com/lg\t0.002s\n"
	r := rank(t, repo, failing)
	for _, fn := range []struct{ file, decl string }{
		{"lg/a_json.go", "func (l *jsonLogger) log("},
		{"lg/text.go", "func (l *textLogger) log("},
	} {
		i := slices.Index(r.ix.paths, fn.file)
		if i < 0 || r.reached[i][lineOf(files[fn.file], fn.decl)] <= 0 {
			t.Errorf("%s (%s) is not reached", fn.decl, fn.file)
		}
	}
	mustPackFunc(t, build(t, repo, failing, 700), "lg/text.go", textLog, "(l *textLogger) log")
}

// TestDirDefsListsEachFileOnce: a file defining twenty methods of one
// name is one file to read for it, not twenty (follow reads all of a
// file's definitions of the name at once).
func TestDirDefsListsEachFileOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("package ast\n\n")
	for k := range 20 {
		fmt.Fprintf(&b, "func (n *Node%d) format() string { return \"%d\" }\n\n", k, k)
	}
	defs := dirDefs([]dirFile{{0, "ast/nodes.go", []byte(b.String())}, {1, "ast/module.go", []byte("package ast\n\nfunc (m *Module) format() string { return \"\" }\n")}})
	if got := defs["format"]; !slices.Equal(got, []int{0, 1}) {
		t.Errorf("format is defined in files %v, want [0 1]", got)
	}
}

// setUpMuch adds thirty set-up functions to code and a call of each to
// test: more calls than the edges follow from a test (edgeNodes).
func setUpMuch(code, test *strings.Builder) {
	for k := range 30 {
		fmt.Fprintf(code, "\n// setup%d prepares case %d.\nfunc setup%d(n int) int {\n\tif n > %d {\n\t\treturn n - %d\n\t}\n\treturn n + %d\n}\n", k, k, k, k, k, k)
		fmt.Fprintf(test, "\tsetup%d(%d)\n", k, k)
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

// errorfOutput is go test's output for test of package pkg failing at
// the t.Errorf line of src, its test file pkg/pkg_test.go, with msg.
func errorfOutput(pkg, test, src, msg string) string {
	return fmt.Sprintf("--- FAIL: %s (0.00s)\n    %s_test.go:%d: %s\nFAIL\nFAIL\texample.com/%s\t0.002s\n", test, pkg, lineOf(src, "\t\tt.Errorf("), msg, pkg)
}

// setUpMuchRepo is module example.com/pkg: pkg/pkg.go holds code and
// thirty set-up functions, pkg/pkg_test.go head (after the package
// clause: imports and a test's first line), a call of each set-up
// function, then tail; more are other files. It returns the repository
// and the two files' text.
func setUpMuchRepo(t *testing.T, pkg, code, head, tail string, more map[string]string) (repo, codeSrc, testSrc string) {
	var c, tst strings.Builder
	c.WriteString("package " + pkg + "\n\n" + code)
	tst.WriteString("package " + pkg + "\n\n" + head)
	setUpMuch(&c, &tst)
	tst.WriteString(tail)
	files := map[string]string{"go.mod": "module example.com/" + pkg + "\n", pkg + "/" + pkg + ".go": c.String(), pkg + "/" + pkg + "_test.go": tst.String()}
	maps.Copy(files, more)
	return newRepo(t, files), c.String(), tst.String()
}

// TestRegistryLinesMatchTheWholeText: matching the registry regexps only
// from the lines that can start them finds what the regexps (?m)^\s*...
// find across the whole text, in the same order.
func TestRegistryLinesMatchTheWholeText(t *testing.T) {
	entry := regexp.MustCompile(`(?m)^\s*"([A-Za-z_][\w\-.]{0,30})"\s*:\s*([A-Za-z_]\w*)\s*,`)
	call := regexp.MustCompile(`(?m)^\s*[A-Za-z_][\w.]*\(\s*"([A-Za-z_][\w\-.]{0,30})"\s*,[^\n]*?([A-Za-z_]\w*)\s*\)\s*$`)
	srcs := goSources(t,
		"var m = map[string]func(){\n\t\"url\": isURL,\n\n\t\"uri\"  :\n\t\tisURI ,\n\t\"a\": x, \"b\": y,\n}\n",
		"func init() {\n\tDefault.Add(\"uri\", &u, isRequestURI)\n\tAdd(\n\t\t\"x\", f)\n\n\tr.Add(\"y\", g)   \n\n\tAdd(\"z\", 1, h)\r\n}\n",
		"\f\"k\": v,\n \r\"j\": w,\n\"last\": z,",
	)
	pairs := func(ms [][][]byte) []string {
		var out []string
		for _, m := range ms {
			out = append(out, string(m[1])+"="+string(m[2]))
		}
		return out
	}
	matched := 0
	for k, src := range srcs {
		entries, calls := registryLines(src)
		if got, want := pairs(entries), pairs(entry.FindAllSubmatch(src, -1)); !reflect.DeepEqual(got, want) {
			t.Fatalf("text %d: entries %q, the whole text's %q", k, got, want)
		}
		if got, want := pairs(calls), pairs(call.FindAllSubmatch(src, -1)); !reflect.DeepEqual(got, want) {
			t.Fatalf("text %d: calls %q, the whole text's %q", k, got, want)
		}
		matched += len(entries) + len(calls)
	}
	if matched < 10 {
		t.Fatalf("%d matches in all: nothing compared", matched)
	}
}

// TestBuildFollowsWhereTheTestsPathsMeet: the failing test calls Glob and
// GlobWalk; three functions at the edges' last level (two calls below
// them) each call isDir, the fix site, one call further than the edges
// follow, in a big file of look-alikes no word of the failure names.
// Where the paths meet is reached and packed; trim, which only two of
// them call, is not reached.
func TestBuildFollowsWhereTheTestsPathsMeet(t *testing.T) {
	big := lookAlikes("glob", "step", "// isDir reports whether name is a directory.\nfunc isDir(name string) bool {\n\treturn strings.HasSuffix(name, \"/\") // the bug\n}\n\n// trim drops a trailing slash.\nfunc trim(name string) string {\n\treturn strings.TrimSuffix(name, \"/\")\n}\n")
	big = strings.Replace(big, "package glob\n", "package glob\n\nimport \"strings\"\n", 1)
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/glob\n",
		"glob/big.go":       big,
		"glob/glob.go":      "package glob\n\n// Glob returns the names matching pattern.\nfunc Glob(names []string, pattern string) []string {\n\treturn doGlob(names, pattern)\n}\n\nfunc doGlob(names []string, pattern string) []string {\n\tif pattern == \"**\" {\n\t\treturn globStar(names)\n\t}\n\treturn globDir(names, pattern)\n}\n\nfunc globDir(names []string, pattern string) []string {\n\tvar out []string\n\tfor _, n := range names {\n\t\tif isDir(n) && trim(n) == pattern {\n\t\t\tout = append(out, n)\n\t\t}\n\t}\n\treturn out\n}\n\nfunc globStar(names []string) []string {\n\tvar out []string\n\tfor _, n := range names {\n\t\tif isDir(n) {\n\t\t\tout = append(out, n)\n\t\t}\n\t}\n\treturn out\n}\n",
		"glob/walk.go":      "package glob\n\n// GlobWalk calls fn for each name matching pattern.\nfunc GlobWalk(names []string, pattern string, fn func(string)) {\n\tdoWalk(names, pattern, fn)\n}\n\nfunc doWalk(names []string, pattern string, fn func(string)) {\n\tfor _, n := range walkDir(names, pattern) {\n\t\tfn(n)\n\t}\n}\n\nfunc walkDir(names []string, pattern string) []string {\n\tvar out []string\n\tfor _, n := range names {\n\t\tif trim(n) == pattern && isDir(n) {\n\t\t\tout = append(out, n)\n\t\t}\n\t}\n\treturn out\n}\n",
		"glob/glob_test.go": "package glob\n\nimport \"testing\"\n\nfunc TestGlobJunction(t *testing.T) {\n\tnames := []string{\"junction/\"}\n\tgot := Glob(names, \"junction\")\n\tvar walked []string\n\tGlobWalk(names, \"junction\", func(n string) { walked = append(walked, n) })\n\tif len(got) != 1 || len(walked) != 1 {\n\t\tt.Errorf(\"Glob() = %v, GlobWalk() = %v; want [junction/]\", got, walked)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestGlobJunction (0.00s)\n    glob_test.go:10: Glob() = [], GlobWalk() = []; want [junction/]\nFAIL\nFAIL\texample.com/glob\t0.002s\n"
	r := rank(t, repo, failing)
	i := slices.Index(r.ix.paths, "glob/big.go")
	for name, want := range map[string]bool{"isDir": true, "trim": false} {
		if got := r.reached[i][lineOf(big, "func "+name)] > 0; got != want {
			t.Errorf("%s reached: %v, want %v", name, got, want)
		}
	}
	mustPackFunc(t, build(t, repo, failing, 1200), "glob/big.go", big, "isDir")
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

// TestBuildFollowsAFailingExample: go test runs examples too, and one
// that prints the wrong thing names no line, only itself; the package's
// example names no function either. Its calls are followed as a failing
// test's: Total, which it prints, and weigh, below it in a file of
// look-alikes, where the fault is.
func TestBuildFollowsAFailingExample(t *testing.T) {
	code := lookAlikes("calc", "step", "// Total sums the weights of values.\nfunc Total(values []int) int {\n\tn := 0\n\tfor _, v := range values {\n\t\tn += weigh(v)\n\t}\n\treturn n\n}\n\n"+
		"func weigh(v int) int {\n\treturn v * 2 // the fault: weights are the values\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":               "module example.com/calc\n",
		"calc/calc.go":         code,
		"calc/example_test.go": "package calc\n\nimport \"fmt\"\n\nfunc Example() {\n\tfmt.Println(Total([]int{1, 2, 3}))\n\t// Output: 6\n}\n",
	})
	failing := "--- FAIL: Example (0.00s)\ngot:\n12\nwant:\n6\nFAIL\nFAIL\texample.com/calc/calc\t0.002s\n"
	p := build(t, repo, failing, 1000)
	mustPackFunc(t, p, "calc/calc.go", code, "Total")
	mustPackFunc(t, p, "calc/calc.go", code, "weigh")
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

// TestBuildFollowsAMethodOfAnotherPackagesValue: a test in a package of
// its own builds a server with app.New() and calls srv.Handle(req). Its
// package defines no Handle: the method is the imported package's, at
// the other end of a file of look-alikes from New, and it and route,
// below it, where the fault is, are shown: as one of the test's calls,
// and as its assertion's subject when thirty set-up calls before it use
// up the test's edges.
func TestBuildFollowsAMethodOfAnotherPackagesValue(t *testing.T) {
	code := strings.Replace(lookAlikes("app", "Step", "// Handle answers req.\nfunc (s *Server) Handle(req string) string {\n\treturn route(req)\n}\n\n"+
		"func route(req string) string {\n\treturn \"\" // the fault: no route is found\n}\n"),
		"package app\n\n", "package app\n\n// Server answers requests.\ntype Server struct{}\n\n// New is a Server.\nfunc New() *Server { return &Server{} }\n\n", 1)
	for _, setUp := range []bool{false, true} {
		t.Run(fmt.Sprint("set-up ", setUp), func(t *testing.T) {
			var setup, test strings.Builder
			setup.WriteString("package tests\n")
			test.WriteString("package tests\n\nimport (\n\t\"testing\"\n\n\t\"example.com/app/app\"\n)\n\nfunc TestServe(t *testing.T) {\n")
			if setUp {
				setUpMuch(&setup, &test)
			}
			test.WriteString("\tsrv := app.New()\n\tif got := srv.Handle(\"/a\"); got != \"a\" {\n\t\tt.Errorf(\"got %q, want a\", got)\n\t}\n}\n")
			src := test.String()
			repo := newRepo(t, map[string]string{"go.mod": "module example.com/app\n", "app/app.go": code, "tests/setup.go": setup.String(), "tests/serve_test.go": src})
			failing := fmt.Sprintf("--- FAIL: TestServe (0.00s)\n    serve_test.go:%d: got \"\", want a\nFAIL\nFAIL\texample.com/app/tests\t0.002s\n", lineOf(src, "\t\tt.Errorf("))
			p := build(t, repo, failing, 1000)
			mustPackFunc(t, p, "app/app.go", code, "(s *Server) Handle")
			mustPackFunc(t, p, "app/app.go", code, "route")
		})
	}
}

// TestBuildLeavesOutWhatTheTestCallsAfterItsFailure: TestRoundTrip
// asserts on what Marshal wrote, then reads it back with Unmarshal. The
// output names the assertion: Unmarshal ran after the failure was seen,
// and its callee parse is not reached, while Marshal's quote is; the
// same in the innermost of two subtests. Where
// Unmarshal may have run first, it is followed as before: in a loop that
// holds the assertion, before a check the test defined earlier and calls
// later (alone, or with a failing line after it), and when the line is a
// panic's frame, not where the test reported its failure.
func TestBuildLeavesOutWhatTheTestCallsAfterItsFailure(t *testing.T) {
	code := "package rt\n\n// Marshal writes v.\nfunc Marshal(v string) []byte {\n\treturn []byte(quote(v))\n}\n\nfunc quote(v string) string {\n\treturn v // the fault: not quoted\n}\n\n" +
		"// Unmarshal reads b into v.\nfunc Unmarshal(b []byte, v *string) {\n\t*v = parse(b)\n}\n\nfunc parse(b []byte) string {\n\treturn string(b)\n}\n"
	assertion := "\tif got := string(Marshal(\"a\")); got != `\"a\"` {\n\t\tt.Errorf(\"Marshal = %s\", got)\n\t}\n"
	readBack := "\tvar back string\n\tUnmarshal(Marshal(\"a\"), &back)\n"
	for _, tc := range []struct {
		name, body string
		frame      bool // the output names the line as a panic's frame
		parse      bool // whether parse is reached
	}{
		{"after the assertion", assertion + readBack, false, false},
		{"after the assertion, in a subtest's subtest", "\tt.Run(\"a\", func(t *testing.T) {\n\tt.Run(\"b\", func(t *testing.T) {\n" + assertion + readBack + "\t})\n\t})\n", false, false},
		{"in the loop that holds the assertion", "\tfor range 2 {\n" + assertion + readBack + "\t}\n", false, true},
		{"before a check defined earlier", "\tcheck := func() {\n" + assertion + "\t}\n" + readBack + "\tcheck()\n", false, true},
		{"between a failing line and a check", "\tcheck := func() {\n" + assertion + "\t}\n" + assertion + readBack + "\tcheck()\n", false, true},
		{"after a panic's frame", assertion + readBack, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := "package rt\n\nimport \"testing\"\n\nfunc TestRoundTrip(t *testing.T) {\n" + tc.body + "}\n"
			repo := newRepo(t, map[string]string{"go.mod": "module example.com/rt\n", "rt/rt.go": code, "rt/rt_test.go": test})
			// Each t.Errorf line failed, or the first is a frame.
			var out strings.Builder
			out.WriteString("--- FAIL: TestRoundTrip (0.00s)\n")
			n := 0
			for k, line := range strings.Split(test, "\n") {
				if !strings.Contains(line, "t.Errorf(") {
					continue
				}
				switch {
				case tc.frame && n == 0:
					fmt.Fprintf(&out, "panic: boom [recovered]\n\ngoroutine 7 [running]:\nexample.com/rt.TestRoundTrip(0xc000)\n\t/src/rt/rt_test.go:%d +0x2a\n", k+1)
				case !tc.frame:
					fmt.Fprintf(&out, "    rt_test.go:%d: Marshal = a\n", k+1)
				}
				n++
			}
			out.WriteString("FAIL\nFAIL\texample.com/rt\t0.002s\n")
			r := rank(t, repo, out.String())
			i := slices.Index(r.ix.paths, "rt/rt.go")
			if i < 0 || r.reached[i][lineOf(code, "func quote(")] <= 0 {
				t.Errorf("quote, which Marshal calls, is not reached")
			}
			if got := i >= 0 && r.reached[i][lineOf(code, "func parse(")] > 0; got != tc.parse {
				t.Errorf("parse, which Unmarshal calls, reached: %v, want %v", got, tc.parse)
			}
		})
	}
}
