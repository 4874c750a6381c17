package repoctx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentfix/agentfix/internal/tokens"
)

// Limits of one look request.
const (
	// MaxLookRange is the most lines one FILE:START-END request shows.
	MaxLookRange = 300
	// maxListed bounds the definitions named in an answer that says a
	// name does not exist.
	maxListed = 25
)

// LookItem is what one request of a look became: the chunks shown, an
// outline instead of a file too large to show, or why nothing was shown.
type LookItem struct {
	Request string  `json:"request"`
	Path    string  `json:"path,omitempty"`
	Chunks  []Chunk `json:"chunks,omitempty"`
	// Outline says the file was too large to show whole: its definitions
	// were listed instead, with their lines.
	Outline bool `json:"outline,omitempty"`
	// Seen says the lines were already in the pack, so not shown again.
	Seen bool `json:"seen,omitempty"`
	// Omitted are the lines asked for that the look budget left out
	// (START-END, comma-separated) when only their head was shown.
	Omitted string `json:"omitted,omitempty"`
	// Note is what the answer says about what it shows when that is not
	// what was asked for: the file that was meant, the names the file
	// does not define.
	Note   string `json:"note,omitempty"`
	Error  string `json:"error,omitempty"`
	Tokens int    `json:"tokens"`

	// more are the requests this one leads to: the names of FILE:A, B
	// that FILE does not define and another file does.
	more []string
}

// Look is the answer to a look: the text shown to the model and what each
// request became.
type Look struct {
	Text   string     `json:"-"`
	Items  []LookItem `json:"items"`
	Tokens int        `json:"tokens"`
}

// Look shows the parts of the repository a model asked to see, within
// budget tokens, in the order asked. A request is FILE (the whole file, or
// its outline when it does not fit), FILE:NAME (a function, type, or
// Type.Method; a constant of an enumeration with the whole const block
// it is in), or FILE:START-END (lines, at most MaxLookRange), or a
// NAME alone; parseRequest and cleanName read the other ways models write
// them. Only files git lists and the engine indexes are shown. Lines shown
// already (packed, or by an earlier request) are not shown again. A
// request for something that does not exist is answered with what does: a
// directory with its files, a file the index leaves out with why. A
// request for several names of one file (FILE:A, B) that names one the
// file does not define and one other file does leads to a request for it
// there (OTHER:B), answered after those asked, with an item of its own.
//
// Every request whose answer fits, and costs at most half the budget, is
// shown first; then, in order, the others that still fit; what is left
// then goes to the rest, each cut to its head (the lines left out named),
// so that one large definition neither keeps the small ones after it out
// nor goes unseen.
func (ix *Index) Look(requests []string, shown map[string][]Chunk, budget int) *Look {
	requests = slices.Clone(requests)
	asked := map[string]bool{}
	for _, r := range requests {
		asked[strings.TrimSpace(r)] = true
	}
	l := &Look{Items: make([]LookItem, len(requests))}
	texts := make([]string, len(requests))
	left := budget
	accept := func(k int, item LookItem, text string) bool {
		n := tokens.Estimate(text)
		if n > left {
			return false
		}
		item.Tokens = n
		left -= n
		l.Items[k], texts[k] = item, text
		if item.Error == "" && item.Path != "" {
			shown[item.Path] = mergeChunks(append(append([]Chunk(nil), shown[item.Path]...), item.Chunks...))
		}
		return true
	}
	answer := func(k int, cut bool) (LookItem, string) {
		req := strings.TrimSpace(requests[k])
		item, text := ix.lookOne(req, shown, left, cut)
		if item.Error != "" {
			text = fmt.Sprintf("\n## %s: %s\n", req, item.Error)
		}
		return item, text
	}
	var over, cut []int
	for k := 0; k < len(requests); k++ { // the requests grow by what they lead to
		item, text := answer(k, false)
		for _, r := range item.more {
			if !asked[r] {
				asked[r] = true
				requests = append(requests, r)
				l.Items, texts = append(l.Items, LookItem{}), append(texts, "")
			}
		}
		if tokens.Estimate(text) > budget/2 || !accept(k, item, text) {
			over = append(over, k)
		}
	}
	for _, k := range over {
		if item, text := answer(k, false); !accept(k, item, text) {
			cut = append(cut, k)
		}
	}
	for _, k := range cut {
		item, text := answer(k, true)
		if item.Error == "" && accept(k, item, text) {
			continue
		}
		// What is left does not hold it, nor its head.
		item = LookItem{Request: item.Request, Path: item.Path, Error: fmt.Sprintf("not shown: the look budget (%d tokens) is used up", budget)}
		if !accept(k, item, fmt.Sprintf("\n## %s: %s\n", item.Request, item.Error)) {
			l.Items[k] = item
		}
	}
	l.Text = strings.Join(texts, "")
	l.Tokens = budget - left
	return l
}

