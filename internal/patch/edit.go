package patch

import (
	"fmt"
	"strings"
)

// editKind says which form an edit was written in.
type editKind int

const (
	editDiff editKind = iota
	editSearchReplace
	editWhole
)

// edit is one change to one file as the model wrote it, before it is
// located in the file.
type edit struct {
	kind             editKind
	oldPath, newPath string // as written; "" for the missing side of a create or delete
	isNew, isDelete  bool
	isRename         bool
	oldMode, newMode int // git modes from the diff header; 0 when not given
	// unprefixed: a diff whose git a/ and b/ were taken off; its names
	// are the files', "a/0" included.
	unprefixed bool
	hunks      []hunk
	content    string // whole-file edits
	ambiguous  bool   // whole-file edits: where the block ends is a guess
	label      string // how errors name it: "x.go", "SEARCH/REPLACE block 2 (x.go)"
	line       int    // line of the reply it starts on
}

// path is the file the edit is about.
func (e *edit) path() string {
	if e.newPath != "" {
		return e.newPath
	}
	return e.oldPath
}

// key identifies what an edit does, so that a reply repeating an edit
// (models often restate their diff) applies it once.
func (e *edit) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00%s\x00%s\x00%v%v\x00%s", e.kind, e.oldPath, e.newPath, e.isNew, e.isDelete, e.content)
	for _, h := range e.hunks {
		for _, l := range h.lines {
			b.WriteString("\x00" + string(l.op) + loose(l.text))
		}
		b.WriteString("\x01")
	}
	return b.String()
}

// restates reports whether e repeats one of earlier, edits with the same
// key: it does unless a hunk's header places it elsewhere, as when the
// same change is made in two places of a file.
func restates(e *edit, earlier []*edit) bool {
	for _, o := range earlier {
		same := true
		for k, h := range e.hunks {
			if c := o.hunks[k].claim; h.claim != 0 && c != 0 && h.claim != c {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

// hunk is a run of context, removed and added lines.
type hunk struct {
	claim    int // old line number the header gave; 0 when it gave none
	claimLen int // old line count the header gave
	lines    []hunkLine
	newNoEOL bool // the last new-side line has no newline after it
	oldNoEOL bool // the last old-side line has no newline after it
	// alt is another reading of the hunk (by its header's counts) tried
	// when this one is not found.
	alt *hunk
}

// hunkLine is one line of a hunk: op is ' ', '-' or '+'.
type hunkLine struct {
	op   byte
	text string
}

// oldSide returns the context and removed lines: what must be found in the file.
func (h *hunk) oldSide() []string {
	var s []string
	for _, l := range h.lines {
		if l.op != '+' {
			s = append(s, l.text)
		}
	}
	return s
}

// newSide returns the context and added lines.
func (h *hunk) newSide() []string {
	var s []string
	for _, l := range h.lines {
		if l.op != '-' {
			s = append(s, l.text)
		}
	}
	return s
}

// changes reports whether the hunk adds or removes anything.
func (h *hunk) changes() bool {
	for _, l := range h.lines {
		if l.op != ' ' {
			return true
		}
	}
	return false
}
