package repoctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/tokens"
)

func TestLook(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	// On disk but not tracked: never shown.
	if err := os.WriteFile(filepath.Join(repo, "secret.env"), []byte("TOKEN=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string][]Chunk{"dates/month.go": {span(1, 3)}}
	l := ix.Look([]string{
		"dates/parse.go:ParseDate",
		"./dates/parse.go:12-14",
		"month.go",
		"dates/parse.go:Parse",
		"dates/parse.go:40-50",
		"dates/parse.go:9-3",
		"../outside.go",
		".git/config",
		"secret.env",
		"dates/month.go:1-2",
	}, shown, 4000)
	want := []struct {
		path, err string
		chunk     Chunk
		seen      bool
	}{
		{path: "dates/parse.go", chunk: span(12, 27)},
		{path: "dates/parse.go", chunk: span(12, 14), seen: true},
		{path: "dates/month.go", chunk: span(4, 21)},
		{path: "dates/parse.go", err: `defines no function, method or type named "Parse"; it defines: Date, ErrSyntax, ParseDate`},
		{path: "dates/parse.go", err: "the file has 35 lines; line 40 does not exist"},
		{path: "dates/parse.go", err: `"9-3" is not a line range`},
		{err: "not a path inside the repository"},
		{err: "no such file in the repository"},
		{err: "no such file in the repository"},
		{path: "dates/month.go", chunk: span(1, 2), seen: true},
	}
	if len(l.Items) != len(want) {
		t.Fatalf("%d items, want %d: %+v", len(l.Items), len(want), l.Items)
	}
	for k, w := range want {
		it := l.Items[k]
		switch {
		case it.Path != w.path:
			t.Errorf("%s: path %q, want %q", it.Request, it.Path, w.path)
		case w.err != "" && !strings.Contains(it.Error, w.err):
			t.Errorf("%s: error %q, want %q", it.Request, it.Error, w.err)
		case w.err == "" && (it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != w.chunk.StartLine || it.Chunks[0].EndLine != w.chunk.EndLine || it.Seen != w.seen):
			t.Errorf("%s: %+v, want chunk %d-%d seen=%v", it.Request, it, w.chunk.StartLine, w.chunk.EndLine, w.seen)
		}
	}
	if at := shownAt(l.Text, "func ParseDate(s string) (Date, error) {"); at != 13 {
		t.Errorf("ParseDate shown at line %d, want 13:\n%s", at, l.Text)
	}
	if !strings.Contains(l.Text, "\n## ./dates/parse.go:12-14: lines 12-14 are shown above\n") {
		t.Errorf("the answer for lines shown already is not the short one:\n%s", l.Text)
	}
	if strings.Contains(l.Text, "TOKEN") {
		t.Errorf("an untracked file was shown:\n%s", l.Text)
	}
	if l.Tokens != tokens.Estimate(l.Text) && l.Tokens < tokens.Estimate(l.Text) {
		t.Errorf("Tokens %d below the text's %d", l.Tokens, tokens.Estimate(l.Text))
	}
}

func TestLookBudget(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	// big/big.go does not fit 400 tokens: its outline is shown instead;
	// then the budget is used up.
	l := ix.Look([]string{"big/big.go", "big/big.go:Normalize", "big/big.go:1-120"}, map[string][]Chunk{}, 400)
	if it := l.Items[0]; !it.Outline || !strings.Contains(l.Text, "3-8: func Step0(x int) int") || !strings.Contains(l.Text, " more)") {
		t.Errorf("big file: %+v, want its outline, cut to fit\n%s", it, l.Text)
	}
	if it := l.Items[1]; it.Error != "" || shownAt(l.Text, "func Normalize(key string) string {") != 151 {
		t.Errorf("Normalize: %+v\n%s", it, l.Text)
	}
	if l.Tokens > 400 || tokens.Estimate(l.Text) > 400 {
		t.Errorf("look took %d tokens (text %d), over its budget of 400", l.Tokens, tokens.Estimate(l.Text))
	}
	last := l.Items[len(l.Items)-1]
	if !strings.Contains(last.Error, "look budget (400 tokens) is used up") {
		t.Errorf("last item %+v, want the budget refusal", last)
	}
}

// lookFixture is a file with one long function, Long (lines 3-122), and a
// short one after it, Short (lines 124-128).
func lookFixture() map[string]string {
	var b strings.Builder
	b.WriteString("package calc\n\nfunc Long(x int) int {\n")
	for i := 0; i < 118; i++ {
		fmt.Fprintf(&b, "\tx = x*31 + %d // step %d of the long function\n", i, i)
	}
	b.WriteString("}\n\nfunc Short(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n")
	return map[string]string{"calc/calc.go": b.String()}
}

func TestLookShowsOnlyTheLinesThePackDidNot(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	// The pack showed Long's head and a window in its middle.
	shown := map[string][]Chunk{"calc/calc.go": {span(3, 10), span(50, 60)}}
	l := ix.Look([]string{"calc/calc.go:Long"}, shown, 4000)
	it := l.Items[0]
	want := []Chunk{span(11, 49), span(61, 122)}
	if it.Error != "" || len(it.Chunks) != len(want) {
		t.Fatalf("Long: %+v, want chunks %v", it, want)
	}
	for k, c := range want {
		if it.Chunks[k].StartLine != c.StartLine || it.Chunks[k].EndLine != c.EndLine {
			t.Errorf("Long: chunks %v, want %v", it.Chunks, want)
		}
	}
	if strings.Contains(l.Text, "step 2 of") || strings.Contains(l.Text, "step 50 of") || !strings.Contains(l.Text, "step 8 of") {
		t.Errorf("the look showed lines the pack had shown, or not the others:\n%s", l.Text)
	}
	if got := shown["calc/calc.go"]; len(got) != 1 || got[0].StartLine != 3 || got[0].EndLine != 122 {
		t.Errorf("shown after the look: %v, want 3-122", got)
	}
}

func TestLookCutsALargeDefinitionAfterTheSmallOnes(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []string{"calc/calc.go:Long", "calc/calc.go:Short"}
	whole := ix.Look(reqs, map[string][]Chunk{}, 1<<20)
	long, short := whole.Items[0].Tokens, whole.Items[1].Tokens
	// Long alone fits, but not with Short: shown first, it would keep
	// Short out; it is shown after it instead, cut to what is left.
	budget := long + short/2
	if long <= budget/2 {
		t.Fatalf("fixture: Long costs %d tokens, not over half of %d", long, budget)
	}
	l := ix.Look(reqs, map[string][]Chunk{}, budget)
	lo, sh := l.Items[0], l.Items[1]
	if sh.Error != "" || !strings.Contains(l.Text, "func Short(x int) int {") {
		t.Errorf("Short: %+v, want it shown whole\n%s", sh, l.Text)
	}
	if lo.Error != "" || len(lo.Chunks) != 1 || lo.Chunks[0].StartLine != 3 || lo.Chunks[0].EndLine >= 122 || lo.Omitted == "" {
		t.Fatalf("Long: %+v, want its head shown and the rest named", lo)
	}
	if want := fmt.Sprintf("%d-122", lo.Chunks[0].EndLine+1); lo.Omitted != want || !strings.Contains(l.Text, "lines "+want+" not shown: the look budget is used up") {
		t.Errorf("Long: omitted %q, want %q said in the text\n%s", lo.Omitted, want, l.Text)
	}
	if strings.Index(l.Text, "func Long") > strings.Index(l.Text, "func Short") {
		t.Errorf("the answers are not in the order asked:\n%s", l.Text)
	}
	if l.Tokens > budget || tokens.Estimate(l.Text) > budget {
		t.Errorf("look took %d tokens (text %d), over its budget of %d", l.Tokens, tokens.Estimate(l.Text), budget)
	}
	// With no room for minCutLines lines, the answer says so.
	l = ix.Look(reqs, map[string][]Chunk{}, short+40)
	if !strings.Contains(l.Items[0].Error, "look budget") || l.Items[1].Error != "" {
		t.Errorf("tight budget: %+v", l.Items)
	}
}

func TestLookShowsTheRestOfAFileThePackShowedMostOf(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, lookFixture()))
	if err != nil {
		t.Fatal(err)
	}
	whole := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{}, 1<<20).Items[0].Tokens
	// Too large to show whole, but the pack showed all of it but Short.
	budget := whole / 2
	l := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{"calc/calc.go": {span(1, 122)}}, budget)
	it := l.Items[0]
	if it.Outline || it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != 123 || !strings.Contains(l.Text, "func Short(x int) int {") {
		t.Errorf("%+v, want lines 123-128 shown, not the outline\n%s", it, l.Text)
	}
	// Nothing shown yet: the outline, as before.
	if it := ix.Look([]string{"calc/calc.go"}, map[string][]Chunk{}, budget).Items[0]; !it.Outline {
		t.Errorf("%+v, want the outline", it)
	}
}

