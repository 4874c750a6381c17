package repoctx

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
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
	// enum is, for a constant of a const ( ... ) block that counts with
	// iota (Go only), the block's lines with its doc comment: the values
	// of one enumeration, which a change to one of them (a value added,
	// one renumbered) must see together. Zero otherwise.
	enum Chunk
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
			var enum Chunk
			if d.Tok == token.CONST && d.Lparen.IsValid() && len(d.Specs) > 1 && countsWithIota(d) {
				enum = span(docStart(o.lines, line(d.Pos())), line(d.End()))
			}
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
					s = symbol{name: sp.Names[0].Name, sig: d.Tok.String() + " " + sp.Names[0].Name, enum: enum}
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

// countsWithIota reports whether const block d uses iota: its values
// are an enumeration's.
func countsWithIota(d *ast.GenDecl) bool {
	for _, spec := range d.Specs {
		for _, v := range spec.(*ast.ValueSpec).Values {
			found := false
			ast.Inspect(v, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
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
