package repoctx

import (
	"fmt"
	"maps"
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

// setUpMuch adds thirty set-up functions to code and a call of each to
// test: more calls than the edges follow from a test (edgeNodes).
func setUpMuch(code, test *strings.Builder) {
	for k := range 30 {
		fmt.Fprintf(code, "\n// setup%d prepares case %d.\nfunc setup%d(n int) int {\n\tif n > %d {\n\t\treturn n - %d\n\t}\n\treturn n + %d\n}\n", k, k, k, k, k, k)
		fmt.Fprintf(test, "\tsetup%d(%d)\n", k, k)
	}
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
