package repoctx

import "github.com/agentfix/agentfix/internal/tokens"

// What the look step shows of a request: the lines the pack has not
// shown, and when they do not fit, their head.

// minCutLines is the least a request cut to the look budget shows.
const minCutLines = 10

// headWithin is the longest head of chunks, of at least minCutLines lines,
// that costs at most limit tokens rendered with the note on the lines it
// leaves out, and those lines; nil when none does.
func headWithin(p string, o *outline, chunks []Chunk, limit int, note func([]Chunk) string) (head, out []Chunk) {
	fits := func(n int) bool {
		h, rest := cutAfter(chunks, n)
		return costOf(p, o, h)+tokens.Estimate(note(rest)) <= limit
	}
	total := lineCount(chunks)
	if total <= minCutLines || !fits(minCutLines) {
		return nil, nil
	}
	// fits(lo) holds; the whole did not fit.
	lo, hi := minCutLines, total-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cutAfter(chunks, lo)
}

// cutAfter splits chunks after their first n lines.
func cutAfter(chunks []Chunk, n int) (head, rest []Chunk) {
	for _, c := range chunks {
		size := c.EndLine - c.StartLine + 1
		switch {
		case n >= size:
			head = append(head, c)
			n -= size
		case n > 0:
			head = append(head, span(c.StartLine, c.StartLine+n-1))
			rest = append(rest, span(c.StartLine+n, c.EndLine))
			n = 0
		default:
			rest = append(rest, c)
		}
	}
	return head, rest
}

// lineCount is how many lines chunks hold.
func lineCount(chunks []Chunk) int {
	n := 0
	for _, c := range chunks {
		n += c.EndLine - c.StartLine + 1
	}
	return n
}

// unseen are the lines of chunks that shown does not hold.
func unseen(chunks, shown []Chunk) []Chunk {
	shown = mergeChunks(append([]Chunk(nil), shown...))
	var out []Chunk
	for _, c := range chunks {
		lo := c.StartLine
		for _, s := range shown {
			if s.EndLine < lo || s.StartLine > c.EndLine {
				continue
			}
			if s.StartLine > lo {
				out = append(out, span(lo, s.StartLine-1))
			}
			lo = max(lo, s.EndLine+1)
		}
		if lo <= c.EndLine {
			out = append(out, span(lo, c.EndLine))
		}
	}
	return out
}
