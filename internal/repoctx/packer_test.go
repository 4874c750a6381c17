package repoctx

import (
	"fmt"
	"strings"
	"testing"
)

// TestBuildGivesTheBestCodeFileTheLargestShare: the failing test's file
// (mock_test.go, no code file of its name) ranks first, but only its
// failing test is shown; the larger share of the code budget goes to the
// best code file, cpu.go, so that the probes the output's words find in
// it (the fault in probe8) come before the small files that also hold
// the words (as klauspost/cpuid v2.4.2's support() before its other
// platforms' files).
func TestBuildGivesTheBestCodeFileTheLargestShare(t *testing.T) {
	var code strings.Builder
	code.WriteString("package cpu\n\n// Detect is the flags the CPU has.\nfunc Detect() Flags {\n\tvar f Flags\n\treturn f\n}\n\n")
	for k := range 12 {
		fmt.Fprintf(&code, "// probe%d sets XSAVE flag %d when the leaf has it.\nfunc probe%d(f Flags) Flags {\n\tleaf := cpuid(%d)\n\tif leaf&(1<<%d) != 0 {\n\t\tf |= 1 << %d\n\t}\n\tif leaf&(1<<%d) != 0 {\n\t\tf |= 1 << %d\n\t}\n\treturn f\n}\n\n", k, k, k, k, k, k, k+12, k+12)
	}
	var test strings.Builder
	test.WriteString("package cpu\n\nimport \"testing\"\n\nfunc TestXSAVEBitPrecedence(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tname          string\n\t\tleaf          uint64\n\t\txsave, osxsave bool\n\t}{\n")
	for k := range 20 {
		fmt.Fprintf(&test, "\t\t{\"sse3_only_%d\", %d, false, false}, // XSAVE OSXSAVE precedence\n", k, k)
	}
	test.WriteString("\t} {\n\t\tf := Detect()\n\t\tif got := f&(1<<11) != 0; got != c.xsave {\n\t\t\tt.Errorf(\"XSAVE: got %v, want %v\", got, c.xsave)\n\t\t}\n\t\tif got := f&(1<<23) != 0; got != c.osxsave {\n\t\t\tt.Errorf(\"OSXSAVE: got %v, want %v\", got, c.osxsave)\n\t\t}\n\t}\n}\n")
	files := map[string]string{
		"go.mod":           "module example.com/cpu\n",
		"cpu/cpu.go":       code.String(),
		"cpu/flags.go":     "package cpu\n\n// Flags is a set of CPU features.\ntype Flags uint64\n\nfunc cpuid(leaf int) uint64 { return 0 }\n",
		"cpu/mock_test.go": test.String(),
	}
	for k := range 6 {
		var b strings.Builder
		fmt.Fprintf(&b, "package cpu\n\n// The flags of platform %d: XSAVE got want.\n", k)
		for j := range 30 {
			fmt.Fprintf(&b, "var xsaveTable%d_%d = []int{%d, %d, %d} // XSAVE\n", k, j, j, j+1, j+2)
		}
		files[fmt.Sprintf("cpu/os_%d.go", k)] = b.String()
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestXSAVEBitPrecedence (0.00s)\n    --- FAIL: TestXSAVEBitPrecedence/sse3_only_3 (0.00s)\n        mock_test.go:33: XSAVE: got false, want true\n        mock_test.go:36: OSXSAVE: got false, want true\nFAIL\nFAIL\texample.com/cpu\t0.002s\n"
	for _, budget := range []int{2500, 3000} {
		p := build(t, repo, failing, budget)
		if ps := paths(p); len(ps) < 2 || ps[0] != "cpu/mock_test.go" || ps[1] != "cpu/cpu.go" {
			t.Fatalf("budget %d: want the test's file first, then cpu.go: %v", budget, ps)
		}
		mustPackFunc(t, p, "cpu/cpu.go", files["cpu/cpu.go"], "probe8")
	}
}

// TestBuildShowsMoreOfTheCodeBeforeTheLicence: the failing test reaches
// Parse; the release's fix also changes layouts, the table next to it
// that no word of the output names and Parse does not use (as spf13/cast
// v1.5.1's timeFormats). Once the code's passes are done, the room left
// goes to the rest of the code file shown, nearest to what is shown
// first, and only then to the licence and the README that share the
// output's words.
func TestBuildShowsMoreOfTheCodeBeforeTheLicence(t *testing.T) {
	var code, licence strings.Builder
	code.WriteString("package dates\n\nimport \"strings\"\n\n")
	for k := range 60 {
		fmt.Fprintf(&code, "// helper%d pads s to %d runes.\nfunc helper%d(s string) string {\n\tfor len(s) < %d {\n\t\ts += \" \"\n\t}\n\treturn s\n}\n\n", k, k, k, k)
	}
	code.WriteString("// Parse reads a date written day first.\nfunc Parse(s string) (int, error) {\n\tparts := strings.Split(s, \"-\")\n\treturn len(parts), nil\n}\n\n")
	code.WriteString("// layouts are the forms a date may take.\nvar layouts = []string{\n\t\"2006-01-02\",\n\t\"02 Jan 2006\",\n\t\"Jan 2, 2006\",\n}\n")
	for k := range 40 {
		fmt.Fprintf(&licence, "Clause %d. Parse dates, TestParse, FAIL: the date parse is not ours; dates want.\n", k)
	}
	src := code.String()
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/dates\n",
		"dates/parse.go":      src,
		"dates/parse_test.go": "package dates\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tif n, _ := Parse(\"2024-01-02\"); n != 1 {\n\t\tt.Errorf(\"Parse = %d, want 1\", n)\n\t}\n}\n",
		"LICENSE":             licence.String(),
		"README.md":           "# dates\n\nParse dates. TestParse FAIL want.\n",
	})
	failing := "--- FAIL: TestParse (0.00s)\n    parse_test.go:7: Parse = 3, want 1\nFAIL\nFAIL\texample.com/dates/dates\t0.002s\n"
	site := strings.Count(src[:strings.Index(src, "var layouts")], "\n") + 1
	p := build(t, repo, failing, 3000)
	mustPackFunc(t, p, "dates/parse.go", src, "Parse")
	if f := fileOf(p, "dates/parse.go"); !covers(f, site, site+4) {
		t.Fatalf("layouts (dates/parse.go:%d) is not packed: %+v; files %v", site, f.Chunks, paths(p))
	}
}

