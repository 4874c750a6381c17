package repoctx

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/agentfix/agentfix/internal/tokens"
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
	// bigTest is the size in lines past which a failing test is shown
	// as its head and the lines the output names (see trimmedTest).
	bigTest = 60
	// bigFocused is the size in lines up to which a definition the query
	// points at (a failing test, a frame's function, a function the
	// failing tests reach) is packed whole: the fix is often anywhere in
	// its body, not near the line named. The assertion's subject has no
	// such bound, only its room (subjectUnits).
	bigFocused = 200
	// focusedShare is the most of the code budget one definition the
	// query points at may take to be packed whole.
	focusedShare = 0.15
	// subjectUnits is how many times focusedShare of the code budget the
	// failing test's assertion's subject (a definition the edges reach
	// at subjectWeight or more) may take to be packed whole: what the
	// failing line checks is likelier the place than what the test
	// calls to set it up.
	subjectUnits = 3
	// partFiles is how many of the best files the packer weighs the
	// parts of against each other; the rest are packed file by file.
	partFiles = 12
	// minBytesPerToken is more bytes than any source text has per token
	// as tokens.Estimate counts (a run of letters two tokens per seven, a
	// run of blanks one): a file of n bytes costs more than n/8 tokens.
	minBytesPerToken = 8
	// restShare is the most of the code budget the rest of a file may
	// cost (or a quarter of what is shown of it, if more) for the packer
	// to show the file whole rather than in parts.
	restShare = 0.05
	// leadRestShare is restShare for a report's best code file: a report
	// names a file's words more often than the function to change, and
	// the room the helpers that several named calls share would take
	// (see sharedAPIStarts) goes to the rest of that file first
	// (kafka-go v0.4.50's ResponseGroupMember, beside the Response its
	// report quotes).
	leadRestShare = 0.15
	// weakPart is how many times weaker than the best part a file's share
	// held back a part of a file already shown must be to wait until the
	// passes that spend the room left have had their turn (see choose).
	weakPart = 2.0
	// maxImportLines bounds the package clause and imports shown with a
	// file's definitions; leadImportLines, with the best code file's. A
	// patch that adds an import to the file it most likely changes must
	// show the block's lines, and an application's files import many
	// packages (tailscale v1.98.9's ssh/tailssh/tailssh.go imports forty;
	// the next release's fix drops one and adds one).
	maxImportLines  = 30
	leadImportLines = 90
	// minFocusReach is the least weight with which the edges must reach
	// a definition for it to be a focus (see apiWeight).
	minFocusReach = 0.3
	// contextLines surround a focused part of a big definition.
	contextLines = 8
	// issueTestShare is the most of the code budget a report's tests
	// may take before the code has had its turn: an example or two for
	// the reproducing test, not the room of the code its words match.
	issueTestShare = 0.1
	// issueTestWeight is how much the parts of a test file count in an
	// issue query, against code's (see issueDiscount).
	issueTestWeight = 0.5
)

const codeHeader = "# Code (most relevant first; line numbers on the left)\n"

// gapMarker stands between two chunks of a file.
const gapMarker = "...\n"

