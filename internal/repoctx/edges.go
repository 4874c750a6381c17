package repoctx

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const (
	// edgeDepth is how many calls deep the failing tests' callees are
	// followed: a fix often sits in a helper the test reaches through two
	// or three calls.
	edgeDepth = 3
	// edgeNodes bounds the functions followed from one start.
	edgeNodes = 24
	// edgeDecay is how much less each call level counts.
	edgeDecay = 0.6
	// subjectWeight is how much more than the test's other callees the
	// assertion's subject counts: the call whose result the failing line
	// compares, or that the failing line makes.
	subjectWeight = 2.0
	// apiWeight is how much the callees of a function an issue names
	// count, against a failing test's.
	apiWeight = 0.25
	// maxAPIFiles bounds the files defining a name an issue names for
	// its callees to be followed.
	maxAPIFiles = 3
	// sharedAPIStarts is how many of the functions an issue names must
	// reach a definition for it to be a focus: a report of one fault in
	// several calls (ToBoolE, ToStringE) points at the helper they share.
	sharedAPIStarts = 2
	// registeredWeight is the weight with which a report's word that a
	// registry maps to a function reaches it: as a focus.
	registeredWeight = 0.5
	// dryWeight is how much less a callee counts that its caller hands
	// none of its inputs: what the test feeds the code flows through the
	// others.
	dryWeight = 0.6
	// meetCallers is how many of the functions reached at the edges'
	// last level must call a function one call further for it to be
	// reached too: where the test's paths meet (Glob and GlobWalk each
	// reach the isDir their directory walks share).
	meetCallers = 3
)

// call is a name to resolve in a package's definitions and follow.
type call struct {
	dir    string // the package's directory
	name   string
	depth  int
	weight float64
	// types, when set, are the types whose values the caller holds (the
	// values a test builds, or a method's own receiver): of the methods
	// of several types a call x.Name() may mean, only theirs (when one
	// is) are followed.
	types map[string]bool
	// handed marks types as the test's, handed on to a helper in a test
	// file: the helper may call the method on a value of its own, so the
	// other types' methods are followed too, one step further away.
	handed bool
	// via are the directories of the module's other packages the caller
	// imports: a method x.Name() that dir does not define may be one of
	// theirs, x a value their functions made (srv := app.New();
	// srv.Handle(req)).
	via []string
	// methods keeps to methods (see resolved).
	methods bool
}

// resolved is c in the package that defines its name: its own dir, or
// else the first of c.via that defines a method of that name (a
// function of another package is called by its package's name, which
// pkgCalls follows).
func (r *Ranking) resolved(c call) call {
	if len(c.via) == 0 || len(r.defsIn(c.dir)[c.name]) > 0 {
		return c
	}
	for _, d := range c.via {
		for _, j := range r.defsIn(d)[c.name] {
			for _, s := range r.symbolsNamed(j, c.name) {
				if s.recv != "" {
					c.dir, c.via, c.methods = d, nil, true
					return c
				}
			}
		}
	}
	return c
}

