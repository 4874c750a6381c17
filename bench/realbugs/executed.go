package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// executedMode (-executed) runs each case's failing tests with coverage on
// the buggy tree and says which of the fix's sites are in functions they
// run: what a query that follows the code the failing tests run can lead
// to at best. A site in a function no failing test runs (a second fault
// the release fixed, a caller the test does not go through) is found from
// the failing output only by luck.
var executedMode bool

// execTally counts what the failing tests executed, over the cases.
type execTally struct {
	cases, reached            int // reached: no site in a function not run
	executed, skipped, noCode int
	unmeasured                int // cases whose tests left no profile, or ran too long
	// files are the fixed files; unrun those of them the failing tests
	// do not lead to (see unrunFiles), in unrunCases cases.
	files, unrun, unrunCases int
}

// execs is the run's execTally (-executed).
var execs execTally

func (t *execTally) add(runs []siteRun, sites []Site) {
	t.cases++
	if reached(runs) {
		t.reached++
	}
	files := map[string]bool{}
	for _, s := range sites {
		files[s.File] = true
	}
	t.files += len(files)
	if n := len(unrunFiles(runs, sites)); n > 0 {
		t.unrun += n
		t.unrunCases++
	}
	for _, r := range runs {
		switch r {
		case runExecuted:
			t.executed++
		case runSkipped:
			t.skipped++
		default:
			t.noCode++
		}
	}
}

// reached reports whether the failing tests reach every site of runs: each
// is in a function they run, or in no function. Unmeasured (nil) is not.
func reached(runs []siteRun) bool {
	return runs != nil && !slices.Contains(runs, runSkipped)
}

// unrunFiles are the files of sites (runs[k] is sites[k]'s) the failing
// tests do not lead to: a site of each is in a function they do not run,
// and none in one they run. Such a file is found from their output only
// by luck; it is what keeps the failing output's file recall short.
func unrunFiles(runs []siteRun, sites []Site) []string {
	ran, skipped, listed := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var order []string
	for k, r := range runs {
		f := sites[k].File
		if !listed[f] {
			listed[f] = true
			order = append(order, f)
		}
		switch r {
		case runExecuted:
			ran[f] = true
		case runSkipped:
			skipped[f] = true
		}
	}
	var out []string
	for _, f := range order {
		if skipped[f] && !ran[f] {
			out = append(out, f)
		}
	}
	return out
}

// runsString is a case's part of a -v line.
func runsString(runs []siteRun, sites []Site) string {
	var t execTally
	t.add(runs, sites)
	files := ""
	if unrun := unrunFiles(runs, sites); len(unrun) > 0 {
		files = "; files not run: " + strings.Join(unrun, ", ")
	}
	return fmt.Sprintf("[in functions run %d, not run %d, in none %d%s]", t.executed, t.skipped, t.noCode, files)
}

// errNoProfile is a case's tests ending without a coverage profile, or
// with one of nothing: a fatal error (a stack overflow, a concurrent map
// write) ends the test binary before it writes one, and no recovery
// stops it. The case is left out of the executed rows, and said so.
var errNoProfile = errors.New("no coverage to measure")

// siteRun is what the failing tests did with one site.
type siteRun int

const (
	// runNoCode: the site is in no function (a declaration, a type's
	// field, a table): coverage says nothing of it.
	runNoCode siteRun = iota
	// runSkipped: the site is in a function the failing tests did not
	// run.
	runSkipped
	// runExecuted: the site is in a function the failing tests ran.
	runExecuted
)

// coverBlock is one block of a coverage profile: lines from-to of a file
// (module-relative), and whether it ran.
type coverBlock struct {
	from, to int
	ran      bool
}