// Pack lays out the ranking within opts.Budget tokens: the repo map first,
// then files in rank order. The code is chosen in two passes: first the
// definitions and lines the query points at (failing tests, the lines the
// output names, the functions the failing tests reach, the symbols it
// names) in every candidate file, so that several files' relevant
// functions come before any one file's full text; then, with what is left,
// each file whole when small, else its other relevant definitions. The
// map's outlines then leave out the signatures the code shows, and the
// code is chosen again in the room that frees.
func (r *Ranking) Pack(ctx context.Context, opts Options) (*Pack, error) {
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	p := &Pack{RepoFiles: r.indexed, Files: []File{}}
	limit := int(float64(budget) * mapShare)
	var room int
	p.Map, room = r.repoMap(limit, nil)
	left := budget - room - tokens.Estimate(codeHeader)
	if left > 0 && len(r.order) > 0 {
		// choose parses nearly every code file it tries (parts ranks
		// their definitions): all at once, on every core.
		tried, _ := r.tried()
		r.outlineAll(ctx, tried, false)
		files, err := r.choose(ctx, left)
		if err != nil {
			return nil, err
		}
		// The map need not repeat the signatures the code shows; the
		// room that frees is code's, when the code chosen with it and
		// the map it leaves still fit.
		m, mroom := r.repoMap(limit, shownBy(files))
		p.Map = m
		if mroom < room {
			more, err := r.choose(ctx, budget-mroom-tokens.Estimate(codeHeader))
			if err != nil {
				return nil, err
			}
			if m2, room2 := r.repoMap(limit, shownBy(more)); room2+chosenCost(more)+tokens.Estimate(codeHeader) <= budget {
				files, p.Map = more, m2
			}
		}
		var code strings.Builder
		code.WriteString(codeHeader)
		for _, f := range files {
			o := r.outlineOf(f.i)
			text := r.render(f.i, o, f.chunks)
			code.WriteString(text)
			p.Files = append(p.Files, File{Path: r.ix.paths[f.i], Score: math.Round(r.score[f.i]*1000) / 1000,
				Tokens: tokens.Estimate(text), Chunks: o.named(f.chunks)})
		}
		if len(p.Files) > 0 {
			p.Code = code.String()
		}
	}
	p.TokensUsed = tokens.Estimate(p.Map) + tokens.Estimate(p.Code)
	return p, nil
}

// chosenCost is what the files chosen cost at most (see cost).
func chosenCost(files []chosen) int {
	n := 0
	for _, f := range files {
		n += f.tokens
	}
	return n
}

// shownBy is the chunks of each file chosen.
func shownBy(files []chosen) map[int][]Chunk {
	m := make(map[int][]Chunk, len(files))
	for _, f := range files {
		m[f.i] = f.chunks
	}
	return m
}

// chosen is the chunks of file i that the packer chose.
type chosen struct {
	i      int
	chunks []Chunk
	tokens int // r.cost of chunks
}

