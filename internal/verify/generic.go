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
	// pathLine is a path with an extension followed by :line.
	pathLine = regexp.MustCompile(`((?:[A-Za-z]:)?[\w@.\-/\\]*[\w\-]\.[A-Za-z0-9]{1,8}):(\d+)`)
)

// genericTail is how much of the output a generic failure keeps.
const genericTail = 4 << 10

// goTextFailures parses plain go test output: "--- FAIL: TestX" and the
// indented lines that follow it, with the package from the next "FAIL pkg".
func goTextFailures(out, root string) []Failure {
	loc := newGoLocator(root)
	var fs []Failure
	pending := 0 // failures not yet given a package
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
		if m := goTextFail.FindStringSubmatch(trim); m != nil {
			flush()
			cur = &Failure{Test: m[1]}
			pending++
			body.WriteString(line)
			continue
		}
		if m := goTextPkg.FindStringSubmatch(trim + " "); m != nil {
			flush()
			for i := len(fs) - pending; i < len(fs); i++ {
				fs[i].Package = m[1]
				fs[i].File, fs[i].Line = loc.testLocation(m[1], fs[i].Output)
			}
			pending = 0
			continue
		}
		if cur != nil && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) {
			body.WriteString(line)
		} else if cur != nil && trim != "" && !strings.HasPrefix(trim, "=== ") {
			flush()
		}
	}
	flush()
	// A parent whose subtest failed repeats it; keep the leaves.
	var leaves []Failure
	for i, f := range fs {
		parent := false
		for j, g := range fs {
			if i != j && g.Package == f.Package && strings.HasPrefix(g.Test, f.Test+"/") {
				parent = true
			}
		}
		if !parent {
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
