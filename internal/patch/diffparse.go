package patch

import (
	"fmt"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

const devNull = "/dev/null"

// parseDiffBlock turns the diff in a block into edits. Each file section is
// repaired (counts recounted from the body, missing headers and line numbers
// filled in) into a well-formed git diff, which go-gitdiff then parses, so
// the header semantics (creations, deletions, renames, modes) are its.
func parseDiffBlock(b block) ([]*edit, []Problem) {
	var edits []*edit
	var probs []Problem
	for _, rf := range lexDiff(b.lines, b.fenced, mentionedPath(b), b.start) {
		name := rf.newName
		if name == "" || name == devNull {
			name = rf.oldName
		}
		switch {
		case rf.binary:
			probs = append(probs, Problem{File: name, Message: "binary patches are not accepted; change text files only"})
			continue
		case name == "" || name == devNull:
			probs = append(probs, Problem{Message: fmt.Sprintf("the diff at reply line %d has hunks but no file name; start each file's diff with --- a/PATH and +++ b/PATH lines", rf.line)})
			continue
		case isAbs(rf.oldName) || isAbs(rf.newName):
			probs = append(probs, Problem{File: name, Message: "absolute paths are not allowed; use a path relative to the repository root"})
			continue
		case strings.ContainsAny(rf.oldName+rf.newName, "\"\t\n\\\x00"):
			probs = append(probs, Problem{File: name, Message: "the file name contains quotes, tabs or backslashes; use a plain relative path"})
			continue
		}
		e, err := repairAndParse(rf)
		if err != nil {
			probs = append(probs, Problem{File: name, Message: fmt.Sprintf("the diff could not be read (%v); send a unified diff with --- a/PATH, +++ b/PATH and @@ hunk headers", err)})
			continue
		}
		if e != nil {
			edits = append(edits, e)
		}
	}
	return edits, probs
}

// isAbs reports whether a diff names an absolute path (other than /dev/null).
func isAbs(name string) bool { return name != devNull && strings.HasPrefix(name, "/") }

// repairAndParse renders rf as a canonical git diff and parses it with
// go-gitdiff. It returns nil for a section that changes nothing.
func repairAndParse(rf *rawFile) (*edit, error) {
	oldN, newN := rf.oldName, rf.newName
	isNew, isDel := oldN == devNull, newN == devNull
	for _, x := range rf.ext {
		isNew = isNew || strings.HasPrefix(x, "new file mode ")
		isDel = isDel || strings.HasPrefix(x, "deleted file mode ")
		if v, ok := strings.CutPrefix(x, "rename from "); ok {
			oldN = v
		}
		if v, ok := strings.CutPrefix(x, "rename to "); ok {
			newN = v
		}
	}
	if oldN == devNull || oldN == "" {
		oldN = newN
	}
	if newN == devNull || newN == "" {
		newN = oldN
	}
	var hunks []rawHunk
	for _, h := range rf.hunks {
		if (&hunk{lines: h.body}).changes() {
			hunks = append(hunks, h)
		}
	}
	if len(hunks) == 0 && len(rf.ext) == 0 && !isNew && !isDel {
		return nil, nil
	}

	var sb strings.Builder
	fmt.Fprintf(&sb, "diff --git a/%s b/%s\n", oldN, newN)
	for _, x := range rf.ext {
		sb.WriteString(x + "\n")
	}
	if isNew && !hasExt(rf.ext, "new file mode ") {
		sb.WriteString("new file mode 100644\n")
	}
	if isDel && !hasExt(rf.ext, "deleted file mode ") {
		sb.WriteString("deleted file mode 100644\n")
	}
	if len(hunks) > 0 {
		if isNew {
			sb.WriteString("--- /dev/null\n")
		} else {
			fmt.Fprintf(&sb, "--- a/%s\n", oldN)
		}
		if isDel {
			sb.WriteString("+++ /dev/null\n")
		} else {
			fmt.Fprintf(&sb, "+++ b/%s\n", newN)
		}
	}
	for _, h := range hunks {
		var o, n int
		for _, l := range h.body {
			if l.op != '+' {
				o++
			}
			if l.op != '-' {
				n++
			}
		}
		oStart, nStart := max(h.claim, 1), max(h.claim, 1)
		if o == 0 && isNew {
			oStart = 0
		}
		if n == 0 && isDel {
			nStart = 0
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", oStart, o, nStart, n)
		for _, l := range h.body {
			sb.WriteString(string(l.op) + l.text + "\n")
		}
	}
	files, _, err := gitdiff.Parse(strings.NewReader(sb.String()))
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("expected one file, read %d", len(files))
	}
	f := files[0]
	if f.IsCopy {
		return nil, fmt.Errorf("copies are not supported")
	}
	e := &edit{kind: editDiff, isNew: f.IsNew, isDelete: f.IsDelete, isRename: f.IsRename, oldMode: int(f.OldMode), newMode: int(f.NewMode), line: rf.line, unprefixed: rf.unprefixed}
	if !f.IsNew {
		e.oldPath = f.OldName
	}
	if !f.IsDelete {
		e.newPath = f.NewName
	}
	e.label = e.path()
	for i, frag := range f.TextFragments {
		h := hunk{claim: hunks[i].claim, claimLen: hunks[i].claimLen, newNoEOL: hunks[i].newNoEOL, oldNoEOL: hunks[i].oldNoEOL}
		if a := hunks[i].alt; a != nil {
			h.alt = &hunk{claim: a.claim, claimLen: a.claimLen, lines: a.body, newNoEOL: a.newNoEOL, oldNoEOL: a.oldNoEOL}
		}
		for _, l := range frag.Lines {
			op := byte(' ')
			switch l.Op {
			case gitdiff.OpDelete:
				op = '-'
			case gitdiff.OpAdd:
				op = '+'
			}
			h.lines = append(h.lines, hunkLine{op, strings.TrimSuffix(l.Line, "\n")})
		}
		e.hunks = append(e.hunks, h)
	}
	return e, nil
}

func hasExt(ext []string, prefix string) bool {
	for _, x := range ext {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}
