package patch

import (
	"fmt"
	"sort"
	"strings"
)

// placed is a hunk with the span of the file it replaces.
type placed struct {
	h *hunk
	span
	indent reindent // set when the hunk matched only ignoring indentation
}

// applyHunks locates every hunk of e in t (all against t as it was before
// the edit) and returns the new text. Context lines keep the file's own
// bytes; added lines get the file's line ending. Hunks that overlap, which
// git apply accepts because it applies them one after another, are applied
// one after another too when placing them all at once fails. moved maps
// the lines of the file as the reply found it to t (see movedLines).
func applyHunks(t text, moved []int, e *edit, name string) (text, []string, []Problem) {
	all := make([]int, len(e.hunks))
	for k := range all {
		all[k] = k
	}
	out, repairs, probs := placeHunks(t, moved, e, name, all, 0)
	if len(probs) == 0 || len(e.hunks) < 2 {
		return out, repairs, probs
	}
	cur, seqRepairs := t, []string{}
	for k := range e.hunks {
		next, reps, ps := placeHunks(cur, moved, e, name, []int{k}, len(cur.lines)-len(t.lines))
		if len(ps) > 0 {
			return t, repairs, probs
		}
		cur, seqRepairs = next, append(seqRepairs, reps...)
	}
	return cur, append(seqRepairs, fmt.Sprintf("%s: its hunks overlap; applied them one after another", name)), nil
}

// placeHunks locates hunks ks of e in t and applies them. offset is added to
// the first hunk's claimed position.
func placeHunks(t text, moved []int, e *edit, name string, ks []int, offset int) (text, []string, []Problem) {
	var repairs []string
	var probs []Problem
	var spans []span
	var done []placed
	for _, k := range ks {
		h := &e.hunks[k]
		what := hunkName(e, k, name)
		pat := h.oldSide()
		if len(pat) == 0 {
			if len(t.lines) == 0 {
				done = append(done, placed{h, span{0, 0}, nil})
				continue
			}
			probs = append(probs, problem(e, k, name, "it only adds lines, so there is nothing to find its place by; include two or three unchanged lines before and after the addition"))
			continue
		}
		c := claimOf(h, offset, moved)
		r := locate(t.lines, pat, c, spans)
		// Blank context lines at the edges are often invented. Without
		// them the hunk is a relaxed reading, so it is tried only when the
		// hunk as written matches nowhere, and must then match one place:
		// the header says nothing about which of several it meant.
		var trimmed locateResult
		if r.notFound() {
			if th, ok := trimBlankEdges(h); ok {
				if trimmed = locate(t.lines, th.oldSide(), claimed{}, spans); !trimmed.failed {
					*h, r = th, trimmed
					pat = h.oldSide()
					repairs = append(repairs, what+": dropped blank context lines that are not in the file")
				}
			}
		}
		// Lines copied from the code the prompt shows may keep its gutter:
		// a line's number and a tab (see repoctx.codeLine). Without the
		// numbers, the tab is an indentation that differs from the file's
		// in one consistent way, which the indentation level below undoes.
		gutter := false
		if r.notFound() {
			if gh, ok := stripLineNumbers(h); ok {
				if g := locate(t.lines, gh.oldSide(), claimOf(&gh, offset, moved), spans); !g.failed {
					*h, r, gutter = gh, g, true
					pat = h.oldSide()
					repairs = append(repairs, what+": removed the line numbers copied from the code shown")
				}
			}
		}
		// The reading by the header's counts is only trusted where the
		// header's line number agrees too, as in a diff a tool wrote.
		if a := h.alt; r.notFound() && a != nil && a.changes() && len(a.oldSide()) > 0 && len(c.at) > 0 {
			if r2 := locate(t.lines, a.oldSide(), claimOf(a, offset, moved), spans); !r2.failed && r2.pos == c.at[0] {
				*h, r = *h.alt, r2
				pat = h.oldSide()
				repairs = append(repairs, what+": read by the counts in its header; the lines after them are not part of it")
			}
		}
		if r.failed {
			if r.notFound() && len(trimmed.ambiguous) > 0 {
				r = trimmed // more telling than "not found"
			}
			probs = append(probs, problem(e, k, name, locateMessage(r)))
			continue
		}
		var rule reindent
		switch r.level {
		case levelLoose:
			repairs = append(repairs, what+": matched ignoring trailing whitespace")
		case levelIndent:
			var ok bool
			if rule, ok = fitReindent(h, t.lines[r.pos:r.pos+len(pat)]); !ok {
				msg := fmt.Sprintf("its lines match at line %d only if indentation is ignored, and their indentation does not differ from the file's in one consistent way; copy the lines with the file's exact indentation", r.pos+1)
				if gutter {
					msg = fmt.Sprintf("its lines match at line %d only without the gutter of the code shown (line numbers and a tab before each line), and not every line has it; write every line without the gutter, with the file's exact indentation", r.pos+1)
				}
				probs = append(probs, problem(e, k, name, msg))
				continue
			}
			repairs = append(repairs, fmt.Sprintf("%s: matched at line %d ignoring indentation; indented the added lines the way the file is", what, r.pos+1))
		}
		switch {
		case h.claim > 0 && r.pos+1 != h.claim:
			repairs = append(repairs, fmt.Sprintf("%s: header said line %d, found at %d", what, h.claim, r.pos+1))
		case h.claim == 0 && e.kind == editDiff:
			repairs = append(repairs, fmt.Sprintf("%s: header had no line numbers, found at %d", what, r.pos+1))
		}
		if h.claim > 0 {
			offset = r.pos - (h.claim - 1)
		}
		s := span{r.pos, len(pat)}
		spans = append(spans, s)
		done = append(done, placed{h, s, rule})
	}
	if len(probs) > 0 {
		return t, repairs, probs
	}
	sort.SliceStable(done, func(i, j int) bool { return done[i].pos < done[j].pos })
	crlf := t.crlf()
	out := text{finalNL: t.finalNL}
	cur := 0
	for _, p := range done {
		out.lines = append(out.lines, t.lines[cur:p.pos]...)
		j := p.pos
		for _, l := range p.h.lines {
			switch l.op {
			case ' ':
				out.lines = append(out.lines, t.lines[j])
				j++
			case '-':
				j++
			case '+':
				line := l.text
				if p.indent != nil {
					line, _ = p.indent.apply(trimCR(line)) // fitReindent checked it fits
				}
				out.lines = append(out.lines, withEOL(line, crlf))
			}
		}
		cur = j
	}
	out.lines = append(out.lines, t.lines[cur:]...)
	// The file keeps its final-newline state unless a hunk that reaches its
	// end says otherwise with a "\ No newline at end of file" marker.
	if len(done) > 0 {
		last := done[len(done)-1]
		if len(t.lines) == 0 || (last.pos+last.n == len(t.lines) && (last.h.newNoEOL || last.h.oldNoEOL)) {
			out.finalNL = !last.h.newNoEOL
		}
	}
	return out, repairs, nil
}

