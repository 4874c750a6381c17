package patch

import (
	"fmt"
	"strings"
)

// Git file modes as they appear in diff headers.
const (
	modeRegular = 0o100644
	modeExec    = 0o100755
	modeSymlink = 0o120000
)

// change is the final state of one file: what it was and what it becomes.
// A nil old means the file is created, a nil new that it is deleted.
type change struct {
	oldPath, newPath string
	oldMode, newMode int
	old, new         *text
}

// path is the name the change is reported under.
func (c *change) path() string {
	if c.new != nil {
		return c.newPath
	}
	return c.oldPath
}

// contextLines is how many unchanged lines surround each hunk, as git does.
const contextLines = 3

// noEOL marks, inside a diffed line, that the file ends without a newline
// after it, so that a change of final-newline state is a changed line.
const noEOL = "\x00noeol"

// formatDiff renders changes as one git-style unified diff that git apply
// and Apply both accept.
func formatDiff(changes []*change) string {
	var b strings.Builder
	for _, c := range changes {
		formatChange(&b, c)
	}
	return b.String()
}

func formatChange(b *strings.Builder, c *change) {
	oldName, newName := c.oldPath, c.newPath
	if c.old == nil {
		oldName = c.newPath
	}
	if c.new == nil {
		newName = c.oldPath
	}
	fmt.Fprintf(b, "diff --git a/%s b/%s\n", oldName, newName)
	switch {
	case c.old == nil:
		fmt.Fprintf(b, "new file mode %06o\n", c.newMode)
	case c.new == nil:
		fmt.Fprintf(b, "deleted file mode %06o\n", c.oldMode)
	case c.oldMode != c.newMode:
		fmt.Fprintf(b, "old mode %06o\nnew mode %06o\n", c.oldMode, c.newMode)
	}
	if c.old != nil && c.new != nil && c.oldPath != c.newPath {
		fmt.Fprintf(b, "rename from %s\nrename to %s\n", c.oldPath, c.newPath)
	}
	a, z := marked(c.old), marked(c.new)
	hunks := groupHunks(lineDiff(a, z))
	if len(hunks) == 0 {
		return
	}
	if c.old == nil {
		b.WriteString("--- /dev/null\n")
	} else {
		fmt.Fprintf(b, "--- a/%s\n", c.oldPath)
	}
	if c.new == nil {
		b.WriteString("+++ /dev/null\n")
	} else {
		fmt.Fprintf(b, "+++ b/%s\n", c.newPath)
	}
	for _, h := range hunks {
		formatHunk(b, h, a, z)
	}
}

// marked returns t's lines with noEOL appended to a last line that has no
// newline after it.
func marked(t *text) []string {
	if t == nil || len(t.lines) == 0 {
		return nil
	}
	l := append([]string(nil), t.lines...)
	if !t.finalNL {
		l[len(l)-1] += noEOL
	}
	return l
}

// groupHunks cuts an edit script into hunks with contextLines of context,
// merging hunks whose contexts touch.
func groupHunks(ops []diffOp) [][]diffOp {
	var hunks [][]diffOp
	i, lastEnd := 0, 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-contextLines, lastEnd)
		// extend through changes separated by at most 2*contextLines equal lines
		j := i
		for {
			for j < len(ops) && ops[j].kind != opEqual {
				j++
			}
			k := j
			for k < len(ops) && ops[k].kind == opEqual {
				k++
			}
			if k < len(ops) && k-j <= 2*contextLines {
				j = k
				continue
			}
			break
		}
		end := min(j+contextLines, len(ops))
		hunks = append(hunks, ops[start:end])
		i, lastEnd = end, end
	}
	return hunks
}

func formatHunk(b *strings.Builder, h []diffOp, a, z []string) {
	var oldStart, oldN, newStart, newN int
	oldStart, newStart = -1, -1
	for _, o := range h {
		switch o.kind {
		case opEqual:
			oldN++
			newN++
		case opDelete:
			oldN++
		case opInsert:
			newN++
		}
		if oldStart < 0 && o.kind != opInsert {
			oldStart = o.ai + 1
		}
		if newStart < 0 && o.kind != opDelete {
			newStart = o.bi + 1
		}
	}
	if oldStart < 0 { // no old lines: the position is the line before
		oldStart = h[0].ai
	}
	if newStart < 0 {
		newStart = h[0].bi
	}
	fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", oldStart, oldN, newStart, newN)
	for _, o := range h {
		var line string
		if o.kind == opInsert {
			line = z[o.bi]
		} else {
			line = a[o.ai]
		}
		eol := "\n"
		if s, ok := strings.CutSuffix(line, noEOL); ok {
			line, eol = s, "\n\\ No newline at end of file\n"
		}
		fmt.Fprintf(b, "%c%s%s", o.kind, line, eol)
	}
}

// Unified returns the git-style diff that turns old into new, the file
// named path in both; "" when they are the same. A nil old is a new file.
func Unified(path string, old, new []byte) string {
	c := &change{oldPath: path, newPath: path, oldMode: modeRegular, newMode: modeRegular}
	if old != nil {
		t := parseText(old)
		c.old = &t
	}
	t := parseText(new)
	c.new = &t
	d := formatDiff([]*change{c})
	if !strings.Contains(d, "\n@@ ") {
		return ""
	}
	return d
}
