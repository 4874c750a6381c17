package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// goTextFail is "--- FAIL: TestName (0.00s)" from go test without -json
	// (make test, for instance).
	goTextFail = regexp.MustCompile(`^\s*--- FAIL: (\S+) \(`)
	goTextPkg  = regexp.MustCompile(`^FAIL\s+(\S+)\s`)
	goTextRun  = regexp.MustCompile(`^=== (?:RUN|CONT|NAME)\s+(\S+)`)
	goTextPass = regexp.MustCompile(`^\s*--- (?:PASS|SKIP): `)
	// pathLine is a path with an extension followed by :line.
	pathLine = regexp.MustCompile(`((?:[A-Za-z]:)?[\w@.\-/\\]*[\w\-]\.[A-Za-z0-9]{1,8}):(\d+)`)
)

// genericTail is how much of the output a generic failure keeps.
const genericTail = 4 << 10

// goTextFailures parses plain go test output (make test, for instance):
// "--- FAIL: TestX" with the output its test printed, both before the line
// (-v, after "=== RUN") and indented after it, the panic that ended the
// test binary after it, and the package from the next "FAIL pkg" line.
// Parents of failed subtests are left out.
func goTextFailures(out, root string) []Failure {
	loc := newGoLocator(root)
	var fs []*Failure
	pending := 0                // failures not yet given a package
	bufs := map[string]string{} // -v output per test
	cur := ""                   // the test printing, after "=== RUN"
	var last *Failure           // the failure its indented lines belong to
	panicking := false          // in the panic that ended last's test binary
	for _, line := range strings.SplitAfter(out, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		if last != nil && !panicking && (strings.HasPrefix(trim, "panic: ") || strings.HasPrefix(trim, "fatal error: ")) {
			panicking = true // go test prints the panic after the test's FAIL line
		}
		if panicking && !goTextPkg.MatchString(trim+" ") && trim != "FAIL" {
			last.Output += line
			continue
		}
		panicking = false
		switch m := goTextFail.FindStringSubmatch(trim); {
		case m != nil:
			f := &Failure{Test: m[1], Output: bufs[m[1]] + strings.TrimLeft(line, " ")}
			fs = append(fs, f)
			pending++
			last = f
		case goTextRun.MatchString(trim):
			cur, last = goTextRun.FindStringSubmatch(trim)[1], nil
		case goTextPass.MatchString(trim):
			last = nil
		case goTextPkg.MatchString(trim + " "):
			pkg := goTextPkg.FindStringSubmatch(trim + " ")[1]
			for _, f := range fs[len(fs)-pending:] {
				f.Package = pkg
				f.File, f.Line = loc.testLocation(pkg, f.Output)
				f.Output = loc.trimTrace(f.Output)
			}
			pending, cur, last = 0, "", nil
		case last != nil && indented:
			last.Output += line
		case cur != "" && trim != "" && trim != "FAIL" && trim != "PASS":
			bufs[cur] += line
		}
	}
	all := make([]Failure, len(fs))
	for i, f := range fs {
		all[i] = *f
	}
	var leaves []Failure
	for _, f := range all {
		if !parentOf(f, all) {
			leaves = append(leaves, f)
		}
	}
	return leaves
}

// genericFailures is the fallback when no parser recognised the output:
// the tail of the output, located at the first path:line of a file that
// exists in the repository, with every such location listed.
func genericFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	f := Failure{}
	var locs []string
	seen := map[string]bool{}
	for _, m := range pathLine.FindAllStringSubmatch(out, -1) {
		rel, ok := l.inside(strings.TrimPrefix(m[1], "./"))
		if !ok || strings.Contains(rel, "node_modules/") || !fileExists(root, rel) {
			continue
		}
		loc := rel + ":" + m[2]
		if seen[loc] {
			continue
		}
		seen[loc] = true
		if f.File == "" {
			f.File, f.Line = rel, atoi(m[2])
		}
		if len(locs) < 50 {
			locs = append(locs, loc)
		}
	}
	tail := out
	if len(tail) > genericTail {
		tail = tail[len(tail)-genericTail:]
		if i := strings.IndexByte(tail, '\n'); i >= 0 && i < 256 {
			tail = tail[i+1:]
		}
		tail = "[... earlier output cut ...]\n" + tail
	}
	if len(locs) > 0 {
		tail += "\nlocations in the repository mentioned in the output:\n  " + strings.Join(locs, "\n  ") + "\n"
	}
	f.Output = tail
	return []Failure{f}
}

// fileExists reports whether rel (relative to root) is a regular file.
func fileExists(root, rel string) bool {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular()
}