// testEdges follows test → code edges. From each failing test the query
// names (defined in a Go test file): first the assertion's subject (the
// calls on the lines of the test the output names, and the calls that
// made the values those lines use), then the test's other callees in the
// same package, then those functions' callees, edgeDepth calls deep. From
// each line the output names in a Go file that is not a test (a panic's
// frame): the function holding it and its callees. Each function reached
// outside test files becomes a focus of its file (so the packer shows its
// whole body) and raises the file a little, less the deeper it is.
// Helpers in test files are followed but not packed for it.
func (r *Ranking) testEdges(bonus []float64) {
	names := make([]string, 0, len(r.q.symbols))
	for s := range r.q.symbols {
		if isTestFunc(s) {
			names = append(names, s)
		}
	}
	sort.Strings(names)
	mods := r.goModules()
	// The failing tests' files, then the files heldTypes reads for each
	// test, each parsed together: a test of many packages' translations
	// is defined in each.
	var files []int
	for _, name := range names {
		for _, l := range r.defs[exactHash([]byte(name))] {
			if p := r.ix.paths[l.file]; isTestFile(p) && path.Ext(p) == ".go" {
				files = append(files, int(l.file))
			}
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	r.outlineAll(context.Background(), files, true)
	var callees []int
	for _, i := range files {
		for _, name := range names {
			if s, ok := r.symbolNamed(i, name); ok {
				callees = append(callees, r.calleeFiles(path.Dir(r.ix.paths[i]), s)...)
			}
		}
	}
	slices.Sort(callees)
	r.outlineAll(context.Background(), slices.Compact(callees), true)
	for _, name := range names {
		for _, l := range r.defs[exactHash([]byte(name))] {
			i := int(l.file)
			p := r.ix.paths[i]
			if !isTestFile(p) || path.Ext(p) != ".go" {
				continue
			}
			s, ok := r.symbolNamed(i, name)
			if !ok {
				continue
			}
			// The subject first, on its own: a test that sets up much
			// would use up edgeNodes before the call it asserts about.
			dir := path.Dir(p)
			via := importedDirs(dir, mods, s)
			var subject []call
			var lines []int
			for _, fl := range r.lines {
				if int(fl.file) == i && int(fl.line) >= s.start && int(fl.line) <= s.end {
					lines = append(lines, int(fl.line))
					for _, c := range r.subjectCalls(i, s, int(fl.line)) {
						subject = append(subject, call{dir: dir, name: c, weight: subjectWeight, via: via})
					}
				}
			}
			// A line the output names in a helper the test calls
			// (checkRequests(t, tree, requests), whose t.Errorf the
			// output names, not the test's line) is the test's
			// assertion too.
			subject = append(subject, r.helperSubjects(dir, mods, s)...)
			// The test's calls that only its passing subtests make are
			// no evidence, and would use up edgeNodes before the failing
			// subtest's callees.
			passed := r.passedSubtestCalls(i, s, lines)
			// Nor are the calls it makes only after its failing
			// lines: a round trip's Unmarshal after the assertion on
			// what Marshal wrote.
			after := r.afterFailureCalls(i, s, lines)
			direct := slices.DeleteFunc(calls(dir, mods, s, 0, 1), func(c call) bool { return passed[c.name] || after[c.name] })
			direct = append(direct, r.valueFuncs(i, s, dir)...)
			types := r.heldTypes(dir, s)
			for _, cs := range [][]call{subject, direct} {
				for k := range cs {
					cs[k].types = types
				}
			}
			r.unfocusOthers(dir, types)
			r.follow(r.reached, mods, map[string]bool{dir + ":" + name: true}, subject)
			r.follow(r.reached, mods, map[string]bool{dir + ":" + name: true}, r.registered(i, s, dir))
			r.follow(r.reached, mods, map[string]bool{dir + ":" + name: true}, direct)
			r.dispatched(mods, dir, s)
			r.configured(i, s, dir, via)
		}
	}
	// Specs: the lines the output names in a test file outside every
	// function (Ginkgo's It blocks).
	r.specEdges(mods)
	// A panic's frames: the function holding each line named outside
	// test files, and what it calls.
	for _, fl := range r.lines {
		i := int(fl.file)
		p := r.ix.paths[i]
		if !r.goCode(i) {
			continue
		}
		o := r.outlineOf(i)
		if o == nil {
			continue
		}
		for _, s := range o.syms {
			if int(fl.line) >= s.start && int(fl.line) <= s.end && len(s.callees) > 0 {
				dir := path.Dir(p)
				r.follow(r.reached, mods, map[string]bool{dir + ":" + s.name: true}, calls(dir, mods, s, 1, 1))
			}
		}
	}
	// From a report without failing tests: the callees of the functions
	// it names (gjson.Get, a call Decode(...)), as if each were a frame:
	// a report names the API it called, and the fix is often in what
	// that calls, in the module's internal packages too.
	if len(r.q.tests) == 0 {
		r.apiEdges(mods)
	}
	r.builtTypes()
	// Each file is raised by its best reached function: a file of many
	// set-up helpers is no likelier the place than the one the assertion
	// reaches.
	for i, m := range r.reached {
		best := 0.0
		for _, w := range m {
			best = max(best, w)
		}
		bonus[i] += 0.3 * best
	}
}

// builtTypes reaches the types the assertion's subject (a function
// reached at subjectWeight or more) builds (&skip{...}) and its own file
// declares, when small, at minFocusReach: the least that makes them a
// focus, so that they are shown with it but raise nothing else. A fix
// often changes what the function builds, and a patch that builds one
// needs its fields.
func (r *Ranking) builtTypes() {
	type at struct{ i, line int }
	var add []at
	for i, m := range r.reached {
		o := r.outlineOf(i)
		if o == nil {
			continue
		}
		for _, s := range o.syms {
			if m[s.decl] < subjectWeight {
				continue
			}
			for _, t := range s.builds {
				for _, ts := range r.symbolsNamed(i, t) {
					if strings.HasPrefix(ts.sig, "type ") && ts.end-ts.start+1 <= bigSymbol {
						add = append(add, at{i, ts.decl})
					}
				}
			}
		}
	}
	for _, a := range add {
		r.reached.at(a.i, a.line, minFocusReach)
	}
}

// apiEdges follows the callees of the Go functions an issue names, with
// at least medium strength (quoted, pkg.Func, a call), when few files
// define the name (a name defined everywhere says nothing). A definition
// reached from one name counts at apiWeight and is no focus; one reached
// from sharedAPIStarts names or more is a focus, weighed by the sum. A
// word of the issue that a registry maps to a function names that
// function too (see registry).
func (r *Ranking) apiEdges(mods goModules) {
	names := make([]string, 0, len(r.q.symbols))
	for s, st := range r.q.symbols {
		if st >= medium {
			names = append(names, s)
		}
	}
	sort.Strings(names)
	// Each name's callees are followed on their own, so that what
	// several named functions reach is known: a report of the same fault
	// in several calls points at what they share.
	type reached struct {
		best, sum float64
		starts    int
	}
	shared := map[fileLine]*reached{}
	// The packages of the functions it names, and the root packages of
	// the repository's modules (of theirs, in a repository of many): their
	// registries may map its words to functions.
	dirs := mods.roots()
	// follow follows the callees of the functions called name in files.
	follow := func(own reach, name string, files []int) {
		for _, i := range files {
			dir := path.Dir(r.ix.paths[i])
			for _, s := range r.symbolsNamed(i, name) {
				r.follow(own, mods, map[string]bool{dir + ":" + name: true}, calls(dir, mods, s, 1, apiWeight))
			}
		}
	}
	add := func(own reach) {
		for i, m := range own {
			for line, w := range m {
				k := fileLine{int32(i), int32(line)}
				if shared[k] == nil {
					shared[k] = &reached{}
				}
				shared[k].best = max(shared[k].best, w)
				shared[k].sum += w
				shared[k].starts++
			}
		}
	}
	for _, name := range names {
		own := reach{}
		var files []int
		for _, l := range r.defs[exactHash([]byte(name))] {
			if r.goCode(int(l.file)) && !slices.Contains(files, int(l.file)) {
				files = append(files, int(l.file))
			}
		}
		if len(files) == 0 || len(files) > maxAPIFiles {
			continue
		}
		for _, i := range files {
			pkg := path.Dir(r.ix.paths[i])
			for _, d := range []string{mods.holding(pkg), pkg} {
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
		follow(own, name, files)
		add(own)
	}
	// A code word of the report that a registry of those packages maps
	// to a function (`excluded_if` in a struct tag, `"excluded_if":
	// excludedIf,` in a map literal) names that function: a call no
	// name shows. It is a focus, and its callees are followed as a
	// named function's are.
	words := slices.Clone(r.q.quoted)
	for w := range r.q.symbols {
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	for _, dir := range dirs {
		reg := r.registry(dir)
		for _, w := range words {
			for _, name := range reg[w] {
				own := reach{}
				files := slices.DeleteFunc(slices.Clone(r.defsIn(dir)[name]), func(j int) bool { return !r.goCode(j) })
				for _, j := range files {
					for _, s := range r.symbolsNamed(j, name) {
						own.at(j, s.decl, registeredWeight)
					}
				}
				follow(own, name, files)
				add(own)
			}
		}
	}
	for k, c := range shared {
		w := c.best
		if c.starts >= sharedAPIStarts {
			w = max(c.sum, minFocusReach)
		}
		r.reached.at(int(k.file), int(k.line), w)
	}
}

// defsIn are the definitions of the Go package in dir: name -> the files
// defining it (read once per directory).
func (r *Ranking) defsIn(dir string) map[string][]int {
	d, ok := r.dirDefs[dir]
	if !ok {
		d = dirDefs(r.dirFiles(dir))
		r.dirDefs[dir] = d
	}
	return d
}

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

// importedDirs are the directories of the module's other packages that
// s, defined in dir, calls into (see call.via).
func importedDirs(dir string, mods goModules, s symbol) []string {
	var via []string
	for _, pc := range s.pkgCalls {
		if d, ok := mods.dir(pc.path); ok && d != dir && !slices.Contains(via, d) {
			via = append(via, d)
		}
	}
	return via
}

// calls are s's callees to follow, s being defined in dir: its plain
// calls in dir, and its calls pkg.F() into the other packages of the
// repository's modules (mods) in theirs.
func calls(dir string, mods goModules, s symbol, depth int, weight float64) []call {
	out := make([]call, 0, len(s.callees)+len(s.pkgCalls))
	w := func(n string) float64 {
		if depth > 0 && s.dry[n] {
			return weight * dryWeight
		}
		return weight
	}
	via := importedDirs(dir, mods, s)
	for _, n := range s.callees {
		c := call{dir: dir, name: n, depth: depth, weight: w(n), via: via}
		if s.own[n] {
			c.types = map[string]bool{s.recv: true}
		}
		out = append(out, c)
	}
	for _, pc := range s.pkgCalls {
		if d, ok := mods.dir(pc.path); ok && d != dir {
			out = append(out, call{dir: d, name: pc.name, depth: depth, weight: w(pc.name)})
		}
	}
	return out
}

// subjectCalls are the calls an assertion at line of Go file i is about:
// those of the innermost statement holding the line, and those that
// assigned the variables it uses, earlier in the same function (b, err :=
// Marshal(v) ... Equal(t, want, string(b)) gives Equal, string, Marshal),
// or were called on them there (idx.Build(rules)).
func (r *Ranking) subjectCalls(i int, s symbol, line int) []string {
	fn, lineOf := r.funcAt(i, s, line)
	if fn == nil {
		return nil
	}
	return subjectCallsIn(fn, lineOf, line)
}

// subjectCallsIn are subjectCalls of function fn, the file line of a
// position in it given by lineOf.
func subjectCallsIn(fn *ast.FuncDecl, lineOf func(token.Pos) int, line int) []string {
	var stmt ast.Stmt
	var conds []ast.Expr // of the if statements whose bodies hold the line
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		s, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		if lineOf(s.Pos()) <= line && line <= lineOf(s.End()) {
			if _, block := s.(*ast.BlockStmt); !block {
				stmt = s // deeper statements come later
			}
			if is, ok := s.(*ast.IfStmt); ok && line > lineOf(is.Body.Lbrace) {
				conds = append(conds, is.Cond)
			}
			return true
		}
		return false
	})
	if stmt == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	addCalls := func(n ast.Node) {
		for _, c := range callNames(n) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	// For a statement with a body (if, for, switch), its head only.
	head := ast.Node(stmt)
	switch s := stmt.(type) {
	case *ast.IfStmt:
		head = s.Cond
	case *ast.ForStmt:
		head = s.Cond
	case *ast.RangeStmt:
		head = s.X
	case *ast.SwitchStmt:
		head = s.Tag
	}
	if head == nil {
		return nil
	}
	addCalls(head)
	// The variables the statement uses, and those the conditions that led
	// to it test (if value.handlers == nil { t.Errorf("no handler for %s",
	// path) } is about value), traced back through assignments before it,
	// two steps; and the methods called on them before it, which made
	// them what the line finds (index.Build(rules) before
	// index.Lookup(key)), but not those of the test's *testing.T.
	uses := identsIn(head)
	for _, c := range conds {
		maps.Copy(uses, identsIn(c))
	}
	vars := ownVars(fn)
	for range 2 {
		var more []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && c.Pos() < stmt.Pos() {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && uses[x.Name] && vars[x.Name] {
						addCalls(c)
					}
				}
			}
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Pos() >= stmt.Pos() {
				return true
			}
			for _, lhs := range a.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && uses[id.Name] {
					for _, rhs := range a.Rhs {
						addCalls(rhs)
						for v := range identsIn(rhs) {
							more = append(more, v)
						}
					}
					break
				}
			}
			return true
		})
		uses = map[string]bool{}
		for _, v := range more {
			uses[v] = true
		}
	}
	return out
}

