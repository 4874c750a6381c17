package repoctx

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agentfix/agentfix/internal/tokens"
)

const (
	// mapOutlineFiles is how many of the best candidates the map outlines.
	mapOutlineFiles = 12
	// mapSymbolsPerFile bounds one file's outline in the map.
	mapSymbolsPerFile = 15
	// mapNamesPerFile bounds the names listed past the signatures.
	mapNamesPerFile = 40
)

// repoMap is the stable prefix of the prompt, within limit tokens: the
// repository's layout (directories and their file counts), then an outline
// of the best candidates (package, types, functions with signatures). It
// returns the map and the room the code must leave it: what the map costs
// before the best file's outline names its other definitions, which take
// the room of the last outlines (so the names change no code packed).
//
// With shown (file -> the chunks the code shows), the same outlines leave
// out the signatures the code shows: what the model reads below needs no
// line in the map. The room is then what the map costs.
func (r *Ranking) repoMap(limit int, shown map[int][]Chunk) (string, int) {
	var b strings.Builder
	head := fmt.Sprintf("# Repository map (%d files indexed)\n", r.indexed)
	if tokens.Estimate(head) > limit {
		return "", 0
	}
	b.WriteString(head)
	used := tokens.Estimate(head)
	if layout := r.layout(limit / 3); layout != "" {
		b.WriteString(layout)
		used += tokens.Estimate(layout)
	}
	type part struct {
		i     int
		o     *outline
		names bool // the outline names the definitions past its signatures
		text  string
	}
	var parts []part
	for k, i := range r.order {
		if k == mapOutlineFiles {
			break
		}
		o := r.outlineOf(i)
		if o == nil || len(o.syms) == 0 {
			continue
		}
		text := r.fileOutline(i, o, false, nil)
		if n := tokens.Estimate(text); used+n <= limit {
			parts = append(parts, part{i, o, false, text})
			used += n
		}
	}
	// The best file's outline also names the definitions its signatures
	// leave out, in the room of the last outlines.
	if len(parts) > 0 && parts[0].i == r.order[0] {
		named := r.fileOutline(parts[0].i, parts[0].o, true, nil)
		extra := tokens.Estimate(named) - tokens.Estimate(parts[0].text)
		keep, freed := len(parts), 0
		for freed < extra && keep > 1 {
			keep--
			freed += tokens.Estimate(parts[keep].text)
		}
		if extra > 0 && freed >= extra {
			parts = parts[:keep]
			parts[0].names, parts[0].text = true, named
		}
	}
	if shown == nil {
		for _, p := range parts {
			b.WriteString(p.text)
		}
		return b.String(), used
	}
	for _, p := range parts {
		b.WriteString(r.fileOutline(p.i, p.o, p.names, shown[p.i]))
	}
	return b.String(), tokens.Estimate(b.String())
}

// layout lists directories with their file counts, as deep as fits.
// Pack asks for it once per map it tries, with the same limit: it is
// made once per limit.
func (r *Ranking) layout(limit int) string {
	text, ok := r.layouts[limit]
	if !ok {
		text = r.countsByDir(limit)
		r.layouts[limit] = text
	}
	return text
}

// countsByDir is the layout: the indexed files counted per directory,
// grouped at the deepest of four depths whose list fits in limit.
func (r *Ranking) countsByDir(limit int) string {
	counts := map[string]int{}
	for i, p := range r.ix.paths {
		if r.scans[i].skip == indexed {
			counts[path.Dir(p)]++
		}
	}
	var best string
	for depth := 1; depth <= 4; depth++ {
		agg := map[string]int{}
		for d, n := range counts {
			parts := strings.Split(d, "/")
			if len(parts) > depth {
				parts = parts[:depth]
			}
			agg[strings.Join(parts, "/")] += n
		}
		dirs := make([]string, 0, len(agg))
		for d := range agg {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		var b strings.Builder
		b.WriteString("## Layout (directory: files)\n")
		for _, d := range dirs {
			fmt.Fprintf(&b, "%s: %d\n", d, agg[d])
		}
		if tokens.Estimate(b.String()) > limit {
			break
		}
		best = b.String()
	}
	return best
}

// fileOutline lists file i's most relevant symbols in source order; with
// names, up to mapNamesPerFile of the next most relevant by name after
// them, so that a model can ask the look step for them. A definition whose
// line the shown chunks hold (the code the pack shows of the file) is left
// out of the signatures and of the count of the rest, and the whole
// outline when nothing else is left. The names stay those of the map the
// code was chosen with (named in place of the code shown, other names
// cost the code its room: bench/realbugs/README.md).
func (r *Ranking) fileOutline(i int, o *outline, names bool, shown []Chunk) string {
	syms, named := o.syms, []string(nil)
	if len(syms) > mapSymbolsPerFile {
		type scored struct {
			k     int
			score float64
		}
		ss := make([]scored, len(syms))
		for k, s := range syms {
			sc := r.symbolScore(i, s)
			if isExported(s.name) {
				sc += 0.01
			}
			ss[k] = scored{k, sc}
		}
		sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
		keep := make([]int, 0, mapSymbolsPerFile)
		for _, s := range ss[:mapSymbolsPerFile] {
			keep = append(keep, s.k)
		}
		sort.Ints(keep)
		picked := make([]symbol, len(keep))
		listed := map[string]bool{}
		for k, idx := range keep {
			picked[k] = syms[idx]
			listed[syms[idx].name] = true
		}
		if names {
			var next []int
			for _, s := range ss[mapSymbolsPerFile:] {
				if len(next) == mapNamesPerFile {
					break
				}
				if n := syms[s.k].name; !listed[n] {
					listed[n] = true
					next = append(next, s.k)
				}
			}
			sort.Ints(next)
			for _, k := range next {
				named = append(named, syms[k].name)
			}
		}
		syms = picked
	}
	var lines strings.Builder
	for _, s := range syms {
		if !shows(shown, s) {
			fmt.Fprintf(&lines, "%d: %s\n", s.decl, s.sig)
		}
	}
	// The definitions past the signatures, less those the code shows.
	more := len(o.syms) - len(syms)
	for _, s := range o.syms {
		if shows(shown, s) {
			more--
		}
	}
	for _, s := range syms {
		if shows(shown, s) {
			more++
		}
	}
	switch {
	case more > 0 && len(named) > 0:
		fmt.Fprintf(&lines, "(%d more, among them %s)\n", more, strings.Join(named, ", "))
	case more > 0:
		fmt.Fprintf(&lines, "(%d more)\n", more)
	}
	if lines.Len() == 0 {
		return "" // the code shows all of it
	}
	head := "## " + r.ix.paths[i]
	if o.pkg != "" {
		head += " (package " + o.pkg + ")"
	}
	return head + "\n" + lines.String()
}

// shows reports whether the chunks hold the line that declares s.
func shows(chunks []Chunk, s symbol) bool {
	return slices.ContainsFunc(chunks, func(c Chunk) bool { return c.StartLine <= s.decl && s.decl <= c.EndLine })
}

func isExported(name string) bool { return name != "" && isUpper(name[0]) }
