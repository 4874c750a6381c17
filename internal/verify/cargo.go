package verify

import (
	"regexp"
	"sort"
	"strings"
)

var (
	cargoBlock     = regexp.MustCompile(`^---- (\S+) stdout ----$`)
	cargoFailedRun = regexp.MustCompile(`^test (\S+) \.\.\. FAILED$`)
	cargoPassedRun = regexp.MustCompile(`^test (\S+) \.\.\. ok$`)
	// cargoPanic matches both "panicked at src/lib.rs:10:9:" (Rust 1.73+)
	// and "panicked at 'msg', src/lib.rs:10:9".
	cargoPanic = regexp.MustCompile(`panicked at (?:'.*', )?([^\s:']+):(\d+):\d+`)
	cargoError = regexp.MustCompile(`^error(?:\[\w+\])?: (.*)$`)
	cargoArrow = regexp.MustCompile(`^\s*--> ([^\s:]+):(\d+):\d+`)
	// cargoRunning: "Running unittests src/lib.rs (target/debug/deps/calc-0123456789abcdef)".
	cargoRunning = regexp.MustCompile(`^\s*Running .*\((?:\S*/)?deps/([\w\-]+?)-[0-9a-f]{16}(?:\.exe)?\)$`)
)

// cargoFailures parses libtest's "---- name stdout ----" blocks, the
// "test name ... FAILED" lines, and rustc's "error: ... --> file:line"
// diagnostics.
func cargoFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	var fs []Failure
	byName := map[string]bool{}
	var cur *Failure
	var body strings.Builder
	crate := ""
	flush := func() {
		if cur != nil {
			cur.Output = body.String()
			fs = append(fs, *cur)
		}
		cur, body = nil, strings.Builder{}
	}
	var failedRuns []Failure
	lines := strings.SplitAfter(out, "\n")
	for i, line := range lines {
		trim := strings.TrimRight(line, "\r\n")
		if m := cargoRunning.FindStringSubmatch(trim); m != nil {
			flush()
			crate = m[1]
			continue
		}
		if m := cargoFailedRun.FindStringSubmatch(trim); m != nil {
			failedRuns = append(failedRuns, Failure{Test: m[1], Package: crate, Output: trim + "\n"})
			continue
		}
		if m := cargoBlock.FindStringSubmatch(trim); m != nil {
			flush()
			cur = &Failure{Test: m[1], Package: crate}
			byName[crate+"\x00"+m[1]] = true
			continue
		}
		if trim == "failures:" || strings.HasPrefix(trim, "test result:") {
			flush()
			continue
		}
		if m := cargoError.FindStringSubmatch(trim); m != nil && cur == nil && !strings.HasPrefix(m[1], "test failed") && !strings.HasPrefix(m[1], "could not compile") && !strings.Contains(m[1], "previous error") {
			f := Failure{Package: crate}
			var b strings.Builder
			b.WriteString(line)
			for j := i + 1; j < len(lines) && j < i+40; j++ {
				t := strings.TrimRight(lines[j], "\r\n")
				if t == "" || cargoError.MatchString(t) || strings.HasPrefix(t, "warning") {
					break
				}
				b.WriteString(lines[j])
				if am := cargoArrow.FindStringSubmatch(t); am != nil && f.File == "" {
					if rel, ok := l.inside(am[1]); ok {
						f.File, f.Line = rel, atoi(am[2])
					}
				}
			}
			f.Output = b.String()
			fs = append(fs, f)
			continue
		}
		if cur != nil {
			body.WriteString(line)
			if m := cargoPanic.FindStringSubmatch(trim); m != nil && cur.File == "" {
				if rel, ok := l.inside(m[1]); ok {
					cur.File, cur.Line = rel, atoi(m[2])
				}
			}
		}
	}
	flush()
	for _, f := range failedRuns {
		if !byName[f.Package+"\x00"+f.Test] {
			fs = append(fs, f)
		}
	}
	// libtest prints failures in the order its threads finished: sort the
	// tests, after the compiler errors.
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.Test == "") != (b.Test == "") {
			return a.Test == ""
		}
		return a.Package+"\x00"+a.Test < b.Package+"\x00"+b.Test
	})
	return fs
}

// cargoPassing returns the IDs of the tests libtest reported "ok".
func cargoPassing(out string) map[string]bool {
	ids := map[string]bool{}
	crate := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := cargoRunning.FindStringSubmatch(line); m != nil {
			crate = m[1]
		} else if m := cargoPassedRun.FindStringSubmatch(line); m != nil {
			ids[Failure{Test: m[1], Package: crate}.ID()] = true
		}
	}
	return ids
}
