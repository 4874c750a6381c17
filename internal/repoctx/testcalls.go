package repoctx

import (
	"go/ast"
	"path"
	"regexp"
	"slices"
	"strconv"
)

// passedSubtestCalls are the calls test s (Go file i) makes only in
// subtests (functions it hands t.Run) that hold none of lines, the lines
// the output names: subtests that passed, or failed on lines of their
// own. None when no line is in a subtest.
func (r *Ranking) passedSubtestCalls(i int, s symbol, lines []int) map[string]bool {
	if len(lines) == 0 {
		return nil
	}
	fn, lineOf := r.funcAt(i, s, lines[0])
	if fn == nil {
		return nil
	}
	var subtests []*ast.FuncLit
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && lastName(c.Fun) == "Run" && len(c.Args) > 0 {
			if lit, ok := c.Args[len(c.Args)-1].(*ast.FuncLit); ok {
				subtests = append(subtests, lit)
			}
		}
		return true
	})
	failed := func(lit *ast.FuncLit) bool {
		return slices.ContainsFunc(lines, func(l int) bool { return lineOf(lit.Pos()) <= l && l <= lineOf(lit.End()) })
	}
	if !slices.ContainsFunc(subtests, failed) {
		return nil
	}
	// kept are the names called where the evidence is: in a failed
	// subtest, or outside every subtest.
	kept, passed := map[string]bool{}, map[string]bool{}
	for _, lit := range subtests {
		into := passed
		if failed(lit) {
			into = kept
		}
		for _, c := range callNames(lit.Body) {
			into[c] = true
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && slices.Contains(subtests, lit) {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			kept[lastName(c.Fun)] = true
		}
		return true
	})
	for c := range kept {
		delete(passed, c)
	}
	return passed
}

// afterFailureCalls are the calls test s (Go file i) makes only after
// lines, the lines the output names in it: after the statement holding
// the last of them, in the function (s, or the subtest's function) that
// holds them all, and outside every loop of that function that holds
// one. A call there ran after the failure was seen, and did not cause
// it. None when a line is in a function of its own inside that one (a
// check the test calls later), or is not where the test reported its
// failure.
func (r *Ranking) afterFailureCalls(i int, s symbol, lines []int) map[string]bool {
	// Each line must be where the test reported its failure, the head
	// of a line it logged ("    marshaler_test.go:884: "). A panic's
	// frame stopped the test before the calls it meant to make (cobra's
	// test expects Execute to panic, and AddCommand did); gomock names
	// the line that expected a call it missed when the test ends.
	base := regexp.QuoteMeta(path.Base(r.ix.paths[i]))
	if len(lines) == 0 || slices.ContainsFunc(lines, func(l int) bool {
		return !regexp.MustCompile(`(?:^|\s)` + base + ":" + strconv.Itoa(l) + ": ").MatchString(r.q.text)
	}) {
		return nil
	}
	fn, lineOf := r.funcAt(i, s, lines[0])
	if fn == nil {
		return nil
	}
	holds := func(n ast.Node, l int) bool { return lineOf(n.Pos()) <= l && l <= lineOf(n.End()) }
	last := slices.Max(lines)
	// inner is the innermost function holding the last line; end, the
	// line where the innermost statement of inner holding it ends; loops,
	// the loops of inner that hold a line.
	var inner ast.Node = fn
	if lits := litsIn(fn.Body, last, lineOf); len(lits) > 0 {
		inner = lits[len(lits)-1]
	}
	var loops []ast.Node
	end := 0
	own := true
	ast.Inspect(inner, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			if n != inner {
				// Every line must be inner's own: a function
				// literal's runs whenever it is called.
				if slices.ContainsFunc(lines, func(l int) bool { return holds(n, l) }) {
					own = false
				}
				return false
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if slices.ContainsFunc(lines, func(l int) bool { return holds(n, l) }) {
				loops = append(loops, n)
			}
		}
		if st, isStmt := n.(ast.Stmt); isStmt && holds(st, last) {
			if _, block := st.(*ast.BlockStmt); !block {
				end = lineOf(st.End())
			}
		}
		return true
	})
	if !own || end == 0 || slices.ContainsFunc(lines, func(l int) bool { return !holds(inner, l) }) {
		return nil
	}
	after, before := map[string]bool{}, map[string]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		c, isCall := n.(*ast.CallExpr)
		if !isCall {
			return true
		}
		l := lineOf(c.Pos())
		into := before
		if l > end && holds(inner, l) && !slices.ContainsFunc(loops, func(lp ast.Node) bool { return holds(lp, l) }) {
			into = after
		}
		for _, name := range callName(c) {
			into[name] = true
		}
		return true
	})
	for name := range before {
		delete(after, name)
	}
	return after
}

// callNames are the names of the calls in n: f(), x.f(), pkg.F().
func callNames(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			out = append(out, callName(c)...)
		}
		return true
	})
	return out
}

// callName are the names call c means: its function's name (not a
// plain call's of a builtin, nor one of everyTestCalls), after the
// functions a standard library call dispatches to (dispatch).
func callName(c *ast.CallExpr) []string {
	var out []string
	name := lastName(c.Fun)
	if f, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := f.X.(*ast.Ident); ok {
			out = append(out, dispatch[x.Name+"."+name]...)
		}
	}
	_, plain := c.Fun.(*ast.Ident)
	if name != "" && !(plain && goBuiltins[name]) && !everyTestCalls[name] {
		out = append(out, name)
	}
	return out
}

// dispatch are the methods of their arguments that standard library
// functions call: a test that serves its router with httptest.NewServer
// reaches the router's ServeHTTP through no call it writes.
var dispatch = map[string][]string{
	"httptest.NewServer": {"ServeHTTP"}, "httptest.NewTLSServer": {"ServeHTTP"}, "httptest.NewUnstartedServer": {"ServeHTTP"},
	"http.ListenAndServe": {"ServeHTTP"}, "http.ListenAndServeTLS": {"ServeHTTP"}, "http.Serve": {"ServeHTTP"},
	"http.ServeTLS": {"ServeHTTP"}, "http.Handle": {"ServeHTTP"},
}

// identsIn are the plain identifiers n uses.
func identsIn(n ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}
