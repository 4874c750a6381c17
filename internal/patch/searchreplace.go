package patch

import (
	"fmt"
	"strings"
)

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
	// Lines are compared exactly (bar CR), so that a change of trailing
	// whitespace is a change.
	a := make([]string, len(search))
	for i, s := range search {
		a[i] = trimCR(s)
	}
	z := make([]string, len(replace))
	for i, s := range replace {
		z[i] = trimCR(s)
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
