package repoctx

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/tokens"
)

// TestMapLeavesOutTheSignaturesTheCodeShows: the map outlines the rest of
// a file the code shows in part (the definitions the code leaves out),
// not what the model reads below it; the room that frees is the code's.
// (From 2200 tokens on, the room left shows every definition of big/big.go
// the outline would list: see fillRest.)
func TestMapLeavesOutTheSignaturesTheCodeShows(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	query := "big: Normalize returns the key unchanged when it is lower case"
	for _, budget := range []int{2000, 2100} {
		p := build(t, repo, query, budget)
		f := fileOf(p, "big/big.go")
		if f == nil || covers(f, 1, strings.Count(fixtureFiles()["big/big.go"], "\n")) {
			t.Fatalf("budget %d: big/big.go not packed in part: %+v", budget, f)
		}
		_, sec, ok := strings.Cut(p.Map, "## big/big.go")
		if !ok {
			t.Fatalf("budget %d: the map does not outline big/big.go:\n%s", budget, p.Map)
		}
		sec, _, _ = strings.Cut(sec, "\n## ")
		listed := 0
		for _, l := range strings.Split(sec, "\n")[1:] {
			num, sig, ok := strings.Cut(l, ": ")
			n, err := strconv.Atoi(num)
			if !ok || err != nil {
				continue
			}
			listed++
			if covers(f, n, n) {
				t.Errorf("budget %d: the map lists %q, which the code shows (chunks %v)", budget, sig, f.Chunks)
			}
		}
		if listed == 0 {
			t.Errorf("budget %d: the map outlines none of big/big.go's other definitions:\n%s", budget, p.Map)
		}
		if strings.Contains(p.Map, "func Normalize(") {
			t.Errorf("budget %d: the map repeats Normalize, which the code shows:\n%s", budget, p.Map)
		}
		if n := tokens.Estimate(p.Text()); n > budget || p.TokensUsed > budget {
			t.Errorf("budget %d: the pack takes %d tokens (TokensUsed %d)", budget, n, p.TokensUsed)
		}
	}
}

// TestMapCountsOnlyWhatTheCodeLeavesOut: an outline's "(N more, among
// them ...)" tells the model how much else the file defines; a definition
// the code below it shows is not counted there.
func TestMapCountsOnlyWhatTheCodeLeavesOut(t *testing.T) {
	src := lookAlikes("calc", "step", "")
	r := rank(t, newRepo(t, map[string]string{"go.mod": "module example.com/calc\n", "calc/calc.go": src}), "step7 adds the wrong total")
	i := r.order[0]
	o := r.outlineOf(i)
	more := func(outline string) (int, []string) {
		_, rest, ok := strings.Cut(outline, "\n(")
		if !ok {
			t.Fatalf("no count of the other definitions:\n%s", outline)
		}
		num, names, _ := strings.Cut(rest, " more, among them ")
		n, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("count %q: %v\n%s", num, err, outline)
		}
		return n, strings.Split(strings.TrimSuffix(strings.TrimSpace(names), ")"), ", ")
	}
	n0, names0 := more(r.fileOutline(i, o, true, nil))
	if n0 != len(o.syms)-mapSymbolsPerFile || len(names0) < 3 {
		t.Fatalf("without code shown: %d more and %d names, want %d and at least 3", n0, len(names0), len(o.syms)-mapSymbolsPerFile)
	}
	// The code shows three of the named definitions.
	var shown []Chunk
	for _, name := range names0[:3] {
		l := lineOf(src, "func "+name+"(")
		shown = append(shown, span(l-1, l+5))
	}
	n1, _ := more(r.fileOutline(i, o, true, shown))
	if n1 != n0-3 {
		t.Errorf("with three of them shown: %d more, want %d", n1, n0-3)
	}
}

// TestMapNamesTheBestFilesOtherDefinitions: the map outlines the best
// file with 15 signatures; the rest of its definitions are named after
// them (up to mapNamesPerFile), so that a model can ask the look step for
// one, in the room of the last files' outlines: the map costs no more.
func TestMapNamesTheBestFilesOtherDefinitions(t *testing.T) {
	files := map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/calc.go":      lookAlikes("calc", "step", ""),
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestStep7(t *testing.T) {\n\tif got := step7(1, 2); got != 10 {\n\t\tt.Fatalf(\"step7(1, 2) = %d, want 10\", got)\n\t}\n}\n",
	}
	// Other files share the query's words, so the map's outlines fill it.
	for k := range 20 {
		files[fmt.Sprintf("other/o%d.go", k)] = lookAlikes("other", fmt.Sprintf("total%d_", k), "")
	}
	r := rank(t, newRepo(t, files), "--- FAIL: TestStep7 (0.00s)\n    calc_test.go:7: step7(1, 2) = 3, want 10 (total value)\nFAIL\n")
	if best := r.ix.paths[r.order[0]]; best != "calc/calc.go" {
		t.Fatalf("best file %s, want calc/calc.go", best)
	}
	limit := 1200
	m, room := r.repoMap(limit, nil)
	if tokens.Estimate(m) > room || room > limit {
		t.Errorf("map costs %d tokens, its room is %d, its limit %d", tokens.Estimate(m), room, limit)
	}
	sec := m[strings.Index(m, "## calc/calc.go"):]
	sec = sec[:strings.Index(sec[1:], "## ")+1]
	_, names, ok := strings.Cut(sec, "(45 more, among them ")
	if !ok {
		t.Fatalf("the best file's outline names none of its other definitions:\n%s", sec)
	}
	listed := strings.Split(strings.TrimSuffix(strings.TrimSpace(names), ")"), ", ")
	if len(listed) != mapNamesPerFile {
		t.Errorf("%d names listed, want %d: %v", len(listed), mapNamesPerFile, listed)
	}
	for _, n := range listed {
		if strings.Contains(sec, "func "+n+"(") {
			t.Errorf("%s is named again after its signature", n)
		}
	}
	// Only the best file's outline names them.
	if strings.Count(m, "among them") != 1 {
		t.Errorf("%d outlines name other definitions, want 1:\n%s", strings.Count(m, "among them"), m)
	}
}
