package repoctx

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/internal/tokens"
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
	Seen bool `json:"seen,omitempty"`
	// Omitted are the lines asked for that the look budget left out
	// (START-END, comma-separated) when only their head was shown.
	Omitted string `json:"omitted,omitempty"`
	// Note is what the answer says about what it shows when that is not
	// what was asked for: the file that was meant, the names the file
	// does not define.
	Note   string `json:"note,omitempty"`
	Error  string `json:"error,omitempty"`
	Tokens int    `json:"tokens"`

	// more are the requests this one leads to: the names of FILE:A, B
	// that FILE does not define and another file does.
	more []string
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
// Type.Method), or FILE:START-END (lines, at most MaxLookRange), or a
// NAME alone; parseRequest and cleanName read the other ways models write
// them. Only files git lists and the engine indexes are shown. Lines shown
// already (packed, or by an earlier request) are not shown again. A
// request for something that does not exist is answered with what does: a
// directory with its files, a file the index leaves out with why. A
// request for several names of one file (FILE:A, B) that names one the
// file does not define and one other file does leads to a request for it
// there (OTHER:B), answered after those asked, with an item of its own.
//
// Every request whose answer fits, and costs at most half the budget, is
// shown first; then, in order, the others that still fit; what is left
// then goes to the rest, each cut to its head (the lines left out named),
// so that one large definition neither keeps the small ones after it out
// nor goes unseen.
func (ix *Index) Look(requests []string, shown map[string][]Chunk, budget int) *Look {
	requests = slices.Clone(requests)
	asked := map[string]bool{}
	for _, r := range requests {
		asked[strings.TrimSpace(r)] = true
	}
	l := &Look{Items: make([]LookItem, len(requests))}
	texts := make([]string, len(requests))
	left := budget
	accept := func(k int, item LookItem, text string) bool {
		n := tokens.Estimate(text)
		if n > left {
			return false
		}
		item.Tokens = n
		left -= n
		l.Items[k], texts[k] = item, text
		if item.Error == "" && item.Path != "" {
			shown[item.Path] = mergeChunks(append(append([]Chunk(nil), shown[item.Path]...), item.Chunks...))
		}
		return true
	}
	answer := func(k int, cut bool) (LookItem, string) {
		req := strings.TrimSpace(requests[k])
		item, text := ix.lookOne(req, shown, left, cut)
		if item.Error != "" {
			text = fmt.Sprintf("\n## %s: %s\n", req, item.Error)
		}
		return item, text
	}
	var over, cut []int
	for k := 0; k < len(requests); k++ { // the requests grow by what they lead to
		item, text := answer(k, false)
		for _, r := range item.more {
			if !asked[r] {
				asked[r] = true
				requests = append(requests, r)
				l.Items, texts = append(l.Items, LookItem{}), append(texts, "")
			}
		}
		if tokens.Estimate(text) > budget/2 || !accept(k, item, text) {
			over = append(over, k)
		}
	}
	for _, k := range over {
		if item, text := answer(k, false); !accept(k, item, text) {
			cut = append(cut, k)
		}
	}
	for _, k := range cut {
		item, text := answer(k, true)
		if item.Error == "" && accept(k, item, text) {
			continue
		}
		// What is left does not hold it, nor its head.
		item = LookItem{Request: item.Request, Path: item.Path, Error: fmt.Sprintf("not shown: the look budget (%d tokens) is used up", budget)}
		if !accept(k, item, fmt.Sprintf("\n## %s: %s\n", item.Request, item.Error)) {
			l.Items[k] = item
		}
	}
	l.Text = strings.Join(texts, "")
	l.Tokens = budget - left
	return l
}

