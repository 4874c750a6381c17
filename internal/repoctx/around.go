package repoctx

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// atWindow is how many lines either side of a line At shows when no
// definition of at most atWhole lines holds it.
const (
	atWindow = 12
	atWhole  = 80
)

// At is the look request that shows line of file: the lines of the
// innermost definition that holds it when it has at most atWhole lines,
// else the lines around it; "" when the index does not show file, or the
// line is not in it. A failure that points at a line is shown with its
// function.
func (ix *Index) At(file string, line int) string {
	p, why, _ := ix.resolve(file)
	if why != "" || p != file {
		return ""
	}
	o, why := ix.outlineShown(p)
	if why != "" || line < 1 || line > len(o.lines) {
		return ""
	}
	best := -1
	for k, s := range o.syms {
		if s.start <= line && line <= s.end && (best < 0 || s.end-s.start < o.syms[best].end-o.syms[best].start) {
			best = k
		}
	}
	if best >= 0 && o.syms[best].end-o.syms[best].start < atWhole {
		return fmt.Sprintf("%s:%d-%d", p, o.syms[best].start, o.syms[best].end)
	}
	return fmt.Sprintf("%s:%d-%d", p, max(1, line-atWindow), min(len(o.lines), line+atWindow))
}

// Around turns a file a plan names, and the plan's text, into look
// requests: FILE:NAME for each definition of the file the text names
// (Type.Method or a name as a whole word), or FILE alone when it names
// none, or nothing when the file is not in the index (a new file). The
// file's imports come after its definitions, before the file (FILE:1-12,
// see importsRequest). A file that is not in the
// index but has the name of one that is (the plan left out its directory)
// is asked for as written: the answer says which was meant before the
// model writes an edit to a file that is not there.
func (ix *Index) Around(file, text string) []string { return ix.around(file, text, nil, nil) }

// around is Around, the imports left out when shown holds them; when the
// text names none of the file's definitions, unnamed (when not nil) gives
// the requests to make before the file's.
func (ix *Index) around(file, text string, shown []Chunk, unnamed func(p string) []string) []string {
	p, why, _ := ix.resolve(file)
	if why != "" {
		if rel := path.Clean(strings.TrimPrefix(filepath.ToSlash(file), "./")); len(ix.near(rel)) > 0 {
			return []string{file}
		}
		return nil
	}
	o, why := ix.outlineShown(p)
	if why != "" {
		return nil
	}
	words := textWords(text)
	var out []string
	seen := map[string]bool{}
	for _, s := range o.syms {
		if name := nameIn(words, s); name != "" && !seen[name] {
			seen[name] = true
			out = append(out, p+":"+name)
		}
	}
	imports := importsRequest(p, o, shown)
	if len(out) > 0 {
		return append(out, imports...)
	}
	if unnamed != nil {
		out = unnamed(p)
	}
	return append(append(out, imports...), p)
}

// importsRequest is the look request for file p's imports when it has
// some, within MaxLookRange lines, and shown does not hold them: a Go
// file's package clause and import block, another language's import
// statements at its head (lightImports). A patch that adds or drops an
// import must see the lines it edits, and the pack shows a Go file's
// only with the files it shows first (see Pack).
func importsRequest(p string, o *outline, shown []Chunk) []string {
	from, to := o.importsFrom, o.importsTo
	if to <= from { // not Go, or a Go file that imports nothing
		if from, to = lightImports(p, o.lines); from == 0 {
			return nil
		}
	}
	if to-from >= MaxLookRange {
		return nil
	}
	c := span(from, to)
	if len(unseen([]Chunk{c}, shown)) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s:%d-%d", p, c.StartLine, c.EndLine)}
}

// textWords are the words of a plan's text that may name a definition:
// its identifiers, and Type.Method.
func textWords(text string) map[string]bool {
	words := map[string]bool{}
	for _, w := range reIdent.FindAllString(text, -1) {
		words[w] = true
	}
	for _, m := range reQualified.FindAllStringSubmatch(text, -1) {
		words[m[1]+"."+m[2]] = true
	}
	return words
}

// nameIn is how words name definition s: its Type.Method, or its name
// alone when longer than two characters; "" when they do not.
func nameIn(words map[string]bool, s symbol) string {
	switch {
	case words[s.qualName()]:
		return s.qualName()
	case words[s.name] && len(s.name) > 2:
		return s.name
	}
	return ""
}

// reQualified matches Type.Method in prose.
var reQualified = regexp.MustCompile(`\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b`)

// aroundNames is how many of a plan file's definitions the query points
// at are asked for when the plan's steps name none of them. Look shows
// first those whose answers fit, so a large one does not keep the small
// ones after it out: six, taken in turn with the other plan files' (see
// agent.AroundPlan), find more fixes than three did (bench/realbugs).
const aroundNames = 6

