package repoctx

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// maxDefiners bounds the files an answer names when several define a
// name.
const maxDefiners = 5

// definer finds the file that defines name (Name, Type.Method or
// pkg.Name), other than skip: the one file that does, else the one code
// file (not a test, not generated) that does; or, when several do, all
// of them.
func (ix *Index) definer(name, skip string) (file string, several []string) {
	return ix.definerLike(name, skip, "")
}

// definerLike is definer among the files in the language of file like
// (by its extension; any file when like is "" or no source file): a
// request for file.ts:total means a TypeScript total, not Rust's.
func (ix *Index) definerLike(name, skip, like string) (file string, several []string) {
	d := ix.definersLike([]string{name}, skip, like)[0]
	return d.file, d.several
}

// definers is where one name is defined (see definer).
type definers struct {
	file    string
	several []string
}

// definersLike is definerLike for each of names, in one pass over the
// files.
func (ix *Index) definersLike(names []string, skip, like string) []definers {
	code := make([][]string, len(names))
	tests := make([][]string, len(names)) // and generated files
	lasts := make([]string, len(names))
	for k, name := range names {
		lasts[k] = name[strings.LastIndexByte(name, '.')+1:]
	}
	lang := langOf(like)
	unsettled := len(names) // the names not yet found in more files than an answer names
	for _, p := range ix.paths {
		if unsettled == 0 {
			break
		}
		if p == skip || lang != "" && langOf(p) != lang {
			continue
		}
		var src []byte
		var o *outline
		for k, name := range names {
			if len(code[k]) > maxDefiners {
				continue // enough to say so
			}
			if src == nil {
				var why string
				if src, why = ix.readShown(p); why != "" {
					break
				}
			}
			if !definesWord(src, lasts[k]) {
				continue
			}
			if o == nil {
				o = outlineFile(p, src)
			}
			if len(o.symbolChunks(name)) > 0 {
				if isTestFile(p) || isGenerated(src) {
					tests[k] = append(tests[k], p)
				} else if code[k] = append(code[k], p); len(code[k]) > maxDefiners {
					unsettled--
				}
			}
		}
	}
	out := make([]definers, len(names))
	for k := range names {
		switch {
		case len(code[k]) == 1:
			out[k].file = code[k][0]
		case len(code[k]) == 0 && len(tests[k]) == 1:
			out[k].file = tests[k][0]
		default:
			out[k].several = append(code[k], tests[k]...)
		}
	}
	return out
}

// definerFor is the file that defines name for a request of FILE:NAME
// whose FILE the index does not hold: of the files with FILE's name in
// other directories, the one that defines it; else the one file that
// does (see definer); else "".
func (ix *Index) definerFor(file, name string) string {
	var defs []string
	for _, p := range ix.near(path.Clean(filepath.ToSlash(file))) {
		if o, why := ix.outlineShown(p); why == "" && len(o.symbolChunks(name)) > 0 {
			defs = append(defs, p)
		}
	}
	if len(defs) == 1 {
		return defs[0]
	}
	if len(defs) == 0 && isName(name) {
		if p, _ := ix.definerLike(name, "", file); p != "" {
			return p
		}
	}
	return ""
}

// langFamilies are the extensions whose files may define what a request
// of another of them names.
var langFamilies = map[string]string{
	".js": ".js", ".jsx": ".js", ".mjs": ".js", ".cjs": ".js", ".ts": ".js", ".tsx": ".js",
	".c": ".c", ".h": ".c", ".cc": ".c", ".cpp": ".c", ".hpp": ".c",
	".java": ".java", ".kt": ".java",
}

// langOf is the language of p by its extension, "" when it is no source
// file.
func langOf(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if !messageLangs[ext] {
		return ""
	}
	if f, ok := langFamilies[ext]; ok {
		return f
	}
	return ext
}

// fileList names files for an answer, at most maxDefiners of them.
func fileList(files []string) string {
	if len(files) > maxDefiners {
		return strings.Join(files[:maxDefiners], ", ") + " and more"
	}
	return strings.Join(files, ", ")
}

// definesWord reports whether a line of src defines name by the
// definition lines the scan knows (func, type, def, class, fn ...).
func definesWord(src []byte, name string) bool {
	for at := 0; ; {
		k := bytes.Index(src[at:], []byte(name))
		if k < 0 {
			return false
		}
		k += at
		start := bytes.LastIndexByte(src[:k], '\n') + 1
		if string(defName(skipBlanks(src[start:]))) == name {
			return true
		}
		at = k + len(name)
	}
}