// lookOne answers one request within limit tokens: with cut, the lines
// past what fits are left out (see headWithin) and named in the answer;
// without, the answer may cost more than limit.
func (ix *Index) lookOne(req string, shown map[string][]Chunk, limit int, cut bool) (LookItem, string) {
	item := LookItem{Request: req}
	file, what := parseRequest(req)
	p, why, there := ix.resolve(file)
	if what != "" && !isRange(what) {
		what = cleanName(what)
	}
	if why != "" && what != "" && !isRange(what) {
		// A name in a file that is not there: the file of that
		// name elsewhere that defines it, or the one file that does.
		if other := ix.definerFor(file, what); other != "" {
			gone := "no file " + file
			if there { // a directory, a lock file ...
				short, _, _ := strings.Cut(why, ";")
				gone = file + ": " + short
			}
			item.Note = fmt.Sprintf("%s; %s defines %s", gone, other, what)
			p, why = other, ""
		}
	}
	if why != "" && !there && what == "" && relative(file) {
		// The one file of that name, in another directory (not for a
		// range, which only the file asked for can mean).
		if near := ix.near(filepath.ToSlash(file)); len(near) == 1 {
			item.Note = fmt.Sprintf("no file %s; %s is the one file of that name", file, near[0])
			p, why = near[0], ""
		}
	}
	if why != "" {
		if what != "" || !isName(cleanName(file)) {
			item.Error = why
			return item, ""
		}
		// A name without its file: the file that defines it.
		what = cleanName(file)
		var several []string
		switch p, several = ix.definer(what, ""); {
		case len(several) > 0:
			item.Error = fmt.Sprintf("%q is defined in %s; ask for FILE:NAME", what, fileList(several))
			return item, ""
		case p == "" && there:
			item.Error = why // a directory, say: what it holds
			return item, ""
		case p == "":
			item.Error = fmt.Sprintf("%s; and no file defines a function, method or type named %q", why, what)
			return item, ""
		}
	}
	item.Path = p
	o, why := ix.outlineShown(p)
	if why != "" {
		item.Error = why
		return item, ""
	}
	var chunks []Chunk
	switch {
	case what == "":
		whole := []Chunk{span(1, max(1, len(o.lines)))}
		if len(o.lines) == 0 {
			item.Error = "the file is empty"
			return item, ""
		}
		if rest := unseen(whole, shown[p]); len(rest) > 0 && costOf(p, o, rest) > limit && len(o.syms) > 0 {
			// What the pack did not show of it does not fit: its outline,
			// half of what is left at most, so that the parts the model
			// then picks can still be shown.
			item.Outline = true
			return item, outlineText(p, o, limit/2)
		}
		chunks = whole
	case isRange(what):
		lo, hi, why := parseRange(what, len(o.lines))
		if why != "" {
			item.Error = why
			return item, ""
		}
		chunks = []Chunk{span(lo, hi)}
	default:
		if chunks = o.symbolChunks(what); len(chunks) > 0 {
			break
		}
		// Several names: those the file defines; for the others, where
		// they are, and a request for each that one other file defines.
		if names := nameList.Split(what, -1); len(names) > 1 {
			var missing []string
			for _, n := range names {
				if cs := o.symbolChunks(cleanName(n)); len(cs) > 0 {
					chunks = append(chunks, cs...)
				} else {
					missing = append(missing, n)
				}
			}
			var where string
			where, item.more = ix.placeMissing(p, missing)
			if len(chunks) > 0 {
				chunks = mergeChunks(chunks)
				if len(missing) > 0 {
					item.Note = fmt.Sprintf("%s defines no %s%s", p, strings.Join(missing, ", "), where)
				}
				break
			}
			if len(item.more) > 0 {
				item.Error = fmt.Sprintf("%s defines none of %s%s", p, strings.Join(missing, ", "), where)
			} else {
				item.Error = fmt.Sprintf("%s defines none of %s; it defines: %s%s", p, strings.Join(missing, ", "), o.listNames(), where)
			}
			return item, ""
		}
		// Not in the file named: the one file that defines it, if any.
		other, several := ix.definerLike(what, p, p)
		if other == "" {
			item.Error = fmt.Sprintf("%s defines no function, method or type named %q; it defines: %s", p, what, o.listNames())
			if len(several) > 0 {
				item.Error += fmt.Sprintf("; %q is defined in %s", what, fileList(several))
			}
			return item, ""
		}
		if o, why = ix.outlineShown(other); why != "" {
			item.Error = why
			return item, ""
		}
		item.Note = fmt.Sprintf("%s defines no %s; %s does", p, what, other)
		p, item.Path, chunks = other, other, o.symbolChunks(what)
	}
	note := "" // what the answer says before the lines
	if item.Note != "" {
		note = fmt.Sprintf("\n(%s: %s)", req, item.Note)
	}
	rest := unseen(chunks, shown[p])
	if len(rest) == 0 {
		item.Seen, item.Chunks = true, o.named(chunks)
		where := "" // the file asked for
		if note != "" {
			where = " of " + p
		}
		return item, note + fmt.Sprintf("\n## %s: lines %s%s are shown above\n", req, spans(chunks), where)
	}
	if !cut || tokens.Estimate(note)+costOf(p, o, rest) <= limit {
		item.Chunks = o.named(rest)
		return item, note + renderChunks(p, o, rest)
	}
	omitted := func(out []Chunk) string {
		return fmt.Sprintf("(lines %s not shown: the look budget is used up)\n", spans(out))
	}
	head, out := headWithin(p, o, rest, limit-tokens.Estimate(note), omitted)
	if head == nil {
		item.Error = "not shown: the look budget is used up" // Look says how large the budget is
		return item, ""
	}
	item.Chunks, item.Omitted = o.named(head), spans(out)
	return item, note + renderChunks(p, o, head) + omitted(out)
}

