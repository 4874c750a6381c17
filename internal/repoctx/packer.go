package repoctx

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

const (
	// mapShare is the part of the budget the repo map may take.
	mapShare = 0.15
	// maxPackedFiles bounds the files in one pack: past it, more files
	// are noise to a small model.
	maxPackedFiles = 30
	// maxTried bounds the files the packer outlines and tries to fit.
	maxTried = 60
	// minRelScore is the lowest score, relative to the best file, packed.
	minRelScore = 0.05
	// bigSymbol is the size in lines past which only the parts of a
	// definition the query points at are packed.
	bigSymbol = 80
	// contextLines surround a focused part of a big definition.
	contextLines = 8
)

const codeHeader = "# Code (most relevant first; line numbers on the left)\n"

// gapMarker stands between two chunks of a file.
const gapMarker = "...\n"

// Pack lays out the ranking within opts.Budget tokens: the repo map first,
// then files in rank order, each whole when small, else its relevant
// definitions with line numbers.
func (r *Ranking) Pack(ctx context.Context, opts Options) (*Pack, error) {
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	p := &Pack{RepoFiles: r.indexed, Files: []File{}}
	p.Map = r.repoMap(int(float64(budget) * mapShare))
	mapTokens := EstimateTokens(p.Map)
	left := budget - mapTokens - EstimateTokens(codeHeader)
	var code strings.Builder
	if left > 0 && len(r.order) > 0 {
		code.WriteString(codeHeader)
		codeBudget := left
		top := r.score[r.order[0]]
		for rank, i := range r.order {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if len(p.Files) == maxPackedFiles || rank == maxTried || r.score[i] < minRelScore*top || left < 40 {
				break
			}
			// The best file may take most of the code budget; the others a
			// third each, so that several candidates get in.
			share := 0.35
			if rank == 0 {
				share = 0.6
			}
			limit := min(left, int(share*float64(codeBudget)))
			text, chunks, tokens := r.section(i, limit)
			if tokens == 0 || tokens > left {
				continue
			}
			code.WriteString(text)
			left -= tokens
			p.Files = append(p.Files, File{Path: r.ix.paths[i], Score: math.Round(r.score[i]*1000) / 1000, Tokens: tokens, Chunks: chunks})
		}
	}
	if len(p.Files) > 0 {
		p.Code = code.String()
	}
	p.TokensUsed = mapTokens + EstimateTokens(p.Code)
	return p, nil
}

// section renders the most of file i that fits in limit tokens: the whole
// file if it fits, else its best definitions, best first. It returns the
// text, the chunks and their token count, or 0 tokens when nothing fits.
func (r *Ranking) section(i, limit int) (string, []Chunk, int) {
	o := r.outlineOf(i)
	if o == nil || len(o.lines) == 0 {
		return "", nil, 0
	}
	narrow := r.failingTestFile(i)
	whole := []Chunk{span(1, len(o.lines))}
	if !narrow && r.cost(i, o, whole) <= limit {
		text := r.render(i, o, whole)
		return text, o.named(whole), EstimateTokens(text)
	}
	var chosen []Chunk
	for _, c := range r.candidates(i, o, narrow) {
		try := mergeChunks(append(append([]Chunk(nil), chosen...), c))
		if r.cost(i, o, try) <= limit {
			chosen = try
		}
	}
	if len(chosen) == 0 {
		return "", nil, 0
	}
	text := r.render(i, o, chosen)
	return text, o.named(chosen), EstimateTokens(text)
}

// named fills in the symbols of each chunk.
func (o *outline) named(chunks []Chunk) []Chunk {
	for k := range chunks {
		chunks[k].Symbols = o.chunkSymbols(chunks[k])
	}
	return chunks
}

// cost is an upper bound of EstimateTokens(r.render(i, o, chunks)), from
// per-line counts (the estimate is subadditive), without rendering.
func (r *Ranking) cost(i int, o *outline, chunks []Chunk) int {
	if o.lineTokens == nil {
		width := len(strconv.Itoa(len(o.lines)))
		o.lineTokens = make([]int, len(o.lines))
		for k, l := range o.lines {
			o.lineTokens[k] = EstimateTokens(fmt.Sprintf("%*d\t%s\n", width, k+1, l))
		}
	}
	n := EstimateTokens(r.sectionHeader(i, o, chunks)) + EstimateTokens(gapMarker)*(len(chunks)-1)
	for _, c := range chunks {
		for l := c.StartLine; l <= c.EndLine; l++ {
			n += o.lineTokens[l-1]
		}
	}
	return n
}

