package repoctx

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Signal strengths of symbols named by a query: how sure we are that the
// file defining the symbol is one the fix touches.
const (
	strong = 3.0 // a failing test's subject, a function in a stack frame
	medium = 1.5 // a quoted identifier, pkg.Func, a call Func(...)
	weak   = 0.6 // a code-like word in prose: CamelCase, snake_case
)

// query is what the engine understood of an issue or test output, strongest
// signals first.
type query struct {
	text    string             // as given
	failing bool               // looks like test output
	tests   []string           // failing test names, as written (TestParseDate)
	symbols map[string]float64 // identifiers to find definitions of, with strength
	paths   []pathHint         // files named in the text, in order
	dirs    []string           // package paths named in the text (FAIL lines, frames)
	pkgs    []string           // package names of pkg.Name selectors in the text
	terms   []qterm            // lexical terms, by weight, at most maxTerms
	// quoted are the plain words the text quotes as code (`port`,
	// validate:"port") that are no symbols: a tag, a key or a command a
	// registry may map to a function (see apiEdges).
	quoted []string
}

type pathHint struct {
	path string
	line int
}

// maxMatcherTerms bounds all the terms the matcher looks for, so a term
// index fits a byte.
const maxMatcherTerms = 255

type qterm struct {
	text   string
	full   bool // a whole identifier (parsedate), not a sub-word
	weight float64
}