// TestBuildShowsTheCalleesBeforeAWeakerPart: the failing test reaches
// NewVersion, which calls twenty steps (the edges stop at them) and
// then parse; the fault is in checkPart, three calls below parse, which
// only the callees of what is shown reach. The parts the test reaches
// fill version.go past its share of the code budget. What is left does
// not go first to the head of constraints.go, a file already shown
// whose part is far weaker than version.go's (as semver v3.3.1's
// constraints.go took the room of the version pattern its fix changes):
// the callees of what is shown come first.
func TestBuildShowsTheCalleesBeforeAWeakerPart(t *testing.T) {
	var v, c strings.Builder
	v.WriteString("package ver\n\nimport (\n\t\"errors\"\n\t\"strconv\"\n)\n\n")
	v.WriteString("// Version is a parsed version.\ntype Version struct {\n\tparts    [3]uint64\n\toriginal string\n}\n\n")
	v.WriteString("// NewVersion parses s as a version.\nfunc NewVersion(s string) (*Version, error) {\n\tv := &Version{original: s}\n")
	for k := range 20 {
		fmt.Fprintf(&v, "\tif err := step%d(s); err != nil {\n\t\treturn nil, err\n\t}\n\tif len(s) > %d && s[%d] == '+' {\n\t\treturn nil, errors.New(\"metadata at %d\")\n\t}\n", k, k+100, k+100, k)
	}
	v.WriteString("\tn, err := parse(s)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tv.parts[0] = n\n\treturn v, nil\n}\n\n")
	for k := range 20 {
		fmt.Fprintf(&v, "// step%d checks rule %d of a version.\nfunc step%d(s string) error {\n\tif len(s) == %d {\n\t\treturn errors.New(\"too short\")\n\t}\n\treturn nil\n}\n\n", k, k, k, k)
	}
	v.WriteString("// parse reads the major part.\nfunc parse(p string) (uint64, error) {\n\tif err := check(p); err != nil {\n\t\treturn 0, err\n\t}\n\treturn strconv.ParseUint(p, 10, 64)\n}\n\n")
	v.WriteString("// check checks a part.\nfunc check(p string) error {\n\treturn checkDigits(p)\n}\n\n// checkDigits checks a part's digits.\nfunc checkDigits(p string) error {\n\treturn checkPart(p)\n}\n\n")
	v.WriteString("// checkPart rejects a part with a leading zero.\nfunc checkPart(p string) error {\n\tif len(p) > 1 && p[0] == '0' && false {\n\t\treturn errors.New(\"leading zero\")\n\t}\n\treturn nil\n}\n")
	c.WriteString("package ver\n\nimport (\n\t\"errors\"\n\t\"strings\"\n)\n\n")
	c.WriteString("// NewConstraint parses a constraint on a version.\nfunc NewConstraint(s string) (string, error) {\n\tif _, err := NewVersion(strings.TrimSpace(s)); err != nil {\n\t\treturn \"\", err\n\t}\n\treturn s, nil\n}\n\n")
	for k := range 40 {
		fmt.Fprintf(&c, "// rule%d is constraint %d on a version.\nfunc rule%d(s string) error {\n\tif strings.HasPrefix(s, \"%d\") {\n\t\treturn errors.New(\"version rejected\")\n\t}\n\treturn nil\n}\n\n", k, k, k, k)
	}
	src := v.String()
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/ver\n",
		"ver/version.go":      src,
		"ver/constraints.go":  c.String(),
		"ver/version_test.go": "package ver\n\nimport \"testing\"\n\nfunc TestNewVersion(t *testing.T) {\n\tfor _, s := range []string{\"01.1.1\", \"1.2.x\"} {\n\t\tif _, err := NewVersion(s); err == nil {\n\t\t\tt.Errorf(\"expected error for version: %s\", s)\n\t\t}\n\t\tif _, err := NewConstraint(s); err == nil {\n\t\t\tt.Errorf(\"expected error for constraint: %s\", s)\n\t\t}\n\t}\n}\n",
	})
	failing := "--- FAIL: TestNewVersion (0.00s)\n    version_test.go:8: expected error for version: 01.1.1\nFAIL\nFAIL\texample.com/ver/ver\t0.002s\n"
	p := build(t, repo, failing, 3000)
	mustPackFunc(t, p, "ver/version.go", src, "checkPart")
}

