package repoctx

import (
	"encoding/json"
	"regexp"
	"strings"
)

var (
	// reTestEvent is a line go test -v prints as a test starts, pauses,
	// resumes or takes over the output: the name of the test whose output
	// follows.
	reTestEvent = regexp.MustCompile(`^=== (?:RUN|PAUSE|CONT|NAME)\s+(\S+)`)
	// reTestResult is a test's result line, indented by a subtest's depth.
	reTestResult = regexp.MustCompile(`^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)
	// rePassedPkg is go test's line for a package whose tests passed, or
	// that has none.
	rePassedPkg = regexp.MustCompile(`(?m)^(?:ok[ \t]+[\w\-]+[./][\w.\-/]*[ \t]+(?:\d+\.\d+s|\(cached\))|\?[ \t]+\S+[ \t]+\[no test files\])[^\n]*\n?`)
	// reSumPassedPkg is gotestsum's line for a package that passed or has
	// no tests: "✓  pkg (1.2s)", "∅  pkg" (--format pkgname, with its
	// default, hivis or text icons), "PASS pkg", "EMPTY pkg" (testname),
	// "PASS Package pkg (5ms)" (github-actions).
	reSumPassedPkg = regexp.MustCompile(`(?m)^[ \t]*(?:✓|∅|✅|➖|PASS|SKIP|EMPTY)(?:[ \t]+Package)?[ \t]+[\w.\-/]+(?:[ \t]+\([^)\n]*\))?[ \t]*(?:\n|$)`)
	// reSumResult is gotestsum's line for a test's result ("PASS
	// pkg.TestX (0.00s)": --format testname and github-actions), or the
	// head of a test's output in its summary ("=== FAIL: pkg TestX
	// (0.00s)", "=== SKIP: ..."): the result, and the test's name without
	// its package.
	reSumResult = regexp.MustCompile(`^[ \t]*(?:(PASS|FAIL|SKIP) (?:\S*?[./])??|=== (FAIL|SKIP): \S+ )((?:Test|Benchmark|Fuzz|Example)\S*) \(`)
	// reFmtResult is gotestfmt's line for a test's result: "❌ TestX
	// (0s)", with -showteststatus "✅ TestX (PASS; 12ms)"; ✅ passed, 🚧
	// was skipped. The test's output follows, indented.
	reFmtResult = regexp.MustCompile(`^[ \t]*(❌|✅|🚧) ((?:Test|Benchmark|Fuzz|Example)\S*) \((?:(?:PASS|FAIL|SKIP); )?[\d.]+[µnm]?s\)`)
	// reFmtPkg is gotestfmt's head of a package's tests.
	reFmtPkg = regexp.MustCompile(`(?m)^[ \t]*📦 (\S+)`)
)

// failedOutput is the part of go test output that says what failed (read
// as plainLog leaves it): of a CI log, without the commands that fold it
// into groups; of go test -json (test2json), the text it
// encodes; without the lines of the packages that passed or have no
// tests ("ok  pkg 0.1s", "?  pkg [no test files]", gotestsum's "✓  pkg");
// of go test -v and gotestsum, without the lines of the tests that passed
// or were skipped (their "=== RUN" and "--- PASS" lines and what they
// logged; gotestsum's "PASS pkg.TestX (0.00s)" and "=== SKIP: pkg
// TestX"). A CI log of go test -v ./... names every test and package
// of a module, and each name would count as a failing test's or package's:
// the edges would follow all of them, and their logs' file:line would
// point at code no failure ran through. Other text (an issue, the output
// of a failing go test without -v, another tool's) is returned as it is.
// A log that shows no failure once they are gone (everything passed) is
// read whole.
func failedOutput(text string) string {
	text = withoutPassedSpecs(testJSONText(text))
	if failed := withoutPassed(text); reFailBlock.MatchString(failed) {
		return failed
	}
	return text
}

var (
	// reSpecRule is the rule Ginkgo prints between the reports of its
	// specs.
	reSpecRule = regexp.MustCompile(`^-{20,}\s*$`)
	// reSpecPassed is the line of a spec's report in Ginkgo's verbose
	// output (-ginkgo.v) that says it passed ("• [0.002 seconds]"; "•"
	// in Ginkgo 1), was skipped or is pending.
	reSpecPassed = regexp.MustCompile(`^\s*(?:•(?:\s*\[[\d.]+ seconds\])?|[SP] \[(?:SKIPPED|SKIPPING|PENDING)\].*)\s*$`)
	// reSpecLocation is the line of a spec's report that says where its
	// It is: "/src/kv/store_test.go:16".
	reSpecLocation = regexp.MustCompile(`^\s*\S+_test\.go:\d+\s*$`)
	// reSpecFailed is a line of a spec's report that says it failed.
	reSpecFailed = regexp.MustCompile(`\[(?:FAILED|PANICKED|TIMEDOUT|INTERRUPTED|ABORTED)\]|^\s*• (?:Failure|Panic|Timeout)`)
)

// withoutPassedSpecs is Ginkgo's output without the reports of the specs
// that passed, were skipped or are pending: its verbose output reports
// every spec, with the line of its It, and each such line would count as
// a failing spec's (see specEdges). Other text is returned as it is.
func withoutPassedSpecs(text string) string {
	if !strings.Contains(text, "Ran ") || !strings.Contains(text, " Specs in ") || !strings.Contains(text, "-----") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	// A spec's report names the line of its It; the bullets of the
	// succinct output, between two failures' reports, name none.
	flush := func(block []string) {
		passed, failed, located := false, false, false
		for _, l := range block {
			passed = passed || reSpecPassed.MatchString(l)
			failed = failed || reSpecFailed.MatchString(l)
			located = located || reSpecLocation.MatchString(l)
		}
		if !passed || failed || !located {
			for _, l := range block {
				b.WriteString(l)
			}
		}
	}
	start := 0
	for i, l := range lines {
		if reSpecRule.MatchString(l) {
			flush(lines[start:i])
			b.WriteString(l)
			start = i + 1
		}
	}
	flush(lines[start:])
	return b.String()
}

// withoutPassed is go test output text without the lines of the packages
// and tests that passed (see failedOutput).
func withoutPassed(text string) string {
	if strings.Contains(text, "ok ") || strings.Contains(text, "[no test files]") {
		text = rePassedPkg.ReplaceAllString(text, "")
	}
	lines := strings.SplitAfter(text, "\n")
	// opens marks the lines that open a GitHub Actions group of a log's
	// lines (gotestsum's github-actions format puts each test's output in
	// one): the command goes, the line it heads stays. A line that closes
	// a group goes, and becomes "", which ends the group's test.
	var opens []bool
	if strings.Contains(text, "group") {
		opens = make([]bool, len(lines))
		for i, l := range lines {
			if rest, ok := strings.CutPrefix(l, "::group::"); ok {
				lines[i], opens[i] = rest, true
			} else if rest, ok := strings.CutPrefix(l, "##[group]"); ok {
				lines[i], opens[i] = rest, true
			} else if strings.HasPrefix(l, "::endgroup::") || strings.HasPrefix(l, "##[endgroup]") {
				lines[i] = ""
			}
		}
	}
	// result is each test's: PASS, FAIL or SKIP. A name that failed
	// anywhere failed: go test -v ./... runs a TestParse in each package.
	result := map[string]string{}
	anyPassed := false
	for _, l := range lines {
		if test, r := testResult(l); test != "" && result[test] != "FAIL" {
			result[test] = r
			anyPassed = anyPassed || r != "FAIL"
		}
	}
	passed := func(test string) bool { r := result[test]; return r == "PASS" || r == "SKIP" }
	if !anyPassed {
		if opens != nil {
			text = strings.Join(lines, "")
		}
		return withoutPassedPkgs(text) // no test passed
	}
	var b strings.Builder
	// cur is the test whose output a line is: after "=== RUN X", X's
	// (streamed, -v); after "--- FAIL: X", X's indented lines (printed at
	// its end, without -v); in a group that a result opens (gotestsum's
	// github-actions format), the group's lines. A line not indented after
	// a result is the package's: "FAIL pkg", a panic.
	cur, afterResult := "", false
	for i, l := range lines {
		if l == "" { // a group's end
			cur, afterResult = "", false
			continue
		}
		if m := reTestEvent.FindStringSubmatch(l); m != nil {
			cur, afterResult = m[1], false
		} else if test, _ := testResult(l); test != "" {
			cur, afterResult = test, opens == nil || !opens[i]
		} else if afterResult && strings.TrimSpace(l) != "" && l[0] != ' ' && l[0] != '\t' {
			cur, afterResult = "", false
		}
		if !passed(cur) {
			b.WriteString(l)
		}
	}
	return withoutPassedPkgs(b.String())
}

// withoutPassedPkgs is text without gotestsum's and gotestfmt's lines for
// the packages that passed or have no tests. It runs after the tests that
// passed are dropped: "PASS pkg.TestX (0.00s)" has a package line's
// shape, and its test's output follows it; a gotestfmt package's head
// stays when a failed test's line follows it.
func withoutPassedPkgs(text string) string {
	return withoutFmtPassedPkgs(withoutSumPassedPkgs(text))
}

// withoutSumPassedPkgs is text without gotestsum's lines for the packages
// that passed or have no tests (see withoutPassedPkgs).
func withoutSumPassedPkgs(text string) string {
	for _, mark := range []string{"PASS ", "SKIP ", "EMPTY ", "✓", "∅", "✅", "➖"} {
		if strings.Contains(text, mark) {
			return reSumPassedPkg.ReplaceAllString(text, "")
		}
	}
	return text
}

// fmtResults are the results gotestfmt's icons stand for.
var fmtResults = map[string]string{"❌": "FAIL", "✅": "PASS", "🚧": "SKIP"}

// withoutFmtPassedPkgs is text without gotestfmt's heads of the packages
// none of whose tests failed ("📦 example.com/kv"): a head that stays
// names the package to look in.
func withoutFmtPassedPkgs(text string) string {
	if !strings.Contains(text, "📦") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	head := -1 // the line of the package whose lines these are
	keep := make([]bool, len(lines))
	for i, l := range lines {
		keep[i] = true
		if reFmtPkg.MatchString(l) {
			head, keep[i] = i, false
		} else if test, r := testResult(l); test != "" && r == "FAIL" && head >= 0 {
			keep[head] = true
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if keep[i] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// testResult is the test whose result line l is, and its result (PASS,
// FAIL or SKIP): go test's "--- PASS: TestX (0.00s)", or gotestsum's (see
// reSumResult).
func testResult(l string) (test, result string) {
	t := strings.TrimLeft(l, " \t")
	switch {
	case strings.HasPrefix(t, "--- "):
		if m := reTestResult.FindStringSubmatch(l); m != nil {
			return m[2], m[1]
		}
	case strings.HasPrefix(t, "PASS "), strings.HasPrefix(t, "FAIL "), strings.HasPrefix(t, "SKIP "), strings.HasPrefix(t, "=== "):
		if m := reSumResult.FindStringSubmatch(l); m != nil {
			return m[3], m[1] + m[2]
		}
	case strings.HasPrefix(t, "❌"), strings.HasPrefix(t, "✅"), strings.HasPrefix(t, "🚧"):
		if m := reFmtResult.FindStringSubmatch(l); m != nil {
			return m[2], fmtResults[m[1]]
		}
	}
	return "", ""
}

// maxQueryBytes bounds the query text read: a log of megabytes (a test
// that prints a 6 MB diff) would cost seconds and hundreds of megabytes
// to read, for signals its first failures already give.
const maxQueryBytes = 1 << 20

// capQuery is text within maxQueryBytes: its head, where the first
// failures are, and its tail, where a panic ends and go test names the
// package that failed, cut at lines.
func capQuery(text string) string {
	if len(text) <= maxQueryBytes {
		return text
	}
	head := text[:maxQueryBytes*3/4]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i+1]
	}
	tail := text[len(text)-maxQueryBytes/4:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	return head + "...\n" + tail
}

// testEvent is the part of a go test -json line that the text needs.
type testEvent struct {
	Action string
	Output string
}

// testJSONText is the text a go test -json stream encodes (the output
// events, in order, and the lines between them that are not events: go's
// own messages on stderr), or text itself when most of its lines are not
// test2json events.
func testJSONText(text string) string {
	if !strings.Contains(text, `"Action"`) {
		return text
	}
	var b strings.Builder
	events, other := 0, 0
	for _, l := range strings.Split(text, "\n") {
		var e testEvent
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "{") && json.Unmarshal([]byte(l), &e) == nil && e.Action != "":
			events++
			if e.Action == "output" || e.Action == "build-output" {
				b.WriteString(e.Output)
			}
		default:
			other++
			b.WriteString(l + "\n") // go's own errors, not events
		}
	}
	if events <= other {
		return text
	}
	// The output a test prints is read as a terminal shows it, as a
	// log's is: its colors are in the events' strings ("\u001b[31m").
	return plainText(b.String())
}
