package patch

import (
	"regexp"
	"strconv"
	"strings"
)

// rawFile is one file section of a diff as written, before repair.
type rawFile struct {
	oldName, newName string // as written, /dev/null included; git's a/ and b/ taken off when both sides carry them
	// unprefixed: git's a/ and b/ were taken off (stripPrefixes), so a
	// name that still starts with a/ is the file's own.
	unprefixed bool
	ext        []string // extended git header lines (modes, renames)
	hunks      []rawHunk
	binary     bool
	sawHeader  bool // a "---"/"+++" pair was read
	line       int
}

// rawHunk is one hunk as written: the claimed start and the body lines with
// their op characters.
type rawHunk struct {
	claim    int // 0 when the header had no numbers
	claimLen int // the header's count of old lines
	body     []hunkLine
	newNoEOL bool
	oldNoEOL bool
	fixed    int // context lines that had lost their leading space
	// alt is the body read by the header's counts, when those counts were
	// met but more lines that look like the hunk followed (a bare diff
	// followed by a "- item" list, or prose inside the fence).
	alt *rawHunk
}

var reHunkNums = regexp.MustCompile(`^@@+\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*@@`)

func isHunkHeader(t string) bool { return strings.HasPrefix(t, "@@") }

// isFileHeader reports whether lines[i] and lines[i+1] are a "---"/"+++" pair.
func isFileHeader(lines []string, i int) bool {
	return i+1 < len(lines) && strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(trimCR(lines[i+1]), "+++ ")
}

// hasDiff reports whether a block holds a unified diff. Outside a fence a
// file header is required, so prose that mentions "@@" is not a diff.
func hasDiff(lines []string, fenced bool) bool {
	for i, l := range lines {
		t := trimCR(l)
		if strings.HasPrefix(t, "diff --git ") || isFileHeader(lines, i) || (fenced && isHunkHeader(t)) {
			return true
		}
	}
	return false
}

var extPrefixes = []string{"old mode ", "new mode ", "deleted file mode ", "new file mode ", "rename from ", "rename to ",
	"copy from ", "copy to ", "similarity index ", "dissimilarity index ", "index "}