// ownVars are the variables fn declares (its parameters, those of the
// function literals in it, the names it assigns, ranges over or declares
// with var), but not a *testing.T: the values whose methods made what an
// assertion finds, not a package's name (time in time.Now()).
func ownVars(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	add := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				out[n.Name] = true
			}
		}
	}
	fields(fn.Recv)
	fields(fn.Type.Params)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			add(n.Lhs...)
		case *ast.RangeStmt:
			add(n.Key, n.Value)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		case *ast.FuncLit:
			fields(n.Type.Params)
		}
		return true
	})
	for name := range testingParams(fn) {
		delete(out, name)
	}
	return out
}

// helperSubjects are the subjects of the lines the output names in the
// helpers test s (of directory dir) calls: the functions of dir's Go test
// files that are not tests.
func (r *Ranking) helperSubjects(dir string, mods goModules, s symbol) []call {
	var out []call
	for _, fl := range r.lines {
		j := int(fl.file)
		p := r.ix.paths[j]
		if path.Dir(p) != dir || !isTestFile(p) || path.Ext(p) != ".go" {
			continue
		}
		o := r.outlineOf(j)
		if o == nil {
			continue
		}
		for _, h := range o.syms {
			line := int(fl.line)
			if line < h.start || line > h.end || isTestFunc(h.name) || !slices.Contains(s.callees, h.name) {
				continue
			}
			via := importedDirs(dir, mods, h)
			for _, c := range r.subjectCalls(j, h, line) {
				out = append(out, call{dir: dir, name: c, weight: subjectWeight, via: via})
			}
		}
	}
	return out
}

