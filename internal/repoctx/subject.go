package repoctx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"slices"
	"strings"
)

// subjectCalls are the calls an assertion at line of Go file i is about:
// those of the innermost statement holding the line, and those that
// assigned the variables it uses, earlier in the same function (b, err :=
// Marshal(v) ... Equal(t, want, string(b)) gives Equal, string, Marshal),
// or were called on them there (idx.Build(rules)).
func (r *Ranking) subjectCalls(i int, s symbol, line int) []string {
	fn, lineOf := r.funcAt(i, s, line)
	if fn == nil {
		return nil
	}
	return subjectCallsIn(fn, lineOf, line)
}

// subjectCallsIn are subjectCalls of function fn, the file line of a
// position in it given by lineOf.
func subjectCallsIn(fn *ast.FuncDecl, lineOf func(token.Pos) int, line int) []string {
	var stmt ast.Stmt
	var conds []ast.Expr // of the if statements whose bodies hold the line
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		s, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		if lineOf(s.Pos()) <= line && line <= lineOf(s.End()) {
			if _, block := s.(*ast.BlockStmt); !block {
				stmt = s // deeper statements come later
			}
			if is, ok := s.(*ast.IfStmt); ok && line > lineOf(is.Body.Lbrace) {
				conds = append(conds, is.Cond)
			}
			return true
		}
		return false
	})
	if stmt == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	addCalls := func(n ast.Node) {
		for _, c := range callNames(n) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	// For a statement with a body (if, for, switch), its head only.
	head := ast.Node(stmt)
	switch s := stmt.(type) {
	case *ast.IfStmt:
		head = s.Cond
	case *ast.ForStmt:
		head = s.Cond
	case *ast.RangeStmt:
		head = s.X
	case *ast.SwitchStmt:
		head = s.Tag
	}
	if head == nil {
		return nil
	}
	addCalls(head)
	// The variables the statement uses, and those the conditions that led
	// to it test (if value.handlers == nil { t.Errorf("no handler for %s",
	// path) } is about value), traced back through assignments before it,
	// two steps; and the methods called on them before it, which made
	// them what the line finds (index.Build(rules) before
	// index.Lookup(key)), but not those of the test's *testing.T.
	uses := identsIn(head)
	for _, c := range conds {
		maps.Copy(uses, identsIn(c))
	}
	vars := ownVars(fn)
	for range 2 {
		var more []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && c.Pos() < stmt.Pos() {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && uses[x.Name] && vars[x.Name] {
						addCalls(c)
					}
				}
			}
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Pos() >= stmt.Pos() {
				return true
			}
			for _, lhs := range a.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && uses[id.Name] {
					for _, rhs := range a.Rhs {
						addCalls(rhs)
						for v := range identsIn(rhs) {
							more = append(more, v)
						}
					}
					break
				}
			}
			return true
		})
		uses = map[string]bool{}
		for _, v := range more {
			uses[v] = true
		}
	}
	return out
}

// ownVars are the variables fn declares (its parameters, those of the
// function literals in it, the names it assigns, ranges over or declares
// with var), but not a *testing.T: the values whose methods made what an
// assertion finds, not a package's name (time in time.Now()).
func ownVars(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	add := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				out[n.Name] = true
			}
		}
	}
	fields(fn.Recv)
	fields(fn.Type.Params)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			add(n.Lhs...)
		case *ast.RangeStmt:
			add(n.Key, n.Value)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		case *ast.FuncLit:
			fields(n.Type.Params)
		}
		return true
	})
	for name := range testingParams(fn) {
		delete(out, name)
	}
	return out
}

// helperSubjects are the subjects of the lines the output names in the
// helpers test s (of directory dir) calls: the functions of dir's Go test
// files that are not tests.
func (r *Ranking) helperSubjects(dir string, mods goModules, s symbol) []call {
	var out []call
	for _, fl := range r.lines {
		j := int(fl.file)
		p := r.ix.paths[j]
		if path.Dir(p) != dir || !isTestFile(p) || path.Ext(p) != ".go" {
			continue
		}
		o := r.outlineOf(j)
		if o == nil {
			continue
		}
		for _, h := range o.syms {
			line := int(fl.line)
			if line < h.start || line > h.end || isTestFunc(h.name) || !slices.Contains(s.callees, h.name) {
				continue
			}
			via := importedDirs(dir, mods, h)
			for _, c := range r.subjectCalls(j, h, line) {
				out = append(out, call{dir: dir, name: c, weight: subjectWeight, via: via})
			}
		}
	}
	return out
}

// testingParams are the names fn and the function literals in it give
// their *testing.T, *testing.B or testing.TB.
func testingParams(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		default:
			return true
		}
		for _, f := range ft.Params.List {
			t := f.Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if sel, ok := t.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "testing" {
					for _, name := range f.Names {
						out[name.Name] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// valueFuncs are the functions of package dir that test s (Go file i)
// hands on as values rather than calls: a table's ({"down", Lower, "A",
// "a"}, called as tt.fn(tt.in)), a handler given to a server, a subtest
// given to t.Run. The test calls them through what it hands them to, as
// it calls its direct callees.
func (r *Ranking) valueFuncs(i int, s symbol, dir string) []call {
	fn, _ := r.funcAt(i, s, s.decl)
	if fn == nil {
		return nil
	}
	return r.valueFuncsIn(fn, dir)
}

// valueFuncsIn are valueFuncs of function fn.
func (r *Ranking) valueFuncsIn(fn *ast.FuncDecl, dir string) []call {
	var out []call
	seen := map[string]bool{}
	value := func(e ast.Expr) {
		id, ok := uninstantiated(e).(*ast.Ident)
		if !ok || seen[id.Name] || !r.definesFunc(dir, id.Name) {
			return
		}
		seen[id.Name] = true
		out = append(out, call{dir: dir, name: id.Name, weight: 1})
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, a := range n.Args {
				value(a)
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				value(e)
			}
		case *ast.AssignStmt:
			for _, e := range n.Rhs {
				value(e)
			}
		case *ast.ValueSpec:
			for _, e := range n.Values {
				value(e)
			}
		}
		return true
	})
	return out
}

// definesFunc reports whether package dir defines a function (not a
// method, type or variable) called name.
func (r *Ranking) definesFunc(dir, name string) bool {
	for _, j := range r.defsIn(dir)[name] {
		for _, s := range r.symbolsNamed(j, name) {
			if s.recv == "" && strings.HasPrefix(s.sig, "func ") {
				return true
			}
		}
	}
	return false
}

// funcAt parses definition s of Go file i and returns it when it is a
// function holding line, with the file line of a position in it.
func (r *Ranking) funcAt(i int, s symbol, line int) (*ast.FuncDecl, func(token.Pos) int) {
	// Only the function is parsed (a test file may be thousands of
	// lines): its lines after a package clause, so that line n of the
	// snippet is line s.decl+n-2 of the file.
	o := r.outlineOf(i)
	if o == nil || s.end > len(o.lines) || s.decl < 1 {
		return nil, nil
	}
	src := "package p\n" + strings.Join(o.lines[s.decl-1:s.end], "\n")
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil, nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line + s.decl - 2 }
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil && lineOf(d.Pos()) <= line && line <= lineOf(d.End()) {
			return d, lineOf
		}
	}
	return nil, nil
}