func isExtHeader(t string) bool {
	for _, p := range extPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func isBinaryMarker(t string) bool {
	return strings.HasPrefix(t, "GIT binary patch") || (strings.HasPrefix(t, "Binary files ") && strings.HasSuffix(t, " differ"))
}

// lexDiff reads the file sections of a diff block. Hunks before any file
// header belong to defPath. Hunk bodies end at the next header or, outside
// a fence, at the first line that is not a diff line.
func lexDiff(lines []string, fenced bool, defPath string, start int) []*rawFile {
	var files []*rawFile
	var cur *rawFile
	open := func(i int) {
		cur = &rawFile{line: start + i}
		files = append(files, cur)
	}
	for i := 0; i < len(lines); {
		t := trimCR(lines[i])
		switch {
		case strings.HasPrefix(t, "diff --git "):
			open(i)
			cur.oldName, cur.newName, cur.unprefixed = stripPrefixes(gitHeaderNames(t[len("diff --git "):]))
			i++
			for i < len(lines) && (isExtHeader(trimCR(lines[i])) || isBinaryMarker(trimCR(lines[i]))) {
				if isBinaryMarker(trimCR(lines[i])) {
					cur.binary = true
				} else if !strings.HasPrefix(lines[i], "index ") {
					cur.ext = append(cur.ext, trimCR(lines[i]))
				}
				i++
			}
		case isFileHeader(lines, i):
			if cur == nil || cur.sawHeader || len(cur.hunks) > 0 {
				open(i)
			}
			cur.sawHeader = true
			cur.oldName, cur.newName, cur.unprefixed = stripPrefixes(headerName(t[4:]), headerName(trimCR(lines[i+1])[4:]))
			i += 2
		case isHunkHeader(t):
			if cur == nil {
				open(i)
				cur.oldName, cur.newName = defPath, defPath
			}
			h := rawHunk{}
			if m := reHunkNums.FindStringSubmatch(t); m != nil {
				h.claim, _ = strconv.Atoi(m[1])
				h.claimLen = count(m[2])
				if h.claim == 0 {
					h.claim = 1 // "-0,0": the file starts empty
				}
				end, met, clean := countedBody(lines, i+1, count(m[2]), count(m[4]), fenced, &h)
				if met && clean {
					i = end
					cur.hunks = append(cur.hunks, h)
					continue
				}
				alt := h
				h = rawHunk{claim: h.claim, claimLen: h.claimLen}
				if met {
					h.alt = &alt // in case what followed was prose
				}
			}
			i = lexBody(lines, i+1, fenced, &h)
			cur.hunks = append(cur.hunks, h)
		case isBinaryMarker(t):
			if cur == nil {
				open(i)
			}
			cur.binary = true
			i++
		default:
			i++
		}
	}
	return files
}

// count is a hunk header's line count: 1 when it is left out.
func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// countedBody reads a hunk body as git does, by the header's counts, so that
// a removed "-- x" followed by an added "++ y" is not taken for a file
// header. met says the counts were reached; clean says that what follows
// is not more of the hunk, so the counts can be trusted.
func countedBody(lines []string, i, oldN, newN int, fenced bool, h *rawHunk) (end int, met, clean bool) {
	for oldN > 0 || newN > 0 {
		if i >= len(lines) {
			return i, false, false
		}
		raw := lines[i]
		t := trimCR(raw)
		op := byte(' ')
		if t != "" {
			op = t[0]
			raw = raw[1:]
		}
		switch op {
		case ' ':
			oldN--
			newN--
		case '-':
			oldN--
		case '+':
			newN--
		case '\\':
			markNoEOL(h)
			i++
			continue
		default:
			return i, false, false
		}
		if oldN < 0 || newN < 0 {
			return i, false, false
		}
		h.body = append(h.body, hunkLine{op, raw})
		i++
	}
	if i < len(lines) && strings.HasPrefix(lines[i], `\ `) {
		markNoEOL(h)
		i++
	}
	j := i
	for j < len(lines) && trimCR(lines[j]) == "" {
		j++
	}
	return i, true, j == len(lines) || !continuesHunk(lines, j, fenced)
}

// markNoEOL records a "\ No newline at end of file" after the last line.
func markNoEOL(h *rawHunk) {
	if n := len(h.body); n > 0 {
		if h.body[n-1].op != '-' {
			h.newNoEOL = true
		}
		if h.body[n-1].op != '+' {
			h.oldNoEOL = true
		}
	}
}

// lexBody reads hunk lines from lines[i] and returns where it stopped.
func lexBody(lines []string, i int, fenced bool, h *rawHunk) int {
	for i < len(lines) {
		raw := lines[i]
		t := trimCR(raw)
		if t == "" {
			j := i
			for j < len(lines) && trimCR(lines[j]) == "" {
				j++
			}
			if j == len(lines) || !continuesHunk(lines, j, fenced) {
				return j
			}
			for ; i < j; i++ {
				h.body = append(h.body, hunkLine{' ', strings.TrimSuffix(lines[i], "\n")})
			}
			continue
		}
		if !continuesHunk(lines, i, fenced) {
			return i
		}
		switch t[0] {
		case ' ', '+', '-':
			h.body = append(h.body, hunkLine{t[0], raw[1:]})
		case '\\':
			markNoEOL(h)
		default:
			// A fenced context line that lost its leading space.
			h.body = append(h.body, hunkLine{' ', raw})
			h.fixed++
		}
		i++
	}
	return i
}

// continuesHunk reports whether lines[i] is still part of a hunk body.
func continuesHunk(lines []string, i int, fenced bool) bool {
	t := trimCR(lines[i])
	if isHunkHeader(t) || strings.HasPrefix(t, "diff --git ") || isFileHeader(lines, i) || isBinaryMarker(t) {
		return false
	}
	if t == "" {
		return true
	}
	switch t[0] {
	case ' ', '+', '-':
		return true
	case '\\':
		return strings.HasPrefix(t, `\ `)
	}
	return fenced && !isExtHeader(t) && !strings.HasPrefix(t, "Index: ") && !strings.HasPrefix(t, "===")
}

// stripPrefixes drops git's a/ and b/ when both sides carry them (or one
// side is /dev/null), and says whether it did. A lone prefix is left for
// resolveName to judge.
func stripPrefixes(old, new string) (string, string, bool) {
	oa, nb := strings.HasPrefix(old, "a/"), strings.HasPrefix(new, "b/")
	switch {
	case oa && nb:
		return old[2:], new[2:], true
	case oa && new == devNull:
		return old[2:], new, true
	case nb && old == devNull:
		return old, new[2:], true
	}
	return old, new, false
}

// headerName is the name on a "---" or "+++" line, without a timestamp.
func headerName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s[:strings.LastIndex(s, `"`)+1]); err == nil {
			return u
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	// "x.go 2024-01-01 10:00:00" (diff -u without a tab)
	if f := strings.Fields(s); len(f) >= 3 && len(f[1]) == 10 && f[1][4] == '-' {
		s = f[0]
	}
	return strings.TrimSpace(s)
}

// gitHeaderNames splits the names of "diff --git a/x b/x", which may
// contain spaces, at the " b/" that makes both sides equal when it can.
func gitHeaderNames(s string) (string, string) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		f := strings.Fields(s)
		if len(f) == 2 {
			a, _ := strconv.Unquote(f[0])
			b, _ := strconv.Unquote(f[1])
			return a, b
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && s[:i] != "" && strings.TrimPrefix(s[:i], "a/") == strings.TrimPrefix(s[i+1:], "b/") {
			return s[:i], s[i+1:]
		}
	}
	if i := strings.Index(s, " b/"); i > 0 {
		return s[:i], s[i+1:]
	}
	if f := strings.Fields(s); len(f) == 2 {
		return f[0], f[1]
	}
	return s, s
}