// resolve finds the indexed file a request names, or says why none;
// there is whether the path is in the repository all the same (a
// directory, or a file git tracks that the index leaves out).
func (ix *Index) resolve(file string) (p, why string, there bool) {
	p = path.Clean(strings.TrimPrefix(filepath.ToSlash(file), "./"))
	if ix.has(p) {
		return p, "", true
	}
	// An absolute path that ends with a file's: a runner's checkout
	// (/home/runner/work/r/r/dates/parse.go); a diff's a/dates/parse.go.
	if path.IsAbs(p) && !strings.Contains(p, "/.git/") {
		if q := ix.endingOf(p); q != "" {
			return q, "", true
		}
	}
	for _, side := range []string{"a/", "b/"} {
		if rest, ok := strings.CutPrefix(p, side); ok && ix.has(rest) {
			return rest, "", true
		}
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", "not a path inside the repository; use paths relative to the repository root, as the map shows them", false
	}
	if why := ix.notIndexed(p); why != "" {
		return "", why, true
	}
	if files, dirs, n := ix.dirList(p); n > 0 {
		return "", fmt.Sprintf("a directory of %d files; ask for one of them: %s", n, strings.Join(append(files, dirs...), ", ")), true
	}
	if near := ix.near(p); len(near) > 0 {
		return "", fmt.Sprintf("no such file in the repository; did you mean %s?", strings.Join(near, " or ")), false
	}
	return "", "no such file in the repository (git ls-files); use a path from the repository map", false
}

// maxDirList bounds the files and the subdirectories an answer that
// names a directory lists.
const maxDirList = 12

// dirList is what the index holds under directory dir: its files (at
// most maxDirList, tests after the others, and "N more files" when there
// are more), its subdirectories (dir/sub/, as many), and the number of
// files under it.
func (ix *Index) dirList(dir string) (files, dirs []string, n int) {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	k := sort.SearchStrings(ix.paths, prefix)
	moreDirs, last := 0, ""
	for ; k < len(ix.paths) && strings.HasPrefix(ix.paths[k], prefix); k++ {
		n++
		sub, _, nested := strings.Cut(ix.paths[k][len(prefix):], "/")
		switch {
		case !nested:
			files = append(files, ix.paths[k])
		case sub == last:
		case len(dirs) < maxDirList:
			dirs = append(dirs, prefix+sub+"/")
		default:
			moreDirs++
		}
		if nested {
			last = sub
		}
	}
	sort.SliceStable(files, func(a, b int) bool { return !isTestFile(files[a]) && isTestFile(files[b]) })
	if len(files) > maxDirList {
		files = append(files[:maxDirList], fmt.Sprintf("%d more files", len(files)-maxDirList))
	}
	if moreDirs > 0 {
		dirs = append(dirs, fmt.Sprintf("%d more directories", moreDirs))
	}
	return files, dirs, n
}

// relative reports whether file is a path inside a repository: not
// absolute, not above it, not in .git.
func relative(file string) bool {
	p := path.Clean(filepath.ToSlash(file))
	return !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.Contains("/"+p+"/", "/.git/")
}

// has reports whether the index holds path p.
func (ix *Index) has(p string) bool {
	k := sort.SearchStrings(ix.paths, p)
	return k < len(ix.paths) && ix.paths[k] == p
}

// endingOf is the longest indexed path that p ends with after a slash,
// "" when none does.
func (ix *Index) endingOf(p string) string {
	best := ""
	for _, q := range ix.near(p) {
		if strings.HasSuffix(p, "/"+q) && len(q) > len(best) {
			best = q
		}
	}
	return best
}

// near are the indexed files with p's name in other directories, when
// there are at most 5 (the request left out or got wrong a directory).
func (ix *Index) near(p string) []string {
	var near []string
	for _, q := range ix.paths {
		if path.Base(q) == path.Base(p) {
			near = append(near, q)
		}
	}
	if len(near) > 5 {
		return nil
	}
	return near
}

// symbolChunks are the spans of the definitions name names: Name, or
// Type.Method, or every method called Name when no function is.
func (o *outline) symbolChunks(name string) []Chunk {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "func "), "()")
	var exact, methods []Chunk
	for _, s := range o.syms {
		switch {
		case s.qualName() == name || (s.recv == "" && s.name == name):
			exact = append(exact, o.shownSpan(s))
		case s.name == name:
			methods = append(methods, span(s.start, s.end))
		}
	}
	if len(exact) == 0 && len(methods) == 0 {
		// Outer.name where the outline knows no receivers (a Python
		// or TypeScript class's method, a Rust impl's fn): a name
		// defined inside a definition named Outer.
		if outer, inner, ok := cutLast(name, "."); ok {
			for _, s := range o.syms {
				if s.name == inner && s.recv == "" && slices.ContainsFunc(o.syms, func(t symbol) bool {
					return t.name == outer && t.start <= s.start && s.end <= t.end && t.decl < s.decl
				}) {
					exact = append(exact, o.shownSpan(s))
				}
			}
		}
	}
	if len(exact) > 0 {
		return mergeChunks(exact)
	}
	if len(methods) == 0 {
		// pkg.Name, the way a caller writes it.
		if pkg, rest, ok := strings.Cut(name, "."); ok && pkg == o.pkg {
			return o.symbolChunks(rest)
		}
	}
	return mergeChunks(methods)
}

// maxEnumLines bounds the const block a look request for one of its
// constants shows whole (see symbol.enum).
const maxEnumLines = 60

// shownSpan is the lines a look request for s shows: its definition with
// the comment right above it (a variable's of a var ( ... ) block too,
// which the outline leaves out), or for a constant of an enumeration of at
// most maxEnumLines lines, the whole const block.
func (o *outline) shownSpan(s symbol) Chunk {
	if s.enum.EndLine > 0 && s.enum.EndLine-s.enum.StartLine < maxEnumLines {
		return s.enum
	}
	return span(docStart(o.lines, s.start), s.end)
}
