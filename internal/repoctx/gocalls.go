package repoctx

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// callees are the names a function calls: f(), x.f(), pkg.F() (as
// callName gives them); not the names it calls only as its own values,
// plain calls of a parameter, a result or a variable it declares before
// the call (for _, h := range hooks { h(req) }): a function value, not
// the package's function or a method of that name, which following the
// call would pack. One walk in source order, as Go declares before use.
func callees(d *ast.FuncDecl) []string {
	if d.Body == nil {
		return nil
	}
	var locals, own, other, names []string
	// locals holds each name once: a long test declares err again and
	// again.
	local := func(name string) {
		if !slices.Contains(locals, name) {
			locals = append(locals, name)
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				local(n.Name)
			}
		}
	}
	idents := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				local(id.Name)
			}
		}
	}
	fields(d.Recv)
	fields(d.Type.Params)
	fields(d.Type.Results)
	// A declaration's names count from after its values: h := h() calls
	// the package's h.
	var visit func(n ast.Node) bool
	walk := func(ns ...ast.Node) {
		for _, n := range ns {
			ast.Inspect(n, visit)
		}
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			ms := callName(n)
			names = append(names, ms...)
			if id, ok := n.Fun.(*ast.Ident); ok && slices.Contains(locals, id.Name) {
				own = append(own, ms...)
			} else {
				other = append(other, ms...)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Rhs {
					walk(e)
				}
				idents(n.Lhs...)
				return false
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				walk(n.X)
				idents(n.Key, n.Value)
				walk(n.Body)
				return false
			}
		case *ast.ValueSpec:
			for _, e := range n.Values {
				walk(e)
			}
			for _, id := range n.Names {
				local(id.Name)
			}
			return false
		case *ast.FuncLit:
			fields(n.Type.Params)
			fields(n.Type.Results)
		}
		return true
	}
	walk(d.Body)
	seen := map[string]bool{}
	for _, name := range own {
		seen[name] = !slices.Contains(other, name)
	}
	var out []string
	for _, name := range names {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// dryCalls are the names d calls without handing them any of its
// inputs: no call of that name has an argument, or a value it is called
// on, that uses d's parameters or receiver, or a variable assigned from
// them before (two rounds of assignments).
func dryCalls(d *ast.FuncDecl) map[string]bool {
	if d.Body == nil {
		return nil
	}
	in := map[string]bool{}
	for _, fl := range []*ast.FieldList{d.Recv, d.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				in[n.Name] = true
			}
		}
	}
	delete(in, "_")
	if len(in) == 0 {
		return nil
	}
	uses := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && in[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	for range 2 {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, r := range n.Rhs {
					if uses(r) {
						for _, l := range n.Lhs {
							if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
								in[id.Name] = true
							}
						}
						break
					}
				}
			case *ast.RangeStmt:
				if uses(n.X) {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
							in[id.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, v := range n.Values {
					if uses(v) {
						for _, id := range n.Names {
							in[id.Name] = true
						}
						break
					}
				}
			}
			return true
		})
	}
	dry, wet := map[string]bool{}, map[string]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := lastName(c.Fun)
		if name == "" {
			return true
		}
		f, method := c.Fun.(*ast.SelectorExpr)
		if method && uses(f.X) || slices.ContainsFunc(c.Args, func(a ast.Expr) bool { return uses(a) }) {
			wet[name] = true
		} else {
			dry[name] = true
		}
		return true
	})
	for name := range wet {
		delete(dry, name)
	}
	return dry
}

// ownCalls are the names method d calls on its receiver (r.Name()) and
// on nothing else.
func ownCalls(d *ast.FuncDecl) map[string]bool {
	if d.Body == nil || d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
		return nil
	}
	recv := d.Recv.List[0].Names[0].Name
	own, other := map[string]bool{}, map[string]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			name := lastName(c.Fun)
			if f, ok := c.Fun.(*ast.SelectorExpr); ok {
				if x, ok := f.X.(*ast.Ident); ok && x.Name == recv {
					own[name] = true
					return true
				}
			}
			other[name] = true
		}
		return true
	})
	for name := range other {
		delete(own, name)
	}
	if len(own) == 0 {
		return nil
	}
	return own
}

// bodyNames are, in n, the type names of the composite literals and the
// names of vars it uses, each once, in order: one walk for both.
func bodyNames(n ast.Node, vars map[string]bool) (builds, used []string) {
	seen := map[string]bool{}
	once := func(to *[]string, kind, name string) {
		if name != "" && !seen[kind+name] {
			seen[kind+name] = true
			*to = append(*to, name)
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			once(&builds, "T", lastName(n.Type))
		case *ast.Ident:
			if vars[n.Name] {
				once(&used, "v", n.Name)
			}
		}
		return true
	})
	return builds, used
}

