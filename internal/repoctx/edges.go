package repoctx

import (
	"math"
	"path"
	"sort"
	"strings"
)

const (
	// edgeDepth is how many calls deep the failing tests' callees are
	// followed: a fix often sits in a helper the test reaches through two
	// or three calls.
	edgeDepth = 3
	// edgeNodes bounds the functions followed from one test.
	edgeNodes = 24
	// edgeDecay is how much less each call level counts.
	edgeDecay = 0.6
)

// testEdges follows test → code edges: from the failing tests the query
// names (defined in a test file), their callees in the same package, then
// those functions' callees, edgeDepth calls deep. Each function reached
// outside test files becomes a focus of its file (so the packer shows its
// whole body, or its head when it is big) and raises the file a little,
// less the deeper it is. Helpers in test files are followed but not
// packed for it.
func (r *Ranking) testEdges(bonus []float64) {
	names := make([]string, 0, len(r.q.symbols))
	for s := range r.q.symbols {
		if strings.HasPrefix(s, "Test") {
			names = append(names, s)
		}
	}
	sort.Strings(names)
	type node struct {
		file  int
		name  string
		depth int
	}
	defsOf := map[string]map[string][]int{} // per directory
	for _, name := range names {
		for _, l := range r.defs[exactHash([]byte(name))] {
			i := int(l.file)
			p := r.ix.paths[i]
			if !isTestFile(p) || path.Ext(p) != ".go" {
				continue
			}
			dir := path.Dir(p)
			defs, ok := defsOf[dir]
			if !ok {
				defs = dirDefs(r.dirFiles(dir))
				defsOf[dir] = defs
			}
			seen := map[string]bool{name: true}
			queue := []node{{i, name, 0}}
			for len(queue) > 0 && len(seen) <= edgeNodes {
				n := queue[0]
				queue = queue[1:]
				s, ok := r.symbolNamed(n.file, n.name)
				if !ok || n.depth == edgeDepth {
					continue
				}
				for _, c := range s.callees {
					if seen[c] {
						continue
					}
					seen[c] = true
					for _, j := range defs[c] {
						if cs, ok := r.symbolNamed(j, c); ok && !isTestFile(r.ix.paths[j]) {
							r.focus[j] = append(r.focus[j], cs.decl)
							bonus[j] += 0.3 * math.Pow(edgeDecay, float64(n.depth))
						}
						queue = append(queue, node{j, c, n.depth + 1})
					}
				}
			}
		}
	}
}

// symbolNamed is the first top-level definition of file i called name.
func (r *Ranking) symbolNamed(i int, name string) (symbol, bool) {
	o := r.outlineOf(i)
	if o == nil {
		return symbol{}, false
	}
	for _, s := range o.syms {
		if s.name == name {
			return s, true
		}
	}
	return symbol{}, false
}