var (
	// reFailTest is a failing test's line: go test's "--- FAIL: TestX", or
	// the head of its output in gotestsum's summary, "=== FAIL: pkg TestX",
	// with its package.
	reFailTest = regexp.MustCompile(`(?:--- (?:FAIL|PANIC): |=== FAIL: (\S+) )(\S+)`)
	reTestName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z0-9_]\w*`)
	reFileLine = regexp.MustCompile(`((?:[\w.\-]+/)*[\w.\-]+\.[A-Za-z][A-Za-z0-9]{0,4}):(\d+)`)
	// reConveyLine is where GoConvey says an assertion failed: the file
	// on one line, "* /src/kv/kv_test.go", and "Line 15:" on the next.
	reConveyLine = regexp.MustCompile(`(?m)^[ \t]*\* /?((?:[\w.\-]+/)*[\w.\-]+\.go)[ \t]*\n[ \t]*Line (\d+):`)
	reFileName   = regexp.MustCompile(`(?:[\w.\-]+/)*[\w\-]+\.(?:go|py|js|jsx|ts|tsx|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|scala|sh|proto|ya?ml|toml|json|md)\b`)
	reFrame      = regexp.MustCompile(`(?m)^\s*((?:[\w.\-]+/)*[\w\-]+)\.(?:\(\*?(\w+)(?:\[[^\]]*\])?\)\.)?(\w+)(?:\.func\d+)*(?:\[[^\]]*\])?\(`)
	rePkgLine    = regexp.MustCompile(`(?m)^(?:FAIL|ok|---)\s+((?:[\w.\-]+/)*[\w.\-]+)\s+(?:[\d.]+s|\[|\(cached\))`)
	// reSumFailPkg is gotestsum's line for a package that failed: "✖  pkg
	// (1.2s)" (--format pkgname), "FAIL pkg" (testname), "FAIL Package pkg
	// (5ms)" (github-actions); its "FAIL pkg.TestX (0.00s)" is a test's.
	reSumFailPkg = regexp.MustCompile(`(?m)^[ \t]*(?:✖|❌|FAIL(?:[ \t]+Package)?)[ \t]+([\w.\-/]+)(?:[ \t]+\([^)\n]*\))?[ \t]*$`)
	rePyFrame    = regexp.MustCompile(`File "([^"\n]+)", line (\d+)(?:, in (\w+))?`)
	reSelector   = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z]\w*)`)
	reCall       = regexp.MustCompile(`\b([A-Za-z_]\w*)\(`)
	reQuoted     = regexp.MustCompile("`([^`\\n]{1,200})`|\"([^\"\\n]{1,200})\"|'([^'\\n]{1,100})'")
	reIdent      = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	reFailBlock  = regexp.MustCompile(`(?m)^(?:--- FAIL|=== FAIL: |FAIL\s|panic: |goroutine \d+ \[|Traceback \(most recent call last\)|[ \t]*❌ (?:Test|Benchmark|Fuzz|Example)\S* \()`)
)

// parseQuery extracts the signals of text.
func parseQuery(text string) *query {
	text, linked := readLinks(withoutHTMLTags(withoutHTMLComments(plainLog(text))))
	text = capQuery(failedOutput(withoutGoEnv(text)))
	q := &query{text: text, symbols: map[string]float64{}, failing: reFailBlock.MatchString(text)}
	addSym := func(name string, s float64) {
		// New, Close, String: as written, a name is a symbol even if the
		// lower-case word is a stop word.
		if len(name) < 2 || stopword(name) {
			return
		}
		if s > q.symbols[name] {
			q.symbols[name] = s
		}
	}
	seenTest := map[string]bool{}
	addTest := func(t string) {
		if i := strings.IndexByte(t, '/'); i >= 0 {
			t = t[:i] // subtest
		}
		if seenTest[t] {
			return
		}
		seenTest[t] = true
		q.tests = append(q.tests, t)
		addSym(t, strong) // the test itself: finds its file and package
		for _, s := range testSubjects(t) {
			addSym(s.name, s.strength)
		}
	}
	for _, m := range reFailTest.FindAllStringSubmatch(text, -1) {
		addTest(m[2])
		if m[1] != "" && m[1] != "." {
			q.dirs = append(q.dirs, m[1])
		}
	}
	for _, t := range reTestName.FindAllString(text, -1) {
		addTest(t)
	}
	for _, m := range reFrame.FindAllStringSubmatch(text, -1) {
		pkg := m[1]
		if pkg == "runtime" || pkg == "testing" || strings.HasPrefix(pkg, "runtime/") || strings.HasPrefix(pkg, "internal/") {
			continue
		}
		if strings.Contains(pkg, "/") {
			q.dirs = append(q.dirs, pkg)
		}
		if m[2] != "" {
			addSym(m[2], medium)
		}
		if !strings.HasPrefix(m[3], "Test") {
			addSym(m[3], strong)
		}
	}
	for _, m := range rePkgLine.FindAllStringSubmatch(text, -1) {
		q.dirs = append(q.dirs, m[1])
	}
	for _, m := range reSumFailPkg.FindAllStringSubmatch(text, -1) {
		if test, _ := testResult(m[0]); m[1] != "." && test == "" { // not FAIL pkg.TestX (0.00s)
			q.dirs = append(q.dirs, m[1])
		}
	}
	for _, m := range reFmtPkg.FindAllStringSubmatch(text, -1) { // gotestfmt's 📦 pkg
		q.dirs = append(q.dirs, m[1])
	}
	seenPath := map[string]bool{}
	seenLine := map[pathHint]bool{}
	for _, m := range rePyFrame.FindAllStringSubmatch(text, -1) { // Python tracebacks
		line, _ := strconv.Atoi(m[2])
		h := pathHint{path: strings.TrimPrefix(m[1], "/"), line: line}
		if !seenLine[h] && !strings.Contains(h.path, "site-packages/") && !strings.HasPrefix(h.path, "<") {
			seenLine[h], seenPath[h.path] = true, true
			q.paths = append(q.paths, h)
			if m[3] != "" && m[3] != "<module>" {
				addSym(m[3], strong)
			}
		}
	}
	for _, m := range append(reFileLine.FindAllStringSubmatch(text, -1), reConveyLine.FindAllStringSubmatch(text, -1)...) {
		line, _ := strconv.Atoi(m[2])
		h := pathHint{path: m[1], line: line}
		if !goRuntimePath(h.path) && !seenLine[h] {
			seenLine[h], seenPath[h.path] = true, true
			q.paths = append(q.paths, h)
		}
	}
	for _, p := range reFileName.FindAllString(text, -1) {
		if !goRuntimePath(p) && !seenPath[p] {
			seenPath[p] = true
			q.paths = append(q.paths, pathHint{path: p})
		}
	}
	for _, m := range reSelector.FindAllStringSubmatch(text, -1) {
		if !stopword(m[1]) {
			q.pkgs = append(q.pkgs, m[1])
		}
		addSym(m[2], medium)
	}
	for _, m := range reCall.FindAllStringSubmatch(text, -1) {
		addSym(m[1], medium)
	}
	for _, name := range linked { // a pkg.go.dev link's symbol
		addSym(name, medium)
	}
	for _, m := range reQuoted.FindAllStringSubmatch(text, -1) {
		inner := m[1] + m[2] + m[3]
		for _, id := range reIdent.FindAllString(inner, -1) {
			if codeLike(id) {
				addSym(id, medium)
			} else if len(id) >= 2 && !stopword(strings.ToLower(id)) && !slices.Contains(q.quoted, id) {
				q.quoted = append(q.quoted, id)
			}
		}
	}
	for _, id := range reIdent.FindAllString(text, -1) {
		if codeLike(id) {
			addSym(id, weak)
		}
	}
	q.terms = queryTerms(text, q.symbols)
	q.addSymbolTerms()
	return q
}

// addSymbolTerms makes sure every symbol's term is matched, so that its
// definitions are found, even when it is a stop word (new) or fell off the
// list: such terms get weight 0 and change no score.
func (q *query) addSymbolTerms() {
	have := map[string]bool{}
	for _, t := range q.terms {
		have[t.text] = true
	}
	names := make([]string, 0, len(q.symbols))
	for name := range q.symbols {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		subs, full := identTerms(name)
		t := symbolTerm(name)
		if t == "" || have[t] || len(q.terms) == maxMatcherTerms {
			continue
		}
		have[t] = true
		q.terms = append(q.terms, qterm{text: t, full: full != "" && len(subs) > 1})
	}
}

// goRuntimePath reports whether p is a file of Go's runtime or testing
// package, which every stack trace shows and no fix changes.
func goRuntimePath(p string) bool {
	return strings.Contains(p, "/runtime/") || strings.HasPrefix(p, "runtime/") ||
		strings.Contains(p, "/testing/") || strings.HasPrefix(p, "testing/")
}

type subject struct {
	name     string
	strength float64
}

// testPrefixes begin the names of the functions go test runs: tests,
// benchmarks, fuzz targets and examples.
var testPrefixes = []string{"Test", "Benchmark", "Fuzz", "Example"}

// isTestFunc reports whether name is one go test runs (by its prefix): a
// failing example's or fuzz target's calls are followed as a test's.
func isTestFunc(name string) bool {
	return slices.ContainsFunc(testPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// testSubjects guesses what a test tests from its name: TestParseDate ->
// ParseDate (strong), and its camel-case prefixes and suffixes (ParseDate
// -> Parse, Date) and underscore parts (TestReader_Read -> Reader, Read),
// weaker the shorter they are.
func testSubjects(test string) []subject {
	name := test
	for _, p := range testPrefixes {
		if strings.HasPrefix(name, p) {
			name = strings.TrimPrefix(name, p)
			break
		}
	}
	name = strings.TrimLeft(name, "_")
	if name == "" {
		return nil
	}
	out := []subject{{name, strong}}
	for _, part := range strings.Split(name, "_") {
		if part != "" && part != name {
			out = append(out, subject{part, medium})
		}
	}
	var cuts []int
	for i := 1; i < len(name); i++ {
		c, p := name[i], name[i-1]
		if isUpper(c) && (isLower(p) || isDigit(p)) {
			cuts = append(cuts, i)
		}
	}
	parts := len(cuts) + 1
	for k, i := range cuts {
		pre, suf := name[:i], name[i:]
		if !strings.Contains(pre, "_") {
			out = append(out, subject{pre, medium * float64(k+1) / float64(parts)})
		}
		if !strings.Contains(suf, "_") {
			out = append(out, subject{suf, medium * float64(parts-k-1) / float64(parts)})
		}
	}
	return out
}

// codeLike reports whether a word looks like an identifier rather than
// prose: an inner capital (parseDate, ParseDate) or an inner underscore.
func codeLike(id string) bool {
	if strings.Contains(strings.Trim(id, "_"), "_") {
		return true
	}
	for i := 1; i < len(id); i++ {
		if isUpper(id[i]) && isLower(id[i-1]) {
			return true
		}
	}
	return false
}

// identTerms returns the lower-cased sub-words of id of at least two bytes
// and, when there are several, the whole identifier lower-cased: the same
// rule the scanner counts by.
func identTerms(id string) (subs []string, full string) {
	splitIdent([]byte(id), func(sub []byte) {
		if len(sub) >= 2 {
			subs = append(subs, lowerASCII(string(sub)))
		}
	})
	if len(subs) > 1 {
		full = lowerASCII(id)
	}
	return subs, full
}

// queryTerms weighs every word of text: once per occurrence (dampened), more
// for words that are parts of named symbols; stop words are dropped.
func queryTerms(text string, symbols map[string]float64) []qterm {
	weight := map[string]float64{}
	count := map[string]int{}
	first := map[string]int{}
	sub := map[string]bool{}
	add := func(t string, w float64) {
		if stopword(t) || len(t) < 2 || isDigit(t[0]) {
			return
		}
		if _, ok := first[t]; !ok {
			first[t] = len(first)
		}
		count[t]++
		if w > weight[t] {
			weight[t] = w
		}
	}
	for _, id := range reIdent.FindAllString(text, -1) {
		subs, full := identTerms(id)
		for _, s := range subs {
			add(s, 1)
			sub[s] = true
		}
		if full != "" {
			add(full, 1.5)
		}
	}
	// In the symbols' sorted order: a term's first appearance breaks ties
	// in weight, and a map's order would make the same query pack
	// differently from run to run (and a replay diverge).
	names := make([]string, 0, len(symbols))
	for sym := range symbols {
		names = append(names, sym)
	}
	sort.Strings(names)
	for _, sym := range names {
		s := symbols[sym]
		subs, full := identTerms(sym)
		for _, t := range subs {
			add(t, 1+s/3)
			sub[t] = true
		}
		if full != "" {
			add(full, 1.5+s/2)
		}
	}
	terms := make([]qterm, 0, len(weight))
	for t, w := range weight {
		terms = append(terms, qterm{text: t, full: !sub[t], weight: w * (1 + math.Log(float64(count[t])))})
	}
	sort.Slice(terms, func(i, j int) bool {
		if terms[i].weight != terms[j].weight {
			return terms[i].weight > terms[j].weight
		}
		return first[terms[i].text] < first[terms[j].text]
	})
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	return terms
}

// symbolTerm is the term a symbol's occurrences match: its whole
// identifier, or its one sub-word.
func symbolTerm(name string) string {
	subs, full := identTerms(name)
	if full != "" {
		return full
	}
	if len(subs) == 1 {
		return subs[0]
	}
	return ""
}

// matcher builds the scanner's matcher for the query's terms; the terms of
// its symbols are marked so that their definitions are recorded.
func (q *query) matcher() *matcher {
	symTerms := map[string]bool{}
	names := make([]string, 0, len(q.symbols))
	for name := range q.symbols {
		names = append(names, name)
		if t := symbolTerm(name); t != "" {
			symTerms[t] = true
		}
	}
	terms := make([]mterm, len(q.terms))
	for i, t := range q.terms {
		terms[i] = mterm{text: []byte(t.text), full: t.full, sym: symTerms[t.text]}
	}
	return newMatcher(terms, names)
}

var (
	// reGoEnvLine is a line of go env's output: one of the toolchain's
	// variables and its value alone ("GOARCH='amd64'", "set GOOS=windows"),
	// not a command run with it ("GOOS=windows go build").
	reGoEnvLine = regexp.MustCompile(`(?m)^[ \t]*(?:set |export )?(?:GO[A-Z0-9_]*|CGO_[A-Z0-9_]+|AR|CC|CXX|FC|PKG_CONFIG|GCCGO)=(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]*)[ \t]*$\n?`)
	// reGoVersionLine is go version's output ("go version go1.22.3
	// linux/amd64"), or the command go version or go env alone on its line.
	reGoVersionLine = regexp.MustCompile(`(?m)^[ \t]*(?:\$[ \t]*)?go (?:version|env)(?:[ \t]+go\S+[ \t]+\S+/\S+)?[ \t]*$\n?`)
)

// withoutGoEnv is text without the output of go env and go version that
// bug report templates ask for (golang/go's, and the many that copy it),
// when it has three or more of go env's lines. They describe the
// reporter's machine, not the bug, and their quoted values ('amd64',
// '-O2 -g', '/home/u/go') would be looked for as messages the code
// prints: on the real-bug benchmark, put before each issue text they cost
// cases.json 5 points of all sites at 8k.
func withoutGoEnv(text string) string {
	if !strings.Contains(text, "GO") || len(reGoEnvLine.FindAllStringIndex(text, 3)) < 3 {
		return text
	}
	return reGoVersionLine.ReplaceAllString(reGoEnvLine.ReplaceAllString(text, ""), "")
}
