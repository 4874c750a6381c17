package patch

import (
	"fmt"
	"regexp"
	"strings"
)

// block is a run of reply lines: the inside of one fence, or the text
// between fences.
type block struct {
	fenced bool
	info   string   // text after the opening fence
	lines  []string // without "\n"; a trailing "\r" is kept
	start  int      // reply line number of lines[0]
	before string   // for a fenced block: the non-blank line just above the fence
	open   bool     // a fenced block the reply never closed
	glued  bool     // its closing fence was glued to its last line
}

var (
	reFence    = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,})\\s*([^`]*)$")
	reSearch   = regexp.MustCompile(`^\s*<{5,9}\s*SEARCH\b`)
	reDivider  = regexp.MustCompile(`^\s*={5,9}\s*$`)
	reDivider7 = regexp.MustCompile(`^=======\s*$`)
	reReplace  = regexp.MustCompile(`^\s*>{5,9}\s*REPLACE\b`)
)

// trimCR drops the "\r" a CRLF reply leaves on every line.
func trimCR(s string) string { return strings.TrimSuffix(s, "\r") }

// splitBlocks cuts a reply into fenced blocks and the text around them.
func splitBlocks(reply string) []block {
	lines := strings.Split(reply, "\n")
	var blocks []block
	var prose []string
	proseStart := 1
	flush := func() {
		if len(prose) > 0 {
			blocks = append(blocks, block{lines: prose, start: proseStart})
		}
		prose = nil
	}
	inHunk := false // inside a bare diff hunk, where " ```" is a context line
	for i := 0; i < len(lines); i++ {
		t := trimCR(lines[i])
		m := reFence.FindStringSubmatch(t)
		if m != nil && inHunk && strings.HasPrefix(t, " ") {
			m = nil
		}
		if m == nil {
			if len(prose) == 0 {
				proseStart = i + 1
			}
			prose = append(prose, lines[i])
			inHunk = isHunkHeader(t) || inHunk && (t == "" || strings.ContainsRune(" +-\\", rune(t[0])))
			continue
		}
		inHunk = false
		b := block{fenced: true, info: strings.TrimSpace(m[3]), start: i + 2, before: lineAbove(prose)}
		flush()
		indent, fence := m[1], m[2]
		j := closingFence(lines, i+1, indent, fence)
		b.lines = dedent(lines[i+1:min(j, len(lines))], indent)
		if j >= len(lines) {
			b.lines, b.glued = gluedFence(b.lines, fence)
			b.open = !b.glued
		}
		blocks = append(blocks, b)
		i = j
	}
	flush()
	return blocks
}

// gluedFence handles a block whose closing fence was written at the end of
// its last line ("}```"): the fence is cut off and the block is closed.
func gluedFence(lines []string, fence string) ([]string, bool) {
	for k := len(lines) - 1; k >= 0; k-- {
		t := strings.TrimRight(lines[k], " \t\r")
		if t == "" {
			continue
		}
		if body, ok := strings.CutSuffix(t, fence); ok && strings.TrimSpace(body) != "" {
			out := append([]string(nil), lines[:k]...)
			return append(out, body), true
		}
		break
	}
	return lines, false
}

// closingFence returns the index of the line that closes a fence opened
// with fence at indent, or len(lines). Only fence lines indented no deeper
// than the opener count, so a diff's " ```" context lines do not close it;
// a fence line with an info string ("```go") opens a nested block, as in a
// whole Markdown file, which the next bare fence line closes.
func closingFence(lines []string, i int, indent, fence string) int {
	depth, inSR := 0, false
	for ; i < len(lines); i++ {
		// Between SEARCH and REPLACE markers everything is file content.
		if reSearch.MatchString(lines[i]) {
			inSR = true
		} else if reReplace.MatchString(lines[i]) {
			inSR = false
		}
		m := reFence.FindStringSubmatch(trimCR(lines[i]))
		if inSR || m == nil || len(m[1]) > len(indent) || m[2][0] != fence[0] {
			continue
		}
		switch {
		case strings.TrimSpace(m[3]) != "":
			depth++
		case len(m[2]) < len(fence):
		case depth > 0:
			depth--
		default:
			return i
		}
	}
	return i
}

// dedent removes the indentation of a fence nested in a list from the
// lines inside it, when every non-blank line carries it.
func dedent(lines []string, indent string) []string {
	if indent == "" {
		return lines
	}
	for _, l := range lines {
		if trimCR(l) != "" && !strings.HasPrefix(l, indent) {
			return lines
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, indent)
	}
	return out
}

// lineAbove is the last non-blank line of prose if at most one blank line
// separates it from what follows.
func lineAbove(prose []string) string {
	blank := 0
	for i := len(prose) - 1; i >= 0; i-- {
		t := strings.TrimSpace(prose[i])
		if t != "" {
			return t
		}
		if blank++; blank > 1 {
			return ""
		}
	}
	return ""
}

// extract finds every edit in a model reply, in the order written.
func extract(reply string) ([]*edit, []string, []Problem) {
	var edits []*edit
	var repairs []string
	var probs []Problem
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

// parseSearchReplace reads SEARCH/REPLACE blocks. The path is the path-like
// line just above "<<<<<<< SEARCH", else the one above the fence, else the
// path of the edit before.
func parseSearchReplace(b block, lastPath string, before int) ([]*edit, []Problem) {
	var edits []*edit
	var probs []Problem
	path := blockPath(b)
	if path == "" {
		path = lastPath
	}
	lines := b.lines
	for i := 0; i < len(lines); i++ {
		if !reSearch.MatchString(lines[i]) {
			continue
		}
		n := before + len(edits) + 1
		for j := i - 1; j >= 0; j-- {
			t := strings.TrimSpace(trimCR(lines[j]))
			if t == "" {
				continue
			}
			if p, ok := pathLike(t); ok && !reReplace.MatchString(t) {
				path = p
			}
			break
		}
		label := fmt.Sprintf("SEARCH/REPLACE block %d", n)
		k := i + 1
		for k < len(lines) && !reReplace.MatchString(lines[k]) && !reSearch.MatchString(lines[k]) {
			k++
		}
		if k == len(lines) || reSearch.MatchString(lines[k]) {
			probs = append(probs, Problem{File: path, Message: label + ": no >>>>>>> REPLACE line after the new lines; end every block with >>>>>>> REPLACE"})
			i = k - 1
			continue
		}
		j, msg := divider(lines[i+1 : k])
		if msg != "" {
			probs = append(probs, Problem{File: path, Message: label + ": " + msg})
			i = k
			continue
		}
		search, replace := lines[i+1:i+1+j], lines[i+2+j:k]
		i = k
		if path == "" {
			probs = append(probs, Problem{Message: label + ": no file path; put the file's path, relative to the repository root, on the line before <<<<<<< SEARCH"})
			continue
		}
		edits = append(edits, searchReplaceEdit(path, search, replace, label, b.start+i))
	}
	return edits, probs
}

// divider finds the ======= line between the SEARCH and REPLACE sides.
// Exactly seven "=" is the marker; a line of five to nine is accepted only
// when it is the only candidate, since Markdown headings are underlined so.
func divider(body []string) (int, string) {
	var exact, loose []int
	for i, l := range body {
		if reDivider7.MatchString(trimCR(l)) {
			exact = append(exact, i)
		} else if reDivider.MatchString(l) {
			loose = append(loose, i)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], ""
	case len(exact) == 0 && len(loose) == 1:
		return loose[0], ""
	case len(exact)+len(loose) == 0:
		return 0, "no ======= line between <<<<<<< SEARCH and >>>>>>> REPLACE; write the block as <<<<<<< SEARCH, the old lines, =======, the new lines, >>>>>>> REPLACE"
	}
	return 0, "more than one ======= line between <<<<<<< SEARCH and >>>>>>> REPLACE; use one block per change and exactly one ======= line in each"
}

// searchReplaceEdit turns a SEARCH/REPLACE pair into one hunk whose lines
// the two sides share are context, so the file's own copy of them is kept.
func searchReplaceEdit(path string, search, replace []string, label string, line int) *edit {
	e := &edit{kind: editSearchReplace, oldPath: path, newPath: path, label: label, line: line}
	if len(search) == 0 || (len(search) == 1 && strings.TrimSpace(search[0]) == "") {
		e.oldPath, e.isNew = "", true
		search = nil
	}
	a := make([]string, len(search))
	for i, s := range search {
		a[i] = loose(s)
	}
	z := make([]string, len(replace))
	for i, s := range replace {
		z[i] = loose(s)
	}
	var h hunk
	for _, o := range lineDiff(a, z) {
		switch o.kind {
		case opEqual:
			h.lines = append(h.lines, hunkLine{' ', search[o.ai]})
		case opDelete:
			h.lines = append(h.lines, hunkLine{'-', search[o.ai]})
		case opInsert:
			h.lines = append(h.lines, hunkLine{'+', replace[o.bi]})
		}
	}
	e.hunks = []hunk{h}
	return e
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
	return &edit{kind: editWhole, oldPath: path, newPath: path, content: content, label: path + " (whole file)", line: b.start}
}