// testingParams are the names fn and the function literals in it give
// their *testing.T, *testing.B or testing.TB.
func testingParams(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		default:
			return true
		}
		for _, f := range ft.Params.List {
			t := f.Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if sel, ok := t.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "testing" {
					for _, name := range f.Names {
						out[name.Name] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// valueFuncs are the functions of package dir that test s (Go file i)
// hands on as values rather than calls: a table's ({"down", Lower, "A",
// "a"}, called as tt.fn(tt.in)), a handler given to a server, a subtest
// given to t.Run. The test calls them through what it hands them to, as
// it calls its direct callees.
func (r *Ranking) valueFuncs(i int, s symbol, dir string) []call {
	fn, _ := r.funcAt(i, s, s.decl)
	if fn == nil {
		return nil
	}
	return r.valueFuncsIn(fn, dir)
}

// valueFuncsIn are valueFuncs of function fn.
func (r *Ranking) valueFuncsIn(fn *ast.FuncDecl, dir string) []call {
	var out []call
	seen := map[string]bool{}
	value := func(e ast.Expr) {
		id, ok := uninstantiated(e).(*ast.Ident)
		if !ok || seen[id.Name] || !r.definesFunc(dir, id.Name) {
			return
		}
		seen[id.Name] = true
		out = append(out, call{dir: dir, name: id.Name, weight: 1})
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, a := range n.Args {
				value(a)
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				value(e)
			}
		case *ast.AssignStmt:
			for _, e := range n.Rhs {
				value(e)
			}
		case *ast.ValueSpec:
			for _, e := range n.Values {
				value(e)
			}
		}
		return true
	})
	return out
}

// definesFunc reports whether package dir defines a function (not a
// method, type or variable) called name.
func (r *Ranking) definesFunc(dir, name string) bool {
	for _, j := range r.defsIn(dir)[name] {
		for _, s := range r.symbolsNamed(j, name) {
			if s.recv == "" && strings.HasPrefix(s.sig, "func ") {
				return true
			}
		}
	}
	return false
}

// funcAt parses definition s of Go file i and returns it when it is a
// function holding line, with the file line of a position in it.
func (r *Ranking) funcAt(i int, s symbol, line int) (*ast.FuncDecl, func(token.Pos) int) {
	// Only the function is parsed (a test file may be thousands of
	// lines): its lines after a package clause, so that line n of the
	// snippet is line s.decl+n-2 of the file.
	o := r.outlineOf(i)
	if o == nil || s.end > len(o.lines) || s.decl < 1 {
		return nil, nil
	}
	src := "package p\n" + strings.Join(o.lines[s.decl-1:s.end], "\n")
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil, nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line + s.decl - 2 }
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil && lineOf(d.Pos()) <= line && line <= lineOf(d.End()) {
			return d, lineOf
		}
	}
	return nil, nil
}