// TestBuildShowsTheCalleesBeforeTheFilesPastADozen: the failing test
// reaches ToSnakeCase and the calls below it as far as the edges go; the
// fault is in glue, which only the callees of what is shown reach. Thirty
// other files hold a function that shares the output's words (as
// huandu/xstrings v1.3.3's twenty small files of string functions): the
// parts of those ranked past the first partFiles do not take the room
// before the callees.
func TestBuildShowsTheCalleesBeforeTheFilesPastADozen(t *testing.T) {
	var conv strings.Builder
	conv.WriteString("package strs\n\nimport \"strings\"\n\n")
	conv.WriteString("// ToSnakeCase converts s to snake case.\nfunc ToSnakeCase(s string) string {\n\treturn camelCaseToLowerCase(s, '_')\n}\n\n")
	conv.WriteString("// camelCaseToLowerCase lowers s, a delimiter between words.\nfunc camelCaseToLowerCase(s string, d rune) string {\n\treturn lowerWords(s, d)\n}\n\n")
	conv.WriteString("// lowerWords lowers each word.\nfunc lowerWords(s string, d rune) string {\n\treturn splitWords(s, d)\n}\n\n")
	conv.WriteString("// splitWords joins the words of s with d.\nfunc splitWords(s string, d rune) string {\n\treturn joinWords(s, d)\n}\n\n")
	conv.WriteString("// joinWords joins.\nfunc joinWords(s string, d rune) string {\n\treturn glue(s, d)\n}\n\n")
	conv.WriteString("// glue is where the fault is.\nfunc glue(s string, d rune) string {\n\treturn strings.ToLower(s) // the fault\n}\n\n")
	conv.WriteString("var convTable = []int{\n")
	for j := range 300 {
		fmt.Fprintf(&conv, "\t%d, %d, %d,\n", j, j*5, j*9)
	}
	conv.WriteString("}\n")
	src := conv.String()
	files := map[string]string{
		"go.mod":               "module example.com/strs\n",
		"strs/convert.go":      src,
		"strs/convert_test.go": "package strs\n\nimport \"testing\"\n\nfunc TestToSnakeCase(t *testing.T) {\n\tif got := ToSnakeCase(\"FirstName\"); got != \"first_name\" {\n\t\tt.Errorf(\"ToSnakeCase case: got %q, want %q\", got, \"first_name\")\n\t}\n}\n",
	}
	for k := range 30 {
		var b strings.Builder
		fmt.Fprintf(&b, "package strs\n\n// Snake%d_0 handles a snake case name.\nfunc Snake%d_0(s string) string {\n\tif s == \"first_name\" {\n\t\treturn s\n\t}\n\treturn s + \"0\"\n}\n\nvar table%d = []int{\n", k, k, k)
		for j := range 200 {
			fmt.Fprintf(&b, "\t%d, %d, %d,\n", j, j*3, j*7)
		}
		b.WriteString("}\n")
		files[fmt.Sprintf("strs/f%02d.go", k)] = b.String()
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestToSnakeCase (0.00s)\n    convert_test.go:6: ToSnakeCase case: got \"firstname\", want \"first_name\"\nFAIL\nFAIL\texample.com/strs/strs\t0.002s\n"
	for _, budget := range []int{2250, 2500} {
		p := build(t, repo, failing, budget)
		mustPackFunc(t, p, "strs/convert.go", src, "glue")
	}
}

// TestBuildShowsThePackagesVariablesAShownFunctionUses: the failing test
// reaches Decode, which returns ErrBadKey and compares with maxDepth; both
// are declared in errors.go, a file of the package that no word of the
// output points at (as loads v0.25.1's fix adds an error beside the ones
// its code returns), and twelve other files of the package share the
// output's words. The pack shows the two declarations with Decode, before
// those files' parts take the room; errors.go's other lines only with
// room left.
func TestBuildShowsThePackagesVariablesAShownFunctionUses(t *testing.T) {
	var e strings.Builder
	e.WriteString("package kv\n\nimport \"errors\"\n\n// The errors Decode returns.\nvar (\n\t// ErrBadKey is a key with a blank in it.\n\tErrBadKey = errors.New(\"bad key\")\n\tErrUnused = errors.New(\"unused\")\n)\n\n")
	e.WriteString("const maxDepth = 8\n\nconst unusedDepth = 9\n\n")
	for k := range 80 {
		fmt.Fprintf(&e, "// scale%d scales x by %d.\nfunc scale%d(x int) int {\n\tif x < 0 {\n\t\treturn -x * %d\n\t}\n\treturn x * %d\n}\n\n", k, k, k, k, k)
	}
	errs := e.String()
	files := map[string]string{
		"go.mod":            "module example.com/kv\n",
		"kv/decode.go":      "package kv\n\nimport \"strings\"\n\n// Decode reads k=v pairs, one a line.\nfunc Decode(s string) (map[string]string, error) {\n\tout := map[string]string{}\n\tfor depth, line := range strings.Split(s, \"\\n\") {\n\t\tk, v, _ := strings.Cut(line, \"=\")\n\t\tif strings.HasPrefix(k, \" \") || depth > maxDepth {\n\t\t\treturn nil, ErrBadKey\n\t\t}\n\t\tout[k] = v\n\t}\n\treturn out, nil\n}\n",
		"kv/errors.go":      errs,
		"kv/decode_test.go": "package kv\n\nimport \"testing\"\n\nfunc TestDecode(t *testing.T) {\n\tif got, err := Decode(\"a b=1\"); err == nil {\n\t\tt.Errorf(\"Decode(a b=1) = %v, want a refusal\", got)\n\t}\n}\n",
	}
	// Files whose words the output shares, which take the room before
	// errors.go's.
	for k := range 12 {
		var f strings.Builder
		fmt.Fprintf(&f, "package kv\n\n// DecodeMap%d decodes a map of pairs, with a refusal of a blank key.\nfunc DecodeMap%d(m map[string]string) int {\n\tn := 0\n", k, k)
		for j := range 40 {
			fmt.Fprintf(&f, "\tif m[\"a b%d\"] != \"\" { // decode map: refusal %d\n\t\tn += %d\n\t}\n", j, j, j)
		}
		f.WriteString("\treturn n\n}\n")
		files[fmt.Sprintf("kv/map%d.go", k)] = f.String()
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestDecode (0.00s)\n    decode_test.go:7: Decode(a b=1) = map[a b:1], want a refusal\nFAIL\nFAIL\texample.com/kv/kv\t0.002s\n"
	// At 1500 tokens the room runs out before the rest of errors.go.
	for _, budget := range []int{1500, 4000} {
		p := build(t, repo, failing, budget)
		f := fileOf(p, "kv/errors.go")
		if f == nil {
			t.Fatalf("%d tokens: errors.go is not packed; files %v", budget, paths(p))
		}
		for _, v := range []string{"\tErrBadKey = ", "const maxDepth"} {
			if l := lineOf(errs, v); !covers(f, l, l) {
				t.Errorf("%d tokens: %q (errors.go:%d) is not packed: %+v", budget, v, l, f.Chunks)
			}
		}
		for _, v := range []string{"\tErrUnused = ", "const unusedDepth", "func scale0("} {
			if l := lineOf(errs, v); budget == 1500 && covers(f, l, l) {
				t.Errorf("%d tokens: %q (errors.go:%d), which Decode does not use, is packed: %+v", budget, v, l, f.Chunks)
			}
		}
	}
}

// TestBuildShowsAReportsBestFileWholeBeforeTheHelpersItsCallsShare: a
// report quotes a Response and its Member's fields (groups.go ranks
// first) and calls WriteResponse and ReadResponse, which share sixty
// one-line helpers: each is a focus, weak, and the narrow pass would
// spend the room on them before the rest of groups.go, where the fix is
// (sortMembers, which no word of the report names; as kafka-go v0.4.50's
// ResponseGroupMember beside the Response its report quotes). The best
// file of a report is shown whole when the rest of it costs at most
// leadRestShare of the code budget.
func TestBuildShowsAReportsBestFileWholeBeforeTheHelpersItsCallsShare(t *testing.T) {
	var g strings.Builder
	g.WriteString("package groups\n\nimport \"example.com/kv/proto\"\n\n// Request asks for the groups.\ntype Request struct {\n\tGroups     []string `kv:\"min=v0,max=v4\"`\n\tIncludeOps bool     `kv:\"min=v3,max=v4\"`\n}\n\n")
	g.WriteString("func (r *Request) Key() proto.Key { return proto.DescribeGroups }\n\n")
	g.WriteString("// Response is the groups described.\ntype Response struct {\n\tThrottleMs int32   `kv:\"min=v1,max=v4\"`\n\tGroups     []Group `kv:\"min=v0,max=v4\"`\n}\n\n")
	g.WriteString("type Group struct {\n\tErrorCode    int16    `kv:\"min=v0,max=v4\"`\n\tGroupID      string   `kv:\"min=v0,max=v4\"`\n\tState        string   `kv:\"min=v0,max=v4\"`\n\tMembers      []Member `kv:\"min=v0,max=v4\"`\n\tAuthorizedOperations int32 `kv:\"min=v3,max=v4\"`\n}\n\n")
	g.WriteString("type Member struct {\n\tMemberID         string `kv:\"min=v0,max=v4\"`\n\tGroupInstanceID  string `kv:\"min=v4,max=v4,nullable\"`\n\tClientHost       string `kv:\"min=v0,max=v4\"`\n\tMemberMetadata   []byte `kv:\"min=v0,max=v4\"`\n\tMemberAssignment []byte `kv:\"min=v0,max=v4\"`\n}\n\n")
	g.WriteString("func (r *Response) Key() proto.Key { return proto.DescribeGroups }\n\n")
	g.WriteString("func (r *Response) clone() *Response {\n\tc := *r\n\treturn &c\n}\n\n")
	g.WriteString("func (r *Response) sortMembers(limit int) {\n\tfor k := range r.Groups {\n\t\tif len(r.Groups[k].Members) > limit {\n\t\t\tr.Groups[k].Members = r.Groups[k].Members[:limit]\n\t\t}\n\t}\n}\n\n")
	g.WriteString("func (r *Response) reset() {\n\tr.Groups = nil\n\tr.ThrottleMs = 0\n}\n")
	var b, calls strings.Builder
	b.WriteString("package proto\n\n// buffer holds what a message writes.\ntype buffer struct{ data []byte }\n\n")
	for k := range 60 {
		fmt.Fprintf(&b, "func (b *buffer) put%d(v int) { b.data = append(b.data, byte(v+%d)) }\n\n", k, k)
		fmt.Fprintf(&calls, "\tb.put%d(v)\n", k)
	}
	var r strings.Builder
	r.WriteString("package proto\n\nimport \"io\"\n\n// Key names a message.\ntype Key int\n\nconst DescribeGroups Key = 15\n\n")
	r.WriteString("// WriteResponse writes res as version v.\nfunc WriteResponse(w io.Writer, v int, res any) error {\n\tb := &buffer{}\n" + calls.String() + "\t_, err := w.Write(b.data)\n\treturn err\n}\n\n")
	r.WriteString("// ReadResponse reads a response of version v.\nfunc ReadResponse(rd io.Reader, v int) (any, error) {\n\tb := &buffer{}\n" + calls.String() + "\treturn nil, nil\n}\n")
	src := g.String()
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/kv\n",
		"groups/groups.go":  src,
		"proto/buffer.go":   b.String(),
		"proto/response.go": r.String(),
	})
	report := "groups: a Response of v5 loses each Member's GroupInstanceID\n\n```go\n" +
		"res := &groups.Response{ThrottleMs: 1, Groups: []groups.Group{{GroupID: \"g\", Members: []groups.Member{{MemberID: \"m\", GroupInstanceID: \"i\"}}}}}\n" +
		"err := proto.WriteResponse(&buf, 5, res)\n_, err = proto.ReadResponse(&buf, 5)\n```\n\n" +
		"Expected v5 to round-trip each Group and Member, with `GroupInstanceID`, `MemberMetadata`, `MemberAssignment` and `AuthorizedOperations`.\n"
	for _, budget := range []int{3000, 3500} {
		p := build(t, repo, report, budget)
		if ps := paths(p); len(ps) == 0 || ps[0] != "groups/groups.go" {
			t.Fatalf("budget %d: want groups.go first: %v", budget, ps)
		}
		mustPackFunc(t, p, "groups/groups.go", src, "(r *Response) sortMembers")
	}
}

