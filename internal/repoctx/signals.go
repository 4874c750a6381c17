package repoctx

import (
	"math"
	"path"
	"sort"
	"strings"
)

// signals adds to bonus what the query names outright: files and lines,
// definitions of symbols, and packages.
func (r *Ranking) signals(bonus []float64) {
	q := r.q
	dirs := r.hintedDirs()
	inHinted := func(i int) bool { return dirs[path.Dir(r.ix.paths[i])] > 0 }

	// Files and lines named (stack traces, file:line in test output). A
	// bare file name (go test prints no directory) is taken in the failing
	// package when the output names one; elsewhere it counts little.
	for k, h := range q.paths {
		files := r.resolvePath(h.path)
		if len(files) == 0 {
			continue
		}
		w := 2.0 * math.Pow(0.85, float64(k))
		if !strings.Contains(h.path, "/") && len(dirs) > 0 {
			var near []int
			for _, i := range files {
				if dirs[path.Dir(r.ix.paths[i])] >= 1 {
					near = append(near, i)
				}
			}
			if len(near) > 0 {
				files = near
			} else {
				w *= 0.2
			}
		}
		w /= float64(len(files))
		for _, i := range files {
			if h.line > 0 {
				r.focus[i] = append(r.focus[i], h.line)
				r.lines = append(r.lines, fileLine{int32(i), int32(h.line)})
			}
			if isTestFile(r.ix.paths[i]) {
				bonus[i] += w / 2
				for _, s := range r.siblings(i) {
					bonus[s] += w * 0.75
				}
				continue
			}
			bonus[i] += w
		}
	}

	// Definitions of the symbols named; in a hinted package they count in
	// full, elsewhere spread over every file defining the name.
	names := make([]string, 0, len(q.symbols))
	for s := range q.symbols {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, name := range names {
		strength := q.symbols[name]
		locs := r.defs[exactHash([]byte(name))]
		if len(locs) == 0 {
			continue
		}
		files := uniqueFiles(locs)
		var near []fileLine
		for _, l := range locs {
			if inHinted(int(l.file)) {
				near = append(near, l)
			}
		}
		spread := 1 / math.Pow(float64(len(files)), 0.7)
		if len(near) > 0 {
			locs, spread = near, 1/math.Pow(float64(len(uniqueFiles(near))), 0.5)
		}
		isTest := isTestFunc(name)
		for _, l := range locs {
			i := int(l.file)
			r.focus[i] = append(r.focus[i], int(l.line))
			if isTest && isTestFile(r.ix.paths[i]) {
				// The failing test's own file: the code under test is its
				// sibling, and its package is where to look.
				bonus[i] += 0.3 * strength * spread
				for _, s := range r.siblings(i) {
					bonus[s] += 0.4 * strength * spread
				}
				dirs[path.Dir(r.ix.paths[i])] += spread
				continue
			}
			bonus[i] += 0.5 * strength * spread
		}
	}

	// Same package as a failing test or a named package path.
	for i, p := range r.ix.paths {
		if r.scans[i].skip == indexed {
			bonus[i] += 0.3 * math.Min(1, dirs[path.Dir(p)])
		}
	}
}

// hintedDirs maps repository directories to how strongly the query points
// at them: package paths from FAIL lines and stack frames in full, package
// names of pkg.Name selectors a little.
func (r *Ranking) hintedDirs() map[string]float64 {
	all := map[string]bool{}
	for i, p := range r.ix.paths {
		if r.scans[i].skip == indexed {
			all[path.Dir(p)] = true
		}
	}
	out := map[string]float64{}
	for _, d := range r.q.dirs {
		for _, m := range matchDir(all, d) {
			out[m] = 1
		}
	}
	for _, d := range r.q.pkgs {
		for _, m := range matchDir(all, d) {
			out[m] = math.Max(out[m], 0.3)
		}
	}
	return out
}

// matchDir finds the repository directories an import path names: those
// ending with its longest suffix that ends any directory.
func matchDir(all map[string]bool, importPath string) []string {
	parts := strings.Split(importPath, "/")
	for k := range parts {
		suffix := strings.Join(parts[k:], "/")
		var found []string
		for d := range all {
			if d == suffix || strings.HasSuffix(d, "/"+suffix) {
				found = append(found, d)
			}
		}
		if len(found) > 0 {
			if len(found) > 8 {
				return nil // too common a name to mean anything
			}
			sort.Strings(found)
			return found
		}
	}
	return nil
}

// resolvePath finds the files a path from the query means: same base name,
// and as many trailing directories in common as any candidate has.
func (r *Ranking) resolvePath(p string) []int {
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	best, bestN := []int(nil), 0
	hint := strings.Split(p, "/")
	for i, fp := range r.ix.paths {
		if r.scans[i].skip != indexed || path.Base(fp) != base {
			continue
		}
		parts := strings.Split(fp, "/")
		n := 0
		for n < len(parts) && n < len(hint) && parts[len(parts)-1-n] == hint[len(hint)-1-n] {
			n++
		}
		switch {
		case n > bestN:
			best, bestN = []int{i}, n
		case n == bestN:
			best = append(best, i)
		}
	}
	if len(best) > 8 {
		return nil // a common base name with no directory to tell them apart
	}
	return best
}

// siblings are the files a test file tests: foo_test.go -> foo.go, and for
// Python test_foo.py -> foo.py, when they exist.
func (r *Ranking) siblings(i int) []int {
	p := r.ix.paths[i]
	dir, base := path.Split(p)
	var want []string
	switch {
	case strings.HasSuffix(base, "_test.go"):
		want = append(want, dir+strings.TrimSuffix(base, "_test.go")+".go")
	case strings.HasPrefix(base, "test_"):
		want = append(want, dir+strings.TrimPrefix(base, "test_"))
	case strings.HasSuffix(base, "_test.py"):
		want = append(want, dir+strings.TrimSuffix(base, "_test.py")+".py")
	}
	var out []int
	for _, w := range want {
		if j := sort.SearchStrings(r.ix.paths, w); j < len(r.ix.paths) && r.ix.paths[j] == w && r.scans[j].skip == indexed {
			out = append(out, j)
		}
	}
	return out
}

func uniqueFiles(locs []fileLine) map[int32]bool {
	m := map[int32]bool{}
	for _, l := range locs {
		m[l.file] = true
	}
	return m
}