// passedSubtestCalls are the calls test s (Go file i) makes only in
// subtests (functions it hands t.Run) that hold none of lines, the lines
// the output names: subtests that passed, or failed on lines of their
// own. None when no line is in a subtest.
func (r *Ranking) passedSubtestCalls(i int, s symbol, lines []int) map[string]bool {
	if len(lines) == 0 {
		return nil
	}
	fn, lineOf := r.funcAt(i, s, lines[0])
	if fn == nil {
		return nil
	}
	var subtests []*ast.FuncLit
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && lastName(c.Fun) == "Run" && len(c.Args) > 0 {
			if lit, ok := c.Args[len(c.Args)-1].(*ast.FuncLit); ok {
				subtests = append(subtests, lit)
			}
		}
		return true
	})
	failed := func(lit *ast.FuncLit) bool {
		return slices.ContainsFunc(lines, func(l int) bool { return lineOf(lit.Pos()) <= l && l <= lineOf(lit.End()) })
	}
	if !slices.ContainsFunc(subtests, failed) {
		return nil
	}
	// kept are the names called where the evidence is: in a failed
	// subtest, or outside every subtest.
	kept, passed := map[string]bool{}, map[string]bool{}
	for _, lit := range subtests {
		into := passed
		if failed(lit) {
			into = kept
		}
		for _, c := range callNames(lit.Body) {
			into[c] = true
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && slices.Contains(subtests, lit) {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			kept[lastName(c.Fun)] = true
		}
		return true
	})
	for c := range kept {
		delete(passed, c)
	}
	return passed
}