// TestLookSaysWhyATrackedFileIsNotShown: a request for a file git tracks
// that the index leaves out (a lock file, vendored code, a binary, a
// symbolic link, a submodule, the instructions for agents) says which it
// is; a directory lists its files; a file git does not track is not
// there, whatever is on disk.
func TestLookSaysWhyATrackedFileIsNotShown(t *testing.T) {
	files := map[string]string{
		"go.mod":                  "module example.com/x\n",
		"go.sum":                  "example.org/lib v1.0.0 h1:abc=\n",
		"vendor/example.org/a.go": "package a\n",
		"web/logo.png":            "\x89PNG",
		"AGENTS.md":               "Run go test ./...\n",
		"pkg/a.go":                "package pkg\n\nfunc A() {}\n",
		"pkg/a_test.go":           "package pkg\n",
		"pkg/b.go":                "package pkg\n",
		"pkg/inner/c.go":          "package inner\n",
		"pkg/inner/deep/d.go":     "package deep\n",
		"pkg/other/e.go":          "package other\n",
	}
	for k := range 14 {
		files[fmt.Sprintf("many/f%02d.go", k)] = "package many\n"
	}
	repo := newRepo(t, files)
	if err := os.Symlink("pkg/a.go", filepath.Join(repo, "link.go")); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "add", "link.go")
	// A submodule's entry: a commit of another repository (mode 160000).
	gitRun(t, repo, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,third_party/lib")
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("TOKEN=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ req, err string }{
		{"go.sum", "a lock file its package manager writes: not shown"},
		{"vendor/example.org/a.go", "vendored code (another project's, under vendor/, node_modules/ or the like): not shown"},
		{"web/logo.png", "a binary or minified file by its name: not shown"},
		{"AGENTS.md", "the repository's instructions for agents: read only from the base branch, into your prompt when it has them; not shown from the work tree"},
		{"link.go", "a symbolic link: not shown; ask for the file it points to"},
		{"third_party/lib", "a submodule (another repository): not shown"},
		{"pkg", "a directory of 6 files; ask for one of them: pkg/a.go, pkg/b.go, pkg/a_test.go, pkg/inner/, pkg/other/"},
		{"pkg/inner/", "a directory of 2 files; ask for one of them: pkg/inner/c.go, pkg/inner/deep/"},
		{"many", "a directory of 14 files; ask for one of them: many/f00.go, many/f01.go, many/f02.go, many/f03.go, many/f04.go, many/f05.go, many/f06.go, many/f07.go, many/f08.go, many/f09.go, many/f10.go, many/f11.go, 2 more files"},
		{"notes.txt", "no such file in the repository (git ls-files); use a path from the repository map"},
		{"pk", `no such file in the repository (git ls-files); use a path from the repository map; and no file defines a function, method or type named "pk"`},
	} {
		l := ix.Look([]string{c.req}, map[string][]Chunk{}, 4000)
		if it := l.Items[0]; it.Error != c.err || it.Path != "" || len(it.Chunks) > 0 {
			t.Errorf("%s: %+v\nwant error %q", c.req, it, c.err)
		}
		if strings.Contains(l.Text, "TOKEN") || strings.Contains(l.Text, "go test") || strings.Contains(l.Text, "h1:abc") {
			t.Errorf("%s: the answer shows what it must not:\n%s", c.req, l.Text)
		}
	}
}

