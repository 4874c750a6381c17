package repoctx

import (
	"context"
	"maps"
	"math"
	"path"
	"slices"
	"strings"
)

// reach is what edges reached: per file, declaration line -> weight.
type reach map[int]map[int]float64

// at records that the definition declared at line of file i was reached
// with weight w (the best of its paths counts).
func (rc reach) at(i, line int, w float64) {
	m := rc[i]
	if m == nil {
		m = map[int]float64{}
		rc[i] = m
	}
	m[line] = max(m[line], w)
}

// follow resolves the calls in one package's definitions, breadth first,
// and records what it reaches into.
// Each function reached (a call x.Name() may mean any method Name) is a
// focus of its file and raises the file, once per call, when it is not a
// test file; its own callees are followed one level deeper, up to
// edgeDepth, at most edgeNodes names in all.
func (r *Ranking) follow(into reach, mods goModules, seen map[string]bool, queue []call) {
	// seen holds the names followed into every definition, and, for a
	// call that means only some types' methods (see call.types), the name
	// with those types: a name two types' methods each call on their own
	// receiver (l.log() in two loggers' Info) is followed into each type's
	// method. names are the names followed either way, which edgeNodes
	// bounds.
	names := maps.Clone(seen)
	past := meetings{}
	for len(queue) > 0 && len(names) <= edgeNodes {
		c := r.resolved(queue[0])
		queue = queue[1:]
		name := c.dir + ":" + c.name
		held := c.types != nil && r.holds(c)
		key := name
		if held {
			key = name + "@" + strings.Join(slices.Sorted(maps.Keys(c.types)), ",")
		}
		if seen[name] || seen[key] || !held && names[name] {
			continue
		}
		r.prefetch(c, queue, names, edgeNodes+1-len(names))
		seen[key], names[name] = true, true
		for _, j := range r.defsIn(c.dir)[c.name] {
			if path.Ext(r.ix.paths[j]) != ".go" {
				continue // a Go call: a README's snippet defines nothing
			}
			code := !isTestFile(r.ix.paths[j])
			ss := r.symbolsNamed(j, c.name)
			w := c.weight * math.Pow(edgeDecay, float64(c.depth))
			for _, s := range ss {
				if c.methods && s.recv == "" {
					continue
				}
				ws := w
				if held && s.recv != "" && !c.types[s.recv] {
					if !c.handed {
						continue // another type's method of that name
					}
					ws *= edgeDecay
				}
				if code {
					into.at(j, s.decl, ws)
				}
				if c.depth+1 == edgeDepth {
					if code {
						past.add([2]int{j, s.decl}, ws, c, calls(c.dir, mods, s, c.depth+1, c.weight))
					}
					continue
				}
				for _, n := range calls(c.dir, mods, s, c.depth+1, c.weight) {
					if !code && n.types == nil {
						// A test's helper calls methods on what the
						// test hands it: the test's types, most likely.
						n.types, n.handed = c.types, true
					}
					if !seen[n.dir+":"+n.name] {
						queue = append(queue, n)
					}
				}
			}
		}
	}
	r.meet(into, past, names)
}

// meeting is a function one call past the edges' last level: the
// call, and the weight each function reached at that level that calls
// it would give it (file and declaration line -> weight).
type meeting struct {
	call    call
	callers map[[2]int]float64
}

// meetings are the calls past the edges' last level, by package and name.
type meetings map[string]*meeting

// add records the calls ns of the function declared at caller, reached
// with weight w through c.
func (m meetings) add(caller [2]int, w float64, c call, ns []call) {
	for _, n := range ns {
		k := n.dir + ":" + n.name
		g := m[k]
		if g == nil {
			g = &meeting{call: n, callers: map[[2]int]float64{}}
			m[k] = g
		} else if g.call.types != nil {
			if n.types == nil {
				g.call.types = nil
			} else {
				g.call.types = maps.Clone(g.call.types)
				maps.Copy(g.call.types, n.types)
			}
		}
		// What n's own weight would be one level down: its caller's,
		// less for the level, less again when dry (see calls).
		g.callers[caller] = max(g.callers[caller], w*edgeDecay*n.weight/c.weight)
	}
}

// meet records the definitions of the calls past the edges' last level
// that meetCallers or more of the functions reached call, and follow did
// not reach (names), weighed by the sum of their callers' paths: where
// the test's separate paths meet is likelier the place than any one
// function along them.
func (r *Ranking) meet(into reach, past meetings, names map[string]bool) {
	var met []*meeting
	var files []int
	for k, g := range past {
		if len(g.callers) < meetCallers || names[k] {
			continue
		}
		met = append(met, g)
		for _, j := range r.defsIn(g.call.dir)[g.call.name] {
			if r.goCode(j) {
				files = append(files, j)
			}
		}
	}
	slices.Sort(files)
	r.outlineAll(context.Background(), slices.Compact(files), true)
	for _, g := range met {
		// Summed in one order, so that the same paths weigh the same.
		ps := slices.Sorted(maps.Values(g.callers))
		w := 0.0
		for _, p := range ps {
			w += p
		}
		held := g.call.types != nil && r.holds(g.call)
		for _, j := range r.defsIn(g.call.dir)[g.call.name] {
			if !r.goCode(j) {
				continue
			}
			for _, s := range r.symbolsNamed(j, g.call.name) {
				if held && s.recv != "" && !g.call.types[s.recv] {
					continue
				}
				into.at(j, s.decl, w)
			}
		}
	}
}

// prefetch outlines in parallel the Go files that define the names of c
// and of the calls queued after it, up to n names not followed yet, when
// c's are not outlined: follow parses them one by one, and parsing is
// most of its time. Which files follow reads does not change.
func (r *Ranking) prefetch(c call, queue []call, names map[string]bool, n int) {
	todo := func(q call) []int {
		var is []int
		for _, j := range r.defsIn(q.dir)[q.name] {
			if _, ok := r.outline[j]; !ok && path.Ext(r.ix.paths[j]) == ".go" {
				is = append(is, j)
			}
		}
		return is
	}
	is := todo(c)
	if len(is) == 0 {
		return
	}
	ahead := map[string]bool{c.dir + ":" + c.name: true}
	for _, q := range queue {
		if len(ahead) >= n {
			break
		}
		if name := q.dir + ":" + q.name; !names[name] && !ahead[name] {
			ahead[name] = true
			is = append(is, todo(q)...)
		}
	}
	slices.Sort(is)
	r.outlineAll(context.Background(), slices.Compact(is), true)
}