// afterFailureCalls are the calls test s (Go file i) makes only after
// lines, the lines the output names in it: after the statement holding
// the last of them, in the function (s, or the subtest's function) that
// holds them all, and outside every loop of that function that holds
// one. A call there ran after the failure was seen, and did not cause
// it. None when a line is in a function of its own inside that one (a
// check the test calls later), or is not where the test reported its
// failure.
func (r *Ranking) afterFailureCalls(i int, s symbol, lines []int) map[string]bool {
	// Each line must be where the test reported its failure, the head
	// of a line it logged ("    marshaler_test.go:884: "). A panic's
	// frame stopped the test before the calls it meant to make (cobra's
	// test expects Execute to panic, and AddCommand did); gomock names
	// the line that expected a call it missed when the test ends.
	base := regexp.QuoteMeta(path.Base(r.ix.paths[i]))
	if len(lines) == 0 || slices.ContainsFunc(lines, func(l int) bool {
		return !regexp.MustCompile(`(?:^|\s)` + base + ":" + strconv.Itoa(l) + ": ").MatchString(r.q.text)
	}) {
		return nil
	}
	fn, lineOf := r.funcAt(i, s, lines[0])
	if fn == nil {
		return nil
	}
	holds := func(n ast.Node, l int) bool { return lineOf(n.Pos()) <= l && l <= lineOf(n.End()) }
	last := slices.Max(lines)
	// inner is the innermost function holding the last line; end, the
	// line where the innermost statement of inner holding it ends; loops,
	// the loops of inner that hold a line.
	var inner ast.Node = fn
	if lits := litsIn(fn.Body, last, lineOf); len(lits) > 0 {
		inner = lits[len(lits)-1]
	}
	var loops []ast.Node
	end := 0
	own := true
	ast.Inspect(inner, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			if n != inner {
				// Every line must be inner's own: a function
				// literal's runs whenever it is called.
				if slices.ContainsFunc(lines, func(l int) bool { return holds(n, l) }) {
					own = false
				}
				return false
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if slices.ContainsFunc(lines, func(l int) bool { return holds(n, l) }) {
				loops = append(loops, n)
			}
		}
		if st, isStmt := n.(ast.Stmt); isStmt && holds(st, last) {
			if _, block := st.(*ast.BlockStmt); !block {
				end = lineOf(st.End())
			}
		}
		return true
	})
	if !own || end == 0 || slices.ContainsFunc(lines, func(l int) bool { return !holds(inner, l) }) {
		return nil
	}
	after, before := map[string]bool{}, map[string]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		c, isCall := n.(*ast.CallExpr)
		if !isCall {
			return true
		}
		l := lineOf(c.Pos())
		into := before
		if l > end && holds(inner, l) && !slices.ContainsFunc(loops, func(lp ast.Node) bool { return holds(lp, l) }) {
			into = after
		}
		for _, name := range callName(c) {
			into[name] = true
		}
		return true
	})
	for name := range before {
		delete(after, name)
	}
	return after
}

