package repoctx

import (
	"maps"
	"path"
	"slices"
	"sort"
)

// heldTypes are the types of the values test s of dir holds: those it
// builds (T{...}) and those the functions of its package it calls build
// (NewMemMapFs returns &MemMapFs{}). When a method name it calls belongs
// to several types (every Fs has a MkdirAll), the test means theirs. The
// names the query itself gives count too: output that says
// TextFormatter.Format means that type's, whatever the test builds.
func (r *Ranking) heldTypes(dir string, s symbol) map[string]bool {
	types := map[string]bool{}
	for name := range r.q.symbols {
		types[name] = true
	}
	for _, t := range s.builds {
		types[t] = true
	}
	for _, name := range s.callees {
		maps.Copy(types, r.builtBy(dir, name))
	}
	return types
}

// builtBy are the types the functions called name in package dir build
// (NewStore returns &Store{}), as a set.
func (r *Ranking) builtBy(dir, name string) map[string]bool {
	out := map[string]bool{}
	for _, j := range r.defsIn(dir)[name] {
		if !r.goCode(j) {
			continue
		}
		for _, f := range r.symbolsNamed(j, name) {
			if f.recv == "" {
				for _, t := range f.builds {
					out[t] = true
				}
			}
		}
	}
	return out
}

// calleeFiles are the Go code files of dir that define a name s calls,
// once each: heldTypes reads them all.
func (r *Ranking) calleeFiles(dir string, s symbol) []int {
	var out []int
	for _, name := range s.callees {
		for _, j := range r.defsIn(dir)[name] {
			if r.goCode(j) {
				out = append(out, j)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// unfocusOthers drops the focus lines (a failing test's name, TestMkdirAll,
// names MkdirAll) on the methods of dir's types other than types, when
// one of types has a method of that name: the test means its own.
func (r *Ranking) unfocusOthers(dir string, types map[string]bool) {
	for i, lines := range r.focus {
		if path.Dir(r.ix.paths[i]) != dir || !r.goCode(i) {
			continue
		}
		o := r.outlineOf(i)
		if o == nil {
			continue
		}
		kept := lines[:0]
		for _, l := range lines {
			drop := false
			for _, sym := range o.syms {
				if sym.decl == l && sym.recv != "" && !types[sym.recv] {
					drop = r.holds(call{dir: dir, name: sym.name, types: types})
					break
				}
			}
			if !drop {
				kept = append(kept, l)
			}
		}
		r.focus[i] = kept
	}
}

// holds reports whether c's name is a method of one of c.types, in
// c.dir: then the other types' methods of that name are not what it
// calls.
func (r *Ranking) holds(c call) bool {
	for _, j := range r.defsIn(c.dir)[c.name] {
		for _, s := range r.symbolsNamed(j, c.name) {
			if s.recv != "" && c.types[s.recv] {
				return true
			}
		}
	}
	return false
}

// dispatched follows the methods of the types that test s builds (a
// composite literal T{...} of a type of its package) that code the edges
// reached calls by name: the test hands the value to the code, which
// calls them through an interface (Flags: []Flag{&StringSliceFlag{...}}
// and f.Apply(set) reach StringSliceFlag.Apply). Each is reached as a
// callee of the test's callees is.
func (r *Ranking) dispatched(mods goModules, dir string, s symbol) {
	built := map[string]bool{}
	for _, t := range s.builds {
		built[t] = true
	}
	if len(built) == 0 {
		return
	}
	called := map[string]bool{}
	for i, m := range r.reached {
		o := r.outlineOf(i)
		if o == nil || path.Dir(r.ix.paths[i]) != dir {
			continue
		}
		for _, sym := range o.syms {
			if m[sym.decl] > 0 {
				for _, c := range sym.callees {
					called[c] = true
				}
			}
		}
	}
	names := make([]string, 0, len(called))
	for c := range called {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, j := range r.defsIn(dir)[name] {
			if !r.goCode(j) {
				continue
			}
			for _, m := range r.symbolsNamed(j, name) {
				if built[m.recv] && r.reached[j][m.decl] == 0 {
					r.reached.at(j, m.decl, edgeDecay)
					r.follow(r.reached, mods, map[string]bool{dir + ":" + name: true}, calls(dir, mods, m, 2, 1))
				}
			}
		}
	}
}