// lookOne answers one request within limit tokens: with cut, the lines
// past what fits are left out (see headWithin) and named in the answer;
// without, the answer may cost more than limit.
func (ix *Index) lookOne(req string, shown map[string][]Chunk, limit int, cut bool) (LookItem, string) {
	item := LookItem{Request: req}
	file, what := parseRequest(req)
	p, why, there := ix.resolve(file)
	if what != "" && !isRange(what) {
		what = cleanName(what)
	}
	if why != "" && what != "" && !isRange(what) {
		// A name in a file that is not there: the file of that
		// name elsewhere that defines it, or the one file that does.
		if other := ix.definerFor(file, what); other != "" {
			gone := "no file " + file
			if there { // a directory, a lock file ...
				short, _, _ := strings.Cut(why, ";")
				gone = file + ": " + short
			}
			item.Note = fmt.Sprintf("%s; %s defines %s", gone, other, what)
			p, why = other, ""
		}
	}
	if why != "" && !there && what == "" && relative(file) {
		// The one file of that name, in another directory (not for a
		// range, which only the file asked for can mean).
		if near := ix.near(filepath.ToSlash(file)); len(near) == 1 {
			item.Note = fmt.Sprintf("no file %s; %s is the one file of that name", file, near[0])
			p, why = near[0], ""
		}
	}
	if why != "" {
		if what != "" || !isName(cleanName(file)) {
			item.Error = why
			return item, ""
		}
		// A name without its file: the file that defines it.
		what = cleanName(file)
		var several []string
		switch p, several = ix.definer(what, ""); {
		case len(several) > 0:
			item.Error = fmt.Sprintf("%q is defined in %s; ask for FILE:NAME", what, fileList(several))
			return item, ""
		case p == "" && there:
			item.Error = why // a directory, say: what it holds
			return item, ""
		case p == "":
			item.Error = fmt.Sprintf("%s; and no file defines a function, method or type named %q", why, what)
			return item, ""
		}
	}
	item.Path = p
	o, why := ix.outlineShown(p)
	if why != "" {
		item.Error = why
		return item, ""
	}
	var chunks []Chunk
	switch {
	case what == "":
		whole := []Chunk{span(1, max(1, len(o.lines)))}
		if len(o.lines) == 0 {
			item.Error = "the file is empty"
			return item, ""
		}
		if rest := unseen(whole, shown[p]); len(rest) > 0 && costOf(p, o, rest) > limit && len(o.syms) > 0 {
			// What the pack did not show of it does not fit: its outline,
			// half of what is left at most, so that the parts the model
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
		if chunks = o.symbolChunks(what); len(chunks) > 0 {
			break
		}
		// Several names: those the file defines; for the others, where
		// they are, and a request for each that one other file defines.
		if names := nameList.Split(what, -1); len(names) > 1 {
			var missing []string
			for _, n := range names {
				if cs := o.symbolChunks(cleanName(n)); len(cs) > 0 {
					chunks = append(chunks, cs...)
				} else {
					missing = append(missing, n)
				}
			}
			var where string
			where, item.more = ix.placeMissing(p, missing)
			if len(chunks) > 0 {
				chunks = mergeChunks(chunks)
				if len(missing) > 0 {
					item.Note = fmt.Sprintf("%s defines no %s%s", p, strings.Join(missing, ", "), where)
				}
				break
			}
			if len(item.more) > 0 {
				item.Error = fmt.Sprintf("%s defines none of %s%s", p, strings.Join(missing, ", "), where)
			} else {
				item.Error = fmt.Sprintf("%s defines none of %s; it defines: %s%s", p, strings.Join(missing, ", "), o.listNames(), where)
			}
			return item, ""
		}
		// Not in the file named: the one file that defines it, if any.
		other, several := ix.definerLike(what, p, p)
		if other == "" {
			item.Error = fmt.Sprintf("%s defines no function, method or type named %q; it defines: %s", p, what, o.listNames())
			if len(several) > 0 {
				item.Error += fmt.Sprintf("; %q is defined in %s", what, fileList(several))
			}
			return item, ""
		}
		if o, why = ix.outlineShown(other); why != "" {
			item.Error = why
			return item, ""
		}
		item.Note = fmt.Sprintf("%s defines no %s; %s does", p, what, other)
		p, item.Path, chunks = other, other, o.symbolChunks(what)
	}
	note := "" // what the answer says before the lines
	if item.Note != "" {
		note = fmt.Sprintf("\n(%s: %s)", req, item.Note)
	}
	rest := unseen(chunks, shown[p])
	if len(rest) == 0 {
		item.Seen, item.Chunks = true, o.named(chunks)
		where := "" // the file asked for
		if note != "" {
			where = " of " + p
		}
		return item, note + fmt.Sprintf("\n## %s: lines %s%s are shown above\n", req, spans(chunks), where)
	}
	if !cut || tokens.Estimate(note)+costOf(p, o, rest) <= limit {
		item.Chunks = o.named(rest)
		return item, note + renderChunks(p, o, rest)
	}
	omitted := func(out []Chunk) string {
		return fmt.Sprintf("(lines %s not shown: the look budget is used up)\n", spans(out))
	}
	head, out := headWithin(p, o, rest, limit-tokens.Estimate(note), omitted)
	if head == nil {
		item.Error = "not shown: the look budget is used up" // Look says how large the budget is
		return item, ""
	}
	item.Chunks, item.Omitted = o.named(head), spans(out)
	return item, note + renderChunks(p, o, head) + omitted(out)
}

// maxPlaced bounds the names of one request that are looked for in the
// other files (each is a pass over the repository's files).
const maxPlaced = 6

// placeMissing says where the names of a request that file p does not
// define are ("; b.go defines B, shown below"), and returns a request for
// each that one other file defines: a model that misremembers where one
// of the names it asks for lives is shown it in the same look.
func (ix *Index) placeMissing(p string, missing []string) (where string, more []string) {
	var says []string
	names := make([]string, min(len(missing), maxPlaced))
	for k := range names {
		names[k] = cleanName(missing[k])
	}
	for k, d := range ix.definersLike(names, p, p) {
		switch name, other, several := names[k], d.file, d.several; {
		case other != "":
			says = append(says, fmt.Sprintf("%s defines %s, shown below", other, name))
			more = append(more, other+":"+name)
		case len(several) > 0:
			says = append(says, fmt.Sprintf("%q is defined in %s", name, fileList(several)))
		default:
			says = append(says, fmt.Sprintf("no file defines %q", name))
		}
	}
	if rest := missing[len(names):]; len(rest) > 0 {
		says = append(says, fmt.Sprintf("not looked for elsewhere: %s (ask for at most %d names at a time)", strings.Join(rest, ", "), maxPlaced))
	}
	if len(says) == 0 {
		return "", nil
	}
	return "; " + strings.Join(says, "; "), more
}

// outlineShown reads and outlines indexed file p for a look, or says why
// it cannot be shown.
func (ix *Index) outlineShown(p string) (*outline, string) {
	src, why := ix.readShown(p)
	if why != "" {
		return nil, why
	}
	return outlineFile(p, src), ""
}

// readShown reads indexed file p for a look, or says why it cannot be
// shown.
func (ix *Index) readShown(p string) ([]byte, string) {
	src, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(p)))
	switch {
	case err != nil:
		return nil, "cannot be read: " + err.Error()
	case len(src) > maxFileBytes || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0:
		return nil, "not shown: a binary or huge file"
	}
	return src, ""
}

