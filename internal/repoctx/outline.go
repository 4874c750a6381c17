package repoctx

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// outline is the symbols of one file, in source order. Only candidates are
// outlined, when the ranking or the packer needs them.
type outline struct {
	pkg   string
	lines []string // the file's lines, kept for packing
	// lineTokens are the token counts of the rendered lines, filled by
	// the packer when it needs them.
	lineTokens []int
	// hits are the query's terms on each line, see lineHits.
	hits map[int][]int
	syms []symbol
	// imports are the lines from the package clause to the end of the
	// imports (Go only; 0 when not known).
	importsFrom, importsTo int
	// src is the Go source of an outline whose definitions' facts (what
	// each calls, builds and uses: callees, own, dry, pkgCalls, builds,
	// vars) are not made yet, nil once they are. Code that reads them
	// gets the outline from factsOf (symbolsNamed does).
	src []byte
}

// symbol is a top-level definition and the lines it spans (its doc comment
// included).
type symbol struct {
	name    string
	recv    string // a Go method's receiver type name
	sig     string // one line: func (r *T) Name(a int) error, type T struct, ...
	start   int
	decl    int // the line with the name
	end     int
	callees []string // names it calls (Go only)
	// own are the callees a method calls only on its receiver (r.Name()
	// in func (r *T)): T's method Name when T has one, not another type's.
	own map[string]bool
	// dry are the callees it hands none of its inputs (Go only): no
	// argument, and not the value called on, uses a parameter, the
	// receiver, or a variable assigned from them. What a test feeds a
	// function flows into the others.
	dry map[string]bool
	// pkgCalls are its calls pkg.F() through the file's imports: the
	// import path and the name (Go only).
	pkgCalls []pkgCall
	// builds are the type names of the composite literals in its body,
	// T{...} and pkg.T{...} (Go only): values whose methods the code it
	// hands them to may call.
	builds []string
	// vars are the file's package-level variables and constants it
	// uses (Go only): a table or pattern the fix may be in.
	vars []string
	// others are the names a function uses as values that neither it
	// nor its file defines, nor an import or the language does (Go
	// only): its package's variables and constants in other files
	// (timeType, ErrNotFound) among them.
	others []string
	// fields are the field names of a struct type, and of the structs
	// nested in it (Go only).
	fields []string
}

// pkgCall is a call F of the package imported as path.
type pkgCall struct{ path, name string }

// outlineOf parses file i once.
func (r *Ranking) outlineOf(i int) *outline {
	if o, ok := r.outline[i]; ok {
		return o
	}
	o := r.readOutline(i, true)
	r.outline[i] = o
	return o
}

// readOutline reads and outlines file i (nil when it cannot be read),
// with its definitions' facts unless facts is false.
func (r *Ranking) readOutline(i int, facts bool) *outline {
	src, err := os.ReadFile(filepath.Join(r.ix.root, r.ix.paths[i]))
	if err != nil {
		return nil
	}
	return outlineOfSource(r.ix.paths[i], src, facts)
}

// factsOf is file i's outline with its definitions' facts, made now if
// the packer outlined it without them.
func (r *Ranking) factsOf(i int) *outline {
	o := r.outlineOf(i)
	if o != nil && o.src != nil {
		o.syms = outlineFile(r.ix.paths[i], o.src).syms
		o.src = nil
	}
	return o
}

// outlineAll outlines the files is that are not outlined yet, in
// parallel: a caller that will need most of them saves the wall time of
// parsing them one by one (the packer's largest cost). Without facts,
// their definitions' facts wait for factsOf: the packer shows parts of
// most of the files it outlines and follows the calls of few.
func (r *Ranking) outlineAll(ctx context.Context, is []int, facts bool) {
	var todo []int
	for _, i := range is {
		if _, ok := r.outline[i]; !ok {
			todo = append(todo, i)
		}
	}
	out := make([]*outline, len(todo))
	inParallel(ctx, len(todo), func(k int) { out[k] = r.readOutline(todo[k], facts) })
	if ctx.Err() != nil {
		return // left to outlineOf, which the caller's own check stops
	}
	for k, i := range todo {
		r.outline[i] = out[k]
	}
}

// inParallel calls f(k) for each k in [0, n) on as many goroutines as
// there are CPUs, until ctx is done.
func inParallel(ctx context.Context, n int, f func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				f(k)
			}
		})
	}
	wg.Wait()
}

// outlineFile outlines src: with go/parser for Go, by definition lines for
// other languages (or Go that does not parse).
func outlineFile(name string, src []byte) *outline { return outlineOfSource(name, src, true) }

