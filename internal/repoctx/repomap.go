package repoctx

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

const (
	// mapOutlineFiles is how many of the best candidates the map outlines.
	mapOutlineFiles = 12
	// mapSymbolsPerFile bounds one file's outline in the map.
	mapSymbolsPerFile = 15
)

// repoMap is the stable prefix of the prompt, within limit tokens: the
// repository's layout (directories and their file counts), then an outline
// of the best candidates (package, types, functions with signatures).
func (r *Ranking) repoMap(limit int) string {
	var b strings.Builder
	head := fmt.Sprintf("# Repository map (%d files indexed)\n", r.indexed)
	if EstimateTokens(head) > limit {
		return ""
	}
	b.WriteString(head)
	used := EstimateTokens(head)
	if layout := r.layout(limit / 3); layout != "" {
		b.WriteString(layout)
		used += EstimateTokens(layout)
	}
	for k, i := range r.order {
		if k == mapOutlineFiles {
			break
		}
		o := r.outlineOf(i)
		if o == nil || len(o.syms) == 0 {
			continue
		}
		text := r.fileOutline(i, o)
		if n := EstimateTokens(text); used+n <= limit {
			b.WriteString(text)
			used += n
		}
	}
	return b.String()
}

// layout lists directories with their file counts, as deep as fits.
func (r *Ranking) layout(limit int) string {
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
		if EstimateTokens(b.String()) > limit {
			break
		}
		best = b.String()
	}
	return best
}

// fileOutline lists file i's most relevant symbols in source order.
func (r *Ranking) fileOutline(i int, o *outline) string {
	syms := o.syms
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
		for k, idx := range keep {
			picked[k] = syms[idx]
		}
		syms = picked
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s", r.ix.paths[i])
	if o.pkg != "" {
		fmt.Fprintf(&b, " (package %s)", o.pkg)
	}
	b.WriteString("\n")
	for _, s := range syms {
		fmt.Fprintf(&b, "%d: %s\n", s.decl, s.sig)
	}
	if len(syms) < len(o.syms) {
		fmt.Fprintf(&b, "(%d more)\n", len(o.syms)-len(syms))
	}
	return b.String()
}

func isExported(name string) bool { return name != "" && isUpper(name[0]) }