// fitReindent finds how h's indentation maps onto the file lines it
// matched, and checks that the rule fits every added line too.
func fitReindent(h *hunk, file []string) (reindent, bool) {
	rule, ok := findReindent(h.oldSide(), file)
	if !ok {
		return nil, false
	}
	for _, l := range h.lines {
		if l.op == '+' {
			if _, ok := rule.apply(trimCR(l.text)); !ok {
				return nil, false
			}
		}
	}
	return rule, true
}

// withEOL gives an added line the file's line ending.
func withEOL(s string, crlf bool) string {
	s = strings.TrimSuffix(s, "\r")
	if crlf {
		s += "\r"
	}
	return s
}

// trimBlankEdges drops blank context lines at either end of h.
func trimBlankEdges(h *hunk) (hunk, bool) {
	l := h.lines
	for len(l) > 0 && l[0].op == ' ' && strings.TrimSpace(l[0].text) == "" {
		l = l[1:]
	}
	for len(l) > 0 && l[len(l)-1].op == ' ' && strings.TrimSpace(l[len(l)-1].text) == "" {
		l = l[:len(l)-1]
	}
	if len(l) == len(h.lines) || len(l) == 0 {
		return hunk{}, false
	}
	return hunk{claim: h.claim, claimLen: h.claimLen, lines: l, newNoEOL: h.newNoEOL, oldNoEOL: h.oldNoEOL}, true
}

// stripLineNumbers is h without the line numbers of the gutter the
// prompt shows code with: a number then a tab on some lines, the tab alone
// on the others. It applies only when h has that gutter: some line starts
// with digits and a tab, and every line it must find in the file starts
// with a tab or is blank.
func stripLineNumbers(h *hunk) (hunk, bool) {
	g := *h
	g.alt = nil
	g.lines = make([]hunkLine, len(h.lines))
	numbered := false
	for k, l := range h.lines {
		text := l.text
		if digits := len(text) - len(strings.TrimLeft(text, "0123456789")); digits > 0 && strings.HasPrefix(text[digits:], "\t") {
			text, numbered = text[digits:], true
		}
		if l.op != '+' && !strings.HasPrefix(text, "\t") && strings.TrimSpace(text) != "" {
			return hunk{}, false
		}
		g.lines[k] = hunkLine{op: l.op, text: text}
	}
	return g, numbered
}

// hunkName is how messages name hunk k of an edit.
func hunkName(e *edit, k int, name string) string {
	if e.kind == editDiff {
		return fmt.Sprintf("hunk %d of %s", k+1, name)
	}
	return e.label
}

func problem(e *edit, k int, name, msg string) Problem {
	p := Problem{File: name, Message: msg}
	if e.kind == editDiff {
		p.Hunk = k + 1
	} else {
		p.Message = e.label + ": " + msg
	}
	return p
}

func locateMessage(r locateResult) string {
	if len(r.ambiguous) > 0 {
		var at []string
		for i, p := range r.ambiguous {
			if i == 5 {
				at = append(at, "...")
				break
			}
			at = append(at, fmt.Sprint(p+1))
		}
		return fmt.Sprintf("its unchanged and removed lines match %d places equally well (lines %s); include more unchanged lines around the change so that it matches exactly one place",
			len(r.ambiguous), strings.Join(at, ", "))
	}
	return "its unchanged and removed lines were not found in the file: " + r.hint
}
