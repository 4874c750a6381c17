package repoctx

import (
	"math"
	"slices"
	"sort"
)

// part is a candidate chunk of the k-th file the packer tries.
type part struct {
	k     int
	c     Chunk
	score float64
}

// parts are the candidate chunks of files (when not narrow, of the first
// partFiles), best first: each chunk's
// score weighed by its file's rank score (relative to top), so that a
// file's relevance counts but a very relevant definition of a lesser file
// beats a lesser part of the best. narrow keeps only the parts the query
// points at; otherwise test files of a failing-test query are still
// narrow (see failingTestFile). For failing output the narrow parts that
// hold a focus line come first, one per file (see namedFirst).
func (r *Ranking) parts(files []*chosen, narrow bool, top float64, unit int) []part {
	var out []part
	for k, f := range files {
		if narrow && len(r.focus[f.i]) == 0 && len(r.reached[f.i]) == 0 || !narrow && k >= partFiles {
			continue // nothing pointed at; or left to the file-by-file pass
		}
		o := r.outlineOf(f.i)
		if o == nil {
			continue
		}
		for _, c := range r.candidates(f.i, o, narrow || r.failingTestFile(f.i), unit) {
			out = append(out, part{k, c.c, c.score * r.score[f.i] / top * r.issueDiscount(f.i)})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	if narrow && len(r.q.tests) > 0 {
		out = r.namedFirst(files, out)
	}
	return out
}

// namedFirst moves first, best first, one part of each file that holds
// one of its focus lines (a line the output names: a frame, a failing
// line; a message's source; the definition of a name it gives): every
// file the output points at gets its place before any file gets a second.
// When several tests fail, a long trace of one no longer takes the room
// of the line another's message points at. A file's part is its best one
// that holds the first line the output names in it, when one does: of a
// trace, the frame nearest the panic, which outranks none of the callers
// it passed through when a closure's frame does not name its function.
// When that part is a window inside a definition too big to show whole,
// the definition's head comes with it.
func (r *Ranking) namedFirst(files []*chosen, parts []part) []part {
	holds := func(p part, l int) bool { return p.c.StartLine <= l && l <= p.c.EndLine }
	named := func(p part) bool {
		return slices.ContainsFunc(r.focus[files[p.k].i], func(l int) bool { return holds(p, l) })
	}
	first := map[int]int{} // file -> the first of its lines the output names
	for _, fl := range r.lines {
		if _, ok := first[int(fl.file)]; !ok {
			first[int(fl.file)] = int(fl.line)
		}
	}
	pick := map[int]int{} // files[k] -> the index in parts of its first part
	for n, p := range parts {
		if !named(p) {
			continue
		}
		l, ok := first[files[p.k].i]
		if m, seen := pick[p.k]; !seen || ok && holds(p, l) && !holds(parts[m], l) {
			pick[p.k] = n
		}
	}
	// The head of the definition a picked window is inside: its signature
	// says what the lines are in.
	also := map[int]bool{}
	for k, m := range pick {
		o := r.outlineOf(files[k].i)
		if o == nil {
			continue
		}
		for _, sym := range o.syms {
			if sym.start < parts[m].c.StartLine && parts[m].c.StartLine <= sym.end {
				for n, p := range parts {
					if p.k == k && p.c.StartLine == sym.start && p.c.EndLine < parts[m].c.StartLine {
						also[n] = true
					}
				}
			}
		}
	}
	var head, rest []part
	for n, p := range parts {
		if m, ok := pick[p.k]; ok && m == n || also[n] {
			head = append(head, p)
		} else {
			rest = append(rest, p)
		}
	}
	return append(head, rest...)
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
// definitions and lines the query points at (focus lines). A big
// definition the query points at is packed whole when it costs at most
// unit tokens and has at most bigFocused lines (for the assertion's
// subject, subjectUnits times the tokens and any number of lines);
// else its head and windows come first, and (not narrow) the whole of it
// after them, for when room is left: a fix is often anywhere in the body
// of the function the failing test reaches.
func (r *Ranking) candidates(i int, o *outline, narrow bool, unit int) []cand {
	var cs []cand
	for _, s := range o.syms {
		sc := r.symbolScore(i, s)
		if sc <= 0 || narrow && !r.focused(i, s) {
			continue
		}
		size := s.end - s.start + 1
		room, wholeLines := unit, bigFocused
		if r.reached[i][s.decl] >= subjectWeight {
			room, wholeLines = subjectUnits*unit, math.MaxInt
		}
		if size <= bigSymbol && !r.trimmedTest(i, s) || size <= wholeLines && !isTestFile(r.ix.paths[i]) && r.focused(i, s) && r.cost(i, o, []Chunk{span(s.start, s.end)}) <= room {
			cs = append(cs, cand{span(s.start, s.end), sc})
			continue
		}
		// A big definition: its head, then the lines the query points at.
		cs = append(cs, cand{span(s.start, min(s.decl+2, s.end)), sc})
		// A failing spec and its set-up, in a var _ = Describe(...) of
		// many, next.
		for _, c := range r.specParts[i] {
			if c.StartLine >= s.start && c.EndLine <= s.end {
				cs = append(cs, cand{c, sc * 0.95})
			}
		}
		if !narrow && size <= bigFocused && !isTestFile(r.ix.paths[i]) && r.focused(i, s) {
			// Whole, after its head (sc) and windows (sc*0.9).
			cs = append(cs, cand{span(s.start, s.end), sc * 0.5})
		}
		for _, l := range r.focus[i] {
			if l >= s.start && l <= s.end {
				cs = append(cs, cand{span(max(s.start, l-contextLines), min(s.end, l+contextLines)), sc * 0.9})
			}
		}
		for k := range r.scans[i].blocks {
			b := &r.scans[i].blocks[k]
			lo, hi := int(b.block)*blockLines+1, int(b.block+1)*blockLines
			if !narrow && hi >= s.start && lo <= s.end {
				cs = append(cs, cand{span(max(s.start, lo), min(s.end, hi)), 0.5 * r.blockScore(b) / r.bestBlock()})
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
	out := make([]cand, 0, len(cs))
	for _, c := range cs {
		if c.c.StartLine >= 1 && c.c.EndLine <= len(o.lines) && c.c.StartLine <= c.c.EndLine {
			out = append(out, c)
		}
	}
	return out
}

// trimmedTest reports whether s, a definition longer than bigTest lines
// in a test file of a failing-test query, is shown as its head and the
// lines the output names in it rather than whole: a table-driven test is
// mostly its table, and the room is the code's. One the output names no
// line of (past its declaration) is shown whole: its head alone would say
// too little.
func (r *Ranking) trimmedTest(i int, s symbol) bool {
	if !r.failingTestFile(i) || s.end-s.start+1 <= bigTest {
		return false
	}
	for _, l := range r.focus[i] {
		if l > s.decl && l <= s.end {
			return true
		}
	}
	return false
}

// cand is a chunk the packer may show, with how relevant it is.
type cand struct {
	c     Chunk
	score float64
}

// focused reports whether the edges reached s or a focus line of file i
// lies in it.
func (r *Ranking) focused(i int, s symbol) bool {
	if r.reached[i][s.decl] >= minFocusReach {
		return true
	}
	for _, l := range r.focus[i] {
		if l >= s.start && l <= s.end {
			return true
		}
	}
	return false
}

// issueDiscount is how much the parts of file i count in an issue query
// (no failing test): a report shares its words with the tests that
// describe the same behaviour, but the fix is in code. (Documentation and
// text files are packed after the code anyway; see packedLast.)
func (r *Ranking) issueDiscount(i int) float64 {
	if len(r.q.tests) == 0 && isTestFile(r.ix.paths[i]) {
		return issueTestWeight
	}
	return 1
}