// otherNames are the names fn uses as values, each once, in order, that
// neither fn (its parameters, receiver, results and locals) nor its file
// (vars) defines, and that are no import and nothing the language
// predeclares. A call's function and a type's name are no value: left
// out where the syntax says which they are (f(x), T{...}, x.(T), var v T).
func otherNames(fn *ast.FuncDecl, vars map[string]bool, imports map[string]string) []string {
	defined := map[string]bool{}
	var used []string
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field: // a parameter, result or field: its type is no value
			for _, id := range n.Names {
				defined[id.Name] = true
			}
			return false
		case *ast.ValueSpec:
			for _, id := range n.Names {
				defined[id.Name] = true
			}
			for _, v := range n.Values {
				ast.Inspect(v, walk)
			}
			return false
		case *ast.TypeSpec:
			defined[n.Name.Name] = true
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						defined[id.Name] = true
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						defined[id.Name] = true
					}
				}
			}
		case *ast.LabeledStmt:
			ast.Inspect(n.Stmt, walk)
			return false
		case *ast.BranchStmt:
			return false
		case *ast.SelectorExpr:
			ast.Inspect(n.X, walk)
			return false
		case *ast.CallExpr:
			if _, ok := n.Fun.(*ast.Ident); !ok {
				ast.Inspect(n.Fun, walk)
			}
			for _, a := range n.Args {
				ast.Inspect(a, walk)
			}
			return false
		case *ast.CompositeLit:
			// A key is a struct's field name, in a literal of a named
			// type (or of one left out, inside another literal); in a
			// map's or a slice's own type's literal, a value.
			fields := n.Type == nil
			switch n.Type.(type) {
			case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
				fields = true
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if _, name := kv.Key.(*ast.Ident); !name || !fields {
						ast.Inspect(kv.Key, walk)
					}
					e = kv.Value
				}
				ast.Inspect(e, walk)
			}
			return false
		case *ast.TypeAssertExpr:
			ast.Inspect(n.X, walk)
			return false
		case *ast.Ident:
			used = append(used, n.Name)
		}
		return true
	}
	if fn.Recv != nil {
		ast.Inspect(fn.Recv, walk)
	}
	ast.Inspect(fn.Type, walk)
	ast.Inspect(fn.Body, walk)
	var out []string
	seen := map[string]bool{}
	for _, n := range used {
		if seen[n] || defined[n] || vars[n] || n == "_" || types.Universe.Lookup(n) != nil {
			continue
		}
		if _, ok := imports[n]; ok {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// lastName is the name e ends with: x for x, Sel for x.Sel, of the
// generic function or type instantiated (F[T], pkg.F[K, V]) or in
// parentheses; "" for other expressions.
func lastName(e ast.Expr) string {
	switch e := uninstantiated(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// uninstantiated is e without the type arguments of a generic function
// or type (Decode[int], pkg.Map[K, V]) and the parentheses around it.
// An index of a map or slice of functions (m[k]) is left as m: its
// name is the table the functions are in.
func uninstantiated(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return e
		}
	}
}

// importNames maps the names f refers to its imports by to their paths
// (when not renamed, the name the path suggests: see assumedName).
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := assumedName(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." && name != "" {
			out[name] = p
		}
	}
	return out
}

// assumedName is the package name an import path suggests, as goimports
// assumes it: the last element, or the one before a major version suffix
// (github.com/go-chi/chi/v5 is chi), without a "go-" prefix and cut at
// the first character a Go name cannot hold (gopkg.in/yaml.v3 is yaml,
// github.com/pelletier/go-toml/v2 is toml). Right for almost every
// package, and without reading the package.
func assumedName(importPath string) string {
	base := path.Base(importPath)
	if n, ok := strings.CutPrefix(base, "v"); ok {
		if _, err := strconv.Atoi(n); err == nil && path.Dir(importPath) != "." {
			base = path.Base(path.Dir(importPath))
		}
	}
	base = strings.TrimPrefix(base, "go-")
	if k := strings.IndexFunc(base, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); k >= 0 {
		base = base[:k]
	}
	return base
}

// pkgCalls are the calls pkg.F() in d's body whose pkg is one of the
// file's imports.
func pkgCalls(d *ast.FuncDecl, imports map[string]string) []pkgCall {
	if d.Body == nil || len(imports) == 0 {
		return nil
	}
	seen := map[pkgCall]bool{}
	var out []pkgCall
	ast.Inspect(d.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := uninstantiated(c.Fun).(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				if p, ok := imports[x.Name]; ok {
					if pc := (pkgCall{p, sel.Sel.Name}); !seen[pc] {
						seen[pc] = true
						out = append(out, pc)
					}
				}
			}
		}
		return true
	})
	return out
}

// goBuiltins are Go's predeclared functions. A plain call of one
// (append(s, x)) calls no definition of the package; a call on a value
// or a package (sl.append(app, b), w.close()) is a method or a function
// of that name, like any other.
var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// everyTestCalls are the names of the testing and fmt calls that tests
// and code make everywhere (t.Errorf, fmt.Sprintf, err.Error()): followed,
// they would reach every definition of that name the package has.
var everyTestCalls = map[string]bool{
	"Errorf": true, "Sprintf": true, "Fatalf": true, "Fatal": true, "Error": true, "Logf": true,
	"Helper": true, "String": true,
}