// callNames are the names of the calls in n: f(), x.f(), pkg.F().
func callNames(n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			out = append(out, callName(c)...)
		}
		return true
	})
	return out
}

// callName are the names call c means: its function's name (not a
// plain call's of a builtin, nor one of everyTestCalls), after the
// functions a standard library call dispatches to (dispatch).
func callName(c *ast.CallExpr) []string {
	var out []string
	name := lastName(c.Fun)
	if f, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := f.X.(*ast.Ident); ok {
			out = append(out, dispatch[x.Name+"."+name]...)
		}
	}
	_, plain := c.Fun.(*ast.Ident)
	if name != "" && !(plain && goBuiltins[name]) && !everyTestCalls[name] {
		out = append(out, name)
	}
	return out
}

// dispatch are the methods of their arguments that standard library
// functions call: a test that serves its router with httptest.NewServer
// reaches the router's ServeHTTP through no call it writes.
var dispatch = map[string][]string{
	"httptest.NewServer": {"ServeHTTP"}, "httptest.NewTLSServer": {"ServeHTTP"}, "httptest.NewUnstartedServer": {"ServeHTTP"},
	"http.ListenAndServe": {"ServeHTTP"}, "http.ListenAndServeTLS": {"ServeHTTP"}, "http.Serve": {"ServeHTTP"},
	"http.ServeTLS": {"ServeHTTP"}, "http.Handle": {"ServeHTTP"},
}

// identsIn are the plain identifiers n uses.
func identsIn(n ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// goCode reports whether file i is Go code, not a Go test.
func (r *Ranking) goCode(i int) bool {
	p := r.ix.paths[i]
	return path.Ext(p) == ".go" && !isTestFile(p)
}

// symbolNamed is the first top-level definition of file i called name.
func (r *Ranking) symbolNamed(i int, name string) (symbol, bool) {
	if ss := r.symbolsNamed(i, name); len(ss) > 0 {
		return ss[0], true
	}
	return symbol{}, false
}

// symbolsNamed are the top-level definitions of file i called name: a
// function and the methods of that name, which a call x.Name() may mean.
func (r *Ranking) symbolsNamed(i int, name string) []symbol {
	o := r.factsOf(i)
	if o == nil {
		return nil
	}
	var out []symbol
	for _, s := range o.syms {
		if s.name == name {
			out = append(out, s)
		}
	}
	return out
}
