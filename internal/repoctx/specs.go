package repoctx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A spec is a test that is no Test function: a function literal in the
// value of a Go test file's package-level variable, as Ginkgo writes
// them (var _ = Describe("Store", func() { ... It("finds it", func() {
// ... }) })). Its failure names no Test function of its own (the suite's
// TestX only runs them all), only the lines of its file: the spec's, and
// the assertion's.
type spec struct {
	file int
	// fn is the spec as a function: the set-up its containers run before
	// it (their BeforeEach and the like, and their own statements, such
	// as var st *Store), then its own statements but the containers and
	// specs it makes, each where the file has it (see specFunc).
	fn     *ast.FuncDecl
	lineOf func(token.Pos) int
	sym    symbol
	lines  []int // the lines of it the output names
	// setup are the lines of its containers' set-up calls
	// (BeforeEach(func() { ... })).
	setup []Chunk
	// dots are the import paths its file imports with the name "."
	// (. "github.com/onsi/gomega"): a plain call may be theirs.
	dots []string
}

// setupCalls run their function before each spec in their container.
var setupCalls = map[string]bool{"BeforeEach": true, "JustBeforeEach": true, "BeforeAll": true}

// nodeCalls make a container or a spec of their function: what runs in
// it runs on its own, not as part of the function around it.
var nodeCalls = map[string]bool{}

func init() {
	for _, n := range []string{"Describe", "Context", "When", "It", "Specify", "DescribeTable", "DescribeTableSubtree", "Entry", "Measure"} {
		for _, prefix := range []string{"", "F", "P", "X"} {
			nodeCalls[prefix+n] = true
		}
	}
}

// specEdges follows the specs whose lines the output names as a failing
// test is followed: first the assertion's subject, then its other
// callees, and the methods of the values it builds that the code calls.
func (r *Ranking) specEdges(mods goModules) {
	for _, sp := range r.specs() {
		dir := path.Dir(r.ix.paths[sp.file])
		// A spec's DSL is dot-imported (Expect(v).To(Equal(2))), and so,
		// often, the package it tests: a plain call its own package does
		// not define may be a function of a package of the repository the
		// file dot-imports, and a method call one of their methods.
		var dotDirs []string
		for _, p := range sp.dots {
			if d, ok := mods.dir(p); ok && d != dir {
				dotDirs = append(dotDirs, d)
			}
		}
		via := append(importedDirs(dir, mods, sp.sym), dotDirs...)
		var subject []call
		for _, l := range sp.lines {
			for _, c := range subjectCallsIn(sp.fn, sp.lineOf, l) {
				subject = append(subject, call{dir: dir, name: c, weight: subjectWeight, via: via})
			}
		}
		direct := append(calls(dir, mods, sp.sym, 0, 1), r.valueFuncsIn(sp.fn, dir)...)
		types := r.heldTypes(dir, sp.sym)
		// A dot-imported package's function counts as one call further
		// away: such a package is more often the spec's DSL or its
		// helpers than the code under test (the package under test is
		// most often the spec's own, package kv_test in kv). What it
		// builds are values the spec holds, as its own package's are. A
		// name no package defines is none of the repository's code
		// (Expect), and would use up edgeNodes.
		resolve := func(cs []call) []call {
			out := cs[:0]
			for _, c := range cs {
				if c.dir == dir {
					c.via = via
				}
				if len(r.defsIn(c.dir)[c.name]) == 0 {
					if k := slices.IndexFunc(dotDirs, func(d string) bool { return r.definesFunc(d, c.name) }); k >= 0 {
						c.dir, c.weight = dotDirs[k], c.weight*edgeDecay
						maps.Copy(types, r.builtBy(c.dir, c.name))
					}
				}
				if rc := r.resolved(c); len(r.defsIn(rc.dir)[rc.name]) > 0 {
					out = append(out, c)
				}
			}
			return out
		}
		subject, direct = resolve(subject), resolve(direct)
		for _, cs := range [][]call{subject, direct} {
			for k := range cs {
				cs[k].types = types
			}
		}
		r.unfocusOthers(dir, types)
		r.follow(r.reached, mods, map[string]bool{}, subject)
		r.follow(r.reached, mods, map[string]bool{}, r.registered(sp.file, sp.sym, dir))
		r.follow(r.reached, mods, map[string]bool{}, direct)
		r.dispatched(mods, dir, sp.sym)
		// Shown of its file: the spec when it is not long, and its
		// set-up.
		if r.specParts == nil {
			r.specParts = map[int][]Chunk{}
		}
		if sp.sym.end-sp.sym.start+1 <= bigTest {
			r.specParts[sp.file] = append(r.specParts[sp.file], span(sp.sym.start, sp.sym.end))
		}
		r.specParts[sp.file] = append(r.specParts[sp.file], sp.setup...)
	}
}