// maxPlaced bounds the names of one request that are looked for in the
// other files (each is a pass over the repository's files).
const maxPlaced = 6

// placeMissing says where the names of a request that file p does not
// define are ("; b.go defines B, shown below"), and returns a request for
// each that one other file defines: a model that misremembers where one
// of the names it asks for lives is shown it in the same look.
func (ix *Index) placeMissing(p string, missing []string) (where string, more []string) {
	var says []string
	names := make([]string, min(len(missing), maxPlaced))
	for k := range names {
		names[k] = cleanName(missing[k])
	}
	for k, d := range ix.definersLike(names, p, p) {
		switch name, other, several := names[k], d.file, d.several; {
		case other != "":
			says = append(says, fmt.Sprintf("%s defines %s, shown below", other, name))
			more = append(more, other+":"+name)
		case len(several) > 0:
			says = append(says, fmt.Sprintf("%q is defined in %s", name, fileList(several)))
		default:
			says = append(says, fmt.Sprintf("no file defines %q", name))
		}
	}
	if rest := missing[len(names):]; len(rest) > 0 {
		says = append(says, fmt.Sprintf("not looked for elsewhere: %s (ask for at most %d names at a time)", strings.Join(rest, ", "), maxPlaced))
	}
	if len(says) == 0 {
		return "", nil
	}
	return "; " + strings.Join(says, "; "), more
}

// outlineShown reads and outlines indexed file p for a look, or says why
// it cannot be shown.
func (ix *Index) outlineShown(p string) (*outline, string) {
	src, why := ix.readShown(p)
	if why != "" {
		return nil, why
	}
	return outlineFile(p, src), ""
}

// readShown reads indexed file p for a look, or says why it cannot be
// shown.
func (ix *Index) readShown(p string) ([]byte, string) {
	src, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(p)))
	switch {
	case err != nil:
		return nil, "cannot be read: " + err.Error()
	case len(src) > maxFileBytes || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0:
		return nil, "not shown: a binary or huge file"
	}
	return src, ""
}
