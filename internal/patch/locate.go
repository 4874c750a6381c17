package patch

import (
	"fmt"
	"strings"
)

// span is a located hunk: old lines [pos, pos+n) of the file.
type span struct{ pos, n int }

func (s span) overlaps(o span) bool {
	if s.n == 0 || o.n == 0 {
		return s.pos > o.pos && s.pos < o.pos+o.n || o.pos > s.pos && o.pos < s.pos+s.n
	}
	return s.pos < o.pos+o.n && o.pos < s.pos+s.n
}

// match levels, best first.
const (
	levelExact  = iota // line endings aside: a file keeps its own
	levelLoose         // trailing whitespace ignored too
	levelIndent        // leading whitespace ignored too; the added lines are re-indented
)

// claimed is where a hunk's header places it: at one of the 0-based lines
// in at (the header's line read against the file as the reply found it,
// and as earlier edits left it), or up to reach lines after, when the
// header counts more old lines than the hunk has (its context was
// trimmed): the hunk lies within the span the header claims. guess holds
// those lines moved by the offset earlier hunks of the edit were found at,
// which is an inference, not the header's word. The zero value claims
// nothing.
type claimed struct {
	at, guess []int
	reach     int
}

// claimOf is what h's header claims; offset is how far from their claims
// earlier hunks of the edit were found, and moved maps the file's lines as
// the reply found it to where earlier edits left them (see movedLines).
func claimOf(h *hunk, offset int, moved []int) claimed {
	if h.claim <= 0 {
		return claimed{}
	}
	l := h.claim - 1
	c := claimed{at: []int{l}, reach: max(0, h.claimLen-len(h.oldSide()))}
	if l < len(moved) && moved[l] != l {
		c.at = append(c.at, moved[l])
	}
	if offset != 0 {
		for _, a := range c.at {
			c.guess = append(c.guess, a+offset)
		}
	}
	return c
}

// pick finds the only candidate within the span the header claims. Only an
// exact match may be picked by a guessed position too.
func (c claimed) pick(cands []int, level int) (int, bool) {
	starts := c.at
	if level == levelExact {
		starts = append(starts[:len(starts):len(starts)], c.guess...)
	}
	found := -1
	for _, p := range cands {
		for _, a := range starts {
			if p >= a && p <= a+c.reach {
				if found >= 0 && found != p {
					return 0, false
				}
				found = p
			}
		}
	}
	return found, found >= 0
}

// movedLines maps each line of orig, and its end, to where it is in cur,
// so that an edit whose header numbers the file as the reply found it can
// be placed after earlier edits of the reply changed it. A removed line
// maps to the line now in its place. nil when nothing moved.
func movedLines(orig, cur text) []int {
	if len(orig.lines) == len(cur.lines) && string(orig.bytes()) == string(cur.bytes()) {
		return nil
	}
	moved := make([]int, len(orig.lines)+1)
	next := 0
	for _, o := range lineDiff(orig.lines, cur.lines) {
		switch o.kind {
		case opEqual:
			moved[o.ai], next = o.bi, o.bi+1
		case opDelete:
			moved[o.ai] = next
		case opInsert:
			next = o.bi + 1
		}
	}
	moved[len(orig.lines)] = len(cur.lines)
	return moved
}

// locateResult is where a hunk goes, or why it goes nowhere.
type locateResult struct {
	pos   int
	level int
	// failure: ambiguous lists the places that matched equally well;
	// otherwise the hunk was not found and hint says what came closest.
	ambiguous []int
	hint      string
	failed    bool
}

// notFound reports whether r failed because nothing matched, rather than
// because several places did: only then may a looser reading be tried.
func (r locateResult) notFound() bool { return r.failed && len(r.ambiguous) == 0 }

// locate finds pat in lines, comparing exactly (line endings aside: the
// file keeps its own), then ignoring trailing whitespace, then ignoring
// indentation too. A level is tried only when the stricter one matched
// nowhere, so a relaxed match never beats a stricter one elsewhere. Where
// a level matches several places, the one within the span the header
// claims wins (see claimed.pick); otherwise the hunk is ambiguous: never
// guess. Places overlapping taken spans are not candidates.
func locate(lines, pat []string, c claimed, taken []span) locateResult {
	free := func(p int) bool {
		for _, t := range taken {
			if (span{p, len(pat)}).overlaps(t) {
				return false
			}
		}
		return true
	}
	for level, eq := range []func(a, b string) bool{
		func(a, b string) bool { return trimCR(a) == trimCR(b) },
		func(a, b string) bool { return loose(a) == loose(b) },
		func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) },
	} {
		var cands []int
		for p := 0; p+len(pat) <= len(lines); p++ {
			if matchAt(lines, pat, p, eq) && free(p) {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 {
			continue
		}
		if len(cands) == 1 {
			return locateResult{pos: cands[0], level: level}
		}
		if p, ok := c.pick(cands, level); ok {
			return locateResult{pos: p, level: level}
		}
		return locateResult{failed: true, ambiguous: cands}
	}
	want := -1
	if len(c.at) > 0 {
		want = c.at[0]
	}
	return locateResult{failed: true, hint: nearMiss(lines, pat, want)}
}

func matchAt(lines, pat []string, p int, eq func(a, b string) bool) bool {
	if p < 0 || p+len(pat) > len(lines) {
		return false
	}
	for i, s := range pat {
		if !eq(lines[p+i], s) {
			return false
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// nearMiss describes the place in lines where the most of pat's lines agree
// (ignoring indentation and trailing space), and the first line that
// differs there, so the model can see what it got wrong.
func nearMiss(lines, pat []string, want int) string {
	if len(pat) == 0 {
		return ""
	}
	norm := func(s string) string { return strings.TrimSpace(s) }
	bestPos, bestScore := -1, 0
	for p := 1 - len(pat); p < len(lines); p++ {
		score := 0
		for i, s := range pat {
			if j := p + i; j >= 0 && j < len(lines) && norm(lines[j]) == norm(s) && norm(s) != "" {
				score++
			}
		}
		if score > bestScore || (score == bestScore && score > 0 && want >= 0 && abs(p-want) < abs(bestPos-want)) {
			bestPos, bestScore = p, score
		}
	}
	if bestPos < 0 {
		return fmt.Sprintf("none of its %d lines appear in the file; copy them exactly from the current file", len(pat))
	}
	for i, s := range pat {
		j := bestPos + i
		if j >= 0 && j < len(lines) && lines[j] == s {
			continue
		}
		have := "(end of file)"
		if j >= 0 && j < len(lines) {
			have = quote(lines[j])
		} else if j < 0 {
			have = "(start of file)"
		}
		return fmt.Sprintf("the closest place is line %d (%d of %d lines agree); the first line that differs is line %d: you wrote %s, the file has %s",
			max(bestPos, 0)+1, bestScore, len(pat), j+1, quote(s), have)
	}
	return ""
}

// quote shows a line as Go quotes it, trimmed to a readable length.
func quote(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}