// executedSites runs c's failing tests on a copy of the buggy module tree
// with coverage of every package of the module, and classifies each of
// sites (module-relative). A failing test that panics would end the test
// binary before it writes its profile, so in the copy each failing test,
// and each function literal in it that takes a *testing.T (a subtest),
// recovers first.
func executedSites(c Case, tree string, sites []Site) ([]siteRun, error) {
	tmp, err := os.MkdirTemp("", "realbugs-cover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(tree, tmp); err != nil {
		return nil, err
	}
	if err := recoverTests(filepath.Join(tmp, filepath.FromSlash(c.Package)), c.Tests); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	profile := filepath.Join(tmp, "cover.out")
	ctx, cancel := context.WithTimeout(context.Background(), goTestTimeout)
	defer cancel()
	out, err := goTestCmd(ctx, tmp, c.Package, c.Tests, "-coverpkg=./...", "-coverprofile="+profile).CombinedOutput()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: go test -cover ran past %v: %w", c.ID, goTestTimeout, errTooLong)
	}
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		return nil, fmt.Errorf("%s: go test -cover: %w", c.ID, err)
	}
	b, err := os.ReadFile(profile)
	if err != nil {
		return nil, fmt.Errorf("%s: go test -cover wrote no profile (%v): %w; it said:\n%s", c.ID, err, errNoProfile, tail(out, 8))
	}
	blocks, err := parseProfile(b, c.Module)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.ID, err)
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("%s: go test -cover's profile has no block of %s: %w; it said:\n%s", c.ID, c.Module, errNoProfile, tail(out, 8))
	}
	runs := make([]siteRun, len(sites))
	funcs := map[string][][2]int{} // per file, parsed once
	for k, s := range sites {
		if _, ok := funcs[s.File]; !ok {
			if funcs[s.File], err = funcSpans(filepath.Join(tree, filepath.FromSlash(s.File))); err != nil {
				return nil, fmt.Errorf("%s: %w", c.ID, err)
			}
		}
		// A package the failing tests do not link is not in the
		// profile: none of its functions ran.
		runs[k] = classify(funcs[s.File], blocks[s.File], s)
	}
	return runs, nil
}

// funcSpans are the lines of a Go file's functions, declaration to
// closing brace.
func funcSpans(p string) ([][2]int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out [][2]int
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
			out = append(out, [2]int{fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line})
		}
	}
	return out, nil
}

// classify says what the failing tests did with a site: whether they ran
// the function it is in (any of its blocks), by the lines of the site (a
// pure insertion, by the lines either side of it, as it is shown).
// A fix often changes a branch the bug kept the tests out of, or adds
// one: the function is what the tests lead to, not the line.
func classify(funcs [][2]int, blocks []coverBlock, s Site) siteRun {
	run := runNoCode
	for _, sp := range s.spans() {
		for _, fn := range funcs {
			if fn[0] > sp[1] || sp[0] > fn[1] {
				continue
			}
			run = runSkipped
			for _, b := range blocks {
				if b.ran && b.from <= fn[1] && fn[0] <= b.to {
					return runExecuted
				}
			}
		}
	}
	return run
}

// parseProfile reads a coverage profile's blocks of module's files, by
// their module-relative paths.
func parseProfile(b []byte, module string) (map[string][]coverBlock, error) {
	out := map[string][]coverBlock{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		// name.go:L1.C1,L2.C2 statements count
		colon := strings.LastIndex(line, ".go:")
		f := strings.Fields(line[max(colon, 0):])
		if colon < 0 || len(f) != 3 {
			return nil, fmt.Errorf("coverage profile line %q is not file:from.col,to.col statements count", line)
		}
		name := line[:colon+3]
		rng, count := strings.TrimPrefix(f[0], ".go:"), f[2]
		from, to, ok := strings.Cut(rng, ",")
		l1, err1 := strconv.Atoi(strings.Split(from, ".")[0])
		l2, err2 := strconv.Atoi(strings.Split(to, ".")[0])
		n, err3 := strconv.Atoi(count)
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("coverage profile line %q is not file:from.col,to.col statements count", line)
		}
		rel, ok := strings.CutPrefix(name, module+"/")
		if !ok {
			continue
		}
		out[rel] = append(out[rel], coverBlock{l1, l2, n > 0})
	}
	return out, sc.Err()
}

// recoverTests makes each test of dir's test files named in tests, and
// each function literal in it that takes a *testing.T, recover from a
// panic as its first deferred call: the test ends there, and the binary
// goes on to write its coverage profile.
func recoverTests(dir string, tests []string) error {
	want := map[string]bool{}
	for _, t := range tests {
		want[t] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return err
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		var at []int // offsets just after a body's opening brace
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil || !want[fn.Name.Name] {
				continue
			}
			at = append(at, fset.Position(fn.Body.Lbrace).Offset+1)
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && takesT(lit.Type) {
					at = append(at, fset.Position(lit.Body.Lbrace).Offset+1)
				}
				return true
			})
		}
		if len(at) == 0 {
			continue
		}
		sort.Sort(sort.Reverse(sort.IntSlice(at)))
		for _, off := range at {
			src = append(src[:off], append([]byte(" defer func() { _ = recover() }();"), src[off:]...)...)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// takesT reports whether a function type has a *testing.T parameter.
func takesT(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		if star, ok := p.Type.(*ast.StarExpr); ok {
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "T" {
				return true
			}
		}
	}
	return false
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
