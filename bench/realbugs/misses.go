package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentfix/agentfix/internal/repoctx"
)

// enclosing names the definitions of file f that hold site s, or for a
// pure insertion, those holding the lines either side of it.
func enclosing(ix *repoctx.Index, f string, s Site) []string {
	var spans []string
	for _, sp := range s.spans() {
		spans = append(spans, fmt.Sprintf("%s:%d-%d", f, sp[0], sp[1]))
	}
	var out []string
	for _, it := range ix.Look(spans, map[string][]repoctx.Chunk{}, 1<<30).Items {
		for _, c := range it.Chunks {
			for _, sym := range c.Symbols {
				if !slices.Contains(out, sym) {
					out = append(out, sym)
				}
			}
		}
	}
	return out
}

// Where a site the pack does not show is, by what the pack shows around
// it: its file not at all; of the definitions holding it, nothing or only
// other lines; or, in a file packed, no definition holds it (an import, a
// comment between definitions, a file the outline knows no definitions
// of).
const (
	missFile    = "file not packed"
	missDef     = "file packed, definition not shown"
	missPart    = "file packed, definition shown in part"
	missOutside = "file packed, outside any definition"
)

// missKinds are the kinds of misses, in the order the report gives them.
var missKinds = []string{missFile, missDef, missPart, missOutside}

// whyMissed lists the sites the shown chunks miss, each with the
// definitions holding it and where it is (see missKind):
// gjson.go:1011-1011[parseObjectPath; file packed, definition not shown];
// and counts them by where they are.
func whyMissed(ix *repoctx.Index, shown map[string][]repoctx.Chunk, ch *change) (string, map[string]int) {
	var out []string
	kinds := map[string]int{}
	for _, s := range ch.sites {
		if inChunks(shown[s.File], s) {
			continue
		}
		syms := enclosing(ix, s.File, s)
		why := missKind(ix, shown[s.File], s.File, syms)
		kinds[why]++
		out = append(out, fmt.Sprintf("%s[%s; %s]", s, strings.Join(syms, ","), why))
	}
	return strings.Join(out, " "), kinds
}

// missKind says where a site of file is that shown (the chunks of file
// the pack shows) does not show; syms are the definitions holding it.
func missKind(ix *repoctx.Index, shown []repoctx.Chunk, file string, syms []string) string {
	switch {
	case len(shown) == 0:
		return missFile
	case len(syms) == 0:
		return missOutside
	}
	reqs := make([]string, len(syms))
	for k, sym := range syms {
		reqs[k] = file + ":" + sym
	}
	for _, it := range ix.Look(reqs, map[string][]repoctx.Chunk{}, 1<<30).Items {
		for _, c := range it.Chunks {
			if it.Path == file && slices.ContainsFunc(shown, func(sc repoctx.Chunk) bool {
				return sc.StartLine <= c.EndLine && c.StartLine <= sc.EndLine
			}) {
				return missPart
			}
		}
	}
	return missDef
}

// inChunks reports whether site s is shown by cs: every line of a changed
// range (it may span a packed chunk and the look step's chunk right after
// it), or for a pure insertion, a line next to it that is not blank.
func inChunks(cs []repoctx.Chunk, s Site) bool {
	shown := func(l int) bool {
		return slices.ContainsFunc(cs, func(c repoctx.Chunk) bool { return c.StartLine <= l && l <= c.EndLine })
	}
	if s.insertion() {
		return s.Before > 0 && shown(s.Before) || s.After > 0 && shown(s.After)
	}
	for l := s.Start; l <= s.End; l++ {
		if !shown(l) {
			return false
		}
	}
	return true
}

// reportMisses says, for -v's ranker and budget, where the sites the
// packs do not show are (see missKind): per query kind, how many sites
// and in how many cases.
func reportMisses(out io.Writer, tallies map[key]*tally) {
	for _, kind := range []string{"failing", "issue", "executed"} {
		t := tallies[key{kind, verboseWho, verboseBudget}]
		if t == nil || t.cases == 0 {
			continue
		}
		total := 0
		var parts []string
		for _, mk := range missKinds {
			total += t.missed[mk]
			in := "cases"
			if t.missedIn[mk] == 1 {
				in = "case"
			}
			parts = append(parts, fmt.Sprintf("%s %d (%d %s)", mk, t.missed[mk], t.missedIn[mk], in))
		}
		fmt.Fprintf(out, "misses, %s at %dk, %s: %d sites not shown in %d of %d cases; %s\n",
			verboseWho, verboseBudget/1024, kind, total, t.cases-t.sitesAll, t.cases, strings.Join(parts, "; "))
	}
}