// splitRequest splits FILE:WHAT at its last colon (WHAT is "" for FILE).
func splitRequest(req string) (file, what string) {
	if i := strings.LastIndexByte(req, ':'); i > 0 {
		return req[:i], strings.TrimSpace(req[i+1:])
	}
	return req, ""
}

// A file's path as a request starts with it: a name with an extension
// (lower case: Index.Look is no file), then what of it: a name or lines.
const filePath = `([^\s:#,()]*?\.[a-z][a-z0-9]*)`

var (
	// reNameInFile is "NAME in FILE" (or from, of).
	reNameInFile = regexp.MustCompile(`^(.+?)\s+(?:in|from|of)\s+` + filePath + `$`)
	// reFileParen is "FILE (NAME)".
	reFileParen = regexp.MustCompile(`^` + filePath + `\s*\(\s*([^()]+?)\s*\)$`)
	// reFileThen is FILE, then a colon (or two), '#', a comma, a dash
	// between spaces or spaces, then what of it.
	reFileThen = regexp.MustCompile(`^` + filePath + `(?:\s*::?\s*|\s*#\s*|\s*,\s*|\s+[-\x{2013}\x{2014}]\s+|\s+)(\S.*)$`)
	// reLines is a line or lines, as models write them: 120-180,
	// L120-L180, lines 120-180, line 120, 120:180, 120 to 180, 120
	// through 180.
	reLines = regexp.MustCompile(`^(?i)(?:lines?\s*)?L?(\d+)(?:\s*(?:-|:|to|through|thru|\.\.|,)\s*L?(\d+))?$`)
	// reBlobURL is the start of a file's address on GitHub, before its
	// path: https://github.com/OWNER/REPO/blob/REF/ (or raw's).
	reBlobURL = regexp.MustCompile(`^https?://(?:(?:www\.)?github\.com/[^/\s]+/[^/\s]+/(?:blob|tree|raw)/[^/\s]+|raw\.githubusercontent\.com/[^/\s]+/[^/\s]+/[^/\s]+)/`)
	// nameList splits a request for several names: A, B; A and B.
	nameList = regexp.MustCompile(`\s*(?:[,;&]|\band\b)\s*`)
	// dashes are the dashes a range may be written with.
	dashes = strings.NewReplacer("\u2013", "-", "\u2014", "-", "\u2212", "-")
)

