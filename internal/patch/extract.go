package patch

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	reFence    = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,})\\s*([^`]*)$")
	reSearch   = regexp.MustCompile(`^\s*<{5,9}\s*SEARCH\b`)
	reDivider  = regexp.MustCompile(`^\s*={5,9}\s*$`)
	reDivider7 = regexp.MustCompile(`^=======\s*$`)
	reReplace  = regexp.MustCompile(`^\s*>{5,9}\s*REPLACE\b`)
)

// trimCR drops the "\r" a CRLF reply leaves on every line.
func trimCR(s string) string { return strings.TrimSuffix(s, "\r") }

// extract finds every edit in a model reply, in the order written.
func extract(reply string) ([]*edit, []string, []Problem) {
	var edits []*edit
	var repairs []string
	var probs []Problem
	// A reply sent with CRLF line endings: every line's "\r" is how it
	// travelled, not part of it; a CRLF file's own "\r" is left under it.
	if n := strings.Count(reply, "\n"); n > 0 && strings.Count(reply, "\r\n") == n {
		reply = strings.ReplaceAll(reply, "\r\n", "\n")
		repairs = append(repairs, "the reply has CRLF line endings; read them as plain line breaks")
	}
	lastPath := ""
	for _, b := range splitBlocks(reply) {
		if b.glued {
			repairs = append(repairs, fmt.Sprintf("reply line %d: the closing ``` was at the end of the last code line; cut it off", b.start+len(b.lines)-1))
		}
		var es []*edit
		var ps []Problem
		switch {
		case hasSearchReplace(b.lines):
			es, ps = parseSearchReplace(b, lastPath, len(edits))
		case hasDiff(b.lines, b.fenced):
			es, ps = parseDiffBlock(b)
		case b.fenced && isDiffInfo(b.info):
			if p := mentionedPath(b); p != "" {
				ps = []Problem{{File: p, Message: fmt.Sprintf("the ```%s block at reply line %d has no @@ hunk header; start each hunk with a line like @@ -12,7 +12,8 @@", b.info, b.start)}}
			}
		case b.fenced:
			if e := parseWhole(b); e != nil {
				es = []*edit{e}
				if b.open {
					es, ps = nil, []Problem{{File: e.path(), Message: "the fenced block with the file's content is never closed, so the file may be cut off; send the complete file and close the block with ```"}}
				}
			}
		}
		for _, e := range es {
			lastPath = e.path()
		}
		edits = append(edits, es...)
		probs = append(probs, ps...)
	}
	return edits, repairs, probs
}

// isDiffInfo reports whether a fence's info string says it holds a diff,
// so that its lines must never be taken for a whole file.
func isDiffInfo(info string) bool {
	f := strings.Fields(info)
	return len(f) > 0 && (f[0] == "diff" || f[0] == "patch" || f[0] == "udiff")
}

func hasSearchReplace(lines []string) bool {
	for _, l := range lines {
		if reSearch.MatchString(l) {
			return true
		}
	}
	return false
}

// blockPath is the file a fenced block is about: named in its info string
// ("```go path/x.go", "```path/x.go", "```go:path/x.go") or on the line
// above the fence.
func blockPath(b block) string {
	for _, f := range strings.Fields(b.info) {
		if _, after, ok := strings.Cut(f, ":"); ok {
			f = after
		}
		if p, ok := pathLike(f); ok && (strings.Contains(p, "/") || strings.Contains(p, ".")) {
			return p
		}
	}
	if p, ok := pathLike(b.before); ok {
		return p
	}
	return ""
}

var reBackticked = regexp.MustCompile("`([^`\\s]+)`")

// mentionedPath is the one path named in backticks on the line above a
// fence ("In `x.go`:"). It only names the file for hunks without headers,
// which must still match that file's content.
func mentionedPath(b block) string {
	if p := blockPath(b); p != "" {
		return p
	}
	var found []string
	for _, m := range reBackticked.FindAllStringSubmatch(b.before, -1) {
		if p, ok := pathLike(m[1]); ok {
			found = append(found, p)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

var rePathChars = regexp.MustCompile(`^[A-Za-z0-9_.@+~,=\-/\\]+$`)

// pathLike reports whether a line is just a file path, perhaps dressed in
// markdown ("**x.go**", "`x.go`", "### x.go", "File: x.go:"), and returns it.
func pathLike(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "#>")
	s = unwrap(s)
	for _, p := range []string{"file:", "filename:", "path:", "file path:"} {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			s = strings.TrimSpace(s[len(p):])
		}
	}
	s = strings.TrimSuffix(s, ":")
	s = unwrap(strings.Trim(s, `"'`))
	if s == "" || len(s) > 300 || strings.HasSuffix(s, "/") || strings.Contains(s, "://") {
		return "", false
	}
	if !rePathChars.MatchString(s) || !strings.ContainsAny(s, "./") || strings.Trim(s, ".") == "" {
		return "", false
	}
	return s, true
}

// unwrap removes markdown emphasis and code marks around s: "**x**",
// "`x`", "_x_". An underscore is only removed in pairs, since paths start
// with one ("_examples/x.go").
func unwrap(s string) string {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*`"))
	for len(s) > 2 && s[0] == '_' && s[len(s)-1] == '_' {
		s = s[1 : len(s)-1]
	}
	return strings.TrimSpace(s)
}

// parseWhole reads a fenced block under a path line as a file's full new
// content.
func parseWhole(b block) *edit {
	path := blockPath(b)
	if path == "" {
		return nil
	}
	content := strings.Join(b.lines, "\n")
	if content != "" {
		content += "\n"
	}
	return &edit{kind: editWhole, oldPath: path, newPath: path, content: content, label: path + " (whole file)", line: b.start, ambiguous: b.ambiguous}
}
