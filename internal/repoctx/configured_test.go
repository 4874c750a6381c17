package repoctx

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// indentRepo is module example.com/enc: an Encoder whose indent field
// the failing test sets before Encode, which reaches writeTable, the one
// reader of the field SetIndent sets and where the fault is, seven calls
// down (Encode → encode → encodeValue → encodeMap → encodeEntry →
// encodeKey → encodeName → writeTable), past the calls the edges follow,
// after sixty look-alike encoders. readers more functions also read the field.
// set is how the test makes its Encoder e and sets the field. It returns
// the repository, the code's text and the failing output.
func indentRepo(t *testing.T, readers int, set string) (repo, code, failing string) {
	var c strings.Builder
	c.WriteString("package enc\n\nimport \"strings\"\n\n// Encoder writes values as tables.\ntype Encoder struct {\n\tb      strings.Builder\n\tindent bool\n\tsep    string\n}\n\n" +
		"// SetIndent makes tables indented.\nfunc (e *Encoder) SetIndent(indent bool) *Encoder {\n\te.indent = indent\n\treturn e\n}\n\n" +
		"// SetSep sets what is written between entries.\nfunc (e *Encoder) SetSep(sep string) {\n\te.sep = sep\n}\n\n" +
		"// Encode writes v.\nfunc (e *Encoder) Encode(v map[string]map[string]int) string {\n\te.encode(v)\n\treturn e.b.String()\n}\n\n" +
		"func (e *Encoder) encode(v map[string]map[string]int) {\n\tfor k, t := range v {\n\t\te.encodeValue(k, t)\n\t}\n}\n\n" +
		"func (e *Encoder) encodeValue(k string, t map[string]int) {\n\te.b.WriteString(\"[\" + k + \"]\" + e.sep)\n\te.encodeMap(t)\n}\n\n" +
		"func (e *Encoder) encodeMap(t map[string]int) {\n\tfor k, v := range t {\n\t\te.encodeEntry(k, v)\n\t}\n}\n\n" +
		"func (e *Encoder) encodeEntry(k string, v int) {\n\tif v != 0 {\n\t\te.encodeKey(k)\n\t}\n}\n\n" +
		"func (e *Encoder) encodeKey(k string) {\n\te.encodeName(k)\n}\n\n" +
		"func (e *Encoder) encodeName(k string) {\n\te.writeTable(k)\n}\n")
	c.WriteString(strings.TrimPrefix(lookAlikes("enc", "encodeStep", ""), "package enc"))
	c.WriteString("\nfunc (e *Encoder) writeTable(k string) {\n\tif e.indent && k == \"\" {\n\t\te.b.WriteString(\"  \") // the fault: only empty keys are indented\n\t}\n\te.b.WriteString(k + \"\\n\")\n}\n")
	for k := range readers {
		fmt.Fprintf(&c, "\n// writeKey%d writes key %d.\nfunc (e *Encoder) writeKey%d(k string) {\n\tif e.indent {\n\t\te.b.WriteString(\"%d\")\n\t}\n}\n", k, k, k, k)
	}
	test := "package enc\n\nimport \"testing\"\n\nfunc TestIndent(t *testing.T) {\n" + set + "\te.SetSep(\"\\n\")\n" +
		"\tif got := e.Encode(map[string]map[string]int{\"a\": {\"b\": 1}}); got != \"[a]\\n  b\\n\" {\n\t\tt.Errorf(\"Encode = %q\", got)\n\t}\n}\n"
	files := map[string]string{
		"go.mod":          "module example.com/enc\n",
		"enc/enc.go":      c.String(),
		"enc/enc_test.go": test,
	}
	return newRepo(t, files), c.String(), errorfOutput("enc", "TestIndent", test, `Encode = "[a]\\nb\\n"`)
}

// setIndent makes e and sets its indent with the setter.
const setIndent = "\te := &Encoder{}\n\te.SetIndent(true)\n"