// outlineOfSource is outlineFile, without the Go definitions' facts
// unless facts is true.
func outlineOfSource(name string, src []byte, facts bool) *outline {
	o := &outline{lines: splitLines(src)}
	if path.Ext(name) == ".go" {
		if goOutline(o, name, src, facts) {
			return o
		}
	}
	lightOutline(o, path.Ext(name))
	return o
}

func splitLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func goOutline(o *outline, name string, src []byte, facts bool) bool {
	fset := token.NewFileSet()
	// Without comments: parsing them costs, and a doc comment is the
	// run of // lines right above a declaration (docStart).
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if f == nil || (err != nil && len(f.Decls) == 0) {
		return false
	}
	o.pkg = f.Name.Name
	line := func(p token.Pos) int { return fset.Position(p).Line }
	o.importsFrom, o.importsTo = line(f.Package), line(f.Package)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			o.importsTo = line(g.End())
		}
	}
	imports := importNames(f)
	vars := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.VAR || g.Tok == token.CONST) {
			for _, spec := range g.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					vars[n.Name] = true
				}
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			s := symbol{name: d.Name.Name, recv: recvName(d), start: line(d.Pos()), decl: line(d.Pos()), end: line(d.End())}
			s.start = docStart(o.lines, s.decl)
			s.sig = funcSig(fset, src, d)
			if facts {
				s.callees = callees(d)
				s.own = ownCalls(d)
				s.dry = dryCalls(d)
				s.pkgCalls = pkgCalls(d, imports)
				if d.Body != nil {
					s.builds, s.vars = bodyNames(d.Body, vars)
					s.others = otherNames(d, vars, imports)
				}
			}
			o.syms = append(o.syms, s)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				var s symbol
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					s = symbol{name: sp.Name.Name, sig: "type " + sp.Name.Name + " " + typeKind(fset, sp.Type)}
					if facts {
						s.fields = structFields(sp.Type)
					}
				case *ast.ValueSpec:
					if len(sp.Names) == 0 {
						continue
					}
					s = symbol{name: sp.Names[0].Name, sig: d.Tok.String() + " " + sp.Names[0].Name}
					for _, v := range sp.Values {
						if facts {
							_, used := bodyNames(v, vars)
							s.vars = append(s.vars, used...)
						}
					}
				default:
					continue
				}
				s.start, s.decl, s.end = line(spec.Pos()), line(spec.Pos()), line(spec.End())
				if len(d.Specs) == 1 || !d.Lparen.IsValid() {
					s.start, s.end = line(d.Pos()), line(d.End())
				}
				if len(d.Specs) == 1 {
					s.start = docStart(o.lines, s.start)
				}
				o.syms = append(o.syms, s)
			}
		}
	}
	if !facts {
		o.src = src
	}
	return true
}

// docStart is the first line of the // comment lines right above line
// decl (1-based), or decl when there are none.
func docStart(lines []string, decl int) int {
	k := decl
	for k > 1 && k-1 <= len(lines) && strings.HasPrefix(strings.TrimSpace(lines[k-2]), "//") {
		k--
	}
	return k
}

