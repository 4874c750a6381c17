package repoctx

import (
	"context"
	"path"
	"slices"
	"sort"
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
