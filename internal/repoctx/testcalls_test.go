package repoctx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestBuildFollowsTheFailingSubtest: TestWriter has thirty subtests that
// pass, each calling a helper of its own, and one that fails, whose
// assertion compares the buffer the writer wrote to: its subject names
// no call of the writer. The failing subtest's own calls are followed
// before the test's others use up edgeNodes, and reach escape, two calls
// below Write, where the fault is.
func TestBuildFollowsTheFailingSubtest(t *testing.T) {
	var code, test strings.Builder
	code.WriteString("package wr\n\nimport \"bytes\"\n\n// Writer writes entries to a buffer.\ntype Writer struct{ out *bytes.Buffer }\n\n// NewWriter writes to b.\nfunc NewWriter(b *bytes.Buffer) *Writer { return &Writer{out: b} }\n\n" +
		"// Write writes entry s.\nfunc (w *Writer) Write(s string) {\n\tw.out.WriteString(render(s))\n}\n\nfunc render(s string) string {\n\treturn \"[\" + escape(s) + \"]\"\n}\n\nfunc escape(s string) string {\n\treturn s // the fault: < is not escaped\n}\n")
	test.WriteString("package wr\n\nimport (\n\t\"bytes\"\n\t\"testing\"\n)\n\nfunc TestWriter(t *testing.T) {\n")
	for k := range 30 {
		fmt.Fprintf(&code, "\n// helper%d computes case %d.\nfunc helper%d(n int) int {\n\tif n > %d {\n\t\treturn n - %d\n\t}\n\treturn n + %d\n}\n", k, k, k, k, k, k)
		fmt.Fprintf(&test, "\tt.Run(\"case %d\", func(t *testing.T) {\n\t\tif helper%d(%d) != %d {\n\t\t\tt.Fatal(\"case %d\")\n\t\t}\n\t})\n", k, k, k, 2*k, k)
	}
	test.WriteString("\tt.Run(\"escapes\", func(t *testing.T) {\n\t\tvar buf bytes.Buffer\n\t\tw := NewWriter(&buf)\n\t\tw.Write(\"a<b\")\n\t\tif buf.String() != \"[a&lt;b]\" {\n\t\t\tt.Errorf(\"wrote %q\", buf.String())\n\t\t}\n\t})\n}\n")
	src := test.String()
	repo := newRepo(t, map[string]string{"go.mod": "module example.com/wr\n", "wr/wr.go": code.String(), "wr/wr_test.go": src})
	failing := fmt.Sprintf("--- FAIL: TestWriter (0.00s)\n    --- FAIL: TestWriter/escapes (0.00s)\n        wr_test.go:%d: wrote \"[a<b]\"\nFAIL\nFAIL\texample.com/wr\t0.002s\n", lineOf(src, "\t\t\tt.Errorf(\"wrote"))
	mustPackFunc(t, build(t, repo, failing, 1200), "wr/wr.go", code.String(), "escape")
}

// TestBuildLeavesOutWhatTheTestCallsAfterItsFailure: TestRoundTrip
// asserts on what Marshal wrote, then reads it back with Unmarshal. The
// output names the assertion: Unmarshal ran after the failure was seen,
// and its callee parse is not reached, while Marshal's quote is; the
// same in the innermost of two subtests. Where
// Unmarshal may have run first, it is followed as before: in a loop that
// holds the assertion, before a check the test defined earlier and calls
// later (alone, or with a failing line after it), and when the line is a
// panic's frame, not where the test reported its failure.
func TestBuildLeavesOutWhatTheTestCallsAfterItsFailure(t *testing.T) {
	code := "package rt\n\n// Marshal writes v.\nfunc Marshal(v string) []byte {\n\treturn []byte(quote(v))\n}\n\nfunc quote(v string) string {\n\treturn v // the fault: not quoted\n}\n\n" +
		"// Unmarshal reads b into v.\nfunc Unmarshal(b []byte, v *string) {\n\t*v = parse(b)\n}\n\nfunc parse(b []byte) string {\n\treturn string(b)\n}\n"
	assertion := "\tif got := string(Marshal(\"a\")); got != `\"a\"` {\n\t\tt.Errorf(\"Marshal = %s\", got)\n\t}\n"
	readBack := "\tvar back string\n\tUnmarshal(Marshal(\"a\"), &back)\n"
	for _, tc := range []struct {
		name, body string
		frame      bool // the output names the line as a panic's frame
		parse      bool // whether parse is reached
	}{
		{"after the assertion", assertion + readBack, false, false},
		{"after the assertion, in a subtest's subtest", "\tt.Run(\"a\", func(t *testing.T) {\n\tt.Run(\"b\", func(t *testing.T) {\n" + assertion + readBack + "\t})\n\t})\n", false, false},
		{"in the loop that holds the assertion", "\tfor range 2 {\n" + assertion + readBack + "\t}\n", false, true},
		{"before a check defined earlier", "\tcheck := func() {\n" + assertion + "\t}\n" + readBack + "\tcheck()\n", false, true},
		{"between a failing line and a check", "\tcheck := func() {\n" + assertion + "\t}\n" + assertion + readBack + "\tcheck()\n", false, true},
		{"after a panic's frame", assertion + readBack, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := "package rt\n\nimport \"testing\"\n\nfunc TestRoundTrip(t *testing.T) {\n" + tc.body + "}\n"
			repo := newRepo(t, map[string]string{"go.mod": "module example.com/rt\n", "rt/rt.go": code, "rt/rt_test.go": test})
			// Each t.Errorf line failed, or the first is a frame.
			var out strings.Builder
			out.WriteString("--- FAIL: TestRoundTrip (0.00s)\n")
			n := 0
			for k, line := range strings.Split(test, "\n") {
				if !strings.Contains(line, "t.Errorf(") {
					continue
				}
				switch {
				case tc.frame && n == 0:
					fmt.Fprintf(&out, "panic: boom [recovered]\n\ngoroutine 7 [running]:\nexample.com/rt.TestRoundTrip(0xc000)\n\t/src/rt/rt_test.go:%d +0x2a\n", k+1)
				case !tc.frame:
					fmt.Fprintf(&out, "    rt_test.go:%d: Marshal = a\n", k+1)
				}
				n++
			}
			out.WriteString("FAIL\nFAIL\texample.com/rt\t0.002s\n")
			r := rank(t, repo, out.String())
			i := slices.Index(r.ix.paths, "rt/rt.go")
			if i < 0 || r.reached[i][lineOf(code, "func quote(")] <= 0 {
				t.Errorf("quote, which Marshal calls, is not reached")
			}
			if got := i >= 0 && r.reached[i][lineOf(code, "func parse(")] > 0; got != tc.parse {
				t.Errorf("parse, which Unmarshal calls, reached: %v, want %v", got, tc.parse)
			}
		})
	}
}