// choose picks each candidate file's chunks within left tokens, in the two
// passes Pack describes, and returns the files with chunks in rank order.
func (r *Ranking) choose(ctx context.Context, left int) ([]chosen, error) {
	codeBudget := left
	top := r.score[r.order[0]]
	code, last := r.tried()
	var files, trailing []*chosen
	for _, i := range code {
		files = append(files, &chosen{i: i})
	}
	for _, i := range last {
		trailing = append(trailing, &chosen{i: i})
	}
	// share is the most of the code budget one file may take: the best
	// code file most of it, the others a third each, so that several
	// candidates get in. A failing test's file often ranks first, but
	// only its failing tests are shown: the best file that is not a test
	// gets the larger share.
	lead := r.leadFile(files)
	share := func(k int) int {
		if k == lead {
			return int(0.6 * float64(codeBudget))
		}
		return int(0.35 * float64(codeBudget))
	}
	unit := int(focusedShare * float64(codeBudget))
	packed := 0
	capped := false  // the passes after the first keep to share
	byShare := false // add's last refusal was for its file's share alone
	// report: the query is an issue's text, not failing tests' output.
	report := len(r.q.tests) == 0
	// For a report, tests take at most testRoom until the code's turn is
	// over (see issueTestShare).
	limitTests := report
	testRoom := int(issueTestShare * float64(codeBudget))
	add := func(k int, f *chosen, cs []Chunk) bool {
		byShare = false
		if len(f.chunks) == 0 && packed == maxPackedFiles {
			return false
		}
		o := r.outlineOf(f.i)
		if o == nil || len(o.lines) == 0 {
			return false
		}
		try := mergeChunks(append(append([]Chunk(nil), f.chunks...), cs...))
		cost := r.cost(f.i, o, try)
		test := limitTests && isTestFile(r.ix.paths[f.i])
		overShare := capped && cost > share(k)
		if cost-f.tokens > left || overShare || test && cost-f.tokens > testRoom {
			byShare = overShare && cost-f.tokens <= left
			return false
		}
		// When the rest of the file costs little more, the whole file
		// (not in a failing-test query's test file: see failingTestFile);
		// for a report's best code file, a little more (leadRestShare).
		if whole := []Chunk{span(1, len(o.lines))}; !r.failingTestFile(f.i) && (len(try) != 1 || try[0].StartLine != 1 || try[0].EndLine != len(o.lines)) {
			rs := restShare
			if k == lead && report {
				rs = leadRestShare
			}
			if wc := r.cost(f.i, o, whole); wc-cost <= max(int(rs*float64(codeBudget)), cost/4) && wc-f.tokens <= left && (!capped || wc <= share(k)) && (!test || wc-f.tokens <= testRoom) {
				try, cost = whole, wc
			}
		}
		if len(f.chunks) == 0 {
			packed++
		}
		if test {
			testRoom -= cost - f.tokens
		}
		left -= cost - f.tokens
		f.chunks, f.tokens = try, cost
		return true
	}
	// The parts the query points at first, then the other relevant parts
	// of every file; the most relevant first whatever their file. Once
	// the pass has come to a part its file's share holds back (the file
	// is full: a part it already shows counts too; not a test file, of
	// which a failing test's output shows only what it names), a part
	// weakPart times weaker of a file already shown waits (in weak) until
	// the passes that spend what is left have had their turn: the callees
	// of what is shown first. The shares are there to let other files in,
	// not to give the room the full file wanted to the lesser parts of
	// files the pack already has. A file's first part never waits.
	var weak []part
	for _, narrow := range []bool{true, false} {
		refused := 0.0 // the best score of a part a share held back
		for _, pt := range r.parts(files, narrow, top, unit) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if capped && pt.score*weakPart < refused && len(files[pt.k].chunks) > 0 {
				weak = append(weak, pt)
				continue
			}
			if !add(pt.k, files[pt.k], []Chunk{pt.c}) && byShare && !isTestFile(r.ix.paths[files[pt.k].i]) {
				refused = max(refused, pt.score)
			}
		}
		if narrow {
			// The imports of each Go file shown: a patch must know
			// what the file has imported.
			for k, f := range files {
				o := r.outlineOf(f.i)
				if len(f.chunks) == 0 || o == nil || isTestFile(r.ix.paths[f.i]) {
					continue
				}
				limit := maxImportLines
				if k == lead {
					limit = leadImportLines
				}
				if n := o.importsTo - o.importsFrom; n > 0 && n < limit {
					add(k, f, []Chunk{span(o.importsFrom, o.importsTo)})
				}
			}
			// And the short variables and constants those functions
			// use.
			files = r.focusValues(files, add)
		}
		capped = true
	}
	// The rest of each function the query points at that the passes
	// showed half of or more (too big to show whole in them): the fix is
	// as likely anywhere in its body, and the half shown costs nothing
	// more. No file's share holds it back.
	capped = false
	for k, f := range files {
		o := r.outlineOf(f.i)
		if o == nil || len(f.chunks) == 0 || isTestFile(r.ix.paths[f.i]) {
			continue
		}
		for _, s := range o.syms {
			if size := s.end - s.start + 1; size > bigSymbol && size <= maxRestLines && r.focused(f.i, s) && 2*shownLines(f.chunks, s) >= size && !whole(f.chunks, s) {
				add(k, f, []Chunk{span(s.start, s.end)})
			}
		}
	}
	capped = true
	// Small files whole, in rank order, with what is left.
	for k, f := range files {
		if left < 40 {
			break
		}
		if int(r.scans[f.i].size)/minBytesPerToken > left || r.failingTestFile(f.i) {
			continue // cannot fit whole: not worth parsing for it
		}
		if o := r.outlineOf(f.i); o != nil {
			add(k, f, []Chunk{span(1, len(o.lines))})
		}
	}
	// What is left is left over: no file's share holds it back.
	capped = false
	if left >= 40 {
		files = r.fillCallees(files, add)
	}
	// Then the parts of the files past the first partFiles, file by file,
	// each to its share: a file ranked past a dozen others is less likely
	// the place than a function the code shown calls.
	capped = true
	for k := partFiles; k < len(files) && left >= 40; k++ {
		f := files[k]
		if o := r.outlineOf(f.i); o != nil {
			for _, c := range r.candidates(f.i, o, r.failingTestFile(f.i), unit) {
				add(k, f, []Chunk{c.c})
			}
		}
	}
	capped = false
	// The tests of a report's code, with what is left.
	if limitTests {
		limitTests = false
		for k, f := range files {
			if o := r.outlineOf(f.i); o != nil && isTestFile(r.ix.paths[f.i]) && left >= 40 {
				for _, c := range r.candidates(f.i, o, false, unit) {
					add(k, f, []Chunk{c.c})
				}
			}
		}
	}
	// Still room: more of the code files shown, before prose takes it.
	if left >= 40 {
		r.fillRest(files, add)
	}
	// The weaker parts that waited, each file to its share again.
	capped = true
	for _, pt := range weak {
		add(pt.k, files[pt.k], []Chunk{pt.c})
	}
	capped = false
	for _, f := range trailing {
		if left < 40 {
			break
		}
		k := len(files)
		files = append(files, f)
		if o := r.outlineOf(f.i); o != nil && !add(k, f, []Chunk{span(1, len(o.lines))}) {
			for _, c := range r.candidates(f.i, o, false, unit) {
				add(k, f, []Chunk{c.c})
			}
		}
	}
	var out []chosen
	for _, f := range files {
		if len(f.chunks) > 0 {
			out = append(out, *f)
		}
	}
	return out, nil
}

