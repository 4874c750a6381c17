package patch

import "strings"

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
	// ambiguous says it held nested fences and more fence lines follow it,
	// so which fence line ends it is a guess.
	ambiguous bool
}

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
		j, nested := closingFence(lines, i+1, indent, fence)
		b.ambiguous = nested && fenceAfter(lines, j+1)
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
//
// nested says fences were nested inside: where the block really ends is
// then a guess.
func closingFence(lines []string, i int, indent, fence string) (int, bool) {
	depth, inSR, nested := 0, false, false
	for ; i < len(lines); i++ {
		// Between SEARCH and REPLACE markers everything is file content.
		if reSearch.MatchString(lines[i]) {
			inSR = true
		} else if reReplace.MatchString(lines[i]) {
			inSR = false
		}
		m := reFence.FindStringSubmatch(trimCR(lines[i]))
		if inSR || m == nil || len(m[1]) > len(indent) || m[2][0] != fence[0] || len(m[2]) < len(fence) {
			continue
		}
		switch {
		case strings.TrimSpace(m[3]) != "":
			depth++
			nested = true
		case depth > 0:
			depth--
		default:
			return i, nested
		}
	}
	return i, nested
}

// fenceAfter reports whether any line from i on is a fence line.
func fenceAfter(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if reFence.MatchString(trimCR(lines[i])) {
			return true
		}
	}
	return false
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