// recvName is the type name of a method's receiver: T for (t *T) and
// (t T[K]); "" for a function.
func recvName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := uninstantiated(d.Recv.List[0].Type)
	if p, ok := t.(*ast.StarExpr); ok {
		t = uninstantiated(p.X)
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// qualName is how a symbol is named to a reader: Type.Method for a
// method, the name otherwise.
func (s symbol) qualName() string {
	if s.recv != "" {
		return s.recv + "." + s.name
	}
	return s.name
}

// chunkSymbols names the symbols of o that chunk c shows part of.
func (o *outline) chunkSymbols(c Chunk) []string {
	var out []string
	for _, s := range o.syms {
		if s.start <= c.EndLine && s.end >= c.StartLine {
			out = append(out, s.qualName())
		}
	}
	return out
}

// typeKind is struct, interface, or the type itself when it is short.
func typeKind(fset *token.FileSet, t ast.Expr) string {
	switch t.(type) {
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface"
	}
	var b bytes.Buffer
	_ = printer.Fprint(&b, fset, t)
	s := oneLine(b.String())
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// funcSig is a function's signature on one line, from its source: the
// text from func to its body (printing it with go/printer costs far more).
func funcSig(fset *token.FileSet, src []byte, d *ast.FuncDecl) string {
	tf := fset.File(d.Pos())
	end := d.End()
	if d.Body != nil {
		end = d.Body.Lbrace
	}
	lo, hi := tf.Offset(d.Pos()), tf.Offset(end)
	if lo < 0 || hi > len(src) || lo > hi {
		return "func " + d.Name.Name
	}
	sig := oneLine(string(src[lo:hi]))
	// A parameter list over several lines ends "b int, )".
	return strings.ReplaceAll(strings.ReplaceAll(sig, ", )", ")"), "( ", "(")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// lightOutline finds definition lines (see defName, and methodName for
// the languages of ext whose methods have no keyword); a definition ends
// before the next one indented no deeper, or, in those languages and
// Rust, when its body opens a brace, at the line that closes it at its
// indent.
func lightOutline(o *outline, ext string) {
	type open struct {
		indent int
		sym    int
	}
	ext = strings.ToLower(ext)
	methods := methodPatterns[ext]
	cLike := langFamilies[ext] == ".c"
	var stack []open
	for n, l := range o.lines {
		body := skipBlanks([]byte(l))
		if len(body) == 0 {
			continue
		}
		var name []byte
		if defStart[body[0]] {
			name = defName(body)
			// In C, struct T names a type wherever it is used: only
			// struct T { defines it.
			if cLike && name != nil && bytes.ContainsAny(body, "(=;*") {
				name = nil
			}
		}
		start := n
		if name == nil && methods != nil {
			line := string(body)
			if opensParams(body) {
				line = joinParams(o.lines, n)
			}
			name = methodName(methods, line)
			// C's return type on a line of its own, the name at the
			// start of the next (static int / sum(int a)).
			if name == nil && cLike && len(body) == len(l) && n > 0 && reCReturnType.MatchString(o.lines[n-1]) {
				if m := reCFuncName.FindStringSubmatch(line); m != nil && !notNames[m[1]] {
					name, start = []byte(m[1]), n-1
				}
			}
		}
		if name == nil {
			continue
		}
		indent := len(l) - len(body)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			o.syms[stack[len(stack)-1].sym].end = start
			stack = stack[:len(stack)-1]
		}
		sym := symbol{name: string(name), sig: strings.TrimSpace(l), start: start + 1, decl: n + 1, end: len(o.lines)}
		if cLike {
			// A C++ method defined outside its class: Cart::total.
			if before, _, ok := strings.Cut(string(body), "::"+sym.name); ok {
				sym.recv = string(reTrailingIdent.Find([]byte(before)))
			}
		}
		o.syms = append(o.syms, sym)
		stack = append(stack, open{indent, len(o.syms) - 1})
	}
	// In a braced language, a definition ends where its brace closes, at
	// its indent: the last method of a class no longer runs to the next
	// definition.
	for k := range o.syms {
		s := &o.syms[k]
		if methods == nil && ext != ".rs" {
			break
		}
		at := bodyOpens(o.lines, s.decl-1)
		if at < 0 {
			continue
		}
		head := o.lines[s.start-1]
		indent := len(head) - len(skipBlanks([]byte(head)))
		for n := at + 1; n < s.end; n++ {
			l := o.lines[n]
			if body := skipBlanks([]byte(l)); len(body) > 0 && body[0] == '}' && len(l)-len(body) == indent {
				s.end = n + 1
				break
			}
		}
	}
	// Trim trailing blank lines off each definition.
	for k := range o.syms {
		s := &o.syms[k]
		for s.end > s.decl && strings.TrimSpace(o.lines[s.end-1]) == "" {
			s.end--
		}
		if len(s.sig) > 120 {
			s.sig = s.sig[:117] + "..."
		}
	}
}

var (
	// reCReturnType is a C function's return type on a line of its own.
	reCReturnType = regexp.MustCompile(`^[A-Za-z_][\w\s]*[\w*]\s*$`)
	// reCFuncName is a C function's name and parameters at the start of
	// a line.
	reCFuncName = regexp.MustCompile(`^([A-Za-z_]\w*)\s*\(([^;"']*)\)\s*\{?\s*$`)
	// reTrailingIdent is the identifier a text ends with.
	reTrailingIdent = regexp.MustCompile(`[A-Za-z_]\w*$`)
)

// maxParamLines bounds the lines a definition's parameters may span.
const maxParamLines = 24

// opensParams reports whether a line leaves a parenthesis open, as a
// definition whose parameters go on below does (total(, int sum(int a,).
func opensParams(line []byte) bool {
	return bytes.Count(line, []byte("(")) > bytes.Count(line, []byte(")")) && !bytes.HasSuffix(bytes.TrimSpace(line), []byte(";"))
}

// paramsEnd is the line, from line n on, that closes the parentheses line
// n opens (n itself when it closes them or opens none); -1 when none does
// within maxParamLines.
func paramsEnd(lines []string, n int) int {
	depth := 0
	for k := n; k < len(lines) && k < n+maxParamLines; k++ {
		depth += strings.Count(lines[k], "(") - strings.Count(lines[k], ")")
		if depth <= 0 {
			return k
		}
	}
	return -1
}

// bodyOpens is the line whose brace opens the body of the definition
// declared at line n: the one that closes its parameters when it ends in
// {, or a { alone on the line after it (C#, C); -1 when neither does.
func bodyOpens(lines []string, n int) int {
	if k := paramsEnd(lines, n); k >= 0 {
		return braceAt(lines, k)
	}
	return -1
}

// braceAt is the line whose brace opens a body after parameters that
// close on line k: k itself when it ends in {, or the next line when it
// is a { alone; -1 when neither.
func braceAt(lines []string, k int) int {
	switch {
	case strings.HasSuffix(strings.TrimSpace(lines[k]), "{"):
		return k
	case k+1 < len(lines) && strings.TrimSpace(lines[k+1]) == "{":
		return k + 1
	}
	return -1
}

// joinParams is line n of lines and the ones after it up to the one that
// closes its parentheses, as one line, ending in { when the body opens on
// the line after (C#, C). A call whose arguments span lines ends in ); or
// ).then(..., which no method pattern takes for a definition.
func joinParams(lines []string, n int) string {
	k := paramsEnd(lines, n)
	if k < 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines[n : k+1] {
		b.WriteString(strings.TrimSpace(l))
		b.WriteByte(' ')
	}
	if braceAt(lines, k) == k+1 {
		b.WriteByte('{')
	}
	return b.String()
}

// methodPatterns are, per extension, the definition lines of methods and
// functions that no keyword defStart knows starts: a JavaScript or
// TypeScript class's method (total(): number {), a function held by a
// name (const load = async (id) => {), a Java or C# method (public int
// total() {), Kotlin's fun. The name is the pattern's first group; a
// second is a method's parameters, which hold no string, callback or call
// (a call with a callback, describe("x", function () {, is no method).
var methodPatterns = func() map[string][]*regexp.Regexp {
	js := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set|declare)\s+)*\*?\s*#?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(([^"'\x60]*)\)\s*(?::\s*[^{=;]+)?\{\s*$`),
		regexp.MustCompile(`^(?:export\s+)?(?:(?:public|private|protected|static|readonly)\s+)*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::\s*[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)`),
	}
	java := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|sealed|default|extern|unsafe|partial)\s+)*(?:<[^>]+>\s+)?[\w.?\[\]]+(?:<.*>)?(?:\[\])*\s+([A-Za-z_]\w*)\s*\([^;]*\)\s*(?:throws\s+[\w.,\s]+)?\{?\s*$`),
	}
	// C and C++: a return type, then the name (Cart::total, ~Cart), then
	// parameters holding no string; not a declaration (;). A C++
	// constructor or destructor defined outside its class has no return
	// type (Cart::Cart(int n) : n_(n) {).
	c := []*regexp.Regexp{
		regexp.MustCompile(`^(?:[A-Za-z_]\w*::)+(~?[A-Za-z_]\w*)\s*\(([^;"']*)\)\s*(?::[^;]*)?\{?\s*$`),
		regexp.MustCompile(`^(?:template\s*<[^>]*>\s*)?[A-Za-z_][\w:<>,]*(?:[\s*&]+[A-Za-z_][\w:<>,]*)*[\s*&]+(?:[A-Za-z_]\w*::)*([A-Za-z_~]\w*)\s*\(([^;"']*)\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>*&\s]+)?\{?\s*$`),
	}
	kotlin := []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:public|private|protected|internal|open|override|abstract|final|suspend|inline|operator|infix|tailrec)\s+)*fun\s+(?:<[^>]+>\s+)?(?:[\w.<>]+\.)?([A-Za-z_]\w*)\s*\(`),
	}
	return map[string][]*regexp.Regexp{
		".js": js, ".jsx": js, ".mjs": js, ".cjs": js, ".ts": js, ".tsx": js,
		".java": java, ".cs": java, ".kt": kotlin,
		".c": c, ".h": c, ".cc": c, ".cpp": c, ".hpp": c,
	}
}()

// notNames are the words a method pattern can take for a name, or a
// Java method's for its type, that are statements or operators: if (x) {,
// else if (x) {, catch (e) {, new T() {.
var notNames = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"else": true, "do": true, "try": true, "with": true, "new": true, "typeof": true, "await": true,
	"yield": true, "function": true, "synchronized": true, "using": true, "lock": true,
	"foreach": true, "sizeof": true, "super": true, "this": true, "throw": true, "case": true,
}

// methodName is the name a line (from its first non-blank byte) defines
// by one of patterns, or nil.
func methodName(patterns []*regexp.Regexp, line string) []byte {
	for _, re := range patterns {
		if m := re.FindStringSubmatch(line); m != nil && !notNames[m[1]] && (len(m) < 3 || !strings.Contains(m[2], "function") && !strings.Contains(m[2], "=>") && !strings.Contains(m[2], ").")) {
			if w, _, _ := strings.Cut(line, " "); notNames[w] { // new T() {, as Java's type and name
				return nil
			}
			return []byte(m[1])
		}
	}
	return nil
}
