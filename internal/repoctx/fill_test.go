package repoctx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestBuildSpendsLeftoverRoomOnCalleesPastTheEdges: the fix is four calls
// below the failing test, one past edgeDepth, in a big file of look-alike
// functions; with room left once everything else is packed, the callees
// of the shown functions are followed further, and it is shown.
func TestBuildSpendsLeftoverRoomOnCalleesPastTheEdges(t *testing.T) {
	repo, big, failing := fourCallsDown(t, nil)
	mustPackFunc(t, build(t, repo, failing, 4096), "calc/big.go", big, "deepest")
}

// TestBuildSpendsLeftoverRoomOnCalleesOfAPartlyShownFunction: the
// failing test reaches decode, too big to show whole, at the edges' last
// level; the fix is in fixup, which decode calls halfway down its body,
// in a big file of look-alike functions. Only decode's head is shown, but
// with room left its callees are followed as a shown function's are, and
// fixup is shown.
func TestBuildSpendsLeftoverRoomOnCalleesOfAPartlyShownFunction(t *testing.T) {
	decode := "package calc\n\n" + bigDecode(120, "n = fixup(n)")
	big := lookAlikes("calc", "step", "// fixup corrects a short record.\nfunc fixup(n int) int {\n\treturn n - 1 // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/big.go":       big,
		"calc/decode.go":    decode,
		"calc/calc.go":      "package calc\n\n// Parse parses a record.\nfunc Parse(b []byte) int {\n\treturn middle(b)\n}\n\nfunc middle(b []byte) int {\n\treturn decode(b)\n}\n",
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestParseEmpty(t *testing.T) {\n\tif got := Parse(nil); got != 0 {\n\t\tt.Errorf(\"Parse(nil) = %d, want 0\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestParseEmpty (0.00s)\n    calc_test.go:7: Parse(nil) = -1, want 0\nFAIL\nFAIL\texample.com/calc\t0.002s\n"
	p := build(t, repo, failing, 4096)
	if f := fileOf(p, "calc/decode.go"); f == nil || covers(f, 4, strings.Count(decode, "\n")) {
		t.Fatalf("decode should be shown in part (its head), not whole nor left out: calc/decode.go %+v", f)
	}
	mustPackFunc(t, p, "calc/big.go", big, "fixup")
}

// TestBuildPacksDocumentationLast: a README shares every word of the
// failure, or of the issue, and outranks the code; the code comes first
// (for the failing test, the fix four calls down, in a big file), and the
// README only gets what is left, last.
func TestBuildPacksDocumentationLast(t *testing.T) {
	var readme strings.Builder
	readme.WriteString("# calc\n\n")
	for k := range 120 {
		fmt.Fprintf(&readme, "Total sums values: TestTotal checks that Total of %d values is the total, want the total %d.\n\n", k, k)
	}
	repo, big, failing := fourCallsDown(t, map[string]string{"README.md": readme.String()})
	issue := "Total sums values wrong\n\nThe total of the values 1 and 2 is 2; I want the total 3. What checks that?\n"
	for _, query := range []string{failing, issue} {
		p := build(t, repo, query, 8192)
		if query == failing {
			mustPackFunc(t, p, "calc/big.go", big, "deepest")
		}
		if ps := paths(p); len(ps) == 0 || ps[len(ps)-1] != "README.md" {
			t.Errorf("the README is not packed last for %q: %v", query[:20], ps)
		}
	}
}

// TestBuildSpendsLeftoverRoomOnTheTablesOfWhatItShows: the failing test
// reaches Width, whose fault is in the table it looks runes up in, a
// package variable far down a file of look-alike tables that no word of
// the output names; the room left over shows it.
func TestBuildSpendsLeftoverRoomOnTheTablesOfWhatItShows(t *testing.T) {
	var b strings.Builder
	b.WriteString("package width\n\ntype table [][2]rune\n\n// Width is the number of cells r takes.\nfunc Width(r rune) int {\n\tif inTable(r, wide) {\n\t\treturn 2\n\t}\n\treturn 1\n}\n\n" +
		"func inTable(r rune, t table) bool {\n\tfor _, p := range t {\n\t\tif p[0] <= r && r <= p[1] {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n\n")
	for k := range 80 {
		if k == 60 {
			b.WriteString("var wide = table{\n\t{0x1100, 0x115F}, // the bug: no Hangul syllables\n}\n\n")
		}
		fmt.Fprintf(&b, "// script%d lists the code points of script %d.\nvar script%d = table{\n\t{%d, %d},\n\t{%d, %d},\n}\n\n", k, k, k, 1000*k, 1000*k+10, 1000*k+20, 1000*k+30)
	}
	code := b.String()
	repo := newRepo(t, map[string]string{
		"go.mod":              "module example.com/width\n",
		"width/width.go":      code,
		"width/width_test.go": "package width\n\nimport \"testing\"\n\nfunc TestWidth(t *testing.T) {\n\tif got := Width('\\uAC00'); got != 2 {\n\t\tt.Errorf(\"Width = %d, want 2\", got)\n\t}\n}\n",
	})
	failing := "--- FAIL: TestWidth (0.00s)\n    width_test.go:7: Width = 1, want 2\nFAIL\nFAIL\texample.com/width\t0.002s\n"
	site := lineOf(code, "var wide")
	p := build(t, repo, failing, 2000)
	if f := fileOf(p, "width/width.go"); f == nil || !covers(f, site, site+2) {
		t.Errorf("the table Width uses (width/width.go:%d) is not shown: %+v", site, f)
	}
}

// TestBuildPacksTextAndBoilerplateLast: an API dump (api.txt, as
// urfave/cli's godoc-current.txt), a licence and a dotfile share the
// words of a failing test's output and of a report, and outrank the code;
// for either query they are packed after the code, with what is left.
func TestBuildPacksTextAndBoilerplateLast(t *testing.T) {
	var dump, licence strings.Builder
	for k := range 120 {
		fmt.Fprintf(&dump, "func Total(values []int) int\n    Total sums values: the total of %d values is the total %d.\n\n", k, k)
	}
	for k := range 12 {
		fmt.Fprintf(&licence, "Clause %d. The total of the values: TestTotal, Total want, calc Total values. FAIL of the total is not ours.\n", k)
	}
	last := map[string]string{
		"api.txt":       dump.String(),
		"LICENSE":       licence.String(),
		".editorconfig": "# Total values, TestTotal, the total calc want FAIL\n[*.go]\nindent_style = tab\n",
	}
	repo, big, failing := fourCallsDown(t, last)
	issue := "Total sums values wrong\n\nThe total of the values 1 and 2 is 2; I want the total 3. `calc.Total` sums values wrong.\n"
	for _, query := range []string{failing, issue} {
		p := build(t, repo, query, 2048)
		if query == failing {
			mustPackFunc(t, p, "calc/big.go", big, "deepest")
		}
		ps := paths(p)
		if !slices.Contains(ps, "calc/big.go") {
			t.Fatalf("for %q, calc/big.go is not packed: %v", query[:20], ps)
		}
		for k, f := range ps {
			if _, ok := last[f]; ok && slices.ContainsFunc(ps[k:], func(g string) bool { return !packedLast(g) }) {
				t.Errorf("for %q, %s is packed before code: %v", query[:20], f, ps)
			}
		}
	}
}

// TestPackedLast names the files that are packed after the code.
func TestPackedLast(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md": true, "docs/guide.rst": true, "godoc-current.txt": true, "testdata/api.TXT": true,
		"LICENSE": true, "LICENSE.txt": true, "sub/COPYING": true, "NOTICE": true, "AUTHORS": true, ".github/CODEOWNERS": true,
		".gitignore": true, ".golangci.yml": true, "pkg/.editorconfig": true,
		"main.go": false, "go.mod": false, "Makefile": false, "config.yaml": false, "licensing/check.go": false, ".github/workflows/ci.yml": false,
	} {
		if got := packedLast(p); got != want {
			t.Errorf("packedLast(%q) = %v, want %v", p, got, want)
		}
	}
}