func (r *Ranking) sectionHeader(i int, o *outline, chunks []Chunk) string {
	return chunkHeader(r.ix.paths[i], len(o.lines), chunks)
}

// failingTestFile reports whether file i is a test file of a query that
// names failing tests: the model needs those tests and the lines the
// output names, not the file's other tests, however many of the query's
// words they share.
func (r *Ranking) failingTestFile(i int) bool {
	return len(r.q.tests) > 0 && isTestFile(r.ix.paths[i])
}

// candidates are the parts of file i worth packing, best first: relevant
// definitions (big ones cut to the lines the query points at), then windows
// with query terms that no definition covers. narrow keeps only the
// definitions and lines the query points at (focus lines).
func (r *Ranking) candidates(i int, o *outline, narrow bool) []Chunk {
	type cand struct {
		c     Chunk
		score float64
	}
	var cs []cand
	for _, s := range o.syms {
		sc := r.symbolScore(i, s)
		if sc <= 0 || narrow && !r.focused(i, s) {
			continue
		}
		if s.end-s.start+1 <= bigSymbol {
			cs = append(cs, cand{span(s.start, s.end), sc})
			continue
		}
		// A big definition: its head, then the lines the query points at.
		cs = append(cs, cand{span(s.start, min(s.decl+2, s.end)), sc})
		for _, l := range r.focus[i] {
			if l >= s.start && l <= s.end {
				cs = append(cs, cand{span(max(s.start, l-contextLines), min(s.end, l+contextLines)), sc * 0.9})
			}
		}
		for k := range r.scans[i].blocks {
			b := &r.scans[i].blocks[k]
			lo, hi := int(b.block)*blockLines+1, int(b.block+1)*blockLines
			if !narrow && hi >= s.start && lo <= s.end {
				cs = append(cs, cand{span(max(s.start, lo), min(s.end, hi)), sc * 0.5 * r.blockScore(b) / r.bestBlock()})
			}
		}
	}
	covered := func(l int) bool {
		for _, s := range o.syms {
			if l >= s.start && l <= s.end {
				return true
			}
		}
		return false
	}
	for k := range r.scans[i].blocks {
		b := &r.scans[i].blocks[k]
		lo, hi := int(b.block)*blockLines+1, min(int(b.block+1)*blockLines, len(o.lines))
		if !narrow && (!covered(lo) || !covered(hi)) {
			cs = append(cs, cand{span(lo, hi), 0.5 * r.blockScore(b) / r.bestBlock()})
		}
	}
	for _, l := range r.focus[i] {
		if !covered(l) && l <= len(o.lines) {
			cs = append(cs, cand{span(max(1, l-contextLines), min(len(o.lines), l+contextLines)), 3})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].score != cs[b].score {
			return cs[a].score > cs[b].score
		}
		return cs[a].c.StartLine < cs[b].c.StartLine
	})
	out := make([]Chunk, 0, len(cs))
	for _, c := range cs {
		if c.c.StartLine >= 1 && c.c.EndLine <= len(o.lines) && c.c.StartLine <= c.c.EndLine {
			out = append(out, c.c)
		}
	}
	return out
}

// focused reports whether a focus line of file i lies in s.
func (r *Ranking) focused(i int, s symbol) bool {
	for _, l := range r.focus[i] {
		if l >= s.start && l <= s.end {
			return true
		}
	}
	return false
}

// mergeChunks sorts chunks and joins those that overlap or touch.
func mergeChunks(cs []Chunk) []Chunk {
	sort.Slice(cs, func(a, b int) bool { return cs[a].StartLine < cs[b].StartLine })
	out := cs[:0]
	for _, c := range cs {
		if n := len(out); n > 0 && c.StartLine <= out[n-1].EndLine+1 {
			out[n-1].EndLine = max(out[n-1].EndLine, c.EndLine)
			continue
		}
		out = append(out, c)
	}
	return out
}

// render writes file i's chunks with a header and line numbers.
func (r *Ranking) render(i int, o *outline, chunks []Chunk) string {
	return renderChunks(r.ix.paths[i], o, chunks)
}

// span is the chunk of lines lo to hi.
func span(lo, hi int) Chunk { return Chunk{StartLine: lo, EndLine: hi} }