// TestBuildShowsTheBestCodeFilesLongImportBlock: the failing test reaches
// Serve in sshd.go, which imports forty packages (as tailscale's
// ssh/tailssh/tailssh.go, whose fix adds an import), and mapUser in
// users.go, which imports as many. A patch that adds an import must show
// the block's lines: the best code file's imports are shown up to
// leadImportLines, another file's only up to maxImportLines.
func TestBuildShowsTheBestCodeFilesLongImportBlock(t *testing.T) {
	imports := func(name string) string {
		var b strings.Builder
		b.WriteString("import (\n")
		for k := range 40 {
			fmt.Fprintf(&b, "\t\"example.com/ssh/internal/%s%d\"\n", name, k)
		}
		b.WriteString(")\n\n")
		return b.String()
	}
	// Forty handlers between the imports and what the test reaches, so
	// that the rest of the file, shown nearest first, comes to the
	// imports last.
	handlers := func(b *strings.Builder, name string) {
		for k := range 40 {
			fmt.Fprintf(b, "// %s%d answers request %d of a session.\nfunc %s%d(s string) string {\n\tif s == \"%d\" {\n\t\treturn s + s\n\t}\n\treturn s\n}\n\n", name, k, k, name, k, k)
		}
	}
	var sshd strings.Builder
	sshd.WriteString("package ssh\n\n" + imports("dep"))
	handlers(&sshd, "handler")
	sshd.WriteString("// Serve answers one session for user.\nfunc Serve(user string) error {\n\tif user == \"\" {\n\t\treturn errNoUser\n\t}\n\treturn mapUser(user)\n}\n")
	var users strings.Builder
	users.WriteString("package ssh\n\n" + imports("user"))
	handlers(&users, "userRequest")
	users.WriteString("var errNoUser = errorString(\"no user\")\n\ntype errorString string\n\nfunc (e errorString) Error() string { return string(e) }\n\n")
	users.WriteString("// mapUser maps user to a local user.\nfunc mapUser(user string) error {\n\treturn errNoUser\n}\n")
	files := map[string]string{
		"go.mod":           "module example.com/ssh\n",
		"ssh/sshd.go":      sshd.String(),
		"ssh/users.go":     users.String(),
		"ssh/sshd_test.go": "package ssh\n\nimport \"testing\"\n\nfunc TestServeMapsLocalUser(t *testing.T) {\n\tif err := Serve(\"root\"); err != nil {\n\t\tt.Errorf(\"Serve(root) = %v, want the session of the local user\", err)\n\t}\n}\n",
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestServeMapsLocalUser (0.00s)\n    sshd_test.go:7: Serve(root) = no user, want the session of the local user\nFAIL\nFAIL\texample.com/ssh/ssh\t0.002s\n"
	for _, budget := range []int{1500, 2000} {
		p := build(t, repo, failing, budget)
		f, u := fileOf(p, "ssh/sshd.go"), fileOf(p, "ssh/users.go")
		if f == nil || u == nil {
			t.Fatalf("%d tokens: sshd.go and users.go are not both packed: %v", budget, paths(p))
		}
		mustPackFunc(t, p, "ssh/sshd.go", files["ssh/sshd.go"], "Serve")
		mustPackFunc(t, p, "ssh/users.go", files["ssh/users.go"], "mapUser")
		if from, to := lineOf(files["ssh/sshd.go"], "import ("), lineOf(files["ssh/sshd.go"], "dep39\""); !covers(f, from, to) {
			t.Errorf("%d tokens: sshd.go's import block (lines %d-%d) is not packed: %+v", budget, from, to, f.Chunks)
		}
		if l := lineOf(files["ssh/users.go"], "user20\""); covers(u, l, l) {
			t.Errorf("%d tokens: users.go's forty imports are packed, past maxImportLines: %+v", budget, u.Chunks)
		}
	}
}
