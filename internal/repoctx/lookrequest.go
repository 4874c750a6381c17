package repoctx

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

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
