package repoctx

import (
	"context"
	"math"
	"path"
	"sort"
	"strings"
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Ranking is a repository's files ranked against one query. Pack turns it
// into a Pack for any budget.
type Ranking struct {
	ix      *Index
	q       *query
	m       *matcher
	scans   []fileScan
	idf     []float64
	avgLen  float64
	score   []float64
	order   []int         // files with a positive score, best first
	focus   map[int][]int // lines the query points at, per file
	defs    map[uint64][]fileLine
	outline map[int]*outline // parsed lazily, per file
	indexed int
	best    float64 // best window score, see bestBlock

	// lines are the files and lines the query names, in its order.
	lines []fileLine
	// reached are the definitions the failing tests and frames reach
	// through calls, per file: declaration line -> weight (see testEdges).
	reached reach
	// dirDefs caches defsIn, per directory.
	dirDefs map[string]map[string][]int
	// dirValues caches valuesIn, per directory.
	dirValues map[string]map[string][]int
	// dirSrc caches dirFiles, per directory: defsIn, registry and
	// structure read the same directories.
	dirSrc map[string][]dirFile
	// called caches calledNames, per file (see callsName).
	called map[int][]string
	// readers caches fieldReaders, per package and field; nil until a
	// failing test sets a field.
	readers map[string][][2]int
	// layouts caches layout, per limit.
	layouts map[int]string
	// registries caches registered: per directory, the names its map
	// literals' entries give each string key.
	registries map[string]map[string][]string
	// mods caches goModules; nil until they are read.
	mods goModules
	// specParts are, per test file, the failing specs and the set-up
	// their containers run before them (see specEdges): what of a
	// var _ = Describe(...) the packer shows.
	specParts map[int][]Chunk
}

type fileLine struct {
	file int32
	line int32
}

// Rank scans the files for the query's terms and ranks them: lexical
// relevance (BM25 over windows of lines) combined with the query's strong
// signals (files and lines named, definitions of failing tests' subjects and
// of named symbols, packages of failing tests) and structure (files that the
// best candidates call into).
func (ix *Index) Rank(ctx context.Context, text string) (*Ranking, error) {
	q := parseQuery(text)
	m := q.matcher()
	scans, st, err := ix.scanAll(ctx, m)
	if err != nil {
		return nil, err
	}
	r := &Ranking{ix: ix, q: q, m: m, scans: scans, score: make([]float64, len(scans)),
		focus: map[int][]int{}, reached: reach{}, outline: map[int]*outline{},
		dirDefs: map[string]map[string][]int{}, dirValues: map[string]map[string][]int{}, dirSrc: map[string][]dirFile{}, called: map[int][]string{},
		layouts: map[int]string{}, registries: map[string]map[string][]string{}}
	for i := range scans {
		if scans[i].skip == indexed {
			r.indexed++
		}
	}
	r.bm25Stats(st)
	r.indexDefs()
	bonus := make([]float64, len(scans))
	r.lexical(bonus)
	r.signals(bonus)
	r.testEdges(bonus)
	for i := range r.score {
		r.score[i] += bonus[i]
	}
	r.sort()
	r.messages(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.structure()
	r.sort()
	return r, nil
}

// bm25Stats computes each term's IDF over windows and the mean window length.
func (r *Ranking) bm25Stats(st scanStats) {
	df := make([]int, len(r.q.terms))
	for i := range r.scans {
		for _, b := range r.scans[i].blocks {
			for _, tc := range b.tf {
				df[tc.term]++
			}
		}
	}
	n := float64(st.blocks)
	r.idf = make([]float64, len(df))
	for t, d := range df {
		r.idf[t] = math.Log(1 + (n-float64(d)+0.5)/(float64(d)+0.5))
	}
	r.avgLen = 1
	if st.blocks > 0 && st.bytes > 0 {
		r.avgLen = float64(st.bytes) / n
	}
}

// blockScore is the BM25 score of one window, each term weighted by the
// query's weight for it.
func (r *Ranking) blockScore(b *blockHit) float64 {
	s := 0.0
	norm := bm25K1 * (1 - bm25B + bm25B*float64(b.length)/r.avgLen)
	for _, tc := range b.tf {
		tf := float64(tc.n)
		s += r.q.terms[tc.term].weight * r.idf[tc.term] * tf * (bm25K1 + 1) / (tf + norm)
	}
	return s
}

// lexical sets each file's score from its best windows (normalised to the
// best file) and adds what its path says about the query.
func (r *Ranking) lexical(bonus []float64) {
	best := make([]float64, 3)
	maxLex := 0.0
	for i := range r.scans {
		best[0], best[1], best[2] = 0, 0, 0
		for k := range r.scans[i].blocks {
			s := r.blockScore(&r.scans[i].blocks[k])
			switch {
			case s > best[0]:
				best[0], best[1], best[2] = s, best[0], best[1]
			case s > best[1]:
				best[1], best[2] = s, best[1]
			case s > best[2]:
				best[2] = s
			}
		}
		lex := best[0] + 0.5*best[1] + 0.25*best[2]
		if isTestFile(r.ix.paths[i]) {
			lex *= 0.7 // the fix is usually in the code under test
		}
		r.score[i] = lex
		maxLex = math.Max(maxLex, lex)
	}
	if maxLex > 0 {
		for i := range r.score {
			r.score[i] /= maxLex
		}
	}
	// Path: a file named after the query's words is likely the place.
	termOf := map[string]int{}
	top := 0.0
	for t, qt := range r.q.terms {
		termOf[qt.text] = t
		top = math.Max(top, qt.weight*r.idf[t])
	}
	if top == 0 {
		return
	}
	// The paths are sorted: a directory's files are one run, and its
	// name is split into words once.
	lastDir, dirTerms := "", []int(nil)
	for i, p := range r.ix.paths {
		if r.scans[i].skip != indexed {
			continue
		}
		dir, base := path.Split(p)
		if dir != lastDir {
			lastDir, dirTerms = dir, dirTerms[:0]
			for _, w := range pathWords(path.Base(dir)) {
				if t, ok := termOf[w]; ok {
					dirTerms = append(dirTerms, t)
				}
			}
		}
		base = strings.TrimSuffix(base, path.Ext(base))
		s := 0.0
		for _, w := range pathWords(base) {
			if t, ok := termOf[w]; ok {
				s += r.q.terms[t].weight * r.idf[t]
			}
		}
		for _, t := range dirTerms {
			s += 0.3 * r.q.terms[t].weight * r.idf[t]
		}
		bonus[i] += 0.4 * math.Min(1, s/(2*top))
	}
}

// pathWords splits a file or directory name into terms.
func pathWords(name string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(name, func(c rune) bool { return c == '-' || c == '.' || c == ' ' }) {
		subs, full := identTerms(part)
		out = append(out, subs...)
		if full != "" {
			out = append(out, full)
		}
	}
	return out
}

// isTestFile reports whether p is a test by the conventions of common
// languages.
func isTestFile(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") ||
		strings.HasSuffix(base, "_test.py") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}

// indexDefs maps the names of the query's symbols to where they are defined.
func (r *Ranking) indexDefs() {
	r.defs = map[uint64][]fileLine{}
	for i := range r.scans {
		for _, d := range r.scans[i].defs {
			r.defs[d.hash] = append(r.defs[d.hash], fileLine{int32(i), d.line})
		}
	}
}

// sort orders the files with a positive score, best first, ties by path.
func (r *Ranking) sort() {
	r.order = r.order[:0]
	for i, s := range r.score {
		if s > 0 && r.scans[i].skip == indexed {
			r.order = append(r.order, i)
		}
	}
	sort.Slice(r.order, func(a, b int) bool {
		i, j := r.order[a], r.order[b]
		if r.score[i] != r.score[j] {
			return r.score[i] > r.score[j]
		}
		return r.ix.paths[i] < r.ix.paths[j]
	})
}

// Files returns the paths of the ranked files, best first, for callers that
// want the ranking without a pack.
func (r *Ranking) Files() []string {
	out := make([]string, len(r.order))
	for k, i := range r.order {
		out[k] = r.ix.paths[i]
	}
	return out
}

// Top returns the n best files with their scores (no chunks).
func (r *Ranking) Top(n int) []File {
	out := make([]File, 0, n)
	for _, i := range r.order[:min(n, len(r.order))] {
		out = append(out, File{Path: r.ix.paths[i], Score: math.Round(r.score[i]*1000) / 1000})
	}
	return out
}

// RepoFiles is the number of files indexed.
func (r *Ranking) RepoFiles() int { return r.indexed }
