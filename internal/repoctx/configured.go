package repoctx

import (
	"bytes"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"
)

const (
	// setterLines bounds the length of a method whose field assignments
	// count as the test's configuration (SetIndentTables sets
	// enc.indentTables): a setter is short.
	setterLines = 12
	// maxReaders bounds the functions that read a field the test sets
	// for them to be reached: a field most of the package reads (a
	// buffer, a name) points nowhere.
	maxReaders = 2
)

// configured reaches the functions of the code that read the fields
// failing test s (Go file i, package dir) sets: the fields it assigns
// (opts.Strict = true), and those the short methods it calls assign
// (enc.SetIndentTables(true) sets enc.indentTables), when a struct type
// of the code declares a field of that name. A test that fails only so
// configured fails where the code reads its configuration, and the path
// there may be more calls deep than the edges follow, or be a branch of a
// function the test reaches through others.
func (r *Ranking) configured(i int, s symbol, dir string, via []string) {
	fn, _ := r.funcAt(i, s, s.decl)
	if fn == nil {
		return
	}
	fields := map[string]bool{}
	var methods []string
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN {
				for _, l := range n.Lhs {
					if se, ok := l.(*ast.SelectorExpr); ok {
						fields[se.Sel.Name] = true
					}
				}
			}
		case *ast.CallExpr:
			if se, ok := n.Fun.(*ast.SelectorExpr); ok {
				methods = append(methods, se.Sel.Name)
			}
		}
		return true
	})
	dirs := slices.Compact(append([]string{dir}, via...))
	setters := map[[2]int]bool{}
	slices.Sort(methods)
	for _, m := range slices.Compact(methods) {
		for _, d := range dirs {
			for _, j := range r.defsIn(d)[m] {
				if !r.goCode(j) {
					continue
				}
				for _, sym := range r.symbolsNamed(j, m) {
					if sym.recv == "" || sym.end-sym.decl > setterLines {
						continue
					}
					fn, _ := r.funcAt(j, sym, sym.decl)
					set := receiverFieldsSet(fn)
					for _, f := range set {
						fields[f] = true
					}
					if len(set) > 0 {
						setters[[2]int{j, sym.decl}] = true
					}
				}
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		var readers [][2]int
		for _, d := range dirs {
			rs := slices.DeleteFunc(slices.Clone(r.fieldReaders(d, f)), func(at [2]int) bool { return setters[at] })
			if len(rs) > 0 && r.declaresField(d, f) {
				readers = append(readers, rs...)
			}
		}
		if len(readers) == 0 || len(readers) > maxReaders {
			continue
		}
		for _, at := range readers {
			r.reached.at(at[0], at[1], minFocusReach)
		}
	}
}

// receiverFieldsSet are the fields of its receiver that method fn sets
// to one of its parameters (e.indent = indent): what a setter configures.
// A field it sets to anything else (m.dirty = true in MarkOffset) is the
// method's own work, not the caller's choice.
func receiverFieldsSet(fn *ast.FuncDecl) []string {
	if fn == nil || fn.Recv == nil || len(fn.Recv.List) == 0 || len(fn.Recv.List[0].Names) == 0 {
		return nil
	}
	recv := fn.Recv.List[0].Names[0].Name
	params := map[string]bool{}
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			params[n.Name] = true
		}
	}
	var out []string
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && len(a.Lhs) == len(a.Rhs) {
			for k, l := range a.Lhs {
				se, ok := l.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				x, ok := se.X.(*ast.Ident)
				if !ok || x.Name != recv {
					continue
				}
				if v, ok := a.Rhs[k].(*ast.Ident); ok && params[v.Name] {
					out = append(out, se.Sel.Name)
				}
			}
		}
		return true
	})
	return out
}

// declaresField reports whether a struct type of package dir's code has
// a field f: a name the test sets on a type of its own, or that the code
// reads only of another package's values (reflect.StructField's Name),
// is no field of the code's.
func (r *Ranking) declaresField(dir, f string) bool {
	for _, df := range r.dirFiles(dir) {
		if !r.goCode(df.i) || !bytes.Contains(df.src, []byte(f)) {
			continue
		}
		if o := r.factsOf(df.i); o != nil && slices.ContainsFunc(o.syms, func(s symbol) bool { return slices.Contains(s.fields, f) }) {
			return true
		}
	}
	return false
}

// structFields are the names of the fields of struct type t, and of the
// structs nested in it.
func structFields(t ast.Expr) []string {
	var out []string
	ast.Inspect(t, func(n ast.Node) bool {
		if st, ok := n.(*ast.StructType); ok && st.Fields != nil {
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					out = append(out, name.Name)
				}
				if len(fl.Names) == 0 {
					out = append(out, lastName(fl.Type)) // an embedded type
				}
			}
		}
		return true
	})
	return out
}

// fieldReaders are the functions of package dir's code (file and
// declaration line) that read a field called f (x.f, not x.f = v),
// once per package and field: a test's many files (a translation test
// in each language's package) set the same fields.
func (r *Ranking) fieldReaders(dir, f string) [][2]int {
	key := dir + ":" + f
	if out, ok := r.readers[key]; ok {
		return out
	}
	var out [][2]int
	needle := []byte("." + f)
	for _, df := range r.dirFiles(dir) {
		if !r.goCode(df.i) || !bytes.Contains(df.src, needle) {
			continue
		}
		o := r.factsOf(df.i)
		if o == nil {
			continue
		}
		for _, sym := range o.syms {
			if !strings.HasPrefix(sym.sig, "func ") || sym.end > len(o.lines) ||
				!slices.ContainsFunc(o.lines[sym.start-1:sym.end], func(l string) bool { return hasSelector(l, f) }) {
				continue
			}
			if fn, _ := r.funcAt(df.i, sym, sym.decl); fn != nil && readsField(fn, f) {
				out = append(out, [2]int{df.i, sym.decl})
			}
		}
	}
	if r.readers == nil {
		r.readers = map[string][][2]int{}
	}
	r.readers[key] = out
	return out
}

// hasSelector reports whether line holds .f not followed by more of a
// name.
func hasSelector(line, f string) bool {
	for k := 0; ; {
		n := strings.Index(line[k:], "."+f)
		if n < 0 {
			return false
		}
		k += n + 1 + len(f)
		if k >= len(line) || !identByte[line[k]] {
			return true
		}
	}
}

// readsField reports whether fn reads a field f: x.f anywhere but on the
// left of an assignment x.f = v.
func readsField(fn *ast.FuncDecl, f string) bool {
	written := map[*ast.SelectorExpr]bool{}
	read := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN || n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if se, ok := l.(*ast.SelectorExpr); ok {
						written[se] = true
					}
				}
			}
		case *ast.SelectorExpr:
			if n.Sel.Name == f && !written[n] {
				read = true
			}
		}
		return !read
	})
	return read
}