// TestLookFindsMethodsInOtherLanguages: Class.method names a method of a
// Python or TypeScript class or a Rust impl, whose outline knows no
// receivers, and Type::method a Rust or C++ one; a definition written with
// its language's words (or its return type) is its name;
// and a name a named file does not define is looked for in files of that
// language only.
func TestLookFindsMethodsInOtherLanguages(t *testing.T) {
	ix, err := Open(context.Background(), newRepo(t, map[string]string{
		"app/tool.py":  "import sys\n\n\ndef parse_date(text):\n    return text\n\n\nclass Report:\n    def render(self):\n        return 'report'\n\n    def title(self):\n        return 't'\n\n\ndef render():\n    pass\n",
		"web/app.ts":   "export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Cart {\n  total(): number {\n    return 0;\n  }\n}\n",
		"web/util.js":  "export function sum(xs) {\n  return 0;\n}\n",
		"src/lib.rs":   "pub struct Cart {}\n\nimpl Cart {\n    pub fn total(&self) -> u32 {\n        0\n    }\n}\n\npub fn sum(a: u32) -> u32 {\n    a\n}\n",
		"src/cart.cpp": "#include \"cart.h\"\n\nint Cart::total() const {\n    return sum_;\n}\n\nstd::vector<Item> Cart::byOwner(const std::string &owner,\n                                bool all) {\n    return items_;\n}\n",
		"web/store.ts": "export class Store {\n  async load(\n    id: string,\n  ): Promise<Item> {\n    return this.fetch(\n      id,\n    );\n  }\n}\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []lookCase{
		{req: "app/tool.py:Report.render", path: "app/tool.py", chunk: span(9, 10)},
		{req: "Report.render", path: "app/tool.py", chunk: span(9, 10)},
		{req: "app/tool.py:def title(self)", path: "app/tool.py", chunk: span(12, 13)},
		{req: "app/tool.py:class Report", path: "app/tool.py", chunk: span(8, 13)},
		{req: "app/tool.py:Report.missing", path: "app/tool.py",
			err: `app/tool.py defines no function, method or type named "Report.missing"; it defines: parse_date, Report, render, title, render`},
		{req: "src/lib.rs:Cart.total", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "web/app.ts:Cart.total", path: "web/app.ts", chunk: span(6, 8)},
		{req: "src/lib.rs:pub fn total(&self) -> u32", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "web/app.ts:export function add", path: "web/app.ts", chunk: span(1, 3)},
		// sum is defined in Rust and in JavaScript: for a TypeScript
		// file, the JavaScript one.
		{req: "web/app.ts:sum", path: "web/util.js", chunk: span(1, 3)},
		// C++ and a method whose parameters span lines.
		{req: "src/cart.cpp:total", path: "src/cart.cpp", chunk: span(3, 5)},
		{req: "src/cart.cpp:Cart::byOwner", path: "src/cart.cpp", chunk: span(7, 10)},
		{req: "web/store.ts:Store.load", path: "web/store.ts", chunk: span(2, 8)},
		{req: "src/lib.rs:Cart::total", path: "src/lib.rs", chunk: span(4, 6)},
		{req: "src/cart.cpp:int Cart::total() const", path: "src/cart.cpp", chunk: span(3, 5)},
		{req: "app/tool.py:sum", path: "app/tool.py",
			err: `app/tool.py defines no function, method or type named "sum"; it defines: parse_date, Report, render, title, render`},
	} {
		c.check(t, ix)
	}
}

// TestWithFilesAddsWhatAModelWrote: a test file the model wrote, not
// tracked yet, is added to the files ranked; a path out of the root,
// through a link out of it, a link, a file Open leaves out by its name
// or one that is not there is not.
func TestWithFilesAddsWhatAModelWrote(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	outside := t.TempDir()
	writeFiles(t, repo, map[string]string{"dates/leap_test.go": "package dates\n\nfunc TestLeap(t *testing.T) {}\n", "logo.png": "not code"})
	writeFiles(t, outside, map[string]string{"x_test.go": "package x\n"})
	if err := os.Symlink(outside, filepath.Join(repo, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x_test.go"), filepath.Join(repo, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	with := ix.WithFiles("dates/leap_test.go", "../x_test.go", "out/x_test.go", "link_test.go", "logo.png", "gone_test.go", "dates/parse.go")
	var added []string
	for _, p := range with.paths {
		if !slices.Contains(ix.paths, p) {
			added = append(added, p)
		}
	}
	if !reflect.DeepEqual(added, []string{"dates/leap_test.go"}) || len(with.paths) != len(ix.paths)+1 || !slices.IsSorted(with.paths) {
		t.Errorf("added %q (%d paths, %d before)", added, len(with.paths), len(ix.paths))
	}
	if slices.Contains(ix.paths, "dates/leap_test.go") {
		t.Error("WithFiles changed the index it was called on")
	}
}

func TestLookShowsAnEnumerationsConstantsTogether(t *testing.T) {
	src := `package decl

// Type is the kind of a declaration.
type Type uint16

// Type values.
const (
	NoDecl       Type = iota // undeclared
	VariableDecl             // var
	FunctionDecl             // function
	PrivateDecl              // private class field
)

// Limits of a scope.
const (
	MaxDepth = 64
	MaxNames = 1024
)

var defaultName = "x"
`
	ix, err := Open(context.Background(), newRepo(t, map[string]string{"decl/decl.go": src}))
	if err != nil {
		t.Fatal(err)
	}
	l := ix.Look([]string{"decl/decl.go:VariableDecl", "decl/decl.go:MaxNames", "decl/decl.go:FunctionDecl"}, map[string][]Chunk{}, 4000)
	// A value of an enumeration: the whole block, with its doc comment,
	// so that the value after it (the one a fix may add) is seen.
	from, to := lineOf(src, "// Type values."), lineOf(src, "PrivateDecl ")+1
	if it := l.Items[0]; it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != from || it.Chunks[0].EndLine != to {
		t.Errorf("VariableDecl: %+v, want lines %d-%d, the const block", it, from, to)
	}
	if !strings.Contains(l.Text, "PrivateDecl") || !strings.Contains(l.Text, "NoDecl") {
		t.Errorf("the look does not show the enumeration's other values:\n%s", l.Text)
	}
	// A constant of a block that does not count with iota: its line.
	if it, n := l.Items[1], lineOf(src, "MaxNames ="); it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != n || it.Chunks[0].EndLine != n {
		t.Errorf("MaxNames: %+v, want line %d alone", it, n)
	}
	// Another value of the same enumeration: shown already.
	if it := l.Items[2]; !it.Seen {
		t.Errorf("FunctionDecl: %+v, want seen with the block", it)
	}
}

func TestLookShowsTheCommentAboveAVariableOfABlock(t *testing.T) {
	src := `package jose

import "errors"

var (
	// ErrCryptoFailure is an error in a cryptographic primitive.
	ErrCryptoFailure = errors.New("crypto failure")

	// ErrUnsupportedKeyType says the key's type or format is not
	// supported: an RSA key with more than two primes, say.
	ErrUnsupportedKeyType = errors.New("unsupported key type")
)
`
	ix, err := Open(context.Background(), newRepo(t, map[string]string{"jose/shared.go": src}))
	if err != nil {
		t.Fatal(err)
	}
	l := ix.Look([]string{"jose/shared.go:ErrUnsupportedKeyType"}, map[string][]Chunk{}, 4000)
	from, to := lineOf(src, "// ErrUnsupportedKeyType says"), lineOf(src, "ErrUnsupportedKeyType =")
	if it := l.Items[0]; it.Error != "" || len(it.Chunks) != 1 || it.Chunks[0].StartLine != from || it.Chunks[0].EndLine != to {
		t.Errorf("ErrUnsupportedKeyType: %+v, want lines %d-%d, its doc comment and its line", it, from, to)
	}
	if strings.Contains(l.Text, "ErrCryptoFailure") {
		t.Errorf("the look shows the variable before it:\n%s", l.Text)
	}
}