// parseRequest reads a look request as FILE and WHAT: a name, lines
// START-END or START, or "" for the whole file. It undoes the ways models
// dress a request up: quotes or backquotes around it, "NAME in FILE", a
// separator other than one colon after FILE (file.go::Name, file.go#Name,
// a GitHub line anchor file.go#L120-L180, "file.go, Name", "file.go
// (Name)", "file.go - Name", "file.go Name"), a file's address on GitHub,
// and lines written L120-L180, "lines 120-180", 120:180, "120 to 180" or
// "120 through 180", or with an en dash.
func parseRequest(req string) (file, what string) {
	req = strings.Trim(strings.TrimSpace(req), "`'\"")
	req = strings.TrimPrefix(req, ":") // :Name, its file left out
	req = reBlobURL.ReplaceAllString(req, "")
	for _, re := range []*regexp.Regexp{reFileParen, reFileThen} {
		if m := re.FindStringSubmatch(req); m != nil {
			return m[1], whatOf(m[2])
		}
	}
	if m := reNameInFile.FindStringSubmatch(req); m != nil {
		return m[2], whatOf(m[1])
	}
	if file, anchor, ok := strings.Cut(req, "#L"); ok {
		req = file + ":L" + anchor // a file with no extension: Makefile#L3
	}
	file, what = splitRequest(req)
	return file, whatOf(what)
}

// whatOf is what of a file a request asks for: its lines as START-END or
// START, or the name as written.
func whatOf(s string) string {
	s = strings.TrimSpace(dashes.Replace(s))
	if m := reLines.FindStringSubmatch(s); m != nil {
		if m[2] == "" {
			return m[1]
		}
		return m[1] + "-" + m[2]
	}
	return s
}

// reName is a definition's name as a model may write it: Name,
// Type.Method, pkg.Name, pkg.Type.Method, (*Type).Method, with "func "
// or "()" around (see cleanName for the others).
var reName = regexp.MustCompile(`^(func )?(\(\*?[A-Za-z_]\w*\)\.|([A-Za-z_]\w*\.){1,2})?[A-Za-z_]\w*(\(\))?$`)

// isName reports whether a request that names no file names a
// definition: not a path (no slash, no extension of a source, document
// or configuration file).
func isName(s string) bool {
	if strings.Contains(s, "/") || !reName.MatchString(s) {
		return false
	}
	ext := strings.ToLower(path.Ext(s))
	return !messageLangs[ext] && !isDoc(s) && !configExts[ext]
}

// configExts are extensions of files a request names more often than
// a method of that name.
var configExts = map[string]bool{
	".txt": true, ".json": true, ".yaml": true, ".yml": true, ".toml": true, ".mod": true,
	".sum": true, ".sh": true, ".html": true, ".css": true, ".xml": true, ".cfg": true, ".ini": true,
}

// cleanName turns the ways a model writes a definition's name into the
// outline's: "func Name()", "Name(a, b)", "type Name", "Name struct",
// "Name[T]", "the Name function", "Name." are Name; "(*Type).Method",
// "(r *Type) Method" and "func (r Type[T]) Method" are Type.Method.
func cleanName(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".,;:!?")
	for w, rest, ok := strings.Cut(s, " "); ok && (defWords[w] || articles[w]); w, rest, ok = strings.Cut(s, " ") {
		s = strings.TrimSpace(rest)
	}
	for _, w := range []string{" struct", " interface", " func", " method", " function"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, w))
	}
	if m := reReceiver.FindStringSubmatch(s); m != nil {
		return m[1] + "." + m[2]
	}
	// C++'s and Rust's Type::method is Type.method.
	s = strings.ReplaceAll(s, "::", ".")
	if m := reCalled.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := reTyped.FindStringSubmatch(s); m != nil && !defWords[m[1]] {
		return m[1]
	}
	return s
}

// articles may come before a name: the Name function.
var articles = map[string]bool{"the": true, "a": true, "an": true}

// defWords are the words before a definition's name in the languages
// the outline reads (and what models write before one): func Name, def
// name, pub fn name, export async function name, class Name ...
var defWords = map[string]bool{
	"func": true, "def": true, "fn": true, "function": true, "method": true, "class": true,
	"type": true, "struct": true, "interface": true, "trait": true, "impl": true, "enum": true,
	"pub": true, "async": true, "export": true, "default": true, "static": true,
	"public": true, "private": true, "protected": true, "abstract": true, "final": true,
}

