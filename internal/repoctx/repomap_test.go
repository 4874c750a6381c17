package repoctx

import (
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