// specs are the specs holding the lines the output names in Go test
// files, outside every function: for each such line, the innermost
// function literal holding it, unless that holds another's (a
// container's line, when the output names its spec's too). A spec's
// lines are those of its own that the output names.
func (r *Ranking) specs() []spec {
	type key struct{ file, decl int }
	var out []spec
	byLit := map[key]int{} // file and spec's first line -> index in out
	parsed := map[int]*ast.File{}
	fsets := map[int]*token.FileSet{}
	for _, fl := range r.lines {
		i, line := int(fl.file), int(fl.line)
		p := r.ix.paths[i]
		if !isTestFile(p) || path.Ext(p) != ".go" {
			continue
		}
		o := r.outlineOf(i)
		if o == nil {
			continue
		}
		k := slices.IndexFunc(o.syms, func(s symbol) bool {
			return strings.HasPrefix(s.sig, "var ") && s.start <= line && line <= s.end
		})
		if k < 0 {
			continue
		}
		f, ok := parsed[i]
		if !ok {
			// The whole file: a spec's calls into the repository's other
			// packages go through its imports.
			fsets[i] = token.NewFileSet()
			f, _ = parser.ParseFile(fsets[i], p, strings.Join(o.lines, "\n"), parser.SkipObjectResolution)
			parsed[i] = f
		}
		if f == nil {
			continue
		}
		fset := fsets[i]
		lineOf := func(p token.Pos) int { return fset.Position(p).Line }
		chain := litsHolding(f, o.syms[k], line, lineOf)
		if len(chain) == 0 {
			continue
		}
		lit := chain[len(chain)-1]
		sk := key{i, lineOf(lit.Pos())}
		if n, ok := byLit[sk]; ok {
			out[n].lines = append(out[n].lines, line)
			continue
		}
		fn, setup := specFunc(chain)
		var setupLines []Chunk
		for _, c := range setup {
			setupLines = append(setupLines, span(lineOf(c.Pos()), lineOf(c.End())))
		}
		s := symbol{name: "_", start: lineOf(lit.Pos()), decl: lineOf(lit.Pos()), end: lineOf(lit.End())}
		s.callees, s.own, s.dry = callees(fn), ownCalls(fn), dryCalls(fn)
		s.pkgCalls = pkgCalls(fn, importNames(f))
		// Its builds only: the package variables a definition uses are
		// for the packer to show with it, and a spec is no definition.
		s.builds, _ = bodyNames(fn.Body, nil)
		var dots []string
		for _, im := range f.Imports {
			if p, err := strconv.Unquote(im.Path.Value); err == nil && im.Name != nil && im.Name.Name == "." {
				dots = append(dots, p)
			}
		}
		byLit[sk] = len(out)
		out = append(out, spec{file: i, fn: fn, lineOf: lineOf, sym: s, lines: []int{line}, dots: dots, setup: setupLines})
	}
	// A container holding another spec is no spec: its line names where
	// the failing spec is, not what failed.
	return slices.DeleteFunc(out, func(sp spec) bool {
		return slices.ContainsFunc(out, func(o spec) bool {
			return o.file == sp.file && o.sym.start != sp.sym.start && sp.sym.start <= o.sym.start && o.sym.end <= sp.sym.end
		})
	})
}

// litsHolding are the function literals of s's declaration in f that
// hold line, outermost first.
func litsHolding(f *ast.File, s symbol, line int, lineOf func(token.Pos) int) []*ast.FuncLit {
	var chain []*ast.FuncLit
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || lineOf(g.End()) < s.decl || lineOf(g.Pos()) > s.end {
			continue
		}
		chain = append(chain, litsIn(g, line, lineOf)...)
	}
	return chain
}

// litsIn are the function literals in n that hold line, outermost first.
func litsIn(n ast.Node, line int, lineOf func(token.Pos) int) []*ast.FuncLit {
	var chain []*ast.FuncLit
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil || lineOf(n.Pos()) > line || lineOf(n.End()) < line {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok {
			chain = append(chain, lit)
		}
		return true
	})
	return chain
}

// specFunc is the spec chain ends in as a function: the set-up of each
// container around it (the bodies of its setupCalls, and its statements
// that hold no function literal: not a container, a spec, nor a loop
// that makes them), then the spec's own statements but the containers and
// specs it makes (nodeCalls). setup are the set-up calls.
func specFunc(chain []*ast.FuncLit) (fn *ast.FuncDecl, setup []*ast.CallExpr) {
	lit := chain[len(chain)-1]
	body := &ast.BlockStmt{Lbrace: lit.Body.Lbrace, Rbrace: lit.Body.Rbrace}
	for _, c := range chain[:len(chain)-1] {
		for _, st := range c.Body.List {
			call, fn := callWithFunc(st)
			switch {
			case call != nil && setupCalls[lastName(call.Fun)]:
				body.List = append(body.List, fn.Body.List...)
				setup = append(setup, call)
			case !holdsFuncLit(st):
				body.List = append(body.List, st)
			}
		}
	}
	// When building the spec tree failed (an assertion in a container's
	// body), Ginkgo names the container's line: its statements ran, not
	// its specs.
	for _, st := range lit.Body.List {
		if call, _ := callWithFunc(st); call == nil || !nodeCalls[lastName(call.Fun)] {
			body.List = append(body.List, st)
		}
	}
	return &ast.FuncDecl{Name: ast.NewIdent("_"), Type: lit.Type, Body: body}, setup
}

// callWithFunc is statement st when it is a call handed a function
// literal (It("...", func() {...}), BeforeEach(func() {...})), and that
// literal.
func callWithFunc(st ast.Stmt) (*ast.CallExpr, *ast.FuncLit) {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return nil, nil
	}
	c, ok := es.X.(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	for _, a := range c.Args {
		if lit, ok := a.(*ast.FuncLit); ok {
			return c, lit
		}
	}
	return nil, nil
}

// holdsFuncLit reports whether n holds a function literal.
func holdsFuncLit(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		found = found || lit
		return !found
	})
	return found
}