var (
	// reReceiver is a method with its receiver: (*T).M, (T).M, (r *T) M,
	// (r T[K]) M, and the arguments of a call or signature after it.
	reReceiver = regexp.MustCompile(`^\((?:\w+\s+)?\*?(\w+)(?:\[[^\]]*\])?\)\s*\.?\s*(\w+)\s*(?:[(\[].*)?$`)
	// reCalled is a name written as a call or a signature, or with its
	// type parameters: Name(), Name(a, b), Name[T], pkg.Name(x) error.
	reCalled = regexp.MustCompile(`^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,2})\s*[(\[].*$`)
	// reTyped is a C, C++, Java or C# signature, its return type before
	// the name: int Cart.total() const, List<Item> byOwner(String o).
	reTyped = regexp.MustCompile(`^[\w.<>\[\],]+(?:[\s*&]+[\w.<>\[\],]+)*[\s*&]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,2})\s*\(.*$`)
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
	if len(exact) == 0 && len(methods) == 0 {
		// Outer.name where the outline knows no receivers (a Python
		// or TypeScript class's method, a Rust impl's fn): a name
		// defined inside a definition named Outer.
		if outer, inner, ok := cutLast(name, "."); ok {
			for _, s := range o.syms {
				if s.name == inner && s.recv == "" && slices.ContainsFunc(o.syms, func(t symbol) bool {
					return t.name == outer && t.start <= s.start && s.end <= t.end && t.decl < s.decl
				}) {
					exact = append(exact, span(s.start, s.end))
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
		if tokens.Estimate(b.String()+line+more) > limit {
			b.WriteString(more)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// costOf is the tokens renderChunks would take.
func costOf(p string, o *outline, chunks []Chunk) int {
	return tokens.Estimate(renderChunks(p, o, chunks))
}

// renderChunks writes a file's chunks with a header and line numbers, as
// the pack shows code; a gap between chunks is shown as "...".
func renderChunks(p string, o *outline, chunks []Chunk) string {
	var b strings.Builder
	b.WriteString(chunkHeader(p, len(o.lines), chunks))
	for k, c := range chunks {
		if k > 0 {
			b.WriteString(gapMarker)
		}
		for l := c.StartLine; l <= c.EndLine; l++ {
			b.WriteString(codeLine(l, l == c.StartLine, o.lines[l-1]))
		}
	}
	return b.String()
}

// numberEvery is how often a line of code shows its number. A chunk's
// first line and every tenth line do; the others show only the gutter's
// tab. The numbers are a ruler to read positions by; numbering every line
// took up to a fifth of a pack's tokens (bench/realbugs/README.md).
const numberEvery = 10

// codeLine is line l of a file as the pack shows it: its number when it
// is marked or a multiple of numberEvery, then a tab and the line. (The
// tab aligns the code; padding the numbers would only cost tokens.)
func codeLine(l int, marked bool, line string) string {
	if marked || l%numberEvery == 0 {
		return strconv.Itoa(l) + "\t" + line + "\n"
	}
	return "\t" + line + "\n"
}

func chunkHeader(p string, lines int, chunks []Chunk) string {
	return fmt.Sprintf("\n## %s (lines %s of %d)\n", p, spans(chunks), lines)
}

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
// none, or nothing when the file is not in the index (a new file). A file
// that is not in the index but has the name of one that is (the plan
// left out its directory) is asked for as written: the answer says which
// was meant before the model writes an edit to a file that is not there.
func (ix *Index) Around(file, text string) []string { return ix.around(file, text, nil) }

// around is Around; when the text names none of the file's definitions,
// unnamed (when not nil) gives the requests to make before the file's.
func (ix *Index) around(file, text string, unnamed func(p string) []string) []string {
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
	words := map[string]bool{}
	for _, w := range reIdent.FindAllString(text, -1) {
		words[w] = true
	}
	for _, m := range reQualified.FindAllStringSubmatch(text, -1) {
		words[m[1]+"."+m[2]] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range o.syms {
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
	if len(out) > 0 {
		return out
	}
	if unnamed != nil {
		out = unnamed(p)
	}
	return append(out, p)
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
	return r.ix.around(file, text, func(p string) []string { return r.likeliest(p, shown) })
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
