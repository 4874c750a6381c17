package repoctx

import (
	"bytes"
	"context"
	gobuild "go/build"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// structureTop is how many of the best candidates have their calls followed.
const structureTop = 5

// structure raises the files of the same package that the best candidates'
// relevant functions call into (a bug reported against a function often
// lives in a helper it calls) and, less, the files that call them.
func (r *Ranking) structure() {
	if len(r.order) == 0 {
		return
	}
	var top []int
	for _, i := range r.order {
		if len(top) == structureTop {
			break
		}
		if r.goCode(i) {
			top = append(top, i)
		}
	}
	r.outlineAll(context.Background(), top, true)
	topScore := r.score[r.order[0]]
	add := map[int]float64{}
	for _, i := range top {
		o := r.outlineOf(i)
		if o == nil {
			continue
		}
		w := 0.3 * r.score[i] / topScore
		dir := path.Dir(r.ix.paths[i])
		files, defs := r.dirFiles(dir), r.defsIn(dir)
		for _, s := range r.relevantSymbols(i, o) {
			for _, c := range s.callees {
				for _, j := range defs[c] {
					if j != i && !isTestFile(r.ix.paths[j]) {
						add[j] = math.Max(add[j], w)
					}
				}
			}
			for _, f := range files {
				if f.i != i && !isTestFile(r.ix.paths[f.i]) && r.callsName(f, s.name) {
					add[f.i] = math.Max(add[f.i], w/2)
				}
			}
		}
	}
	for j, w := range add {
		r.score[j] += w
	}
}

// relevantSymbols are the symbols of file i that the query points at: they
// hold a line the query names, define a symbol it names, or overlap its
// best windows.
func (r *Ranking) relevantSymbols(i int, o *outline) []symbol {
	var out []symbol
	for _, s := range o.syms {
		if r.symbolScore(i, s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// symbolScore rates one symbol of file i for packing: lines the query
// names, being a symbol it names, and BM25 of the query's terms over the
// symbol's own lines (normalised by the best window in the repository), so
// a short function whose doc comment says what the query says beats a long
// one that merely mentions its words.
func (r *Ranking) symbolScore(i int, s symbol) float64 {
	score := 3 * r.reached[i][s.decl]
	for _, l := range r.focus[i] {
		if l >= s.start && l <= s.end {
			score += 3
		}
	}
	if st, ok := r.q.symbols[s.name]; ok {
		score += st
	}
	o := r.outlineOf(i)
	if o == nil {
		return score
	}
	hits := r.lineHits(i, o)
	// Per term in the query's order: a sum in a map's order differs in its
	// last bits from run to run, and look-alike definitions tied on it
	// would be ordered differently each time.
	tf := make([]int, len(r.q.terms))
	length, hit := 0, false
	for l := s.start; l <= s.end && l <= len(o.lines); l++ {
		length += len(o.lines[l-1]) + 1
		for _, t := range hits[l] {
			tf[t]++
			hit = true
		}
	}
	if !hit {
		return score
	}
	norm := bm25K1 * (1 - bm25B + bm25B*float64(length)/r.avgLen)
	lex := 0.0
	for t, n := range tf {
		if n > 0 {
			lex += r.q.terms[t].weight * r.idf[t] * float64(n) * (bm25K1 + 1) / (float64(n) + norm)
		}
	}
	return score + lex/r.bestBlock()
}

// lineHits maps the lines of file i to the query terms on them, from one
// matcher pass over the file's text; only packed candidates need it.
func (r *Ranking) lineHits(i int, o *outline) map[int][]int {
	if o.hits != nil {
		return o.hits
	}
	o.hits = map[int][]int{}
	text := []byte(strings.Join(o.lines, "\n"))
	line, counted := 1, 0
	r.m.each(text, func(pos, t int) {
		line += bytes.Count(text[counted:pos], []byte{'\n'})
		counted = pos
		o.hits[line] = append(o.hits[line], t)
	})
	return o.hits
}

// bestBlock is the best window score in the repository, to normalise by.
func (r *Ranking) bestBlock() float64 {
	if r.best > 0 {
		return r.best
	}
	r.best = 1e-9
	for _, i := range r.order {
		for k := range r.scans[i].blocks {
			r.best = math.Max(r.best, r.blockScore(&r.scans[i].blocks[k]))
		}
	}
	return r.best
}

// dirFile is a file of one directory, read again for the structure pass.
type dirFile struct {
	i    int
	path string
	src  []byte
}

// dirFiles reads the indexed files of dir (not below it): only the
// directories of the best candidates are read.
func (r *Ranking) dirFiles(dir string) []dirFile {
	if out, ok := r.dirSrc[dir]; ok {
		return out
	}
	var out []dirFile
	lo := 0
	if dir != "." {
		lo = sort.SearchStrings(r.ix.paths, dir+"/")
	}
	for i := lo; i < len(r.ix.paths); i++ {
		p := r.ix.paths[i]
		if dir != "." && !strings.HasPrefix(p, dir+"/") {
			break // past the directory in sorted order
		}
		if path.Dir(p) != dir || r.scans[i].skip != indexed {
			continue
		}
		if src, err := os.ReadFile(filepath.Join(r.ix.root, p)); err == nil {
			out = append(out, dirFile{i, p, src})
		}
	}
	r.dirSrc[dir] = out
	return out
}

// callsName reports whether f's text holds name followed by "(": a call of
// name, or of a longer name ending in it. The names before a "(" are
// indexed once per file (reversed and sorted, so that the ones ending in
// name are a run that starts where name reversed would be), not searched
// for once per name.
func (r *Ranking) callsName(f dirFile, name string) bool {
	called, ok := r.called[f.i]
	if !ok {
		called = calledNames(f.src)
		r.called[f.i] = called
	}
	rev := reversed(name)
	k, _ := slices.BinarySearch(called, rev)
	return k < len(called) && strings.HasPrefix(called[k], rev)
}

// calledNames are the identifiers right before a "(" in src, each
// reversed, sorted and once.
func calledNames(src []byte) []string {
	var out []string
	for p := bytes.IndexByte(src, '('); p >= 0; {
		k := p
		for k > 0 && class[src[k-1]] != clOther {
			k--
		}
		if k < p {
			out = append(out, reversed(string(src[k:p])))
		}
		next := bytes.IndexByte(src[p+1:], '(')
		if next < 0 {
			break
		}
		p += 1 + next
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reversed is s with its bytes in reverse order.
func reversed(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// valuesIn maps the package-level variables and constants that the Go
// files (not tests) of dir declare to the files (read once per
// directory). It reads gofmt's layout: var x and const x, and the names
// one tab in from the start of the lines of a var ( ... ) or
// const ( ... ) group; like the outline, only a spec's first name.
func (r *Ranking) valuesIn(dir string) map[string][]int {
	if v, ok := r.dirValues[dir]; ok {
		return v
	}
	out := map[string][]int{}
	for _, f := range r.dirFiles(dir) {
		if !r.goCode(f.i) {
			continue
		}
		group := false
		for _, line := range bytes.Split(f.src, []byte{'\n'}) {
			var name []byte
			switch {
			case group:
				if len(line) > 0 && line[0] == ')' {
					group = false
				} else if len(line) > 1 && line[0] == '\t' {
					name = leadingIdent(line[1:])
				}
			case bytes.HasPrefix(line, []byte("var (")) || bytes.HasPrefix(line, []byte("const (")):
				group = true
			case bytes.HasPrefix(line, []byte("var ")):
				name = leadingIdent(line[len("var "):])
			case bytes.HasPrefix(line, []byte("const ")):
				name = leadingIdent(line[len("const "):])
			}
			if name != nil {
				if fs := out[string(name)]; len(fs) == 0 || fs[len(fs)-1] != f.i {
					out[string(name)] = append(fs, f.i)
				}
			}
		}
	}
	r.dirValues[dir] = out
	return out
}

// isValue reports whether s is a package-level variable or constant.
func isValue(s symbol) bool {
	return strings.HasPrefix(s.sig, "var ") || strings.HasPrefix(s.sig, "const ")
}

// dirDefs maps the names defined in files to the files.
func dirDefs(files []dirFile) map[string][]int {
	out := map[string][]int{}
	for _, f := range files {
		for _, line := range bytes.Split(f.src, []byte{'\n'}) {
			line = skipBlanks(line)
			if len(line) > 0 && defStart[line[0]] {
				if name := defName(line); name != nil {
					// Once per file: follow reads all of a file's
					// definitions of the name (symbolsNamed).
					if fs := out[string(name)]; len(fs) == 0 || fs[len(fs)-1] != f.i {
						out[string(name)] = append(fs, f.i)
					}
				}
			}
		}
	}
	// A name several files define, some of them built here and some not
	// (utils_unix.go and utils_windows.go): a call means the one built
	// here, where the tests ran.
	byIndex := map[int]dirFile{}
	for _, f := range files {
		byIndex[f.i] = f
	}
	built := map[int]bool{} // file -> buildsHere, for the files asked about
	notBuilt := func(i int) bool {
		b, ok := built[i]
		if !ok {
			b = buildsHere(byIndex[i].path, byIndex[i].src)
			built[i] = b
		}
		return !b
	}
	for name, fs := range out {
		if len(fs) < 2 {
			continue
		}
		if here := slices.DeleteFunc(slices.Clone(fs), notBuilt); len(here) > 0 && len(here) < len(fs) {
			out[name] = here
		}
	}
	return out
}

// buildsHere reports whether the go tool builds the Go file p, of source
// src, on this machine: its name's GOOS and GOARCH and its //go:build line
// (build.Default: this machine's platform, or $GOOS and $GOARCH).
func buildsHere(p string, src []byte) bool {
	if path.Ext(p) != ".go" {
		return true
	}
	ctx := gobuild.Default
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	ok, err := ctx.MatchFile(".", path.Base(p))
	return ok || err != nil
}
