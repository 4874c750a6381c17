package verify

import (
	"regexp"
	"strings"
)

var (
	tapNotOK     = regexp.MustCompile(`^(\s*)not ok \d+ - (.*?)(?: # (?:SKIP|TODO).*)?$`)
	tapSubtest   = regexp.MustCompile(`^(\s*)# Subtest: (.*)$`)
	tapLocation  = regexp.MustCompile(`^\s*location: '(.+):(\d+):\d+'$`)
	jsFrame      = regexp.MustCompile(`\(?((?:/|\./|[\w@.\-]+/)?[\w@./\-]+\.[cm]?[jt]sx?):(\d+):\d+\)?`)
	jestFile     = regexp.MustCompile(`^\s*(FAIL|PASS)\s+(\S+)`)
	jestTitle    = regexp.MustCompile(`^\s{2}● (.+)$`)
	vitestFailed = regexp.MustCompile(`^\s*FAIL\s+(\S+) > (.+)$`)
	vitestLoc    = regexp.MustCompile(`^\s*❯ (\S+):(\d+):\d+`)
)

// tapFailures parses TAP 13 as node --test prints it when not on a
// terminal: every "not ok" that is not only a parent of failed subtests.
func tapFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	lines := strings.Split(out, "\n")
	var names []string // by nesting level (4 spaces per level)
	var fs []Failure
	for i := 0; i < len(lines); i++ {
		if m := tapSubtest.FindStringSubmatch(lines[i]); m != nil {
			lvl := len(m[1]) / 4
			names = append(names[:min(lvl, len(names))], m[2])
			continue
		}
		m := tapNotOK.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		lvl := len(m[1]) / 4
		path := append(append([]string(nil), names[:min(lvl, len(names))]...), m[2])
		var body strings.Builder
		body.WriteString(lines[i] + "\n")
		f := Failure{Test: strings.Join(path, " > ")}
		parentOnly := false
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "---" {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "..."; i++ {
				body.WriteString(lines[i] + "\n")
				if strings.Contains(lines[i], "failureType: 'subtestsFailed'") {
					parentOnly = true
				}
				if lm := tapLocation.FindStringSubmatch(lines[i]); lm != nil && f.File == "" {
					if rel, ok := l.inside(lm[1]); ok {
						f.File, f.Line = rel, atoi(lm[2])
					}
				}
			}
		}
		if parentOnly {
			continue
		}
		f.Output = body.String()
		if file, line := jsLocation(f.Output, l); file != "" {
			f.File, f.Line = file, line
		}
		f.Package = f.File
		fs = append(fs, f)
	}
	return fs
}

// jsLocation is the first stack frame inside root and outside node_modules
// (TAP's location: line is where the test is declared, not where it failed).
func jsLocation(body string, l *goLocator) (string, int) {
	var frames []string
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "location:") {
			frames = append(frames, line)
		}
	}
	for _, m := range jsFrame.FindAllStringSubmatch(strings.Join(frames, "\n"), -1) {
		if strings.Contains(m[1], "node_modules/") || strings.HasPrefix(m[1], "node:") {
			continue
		}
		if rel, ok := l.inside(m[1]); ok && fileExists(l.root, rel) {
			return rel, atoi(m[2])
		}
	}
	return "", 0
}

// jestFailures parses jest's "● Suite › test" blocks under "FAIL file".
func jestFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	var fs []Failure
	seen := map[string]bool{}
	file := ""
	var cur *Failure
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.Output = body.String()
			if f, n := jsLocation(cur.Output, l); f != "" {
				cur.File, cur.Line = f, n
			}
			if key := cur.Package + "\x00" + cur.Test; !seen[key] {
				seen[key] = true
				fs = append(fs, *cur)
			}
		}
		cur, body = nil, strings.Builder{}
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if m := jestFile.FindStringSubmatch(trim); m != nil && !strings.Contains(trim, " > ") {
			flush()
			file = m[2]
			continue
		}
		if strings.HasPrefix(trim, "Test Suites:") || strings.HasPrefix(trim, "Summary of all failing tests") {
			flush()
			continue
		}
		if m := jestTitle.FindStringSubmatch(trim); m != nil {
			flush()
			if strings.HasPrefix(m[1], "Test suite failed to run") {
				cur = &Failure{Package: file, File: file}
			} else {
				cur = &Failure{Test: m[1], Package: file, File: file}
			}
		}
		if cur != nil {
			body.WriteString(line)
		}
	}
	flush()
	return fs
}

// vitestFailures parses vitest's " FAIL  file > suite > test" blocks.
func vitestFailures(out, root string) []Failure {
	l := &goLocator{root: root}
	var fs []Failure
	var cur *Failure
	var body strings.Builder
	flush := func() {
		if cur != nil {
			cur.Output = body.String()
			fs = append(fs, *cur)
		}
		cur, body = nil, strings.Builder{}
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if m := vitestFailed.FindStringSubmatch(trim); m != nil {
			flush()
			cur = &Failure{Test: m[2], Package: m[1], File: m[1]}
		} else if strings.HasPrefix(strings.TrimSpace(trim), "⎯") || strings.HasPrefix(strings.TrimSpace(trim), "Test Files ") {
			flush() // the rule after each failure, or the final summary
			continue
		}
		if cur == nil {
			continue
		}
		body.WriteString(line)
		if m := vitestLoc.FindStringSubmatch(trim); m != nil && cur.Line == 0 {
			if rel, ok := l.inside(m[1]); ok {
				cur.File, cur.Line = rel, atoi(m[2])
			}
		}
	}
	flush()
	return fs
}
