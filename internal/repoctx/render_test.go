package repoctx

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/tokens"
)

// shownAt is the line number the rendered code gives the first line whose
// text is line: read as a reader would, from the last number shown above
// it in its chunk. It is 0 when the line is not shown, or -1 when no
// number above it in its chunk tells.
func shownAt(code, line string) int {
	n := -1
	for _, l := range strings.Split(code, "\n") {
		num, text, ok := strings.Cut(l, "\t")
		switch {
		case strings.HasPrefix(l, "## ") || l == strings.TrimSuffix(gapMarker, "\n"):
			n = -1
			continue
		case !ok:
			continue
		case num == "":
			if n >= 0 {
				n++
			}
		default:
			v, err := strconv.Atoi(num)
			if err != nil {
				continue
			}
			n = v
		}
		if text == line {
			return n
		}
	}
	return 0
}

func TestRenderNumbersEachChunksFirstLineAndEveryTenth(t *testing.T) {
	o := &outline{}
	for k := 1; k <= 45; k++ {
		o.lines = append(o.lines, fmt.Sprintf("\tx%d := %d", k, k))
	}
	got := renderChunks("a.go", o, []Chunk{span(3, 12), span(17, 41)})
	var numbered []string
	for _, l := range strings.Split(got, "\n") {
		if num, _, ok := strings.Cut(l, "\t"); ok && num != "" {
			numbered = append(numbered, num)
		}
	}
	if want := "3 10 17 20 30 40"; strings.Join(numbered, " ") != want {
		t.Errorf("numbered lines %v, want %s:\n%s", numbered, want, got)
	}
	for k := 1; k <= 45; k++ {
		want := k
		if k < 3 || 12 < k && k < 17 || k > 41 {
			want = 0
		}
		if at := shownAt(got, o.lines[k-1]); at != want {
			t.Errorf("line %d read as line %d:\n%s", k, at, got)
		}
	}
	if !strings.HasPrefix(got, "\n## a.go (lines 3-12, 17-41 of 45)\n3\t\tx3 := 3\n\t\tx4 := 4\n") {
		t.Errorf("render starts:\n%s", got)
	}
}

// The packer counts a file's cost from per-line counts; the count must
// hold what is rendered, whichever lines carry a number.
func TestCostHoldsTheRenderedChunks(t *testing.T) {
	var src []string
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, strings.Split(string(b), "\n")...)
	}
	if len(src) < 5000 {
		t.Fatalf("%d lines of this package's source, want 5,000 or more to render", len(src))
	}
	o := &outline{lines: src}
	r := &Ranking{ix: &Index{paths: []string{"pkg/file.go"}}}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		var chunks []Chunk
		for l := 1 + rng.IntN(len(src)/2); l < len(src) && len(chunks) < 8; {
			hi := min(len(src), l+rng.IntN(60))
			chunks = append(chunks, span(l, hi))
			l = hi + 2 + rng.IntN(30)
		}
		if got, want := r.cost(0, o, chunks), tokens.Estimate(r.render(0, o, chunks)); got < want {
			t.Fatalf("cost %d below the rendered text's %d for chunks %v", got, want, chunks)
		}
	}
}
