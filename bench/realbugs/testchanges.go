package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// changedSpecs reports whether the release added or changed specs in a
// test file: a package-level var whose value holds a function literal
// (var _ = Describe("...", func() { It("...", func() { ... }) })).
func changedSpecs(old, new []byte) bool {
	before := specVars(old)
	for _, text := range specVars(new) {
		if !slices.Contains(before, text) {
			return true
		}
	}
	return false
}

// specVars are the texts of src's package-level var declarations that
// hold a function literal.
func specVars(src []byte) []string {
	if src == nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		lit := false
		ast.Inspect(g, func(n ast.Node) bool {
			_, isLit := n.(*ast.FuncLit)
			lit = lit || isLit
			return !lit
		})
		if lit {
			out = append(out, string(src[fset.Position(g.Pos()).Offset:fset.Position(g.End()).Offset]))
		}
	}
	return out
}

// changedSuites are the receiver types of the test methods of suites
// (func (s *S) TestX(), which testify's suite.Run and gocheck's TestingT
// run) that the release added or changed in a test file.
func changedSuites(old, new []byte) []string {
	before := testMethods(old)
	var out []string
	for key, body := range testMethods(new) {
		if typ := key[0]; before[key] != body && !slices.Contains(out, typ) {
			out = append(out, typ)
		}
	}
	sort.Strings(out)
	return out
}

// testMethods are src's methods whose names start with Test, by their
// receiver's type name and their name, with their text.
func testMethods(src []byte) map[[2]string]string {
	out := map[[2]string]string{}
	eachTestDecl(src, func(fd *ast.FuncDecl, text string) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return
		}
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if id, ok := t.(*ast.Ident); ok {
			out[[2]string{id.Name, fd.Name.Name}] = text
		}
	})
	return out
}

// runsSpecs reports whether a Test function's body runs the package's
// Ginkgo specs.
func runsSpecs(body string) bool { return strings.Contains(body, "RunSpecs(") }

// runsSuite is whether a Test function's body runs the suite of type typ:
// testify's suite.Run(t, new(typ)) or suite.Run(t, &typ{...}); gocheck's
// TestingT(t) runs every suite its package registers.
func runsSuite(typ string) func(body string) bool {
	re := regexp.MustCompile(`\bsuite\.Run\([^)]*\b` + regexp.QuoteMeta(typ) + `\b`)
	return func(body string) bool { return re.MatchString(body) || strings.Contains(body, "TestingT(") }
}

// suiteTests are the Test functions of the test files of package dir (of
// files, by path) that one of runs says run its changed specs or suites.
func suiteTests(files map[string][]byte, dir string, runs []func(body string) bool) []string {
	var out []string
	for p, src := range files {
		if pathDir(p) != dir || !strings.HasSuffix(p, "_test.go") {
			continue
		}
		for name, body := range testFuncs(src) {
			if slices.ContainsFunc(runs, func(run func(string) bool) bool { return run(body) }) {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// changedTests lists the Test functions of a test file that the release
// added or whose text changed.
func changedTests(old, new []byte) []string {
	before := testFuncs(old)
	var out []string
	for name, body := range testFuncs(new) {
		if before[name] != body {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func testFuncs(src []byte) map[string]string {
	out := map[string]string{}
	eachTestDecl(src, func(fd *ast.FuncDecl, text string) {
		if fd.Recv == nil {
			out[fd.Name.Name] = text
		}
	})
	return out
}

// eachTestDecl calls each with every function and method of src whose
// name starts with Test and that has a body, and its text.
func eachTestDecl(src []byte, each func(fd *ast.FuncDecl, text string)) {
	if src == nil {
		return
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Test") && fd.Body != nil {
			each(fd, string(src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset]))
		}
	}
}
