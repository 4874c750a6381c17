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
