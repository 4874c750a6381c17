package main

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Site is one change of the fix: a range of lines (1-based, inclusive) of
// the file before the fix. A pure insertion is the line it follows (line 1
// for an insertion at the top), which the model must see to place it.
type Site struct {
	File  string `json:"file"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Before and After, for a pure insertion (lines added after Start),
	// are the nearest lines either side of it that are not blank: the
	// insertion is seen when one of them is (git may put it on either
	// side of a blank line; which one says nothing about the fix).
	Before int `json:"before,omitempty"`
	After  int `json:"after,omitempty"`
}

// insertion reports whether s is a pure insertion.
func (s Site) insertion() bool { return s.Before > 0 || s.After > 0 }

// spans are the line ranges that stand for s: its own lines, or for a
// pure insertion, the line either side of it (each when there is one).
func (s Site) spans() [][2]int {
	if !s.insertion() {
		return [][2]int{{s.Start, s.End}}
	}
	var out [][2]int
	for _, l := range []int{s.Before, s.After} {
		if l > 0 {
			out = append(out, [2]int{l, l})
		}
	}
	return out
}

func (s Site) String() string {
	if s.insertion() {
		return fmt.Sprintf("%s:%d+(%d|%d)", s.File, s.Start, s.Before, s.After)
	}
	return fmt.Sprintf("%s:%d-%d", s.File, s.Start, s.End)
}

// change is what one release changed: the fix's sites in code files, the
// test files changed or added, and the test functions changed or added.
type change struct {
	sites     []Site
	codeFiles []string // non-test .go files changed (not added or deleted)
	added     int      // lines added or changed in code files
	removed   int      // base lines changed in code files
	newCode   []string // non-test .go files the release added
	testFiles []string // _test.go files and testdata files changed or added
	tests     map[string][]string
}

// in is the change as a repository that holds the module in its
// directory dir sees it: the same files and sites, under dir ("" or "."
// for the repository's root).
func (c *change) in(dir string) *change {
	if dir == "" || dir == "." {
		return c
	}
	under := func(ps []string) []string {
		out := make([]string, len(ps))
		for k, p := range ps {
			out[k] = path.Join(dir, p)
		}
		return out
	}
	d := *c
	d.codeFiles, d.newCode, d.testFiles = under(c.codeFiles), under(c.newCode), under(c.testFiles)
	d.sites = make([]Site, len(c.sites))
	for k, s := range c.sites {
		s.File = path.Join(dir, s.File)
		d.sites[k] = s
	}
	d.tests = map[string][]string{}
	for p, ts := range c.tests {
		d.tests[path.Join(dir, p)] = ts
	}
	return &d
}

var reHunk = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// diffModules compares two versions of a module's directory.
func diffModules(before, after string) (*change, error) {
	a, err := goFiles(before)
	if err != nil {
		return nil, err
	}
	b, err := goFiles(after)
	if err != nil {
		return nil, err
	}
	c := &change{tests: map[string][]string{}}
	names := make([]string, 0, len(b))
	for p := range b {
		names = append(names, p)
	}
	sort.Strings(names)
	// runners tell, per package whose specs or suite methods changed,
	// the Test functions that run them.
	runners := map[string][]func(body string) bool{}
	for _, p := range names {
		old, existed := a[p]
		if existed && bytes.Equal(old, b[p]) {
			continue
		}
		if isTestPath(p) {
			c.testFiles = append(c.testFiles, p)
			if strings.HasSuffix(p, "_test.go") {
				for _, t := range changedTests(old, b[p]) {
					dir := pathDir(p)
					c.tests[dir] = append(c.tests[dir], t)
				}
				if changedSpecs(old, b[p]) {
					runners[pathDir(p)] = append(runners[pathDir(p)], runsSpecs)
				}
				for _, typ := range changedSuites(old, b[p]) {
					runners[pathDir(p)] = append(runners[pathDir(p)], runsSuite(typ))
				}
			}
			continue
		}
		if !existed {
			c.newCode = append(c.newCode, p)
			continue
		}
		sites, add, rem, err := fileSites(filepath.Join(before, p), filepath.Join(after, p), p)
		if err != nil {
			return nil, err
		}
		if len(sites) > 0 {
			c.codeFiles = append(c.codeFiles, p)
		}
		c.sites = append(c.sites, sites...)
		c.added += add
		c.removed += rem
	}
	// Test data files other than Go (golden files, inputs) count as test
	// changes too.
	other, err := changedData(before, after)
	if err != nil {
		return nil, err
	}
	c.testFiles = append(c.testFiles, other...)
	// A package whose changed tests are specs (Ginkgo's, in a var's
	// value) or a suite's methods (testify's, gocheck's) runs them
	// through its suite's Test functions, changed or not (with -suites:
	// the sets found before it was there are found again without it).
	for dir, runs := range runners {
		if !findSuites {
			break
		}
		if len(c.tests[dir]) == 0 {
			c.tests[dir] = suiteTests(b, dir, runs)
		}
	}
	return c, nil
}

// findSuites (-suites) makes discover take the releases whose changed
// tests are Ginkgo specs or suite methods (see diffModules).
var findSuites bool

func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// fileSites runs git diff -U0 on one file and turns its hunks into sites:
// a changed range less the blank lines at its ends, or a pure insertion
// with the lines either side of it that are not blank.
func fileSites(before, after, rel string) (sites []Site, added, removed int, err error) {
	src, err := os.ReadFile(before)
	if err != nil {
		return nil, 0, 0, err
	}
	lines := strings.Split(string(src), "\n")
	var oldComments, newComments map[int]bool
	if strings.HasSuffix(rel, ".go") {
		dst, err := os.ReadFile(after)
		if err != nil {
			return nil, 0, 0, err
		}
		oldComments, newComments = commentLines(src), commentLines(dst)
	}
	out, err := exec.Command("git", "diff", "--no-index", "-U0", "--", before, after).Output()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return nil, 0, 0, err
		}
	}
	hunks := reHunk.FindAllStringSubmatchIndex(string(out), -1)
	for k, idx := range hunks {
		m := make([]string, 5)
		for g := 1; g <= 4; g++ {
			if idx[2*g] >= 0 {
				m[g] = string(out[idx[2*g]:idx[2*g+1]])
			}
		}
		end := len(out)
		if k+1 < len(hunks) {
			end = hunks[k+1][0]
		}
		start, _ := strconv.Atoi(m[1])
		newStart, _ := strconv.Atoi(m[3])
		if incidental(string(out[idx[1]:end]), start, newStart, oldComments, newComments) {
			continue
		}
		count := 1
		if m[2] != "" {
			count, _ = strconv.Atoi(m[2])
		}
		addCount := 1
		if m[4] != "" {
			addCount, _ = strconv.Atoi(m[4])
		}
		added += addCount
		removed += count
		if count == 0 {
			at := max(1, start)
			sites = append(sites, Site{File: rel, Start: at, End: at, Before: nonBlank(lines, start, -1), After: nonBlank(lines, start+1, 1)})
			continue
		}
		lo, hi := start, start+count-1
		for lo < hi && nonBlank(lines, lo, 0) == 0 {
			lo++
		}
		for hi > lo && nonBlank(lines, hi, 0) == 0 {
			hi--
		}
		if nonBlank(lines, lo, 0) == 0 {
			lo, hi = start, start+count-1 // only blank lines changed
		}
		sites = append(sites, Site{File: rel, Start: lo, End: hi})
	}
	return sites, added, removed, nil
}

// changedData lists non-Go files under testdata that the release changed
// or added.
func changedData(before, after string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(after, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		rel, _ := filepath.Rel(after, p)
		rel = filepath.ToSlash(rel)
		if !strings.Contains("/"+rel, "/testdata/") {
			return nil
		}
		nb, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		ob, err := os.ReadFile(filepath.Join(before, rel))
		if err != nil || !bytes.Equal(ob, nb) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// reVersion matches a line that only sets a version string (const or
// var Version = "1.22.2", as OPA's version.go has it), a line comment
// after it or not (release-please's `const driverVersion = "v1.11.2" //
// x-release-please-version`, as go-mssqldb's version.go has it).
var reVersion = regexp.MustCompile(`(?i)^\s*(?:(?:const|var)\s+)?\w*version\w*\s*=\s*"v?\d[^"]*"\s*(?://.*)?$`)

// reVersionTag matches a line that only sets the prerelease or metadata
// string beside a version (hashicorp's VersionPrerelease = "dev" → "", as
// go-getter v1.8.10's version.go has it in a var block with Version).
var reVersionTag = regexp.MustCompile(`(?i)^\s*(?:(?:const|var)\s+)?(?:\w*version\w*(?:prerelease|metadata)\w*|\w*(?:prerelease|metadata)\w*version\w*)\s*=\s*"[^"]*"\s*(?://.*)?$`)

// reVersionField matches a line that only sets a field to a number: a
// part of a version literal (hugo's CurrentVersion = Version{...,
// PatchLevel: 4, ...}), when the hunk is in one.
var reVersionField = regexp.MustCompile(`^\w+\s*:\s*\d+,?$`)

// reVersionReturn matches a line that only returns a version string: the
// body of a func Version() (msgpack's), when the hunk is in one.
var reVersionReturn = regexp.MustCompile(`^return\s+"v?\d+\.\d+[^"]*"$`)

// incidental reports whether a hunk's changed lines are no part of a fix:
// only comments and blank lines, or only a version. hunk is what
// follows the @@ ranges: the rest of that line (git's function context,
// e.g. " func Version() string"), then the changed lines. The removed
// lines are the file's before the fix from line oldAt, the added ones
// after it from newAt; oldComments and newComments are the lines of each
// that are wholly comment (commentLines; nil when not known), so that a
// line of prose inside a /* */ block, such as a package's doc.go, counts
// as the comment it is.
func incidental(hunk string, oldAt, newAt int, oldComments, newComments map[int]bool) bool {
	lines := strings.Split(hunk, "\n")
	inVersion := strings.Contains(strings.ToLower(lines[0]), "version")
	oldLine, newLine := oldAt, newAt
	for _, l := range lines[1:] {
		if l == "" || (l[0] != '-' && l[0] != '+') {
			continue
		}
		t := strings.TrimSpace(l[1:])
		// Where the file's comments are known, they say; else a line
		// that starts like one is one.
		comment := strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")
		if oldComments != nil || newComments != nil {
			comment = l[0] == '-' && oldComments[oldLine] || l[0] == '+' && newComments[newLine]
		}
		if l[0] == '-' {
			oldLine++
		} else {
			newLine++
		}
		if t == "" || comment || reVersion.MatchString(t) || reVersionTag.MatchString(t) || inVersion && (reVersionReturn.MatchString(t) || reVersionField.MatchString(t)) {
			continue
		}
		return false
	}
	return true
}

// commentLines are the lines of Go source src that hold nothing but
// comment: every line a comment spans, but the first when code comes
// before the comment on it and the last when code follows it.
func commentLines(src []byte) map[int]bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var sc scanner.Scanner
	sc.Init(file, src, nil, scanner.ScanComments)
	lines := map[int]bool{}
	blank := func(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return lines
		}
		if tok != token.COMMENT {
			continue
		}
		from, to := file.Offset(pos), file.Offset(pos)+len(lit)
		first, last := file.Line(pos), file.Line(file.Pos(to))
		lineStart := bytes.LastIndexByte(src[:from], '\n') + 1
		lineEnd := len(src)
		if k := bytes.IndexByte(src[to:], '\n'); k >= 0 {
			lineEnd = to + k
		}
		for l := first; l <= last; l++ {
			if l == first && !blank(src[lineStart:from]) || l == last && !blank(src[to:lineEnd]) {
				continue
			}
			lines[l] = true
		}
	}
}

// nonBlank is the first line from l, stepping by step (-1 or 1; 0 looks
// at l alone), that is not blank, or 0 when there is none.
func nonBlank(lines []string, l, step int) int {
	for ; l >= 1 && l <= len(lines); l += step {
		if strings.TrimSpace(lines[l-1]) != "" {
			return l
		}
		if step == 0 {
			break
		}
	}
	return 0
}