// leadFile is the index in files of the best file that is not a test
// (0 when every file is one): the file with the largest share.
func (r *Ranking) leadFile(files []*chosen) int {
	for k, f := range files {
		if !isTestFile(r.ix.paths[f.i]) {
			return k
		}
	}
	return 0
}

// tried returns the files choose tries, in rank order: the code (and
// tests) first, then the files packed last (see packedLast): the fix is in
// the code, not in the prose that shares the query's words (which often
// outranks it).
func (r *Ranking) tried() (code, last []int) {
	top := r.score[r.order[0]]
	for rank, i := range r.order {
		if rank == maxTried || r.score[i] < minRelScore*top {
			break
		}
		if packedLast(r.ix.paths[i]) {
			last = append(last, i)
			continue
		}
		code = append(code, i)
	}
	return code, last
}

// maxRestLines is the longest function the query points at whose rest
// is shown when the first passes showed at least half of it.
const maxRestLines = 2 * bigFocused

// shownLines is how many lines of s chunks show.
func shownLines(chunks []Chunk, s symbol) int {
	n := 0
	for _, c := range chunks {
		n += max(0, min(c.EndLine, s.end)-max(c.StartLine, s.start)+1)
	}
	return n
}

// whole reports whether a chunk holds all of s from its declaration on
// (its doc comment need not be shown).
func whole(chunks []Chunk, s symbol) bool {
	for _, c := range chunks {
		if c.StartLine <= s.decl && s.end <= c.EndLine {
			return true
		}
	}
	return false
}

// named fills in the symbols of each chunk.
func (o *outline) named(chunks []Chunk) []Chunk {
	for k := range chunks {
		chunks[k].Symbols = o.chunkSymbols(chunks[k])
	}
	return chunks
}

// cost is an upper bound of tokens.Estimate(r.render(i, o, chunks)), from
// per-line counts (the estimate is subadditive), without rendering.
func (r *Ranking) cost(i int, o *outline, chunks []Chunk) int {
	if o.lineTokens == nil {
		o.lineTokens = make([]int, len(o.lines))
		for k, l := range o.lines {
			o.lineTokens[k] = tokens.Estimate(codeLine(k+1, false, l))
		}
	}
	n := tokens.Estimate(r.sectionHeader(i, o, chunks)) + tokens.Estimate(gapMarker)*(len(chunks)-1)
	for _, c := range chunks {
		n += tokens.Estimate(codeLine(c.StartLine, true, o.lines[c.StartLine-1]))
		for l := c.StartLine + 1; l <= c.EndLine; l++ {
			n += o.lineTokens[l-1]
		}
	}
	return n
}

func (r *Ranking) sectionHeader(i int, o *outline, chunks []Chunk) string {
	return chunkHeader(r.ix.paths[i], len(o.lines), chunks)
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
