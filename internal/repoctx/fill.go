package repoctx

import (
	"path"
	"sort"
)

// fillLevels is how many calls past what is shown the leftover room may
// follow.
const fillLevels = 3

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
