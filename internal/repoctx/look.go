package repoctx

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Limits of one look request.
const (
	// MaxLookRange is the most lines one FILE:START-END request shows.
	MaxLookRange = 300
	// maxListed bounds the definitions named in an answer that says a
	// name does not exist.
	maxListed = 25
)

// LookItem is what one request of a look became: the chunks shown, an
// outline instead of a file too large to show, or why nothing was shown.
type LookItem struct {
	Request string  `json:"request"`
	Path    string  `json:"path,omitempty"`
	Chunks  []Chunk `json:"chunks,omitempty"`
	// Outline says the file was too large to show whole: its definitions
	// were listed instead, with their lines.
	Outline bool `json:"outline,omitempty"`
	// Seen says the lines were already in the pack, so not shown again.
	Seen   bool   `json:"seen,omitempty"`
	Error  string `json:"error,omitempty"`
	Tokens int    `json:"tokens"`
}

// Look is the answer to a look: the text shown to the model and what each
// request became.
type Look struct {
	Text   string     `json:"-"`
	Items  []LookItem `json:"items"`
	Tokens int        `json:"tokens"`
}

// Look shows the parts of the repository a model asked to see, within
// budget tokens, in the order asked. A request is FILE (the whole file, or
// its outline when it does not fit), FILE:NAME (a function, type, or
// Type.Method), or FILE:START-END (lines, at most MaxLookRange). Only files
// git lists and the engine indexes are shown. Lines shown already (packed,
// per file) are not shown again. A request for something that does not
// exist is answered with what does.
func (ix *Index) Look(requests []string, shown map[string][]Chunk, budget int) *Look {
	l := &Look{Items: []LookItem{}}
	var b strings.Builder
	left := budget
	for _, req := range requests {
		item, text := ix.lookOne(strings.TrimSpace(req), shown, left)
		if item.Error != "" {
			text = fmt.Sprintf("\n## %s: %s\n", req, item.Error)
		}
		n := EstimateTokens(text)
		if n > left {
			item = LookItem{Request: req, Path: item.Path, Error: fmt.Sprintf("not shown: the look budget (%d tokens) is used up", budget)}
			text = fmt.Sprintf("\n## %s: %s\n", req, item.Error)
			n = EstimateTokens(text)
			if n > left {
				l.Items = append(l.Items, item)
				continue
			}
		}
		item.Tokens = n
		left -= n
		b.WriteString(text)
		l.Items = append(l.Items, item)
		if item.Error == "" && item.Path != "" {
			shown[item.Path] = mergeChunks(append(append([]Chunk(nil), shown[item.Path]...), item.Chunks...))
		}
	}
	l.Text = b.String()
	l.Tokens = budget - left
	return l
}

// lookOne answers one request within limit tokens.
func (ix *Index) lookOne(req string, shown map[string][]Chunk, limit int) (LookItem, string) {
	item := LookItem{Request: req}
	file, what := req, ""
	if i := strings.LastIndexByte(req, ':'); i > 0 {
		file, what = req[:i], strings.TrimSpace(req[i+1:])
	}
	p, why := ix.resolve(file)
	if why != "" {
		item.Error = why
		return item, ""
	}
	item.Path = p
	src, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(p)))
	switch {
	case err != nil:
		item.Error = "cannot be read: " + err.Error()
		return item, ""
	case len(src) > maxFileBytes || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0:
		item.Error = "not shown: a binary or huge file"
		return item, ""
	}
	o := outlineFile(p, src)
	var chunks []Chunk
	switch {
	case what == "":
		whole := []Chunk{span(1, max(1, len(o.lines)))}
		if len(o.lines) == 0 {
			item.Error = "the file is empty"
			return item, ""
		}
		if costOf(p, o, whole) > limit && len(o.syms) > 0 {
			// Half of what is left at most, so that the parts the model
			// then picks can still be shown.
			item.Outline = true
			return item, outlineText(p, o, limit/2)
		}
		chunks = whole
	case isRange(what):
		lo, hi, why := parseRange(what, len(o.lines))
		if why != "" {
			item.Error = why
			return item, ""
		}
		chunks = []Chunk{span(lo, hi)}
	default:
		chunks = o.symbolChunks(what)
		if len(chunks) == 0 {
			item.Error = fmt.Sprintf("%s defines no function, method or type named %q; it defines: %s", p, what, o.listNames())
			return item, ""
		}
	}
	if covered(shown[p], chunks) {
		item.Seen, item.Chunks = true, o.named(chunks)
		return item, fmt.Sprintf("\n## %s: lines %s are shown above\n", req, spans(chunks))
	}
	item.Chunks = o.named(chunks)
	return item, renderChunks(p, o, chunks)
}

// resolve finds the indexed file a request names, or says why none.
func (ix *Index) resolve(file string) (string, string) {
	p := path.Clean(strings.TrimPrefix(filepath.ToSlash(file), "./"))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", "not a path inside the repository; use paths relative to the repository root, as the map shows them"
	}
	if k := sort.SearchStrings(ix.paths, p); k < len(ix.paths) && ix.paths[k] == p {
		return p, ""
	}
	var near []string
	for _, q := range ix.paths {
		if path.Base(q) == path.Base(p) {
			near = append(near, q)
		}
	}
	if len(near) > 0 && len(near) <= 5 {
		return "", fmt.Sprintf("no such file in the repository; did you mean %s?", strings.Join(near, " or "))
	}
	return "", "no such file in the repository (git ls-files); use a path from the repository map"
}