// Around is Index.Around, and more when the plan's steps name none of the
// file's definitions: the definitions of it the query points at most (by
// the ranking's parts) that shown does not hold whole, up to aroundNames,
// best first, before the file. A model that names the file it will change
// but not where sees the likeliest places first, not only the file's
// outline (what a file too large to show gets).
func (r *Ranking) Around(file, text string, shown []Chunk) []string {
	return r.ix.around(file, text, shown, func(p string) []string { return r.likeliest(p, shown) })
}

// Beside are, for a file a plan names whose definitions the plan's text
// names (see Around), the requests FILE:NAME for at most n others of its
// definitions: those the query points at most that the text does not name
// and shown does not hold whole, best first. A plan that names the wrong
// function of the right file still sees the likeliest place. Nil when the
// text names none of the file's definitions (Around asks for the likeliest
// then), or the index does not show the file.
func (r *Ranking) Beside(file, text string, shown []Chunk, n int) []string {
	p, o := r.ix.planFile(file)
	if o == nil {
		return nil
	}
	words := textWords(text)
	named := map[string]bool{}
	for _, s := range o.syms {
		if nameIn(words, s) != "" {
			named[p+":"+s.qualName()] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	var out []string
	for _, q := range r.likeliest(p, shown) {
		if !named[q] && len(out) < n {
			out = append(out, q)
		}
	}
	return out
}

// likeliest are the requests FILE:NAME for the definitions of indexed
// file p that the query points at most, not whole in shown, up to
// aroundNames, best first.
func (r *Ranking) likeliest(p string, shown []Chunk) []string {
	k := sort.SearchStrings(r.ix.paths, p)
	o := r.outlineOf(k)
	if o == nil {
		return nil
	}
	var names []string
	for _, c := range r.candidates(k, o, false, 0) {
		for _, s := range o.syms {
			if c.c.StartLine < s.start || c.c.StartLine > s.end || whole(shown, s) {
				continue
			}
			if q := p + ":" + s.qualName(); !slices.Contains(names, q) {
				names = append(names, q)
			}
			break
		}
		if len(names) == aroundNames {
			break
		}
	}
	return names
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// Siblings are, for a file a plan names whose definitions the plan's text
// names (see Around), the requests FILE:NAME for at most n of its other
// definitions of the same receiver (of none, for a function, a type or a
// variable) whose names differ from a named one's by one word added,
// dropped or changed, and share a word of four letters or more with it,
// in the file's order: matcherFuncAnd beside matcherFuncOr, UnmarshalKey
// beside Unmarshal, ReadInt8 beside ReadFloat64. A fix made in one is
// often made in its siblings too. Nil when the text names none of the
// file's definitions, or the index does not show the file.
func (ix *Index) Siblings(file, text string, shown []Chunk, n int) []string {
	p, o := ix.planFile(file)
	if o == nil {
		return nil
	}
	words := textWords(text)
	var named []symbol
	for _, s := range o.syms {
		if nameIn(words, s) != "" {
			named = append(named, s)
		}
	}
	var out []string
	for _, s := range o.syms {
		if len(out) == n {
			break
		}
		if nameIn(words, s) != "" || whole(shown, s) {
			continue
		}
		q := p + ":" + s.qualName()
		if slices.Contains(out, q) {
			continue
		}
		for _, t := range named {
			if t.recv == s.recv && oneWordApart(nameWords(t.name), nameWords(s.name)) {
				out = append(out, q)
				break
			}
		}
	}
	return out
}

// nameWords are the words of identifier id, lower-cased: its camel-case
// runs and the parts between underscores.
func nameWords(id string) []string {
	var out []string
	splitIdent([]byte(id), func(sub []byte) { out = append(out, lowerASCII(string(sub))) })
	return out
}

// oneWordApart reports whether a and b differ by one word added, dropped
// or changed, and share a word of four letters or more.
func oneWordApart(a, b []string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	var shared []string
	switch len(a) - len(b) {
	case 0:
		diff := 0
		for k := range a {
			if a[k] != b[k] {
				diff++
			} else {
				shared = append(shared, a[k])
			}
		}
		if diff != 1 {
			return false
		}
	case 1:
		k := 0 // the first word of a that b does not have there
		for k < len(b) && a[k] == b[k] {
			k++
		}
		if !slices.Equal(a[k+1:], b[k:]) {
			return false
		}
		shared = b
	default:
		return false
	}
	return slices.ContainsFunc(shared, func(w string) bool { return len(w) >= 4 })
}

// planFile is the indexed file that a plan's file names, and its outline;
// a nil outline when the index does not show it.
func (ix *Index) planFile(file string) (string, *outline) {
	p, why, _ := ix.resolve(file)
	if why != "" {
		return "", nil
	}
	o, why := ix.outlineShown(p)
	if why != "" {
		return "", nil
	}
	return p, o
}
