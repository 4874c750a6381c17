package repoctx

import (
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// goModule is one of the repository's Go modules: its path, and the
// directory its go.mod is in.
type goModule struct{ path, dir string }

// goModules are a repository's Go modules, the longest path first: the
// first that holds an import path is the innermost (example.com/app/lib,
// a module of its own in lib/, before example.com/app).
type goModules []goModule

// dir is the repository directory of the package imported as p, when
// one of the modules holds it.
func (ms goModules) dir(p string) (string, bool) {
	for _, m := range ms {
		switch {
		case p == m.path:
			return m.dir, true
		case strings.HasPrefix(p, m.path+"/"):
			return path.Join(m.dir, p[len(m.path)+1:]), true
		}
	}
	return "", false
}

// maxRootRegistries is how many modules' root packages a report's words
// are looked up in, when it names no function of theirs: a repository of
// a few modules, not a monorepo of hundreds.
const maxRootRegistries = 8

// roots are the directories of the modules' root packages: the
// repository's root first, whether or not it is a module's, then the
// others in order when there are at most maxRootRegistries.
func (ms goModules) roots() []string {
	out := []string{"."}
	if len(ms) > maxRootRegistries {
		return out
	}
	for _, m := range ms {
		if m.dir != "." {
			out = append(out, m.dir)
		}
	}
	sort.Strings(out[1:])
	return out
}

// holding is the directory of the module dir is in: the innermost
// module's whose directory holds it, or the repository's root.
func (ms goModules) holding(dir string) string {
	best := "."
	for _, m := range ms {
		if (dir == m.dir || strings.HasPrefix(dir, m.dir+"/")) && len(m.dir) > len(best) {
			best = m.dir
		}
	}
	return best
}

// goModules are the modules the repository's go.mod files declare, where
// the go command would see them: not in testdata, nor under a directory
// whose name starts with . or _ (the index leaves out vendored ones). A
// repository may hold several, nested (a library's lib/go.mod, a v2/
// directory) or side by side (no go.mod at the root, but tools/ and
// server/ each have one).
func (r *Ranking) goModules() goModules {
	if r.mods != nil {
		return r.mods
	}
	mods := goModules{}
	var buf []byte
	for i, p := range r.ix.paths {
		if path.Base(p) != "go.mod" || r.scans[i].skip != indexed || ignoredByGo(path.Dir(p)) {
			continue
		}
		var n int
		var why skipReason
		if buf, n, why = readFile(filepath.Join(r.ix.root, filepath.FromSlash(p)), buf); why != indexed {
			continue
		}
		if mp := modulePath(buf[:n]); mp != "" {
			mods = append(mods, goModule{path: mp, dir: path.Dir(p)})
		}
	}
	sort.SliceStable(mods, func(a, b int) bool { return len(mods[a].path) > len(mods[b].path) })
	r.mods = mods // not nil, though empty when there is no go.mod
	return mods
}

// modulePath is the module path a go.mod declares, or "" when it declares
// none: its module line, the path maybe quoted, a comment maybe after it.
func modulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
			if p, err := strconv.Unquote(f[1]); err == nil {
				return p
			}
			return f[1]
		}
	}
	return ""
}

// ignoredByGo reports whether the go command leaves out the packages in
// dir: a testdata directory, or one whose name starts with . or _, on
// the way.
func ignoredByGo(dir string) bool {
	if dir == "." {
		return false
	}
	for _, e := range strings.Split(dir, "/") {
		if e == "testdata" || strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_") {
			return true
		}
	}
	return false
}
