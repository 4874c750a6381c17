package verify

import (
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// testGlobs are the test file conventions of each runner family: where a
// reproduction of an issue goes, and what a fix may not touch once frozen.
var testGlobs = map[tool][]string{
	toolGoTest:  {"**/*_test.go", "**/testdata/**"},
	toolGoBuild: {"**/*_test.go", "**/testdata/**"},
	toolPytest:  {"**/test_*.py", "**/*_test.py", "**/conftest.py"},
	toolJS:      {"**/*.test.*", "**/*.spec.*", "**/__tests__/**", "test/**", "tests/**"},
	toolCargo:   {"tests/**"},
	toolJVM:     {"src/test/**"},
}

// TestPaths are the globs of test files for the runners cmds use, in the
// order the commands name them; a command agentfix does not know (make
// test) adds every convention, since it may run any runner underneath.
func TestPaths(cmds []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(globs []string) {
		for _, g := range globs {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	for _, c := range cmds {
		argv, err := Split(c)
		if err != nil {
			continue
		}
		if globs, ok := testGlobs[toolFor(argv)]; ok {
			add(globs)
			continue
		}
		for _, t := range []tool{toolGoTest, toolPytest, toolJS, toolCargo, toolJVM} {
			add(testGlobs[t])
		}
	}
	return out
}

// IsTestFile reports whether the repository path rel matches one of globs.
func IsTestFile(globs []string, rel string) bool {
	clean := path.Clean(rel)
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, clean); ok {
			return true
		}
	}
	return false
}

// Narrow builds the command that runs only the tests in files (repository
// paths of test files), from a configured command: for go test the
// packages of the _test.go files, for pytest the files, for jest and
// vitest the files. The flags of cmd are kept; pytest also gets -rA so
// that it names the tests that passed. It returns false when cmd cannot be
// narrowed to files (npm scripts, cargo, make): the caller runs cmd whole.
func Narrow(cmd string, files []string) (string, bool) {
	argv, err := Split(cmd)
	if err != nil {
		return "", false
	}
	var out, tail []string
	switch toolFor(argv) {
	case toolGoTest:
		out, tail = goFlags(argv)
		_, goDir := goSub(argv)
		seen := map[string]bool{}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				continue
			}
			f, ok := inGoDir(goDir, f)
			if !ok {
				return "", false // a test go -C DIR does not see
			}
			dir := "./" + path.Dir(f)
			if path.Dir(f) == "." {
				dir = "."
			}
			if !seen[dir] {
				seen[dir] = true
				out = append(out, dir)
			}
		}
		if len(seen) == 0 {
			return "", false
		}
	case toolPytest:
		out = append(pytestFlags(argv), "-rA")
		n := len(out)
		for _, f := range files {
			if strings.HasSuffix(f, ".py") && path.Base(f) != "conftest.py" {
				out = append(out, f)
			}
		}
		if len(out) == n {
			return "", false
		}
	default:
		var ok bool
		if out, ok = jsFlags(argv); !ok {
			return "", false
		}
		n := len(out)
		for _, f := range files {
			if !strings.Contains(f, "__snapshots__/") {
				out = append(out, f)
			}
		}
		if len(out) == n {
			return "", false
		}
	}
	return Join(append(out, tail...)), true
}

var (
	pytestPassed  = regexp.MustCompile(`^PASSED (\S+::\S+)`)
	pytestVerbose = regexp.MustCompile(`^(\S+::\S+) PASSED\b`)
	tapOK         = regexp.MustCompile(`^(\s*)ok \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$`)
)

// pytestNames reports whether argv makes pytest name the tests that pass:
// -rA (the short summary of every outcome) or -v.
func pytestNames(argv []string) bool {
	for _, a := range argv {
		if a == "-rA" || a == "-v" || a == "--verbose" || a == "-vv" {
			return true
		}
	}
	return false
}

// pytestPassing returns the node ids pytest reported passing (with -rA or
// -v); nil when named is false and it named none.
func pytestPassing(out string, named bool) map[string]bool {
	var ids map[string]bool
	if named {
		ids = map[string]bool{}
	}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		m := pytestPassed.FindStringSubmatch(line)
		if m == nil {
			m = pytestVerbose.FindStringSubmatch(line)
		}
		if m == nil {
			continue
		}
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[Failure{Test: m[1], Package: strings.SplitN(m[1], "::", 2)[0]}.ID()] = true
	}
	return ids
}

// tapPassing returns the names (suite > test, as tapFailures names them)
// of the TAP tests that passed and were not skipped; nil when the output
// is not TAP.
func tapPassing(out string) map[string]bool {
	if !strings.Contains(out, "TAP version") {
		return nil
	}
	ids := map[string]bool{}
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if m := tapSubtest.FindStringSubmatch(line); m != nil {
			lvl := len(m[1]) / 4
			names = append(names[:min(lvl, len(names))], m[2])
			continue
		}
		m := tapOK.FindStringSubmatch(line)
		if m == nil || m[3] != "" {
			continue
		}
		lvl := len(m[1]) / 4
		ids[strings.Join(append(append([]string(nil), names[:min(lvl, len(names))]...), m[2]), " > ")] = true
	}
	return ids
}

// SawPass reports whether the test f names was reported passing by c.
// known is false when c's runner does not name the tests that pass (its
// exit code is all there is to go by).
func (c *CommandResult) SawPass(f Failure) (passed, known bool) {
	if c.passing == nil {
		return false, false
	}
	return c.passing[f.ID()] || (f.Test != "" && c.passing[f.Test]), true
}

// NotSeenPassing lists the tests of want that r's commands do not report
// passing, among the commands whose runner names passing tests. A test a
// runner skipped, did not collect or did not run is not seen passing.
func (r *Report) NotSeenPassing(want []Failure) []Failure {
	var missing []Failure
	for _, f := range want {
		seen, known := false, false
		for i := range r.Commands {
			p, k := r.Commands[i].SawPass(f)
			seen, known = seen || p, known || k
		}
		if known && !seen {
			missing = append(missing, f)
		}
	}
	return missing
}
