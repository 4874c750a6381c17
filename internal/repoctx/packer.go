package repoctx

import (
	"context"
	"math"
	"path"
	"slices"
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

// packedLast reports whether p is packed after all the code, with what is
// left: documentation; plain text (API dumps, changelogs and test data that
// repeat the query's words: urfave/cli's godoc-current.txt took 10k of a
// 16k pack); and a repository's boilerplate (a licence, notices, the
// dotfiles of its tools), which a query's words may match but no fix of
// its code needs.
func packedLast(p string) bool {
	return isDoc(p) || isText(p) || isBoilerplate(p)
}

// isDoc reports whether p is a documentation file (Markdown and the like).
func isDoc(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".rst", ".adoc":
		return true
	}
	return false
}

// isText reports whether p is a plain text file: prose or data, which a
// report's words match more than the code does.
func isText(p string) bool { return strings.EqualFold(path.Ext(p), ".txt") }

// boilerplateNames are the prefixes of the upper-cased names of the files
// of a repository's legal and ownership boilerplate.
var boilerplateNames = []string{"LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS", "CONTRIBUTORS", "CODEOWNERS", "PATENTS"}

// isBoilerplate reports whether p is a licence, notice or ownership file,
// or a dotfile (.gitignore, .editorconfig, .golangci.yml).
func isBoilerplate(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(base, ".") {
		return true
	}
	upper := strings.ToUpper(base)
	return slices.ContainsFunc(boilerplateNames, func(n string) bool { return strings.HasPrefix(upper, n) })
}

// fillLevels is how many calls past what is shown the leftover room may
// follow.
const fillLevels = 3

// maxRestLines is the longest function the query points at whose rest
// is shown when the first passes showed at least half of it.
const maxRestLines = 2 * bigFocused

// fillCallees spends the room left once everything else is packed on the
// definitions that the shown functions the query points at call (in their
// package, or pkg.F() into the module's others), a level of calls at a
// time, fillLevels deep: where the edges stopped (edgeDepth, edgeNodes)
// the fix may be one call further. A function too big to show whole whose
// head is shown counts as shown: its callees are as likely the place. It
// runs after the other parts, so it takes room from none of them. Last,
// the package-level variables and constants (tables, patterns) that
// those shown functions use, in any file of their package (showValues).
// add packs a chunk of files[k]; files the callees and variables are in
// that are not among files are appended to it.
func (r *Ranking) fillCallees(files []*chosen, add func(k int, f *chosen, cs []Chunk) bool) []*chosen {
	index, at := positions(&files)
	// shown reports whether s of file i is in a chunk: whole, or (not
	// whole) any part of it from its declaration on.
	shown := func(i int, s symbol, all bool) bool {
		k, ok := index[i]
		if !ok {
			return false
		}
		if all {
			return whole(files[k].chunks, s)
		}
		for _, c := range files[k].chunks {
			if c.StartLine <= s.end && s.decl <= c.EndLine {
				return true
			}
		}
		return false
	}
	var frontier []call
	seen := map[string]bool{}
	mods := r.goModules()
	// users are the shown functions whose variables are shown last.
	var users []user
	for k, f := range files {
		if len(f.chunks) == 0 || isTestFile(r.ix.paths[f.i]) {
			continue
		}
		o := r.factsOf(f.i) // their calls and variables are followed
		if o == nil {
			continue
		}
		dir := path.Dir(r.ix.paths[f.i])
		for _, s := range o.syms {
			if (r.focused(f.i, s) || r.reached[f.i][s.decl] > 0) && shown(f.i, s, false) {
				seen[dir+":"+s.name] = true
				frontier = append(frontier, calls(dir, mods, s, 0, 0)...)
				users = append(users, user{k, s})
			}
		}
	}
	for level := 0; level < fillLevels && len(frontier) > 0; level++ {
		var next []call
		for _, c := range frontier {
			c = r.resolved(c)
			if seen[c.dir+":"+c.name] {
				continue
			}
			seen[c.dir+":"+c.name] = true
			for _, j := range r.defsIn(c.dir)[c.name] {
				if !r.goCode(j) {
					continue
				}
				for _, s := range r.symbolsNamed(j, c.name) {
					if s.end-s.start+1 > bigFocused || c.methods && s.recv == "" {
						continue
					}
					k := at(j)
					if shown(j, s, true) || add(k, files[k], []Chunk{span(s.start, s.end)}) {
						next = append(next, calls(c.dir, mods, s, 0, 0)...)
					}
				}
			}
		}
		frontier = next
	}
	return r.showValues(files, users, bigSymbol, add)
}

