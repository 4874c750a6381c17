package verify

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// gotestsum (gotest.tools/gotestsum) ends every format it prints with a
// summary of what failed:
//
//	=== Failed
//	=== FAIL: pkg TestX/sub (0.00s)
//	    x_test.go:12: got 1, want 2
//
//	=== FAIL: pkg  (0.00s)
//	FAIL	example.com/m/pkg [build failed]
//
//	=== Errors
//	pkg/x.go:7:2: undefined: y
//
//	DONE 12 tests, 2 failures, 1 error in 0.4s
//
// pkg is the package's path in the module gotestsum ran in ("." for the
// module's root); a package that failed outside its tests has no test.
var (
	sumFail = regexp.MustCompile(`^=== FAIL: (\S+) (\S*)\s*\(`)
	// sumNext is a line that ends a test's output in the summary.
	sumNext = regexp.MustCompile(`^(?:=== (?:FAIL|SKIP): |=== (?:Errors|Failed|Skipped)$|DONE \d)`)
)

// gotestsumFailures parses gotestsum's summary (see sumFail): a failure
// per leaf test with the output under its line, located as go test's
// are, and per package that failed outside its tests the errors of the
// summary's "=== Errors" in its directory.
func gotestsumFailures(out, root string) []Failure {
	loc := newGoLocator(root)
	module := "" // the module gotestsum ran in: the one at or above root
	if len(loc.mods) > 0 {
		module = loc.mods[0].path
	}
	var fs []Failure
	var errs []string // the lines under "=== Errors"
	var cur *Failure
	var rel []string // each failure's package as gotestsum names it
	inErrors := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := sumFail.FindStringSubmatch(line); m != nil {
			fs, rel = append(fs, Failure{Package: sumImportPath(module, m[1]), Test: m[2]}), append(rel, m[1])
			cur, inErrors = &fs[len(fs)-1], false
			continue
		}
		if sumNext.MatchString(line) {
			cur, inErrors = nil, line == "=== Errors"
			continue
		}
		switch {
		case cur != nil:
			cur.Output += line + "\n"
		case inErrors && strings.TrimSpace(line) != "":
			errs = append(errs, line)
		}
	}
	var leaves []Failure
	seen := map[string]bool{} // --rerun-fails lists a test once per run
	for i, f := range fs {
		if seen[f.Package+" "+f.Test] {
			continue
		}
		seen[f.Package+" "+f.Test] = true
		f.Output = strings.TrimRight(f.Output, "\n") + "\n"
		if f.Test == "" {
			f.Output += errorsIn(rel[i], errs)
		}
		if f.Test != "" && parentOf(f, fs) {
			continue
		}
		if m := goCompileLine.FindStringSubmatch(f.Output); f.Test == "" && m != nil {
			if p, ok := loc.inside(m[1]); ok {
				f.File = p
				f.Line, _ = strconv.Atoi(m[2])
			}
		} else {
			f.File, f.Line = loc.testLocation(f.Package, f.Output)
		}
		f.Output = loc.trimTrace(f.Output)
		leaves = append(leaves, f)
	}
	return leaves
}

// sumImportPath is the import path of a package gotestsum names by its
// path in module ("." for the root); a name that is an import path
// already (example.com/m/pkg, a package of another module), or any name
// when the module is not known, is kept.
func sumImportPath(module, rel string) string {
	first, _, _ := strings.Cut(rel, "/")
	switch {
	case module == "" || rel != "." && strings.Contains(first, "."):
		return rel
	case rel == ".":
		return module
	}
	return module + "/" + rel
}

// errorsIn is the lines of errs (compiler diagnostics) in the directory
// of package rel, as a block of output.
func errorsIn(rel string, errs []string) string {
	var b strings.Builder
	for _, e := range errs {
		m := goCompileLine.FindStringSubmatch(e)
		if m != nil && path.Dir(strings.TrimPrefix(m[1], "./")) == path.Clean(rel) {
			b.WriteString(e + "\n")
		}
	}
	return b.String()
}

// parentOf reports whether f is the parent of another failure in fs: a
// test whose subtest failed, which says nothing of its own.
func parentOf(f Failure, fs []Failure) bool {
	for _, g := range fs {
		if g.Package == f.Package && strings.HasPrefix(g.Test, f.Test+"/") {
			return true
		}
	}
	return false
}