func isRange(s string) bool {
	return s != "" && strings.Trim(s, "0123456789- ") == "" && s[0] >= '0' && s[0] <= '9'
}

// parseRange reads START-END or one line number, within a file of n lines.
func parseRange(s string, n int) (int, int, string) {
	a, b, isSpan := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi := lo
	var err2 error
	if isSpan {
		hi, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	switch {
	case err1 != nil || err2 != nil || lo < 1 || hi < lo:
		return 0, 0, fmt.Sprintf("%q is not a line range; write START-END with 1 <= START <= END", s)
	case lo > n:
		return 0, 0, fmt.Sprintf("the file has %d lines; line %d does not exist", n, lo)
	case hi-lo+1 > MaxLookRange:
		return 0, 0, fmt.Sprintf("%d lines asked for; at most %d at a time", hi-lo+1, MaxLookRange)
	}
	return lo, min(hi, n), ""
}

// symbolChunks are the spans of the definitions name names: Name, or
// Type.Method, or every method called Name when no function is.
func (o *outline) symbolChunks(name string) []Chunk {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "func "), "()")
	var exact, methods []Chunk
	for _, s := range o.syms {
		switch {
		case s.qualName() == name || (s.recv == "" && s.name == name):
			exact = append(exact, span(s.start, s.end))
		case s.name == name:
			methods = append(methods, span(s.start, s.end))
		}
	}
	if len(exact) > 0 {
		return mergeChunks(exact)
	}
	return mergeChunks(methods)
}

// listNames lists the file's definitions for an answer that says a name
// does not exist.
func (o *outline) listNames() string {
	if len(o.syms) == 0 {
		return "nothing the outline recognises; ask for a line range"
	}
	var names []string
	for _, s := range o.syms {
		if len(names) == maxListed {
			names = append(names, fmt.Sprintf("and %d more", len(o.syms)-maxListed))
			break
		}
		names = append(names, s.qualName())
	}
	return strings.Join(names, ", ")
}

// covered reports whether every chunk lies inside the shown ones.
func covered(shown, chunks []Chunk) bool {
	for _, c := range chunks {
		in := false
		for _, s := range shown {
			if s.StartLine <= c.StartLine && c.EndLine <= s.EndLine {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return len(shown) > 0
}

func spans(chunks []Chunk) string {
	parts := make([]string, len(chunks))
	for k, c := range chunks {
		parts[k] = fmt.Sprintf("%d-%d", c.StartLine, c.EndLine)
	}
	return strings.Join(parts, ", ")
}

// outlineText lists a file's definitions with their lines, for a file too
// large to show, within limit tokens.
func outlineText(p string, o *outline, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s (%d lines, too large to show whole; its definitions follow: ask for %s:NAME or %s:START-END)\n", p, len(o.lines), p, p)
	for k, s := range o.syms {
		line := fmt.Sprintf("%d-%d: %s\n", s.start, s.end, s.sig)
		more := fmt.Sprintf("(%d more)\n", len(o.syms)-k)
		if EstimateTokens(b.String()+line+more) > limit {
			b.WriteString(more)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// costOf is the tokens renderChunks would take.
func costOf(p string, o *outline, chunks []Chunk) int {
	return EstimateTokens(renderChunks(p, o, chunks))
}

// renderChunks writes a file's chunks with a header and line numbers, as
// the pack shows code; a gap between chunks is shown as "...".
func renderChunks(p string, o *outline, chunks []Chunk) string {
	var b strings.Builder
	b.WriteString(chunkHeader(p, len(o.lines), chunks))
	width := len(strconv.Itoa(len(o.lines)))
	for k, c := range chunks {
		if k > 0 {
			b.WriteString(gapMarker)
		}
		for l := c.StartLine; l <= c.EndLine; l++ {
			fmt.Fprintf(&b, "%*d\t%s\n", width, l, o.lines[l-1])
		}
	}
	return b.String()
}

func chunkHeader(p string, lines int, chunks []Chunk) string {
	return fmt.Sprintf("\n## %s (lines %s of %d)\n", p, spans(chunks), lines)
}

// Around turns a file a plan names, and the plan's text, into look
// requests: FILE:NAME for each definition of the file the text names
// (Type.Method or a name as a whole word), or FILE alone when it names
// none, or nothing when the file is not in the index (a new file).
func (ix *Index) Around(file, text string) []string {
	p, why := ix.resolve(file)
	if why != "" {
		return nil
	}
	src, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(p)))
	if err != nil || len(src) > maxFileBytes {
		return nil
	}
	words := map[string]bool{}
	for _, w := range reIdent.FindAllString(text, -1) {
		words[w] = true
	}
	for _, m := range reQualified.FindAllStringSubmatch(text, -1) {
		words[m[1]+"."+m[2]] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range outlineFile(p, src).syms {
		name := ""
		switch {
		case words[s.qualName()]:
			name = s.qualName()
		case words[s.name] && len(s.name) > 2:
			name = s.name
		}
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, p+":"+name)
		}
	}
	if len(out) == 0 {
		return []string{p}
	}
	return out
}

// reQualified matches Type.Method in prose.
var reQualified = regexp.MustCompile(`\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b`)