// positions maps each file of *files to its position there, and returns
// with it at: the position of file j, appended to *files when not there.
func positions(files *[]*chosen) (index map[int]int, at func(j int) int) {
	index = map[int]int{}
	for k, f := range *files {
		index[f.i] = k
	}
	return index, func(j int) int {
		k, ok := index[j]
		if !ok {
			k = len(*files)
			*files = append(*files, &chosen{i: j})
			index[j] = k
		}
		return k
	}
}

// valueLines is the longest declaration of a variable or constant that
// the packer shows with a function the query points at that uses it,
// before it spends the room on other parts: a pattern, an error or a
// limit that what the function does hangs on (sqlx's valueBracketReg, the
// fix's site), for a line or three.
const valueLines = 3

// user is a definition of files[k] whose variables the packer shows.
type user struct {
	k int
	s symbol
}

// focusValues shows the variables and constants (of valueLines or
// fewer lines) that the functions the query points at use, of those
// shown whole (see showValues).
func (r *Ranking) focusValues(files []*chosen, add func(k int, f *chosen, cs []Chunk) bool) []*chosen {
	var users []user
	for k, f := range files {
		if len(f.chunks) == 0 || isTestFile(r.ix.paths[f.i]) {
			continue
		}
		o := r.factsOf(f.i)
		if o == nil {
			continue
		}
		for _, s := range o.syms {
			if r.focused(f.i, s) && whole(f.chunks, s) {
				users = append(users, user{k, s})
			}
		}
	}
	return r.showValues(files, users, valueLines, add)
}

// showValues shows the package-level variables and constants of at most
// maxLines lines that each of users uses, and those their values use: of
// its own file first, then those its package declares in its other files
// (validator's timeType, which validator.go compares with, is declared
// in validator_instance.go). Files not among files are appended to it.
func (r *Ranking) showValues(files []*chosen, users []user, maxLines int, add func(k int, f *chosen, cs []Chunk) bool) []*chosen {
	_, at := positions(&files)
	var vars func(k int, s symbol, depth int)
	show := func(k int, vs symbol, depth int) {
		f := files[k]
		if vs.end-vs.start+1 <= maxLines && !whole(f.chunks, vs) && add(k, f, []Chunk{span(vs.start, vs.end)}) && depth < 1 {
			vars(k, vs, depth+1)
		}
	}
	vars = func(k int, s symbol, depth int) {
		i := files[k].i
		for _, v := range s.vars {
			for _, vs := range r.symbolsNamed(i, v) {
				show(k, vs, depth)
			}
		}
		values := r.valuesIn(path.Dir(r.ix.paths[i]))
		for _, v := range s.others {
			for _, j := range values[v] {
				for _, vs := range r.symbolsNamed(j, v) {
					if j != i && isValue(vs) {
						show(at(j), vs, depth)
					}
				}
			}
		}
	}
	for _, u := range users {
		vars(u.k, u.s, 0)
	}
	return files
}

// fillRest spends the room left after every other pass, before the files
// packed last (licences, dotfiles, prose), on the rest of the code files
// shown, in rank order: each file's definitions not yet shown whole,
// nearest to what is shown first. A fix often changes a second place in
// the file the failure points at (a table the test does not reach, a
// sibling function), and a repository's licence tells the model nothing.
func (r *Ranking) fillRest(files []*chosen, add func(k int, f *chosen, cs []Chunk) bool) {
	for k, f := range files {
		o := r.outlineOf(f.i)
		if o == nil || len(f.chunks) == 0 || isTestFile(r.ix.paths[f.i]) {
			continue
		}
		type rest struct {
			s    symbol
			dist int
		}
		var rs []rest
		for _, s := range o.syms {
			if whole(f.chunks, s) {
				continue
			}
			d := len(o.lines)
			for _, c := range f.chunks {
				switch {
				case c.EndLine < s.start:
					d = min(d, s.start-c.EndLine)
				case c.StartLine > s.end:
					d = min(d, c.StartLine-s.end)
				default:
					d = 0
				}
			}
			rs = append(rs, rest{s, d})
		}
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].dist < rs[b].dist })
		for _, x := range rs {
			add(k, f, []Chunk{span(x.s.start, x.s.end)})
		}
	}
}

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