// TestBuildFollowsTheFieldsTheTestSets: the failing test configures its
// Encoder with SetIndent (or sets the field itself) and fails where the code reads that field, in
// writeTable, past the calls the edges follow. The one function that
// reads the field the setter sets is reached and shown; SetSep's field,
// read by no other function, reaches none. A field most of the package
// reads is no evidence: with more than maxReaders readers, none is reached.
func TestBuildFollowsTheFieldsTheTestSets(t *testing.T) {
	for how, set := range map[string]string{
		"a setter":      setIndent,
		"an assignment": "\te := &Encoder{}\n\te.indent = true\n",
	} {
		repo, code, failing := indentRepo(t, 0, set)
		p := build(t, repo, failing, 1000)
		site := lineOf(code, "func (e *Encoder) writeTable")
		if f := fileOf(p, "enc/enc.go"); f == nil || !covers(f, site, site+2) {
			t.Errorf("set by %s: writeTable (enc/enc.go:%d) is not packed: %+v", how, site, f)
		}
	}
	// A field the test sets on a type of its own, that the code reads
	// only of another package's values (reflect.StructField's Name), is
	// no field of the code's.
	code := "package tag\n\nimport \"reflect\"\n\n// Count is the number of fields of t.\nfunc Count(t reflect.Type) int {\n\treturn t.NumField()\n}\n\n" +
		"func fieldName(f reflect.StructField) string {\n\treturn f.Name\n}\n"
	test := "package tag\n\nimport (\n\t\"reflect\"\n\t\"testing\"\n)\n\ntype row struct{ Name string }\n\nfunc TestCount(t *testing.T) {\n\tvar x row\n\tx.Name = \"a\"\n\tif got := Count(reflect.TypeOf(x)); got != 2 {\n\t\tt.Errorf(\"Count = %d\", got)\n\t}\n}\n"
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/tag\n", "tag/tag.go": code, "tag/tag_test.go": test})
	r := rank(t, repo, errorfOutput("tag", "TestCount", test, "Count = 1"))
	if w := r.reached[slices.Index(r.ix.paths, "tag/tag.go")][lineOf(code, "func fieldName(")]; w > 0 {
		t.Errorf("fieldName is reached (%v) by a field no struct of the code declares", w)
	}

	repo, code, failing := indentRepo(t, maxReaders+1, setIndent)
	r = rank(t, repo, failing)
	i := slices.Index(r.ix.paths, "enc/enc.go")
	for _, name := range []string{"(e *Encoder) writeTable", "(e *Encoder) writeKey0"} {
		if w := r.reached[i][lineOf(code, "func "+name)]; w > 0 {
			t.Errorf("%s is reached (%v), though %d functions read the field", name, w, maxReaders+2)
		}
	}
}

// TestReceiverFieldsSet: a setter's fields are those of its receiver
// that it assigns one of its parameters; a method that assigns a
// constant (m.dirty = true) or another value's field sets no option.
func TestReceiverFieldsSet(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"func (e *E) SetIndent(on bool) { e.indent = on }", []string{"indent"}},
		{"func (e *E) Set(a, b int) *E { e.a, e.b = a, b; return e }", []string{"a", "b"}},
		{"func (e *E) Mark(off int) { e.dirty = true; e.off = off + 1 }", nil},
		{"func (e *E) Copy(o *E, v int) { o.v = v }", nil},
		{"func Set(e *E, v int) { e.v = v }", nil},
	} {
		if got := receiverFieldsSet(parseFunc(t, tc.src)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestReadsField: a read of x.f, not an assignment to it nor a longer
// name.
func TestReadsField(t *testing.T) {
	for body, want := range map[string]bool{
		"if e.indent { return }":       true,
		"x := e.indent && ok; _ = x":   true,
		"e.indent = true":              false,
		"e.indent, e.sep = a, b":       false,
		"e.sep = e.indent":             true,
		"e.indent += 1":                true,
		"e.indentWidth = e.indent2":    false,
		"f(e.indent)":                  true,
		"e.indent = e.indent || other": true,
	} {
		if got := readsField(parseFunc(t, "func (e *E) f() { "+body+" }"), "indent"); got != want {
			t.Errorf("readsField(%q) = %v, want %v", body, got, want)
		}
	}
	for line, want := range map[string]bool{"	if e.indent {": true, "	e.indentWidth++": false, "	indent := 2": false, "e.indent": true} {
		if got := hasSelector(line, "indent"); got != want {
			t.Errorf("hasSelector(%q) = %v, want %v", line, got, want)
		}
	}
}

// parseFunc parses src, one function.
func parseFunc(t *testing.T, src string) *ast.FuncDecl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return f.Decls[0].(*ast.FuncDecl)
}
