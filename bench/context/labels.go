package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// target is a function whose defining file a query must get packed.
type target struct {
	file     string // path in the corpus
	decl     int    // line of the func keyword
	name     string // function or method name
	recv     string // receiver type, for methods
	pkg      string // package name
	imp      string // import path
	doc      string // first sentence of the doc comment, name removed
	test     string // a test that calls it, or a made-up one
	testFile string // that test's file name
	testLine int    // the line in the test that calls it
	bodyLine int    // a line inside the body, for stack traces
}

// labelled is one query of the labelled set.
type labelled struct {
	kind  string // "test" (failing test output) or "issue"
	query string
	t     *target
}

// pickTargets samples n exported, documented functions of 5-200 lines from
// non-test Go files of the corpus (not testdata, vendor or generated).
func pickTargets(root string, files []string, n int, seed uint64) []*target {
	var goFiles []string
	for _, f := range files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !strings.Contains(f, "/testdata/") &&
			!strings.Contains(f, "/vendor/") && !strings.Contains(f, "/internal/") && !strings.Contains(f, "go/src/cmd/") {
			goFiles = append(goFiles, f)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	rng.Shuffle(len(goFiles), func(i, j int) { goFiles[i], goFiles[j] = goFiles[j], goFiles[i] })
	var out []*target
	usedDir := map[string]bool{}
	for _, f := range goFiles {
		if len(out) == n {
			break
		}
		if usedDir[path.Dir(f)] {
			continue
		}
		t := pickFunc(root, f, rng)
		if t == nil {
			continue
		}
		usedDir[path.Dir(f)] = true
		findTest(root, t)
		out = append(out, t)
	}
	return out
}

func pickFunc(root, file string, rng *rand.Rand) *target {
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil || strings.Contains(string(src[:min(len(src), 2000)]), "Code generated") {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var cands []*ast.FuncDecl
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Doc == nil || !fd.Name.IsExported() {
			continue
		}
		lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line
		if lines < 5 || lines > 200 || fd.Name.Name == "String" || fd.Name.Name == "Error" {
			continue
		}
		cands = append(cands, fd)
	}
	if len(cands) == 0 {
		return nil
	}
	fd := cands[rng.IntN(len(cands))]
	t := &target{file: file, name: fd.Name.Name, pkg: f.Name.Name, decl: fset.Position(fd.Pos()).Line}
	t.bodyLine = (t.decl + fset.Position(fd.End()).Line) / 2
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		t.recv = recvName(fd.Recv.List[0].Type)
	}
	t.imp = importPath(path.Dir(file))
	doc := strings.Join(strings.Fields(fd.Doc.Text()), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.TrimSuffix(doc, ".")
	doc = strings.TrimPrefix(doc, t.name+" ")
	t.doc = doc
	return t
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	}
	return ""
}

// importPath turns a corpus directory into the import path Go prints.
func importPath(dir string) string {
	if rest, ok := strings.CutPrefix(dir, "go/src/"); ok {
		return rest
	}
	rest := strings.TrimPrefix(dir, "mod/")
	if at := strings.Index(rest, "@"); at >= 0 {
		mod := rest[:at]
		sub := rest[at:]
		if i := strings.Index(sub, "/"); i >= 0 {
			return mod + sub[i:]
		}
		return mod
	}
	return rest
}

// findTest looks for a test in the package that calls the target; without
// one it makes up the name a developer would give it.
func findTest(root string, t *target) {
	dir := path.Dir(t.file)
	entries, _ := os.ReadDir(filepath.Join(root, dir))
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, mustRead(filepath.Join(root, dir, name)), parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			line := 0
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || line > 0 {
					return line == 0
				}
				switch fn := c.Fun.(type) {
				case *ast.Ident:
					if fn.Name == t.name {
						line = fset.Position(c.Pos()).Line
					}
				case *ast.SelectorExpr:
					if fn.Sel.Name == t.name {
						line = fset.Position(c.Pos()).Line
					}
				}
				return true
			})
			if line > 0 {
				t.test, t.testFile, t.testLine = fd.Name.Name, name, line
				return
			}
		}
	}
	t.test = "Test" + t.name
	if t.recv != "" {
		t.test = "Test" + t.recv + "_" + t.name
	}
	t.testFile = strings.TrimSuffix(path.Base(t.file), ".go") + "_test.go"
	t.testLine = 42
}

func mustRead(p string) []byte {
	b, _ := os.ReadFile(p)
	return b
}

// queries writes, for each target, the failing test output and the issue a
// user would file.
func queries(ts []*target) []labelled {
	var out []labelled
	for k, t := range ts {
		out = append(out, labelled{"test", testOutput(k, t), t}, labelled{"issue", issueText(k, t), t})
	}
	return out
}

func callName(t *target) string {
	if t.recv != "" {
		return t.recv + "." + t.name
	}
	return t.name
}

func testOutput(k int, t *target) string {
	var b strings.Builder
	fmt.Fprintf(&b, "=== RUN   %s\n--- FAIL: %s (0.00s)\n", t.test, t.test)
	if k%3 == 2 {
		rel := t.file[strings.Index(t.file, "/")+1:]
		fmt.Fprintf(&b, "panic: runtime error: index out of range [4] with length 4 [recovered]\n"+
			"\tpanic: runtime error: index out of range [4] with length 4\n\n"+
			"goroutine 21 [running]:\ntesting.tRunner.func1.2({0x6b3f20, 0xc000016258})\n"+
			"\t/usr/local/go/src/testing/testing.go:1632 +0x230\n"+
			"panic({0x6b3f20?, 0xc000016258?})\n\t/usr/local/go/src/runtime/panic.go:785 +0x132\n")
		fn := t.name
		if t.recv != "" {
			fn = "(*" + t.recv + ")." + t.name
		}
		fmt.Fprintf(&b, "%s.%s(...)\n\t/home/runner/work/proj/proj/%s:%d +0x1d\n", t.imp, fn, rel, t.bodyLine)
		fmt.Fprintf(&b, "%s.%s(0xc0000a3380)\n\t/home/runner/work/proj/proj/%s/%s:%d +0x45\n",
			t.imp, t.test, path.Dir(rel), t.testFile, t.testLine)
		fmt.Fprintf(&b, "testing.tRunner(0xc0000a3380, 0x6f1d88)\n\t/usr/local/go/src/testing/testing.go:1690 +0xf4\n")
		fmt.Fprintf(&b, "exit status 2\nFAIL\t%s\t0.015s\n", t.imp)
		return b.String()
	}
	fmt.Fprintf(&b, "    %s:%d: %s(%s) = %s, want %s\n", t.testFile, t.testLine, callName(t), []string{"tc.in", "input", `"abc"`}[k%3], []string{"0", "<nil>", `""`}[k%3], []string{"1", "non-nil error", `"abc"`}[k%3])
	fmt.Fprintf(&b, "FAIL\nFAIL\t%s\t0.012s\nFAIL\n", t.imp)
	return b.String()
}

func issueText(k int, t *target) string {
	doc := t.doc
	if k%2 == 0 {
		return fmt.Sprintf("%s: %s.%s returns a wrong result\n\nWhen I call `%s.%s` it does not do what the docs say (%s). "+
			"I expected it to work for my input, but it returns an unexpected value. Using the latest release.\n",
			t.pkg, t.pkg, callName(t), t.pkg, callName(t), doc)
	}
	return fmt.Sprintf("%s: does not work as documented\n\nThe documentation says that it %s, but that is not what happens "+
		"in my program. I am using package %s. Could someone take a look?\n", t.pkg, doc, t.pkg)
}
