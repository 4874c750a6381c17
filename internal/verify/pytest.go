package verify

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// pytestSection is a "____ test_name ____" header in FAILURES/ERRORS.
	pytestSection = regexp.MustCompile(`^_{3,} (.+?) _{3,}\s*$`)
	// pytestSummary is a line of the short test summary (-rfE, the default).
	pytestSummary = regexp.MustCompile(`^(FAILED|ERROR) (\S+)(?: - (.*))?$`)
	// pytestLoc is the "path.py:12: ExceptionType" line ending a traceback.
	pytestLoc = regexp.MustCompile(`(?m)^(\S+\.py):(\d+): `)
)

// pytestFailures parses pytest's FAILURES/ERRORS sections and its short
// test summary. Test is the node id (tests/test_x.py::test_y) when the
// summary names it.
func pytestFailures(out, root string) []Failure {
	type section struct {
		name string
		body strings.Builder
	}
	var sections []*section
	var cur *section
	var summary [][]string
	in := false
	for _, line := range strings.SplitAfter(out, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trim, "====") {
			in = strings.Contains(trim, " FAILURES ") || strings.Contains(trim, " ERRORS ")
			cur = nil
			continue
		}
		if m := pytestSummary.FindStringSubmatch(trim); m != nil {
			summary = append(summary, m)
			continue
		}
		if !in {
			continue
		}
		if m := pytestSection.FindStringSubmatch(trim); m != nil {
			cur = &section{name: m[1]}
			sections = append(sections, cur)
			continue
		}
		if cur != nil {
			cur.body.WriteString(line)
		}
	}
	l := &goLocator{root: root}
	locate := func(body string) (string, int) {
		var file string
		var line int
		for _, m := range pytestLoc.FindAllStringSubmatch(body, -1) {
			if rel, ok := l.inside(m[1]); ok && !strings.Contains(rel, "site-packages/") {
				file, line = rel, atoi(m[2])
			}
		}
		return file, line
	}
	var fs []Failure
	used := map[*section]bool{}
	for _, m := range summary {
		id := m[2]
		f := Failure{Test: id, Package: strings.SplitN(id, "::", 2)[0]}
		if !strings.Contains(id, "::") {
			f.Test = "" // a collection error names a file, not a test
		}
		for _, s := range sections {
			if used[s] {
				continue
			}
			name := strings.ReplaceAll(s.name, ".", "::")
			if strings.HasSuffix(id, "::"+name) || s.name == "ERROR collecting "+id || strings.HasSuffix(s.name, " "+id) {
				used[s] = true
				f.Output = s.body.String()
				break
			}
		}
		if f.Output == "" {
			f.Output = m[0] + "\n"
		}
		f.File, f.Line = locate(f.Output)
		if f.File == "" {
			f.File = f.Package
		}
		fs = append(fs, f)
	}
	for _, s := range sections {
		if used[s] {
			continue
		}
		f := Failure{Test: s.name, Output: s.body.String()}
		f.File, f.Line = locate(f.Output)
		fs = append(fs, f)
	}
	return fs
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
