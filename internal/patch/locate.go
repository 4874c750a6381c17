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
	levelExact  = iota
	levelLoose  // trailing whitespace and CR ignored
	levelIndent // leading whitespace ignored too; the added lines are re-indented
)

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

// locate finds pat in lines: exactly at an expected position (0-based:
// the header's claim, and the claim moved by the offset earlier hunks were
// found at), then exactly anywhere, then ignoring trailing whitespace and
// CR, then ignoring indentation too. Several matches are resolved only when exactly one lies within
// claimSlack lines of an expected position; otherwise the hunk is
// ambiguous: never guess. Places overlapping taken spans are not
// candidates.
func locate(lines, pat []string, wants []int, taken []span) locateResult {
	free := func(p int) bool {
		for _, t := range taken {
			if (span{p, len(pat)}).overlaps(t) {
				return false
			}
		}
		return true
	}
	for level, eq := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return loose(a) == loose(b) },
		func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) },
	} {
		var at []int
		for _, w := range wants {
			if matchAt(lines, pat, w, eq) && free(w) && !contains(at, w) {
				at = append(at, w)
			}
		}
		if len(at) == 1 {
			return locateResult{pos: at[0], level: level}
		}
		if len(at) > 1 {
			return locateResult{failed: true, ambiguous: at}
		}
		var cands []int
		for p := 0; p+len(pat) <= len(lines); p++ {
			if matchAt(lines, pat, p, eq) && free(p) {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 {
			continue
		}
		if p, ok := nearest(cands, wants); ok {
			return locateResult{pos: p, level: level}
		}
		return locateResult{failed: true, ambiguous: cands}
	}
	want := -1
	if len(wants) > 0 {
		want = wants[0]
	}
	return locateResult{failed: true, hint: nearMiss(lines, pat, want)}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
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

// claimSlack is how far from an expected line a match among several may
// be and still win: a header a few lines off is a miscount, one further off
// says nothing about which of several equal places was meant.
const claimSlack = 3

// nearest picks the only candidate, or among several the only one within
// claimSlack lines of an expected position.
func nearest(cands []int, wants []int) (int, bool) {
	if len(cands) == 1 {
		return cands[0], true
	}
	found := -1
	for _, c := range cands {
		for _, w := range wants {
			if abs(c-w) <= claimSlack {
				if found >= 0 && found != c {
					return 0, false
				}
				found = c
			}
		}
	}
	return found, found >= 0
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
