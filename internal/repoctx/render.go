package repoctx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfix/agentfix/internal/tokens"
)

// listNames lists the file's definitions for an answer that says a name
// does not exist.
func (o *outline) listNames() string {
	if len(o.syms) == 0 {
		return "nothing the outline recognises; ask for a line range"
	}
	var names []string
	for _, s := range o.syms {
		if len(names) == maxListed {
			names = append(names, fmt.Sprintf("and %d more", len(o.syms)-maxListed))
			break
		}
		names = append(names, s.qualName())
	}
	return strings.Join(names, ", ")
}

func spans(chunks []Chunk) string {
	parts := make([]string, len(chunks))
	for k, c := range chunks {
		parts[k] = fmt.Sprintf("%d-%d", c.StartLine, c.EndLine)
	}
	return strings.Join(parts, ", ")
}

// outlineText lists a file's definitions with their lines, for a file too
// large to show, within limit tokens.
func outlineText(p string, o *outline, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s (%d lines, too large to show whole; its definitions follow: ask for %s:NAME or %s:START-END)\n", p, len(o.lines), p, p)
	for k, s := range o.syms {
		line := fmt.Sprintf("%d-%d: %s\n", s.start, s.end, s.sig)
		more := fmt.Sprintf("(%d more)\n", len(o.syms)-k)
		if tokens.Estimate(b.String()+line+more) > limit {
			b.WriteString(more)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// costOf is the tokens renderChunks would take.
func costOf(p string, o *outline, chunks []Chunk) int {
	return tokens.Estimate(renderChunks(p, o, chunks))
}

// renderChunks writes a file's chunks with a header and line numbers, as
// the pack shows code; a gap between chunks is shown as "...".
func renderChunks(p string, o *outline, chunks []Chunk) string {
	var b strings.Builder
	b.WriteString(chunkHeader(p, len(o.lines), chunks))
	for k, c := range chunks {
		if k > 0 {
			b.WriteString(gapMarker)
		}
		for l := c.StartLine; l <= c.EndLine; l++ {
			b.WriteString(codeLine(l, l == c.StartLine, o.lines[l-1]))
		}
	}
	return b.String()
}

// numberEvery is how often a line of code shows its number. A chunk's
// first line and every tenth line do; the others show only the gutter's
// tab. The numbers are a ruler to read positions by; numbering every line
// took up to a fifth of a pack's tokens (bench/realbugs/README.md).
const numberEvery = 10

// codeLine is line l of a file as the pack shows it: its number when it
// is marked or a multiple of numberEvery, then a tab and the line. (The
// tab aligns the code; padding the numbers would only cost tokens.)
func codeLine(l int, marked bool, line string) string {
	if marked || l%numberEvery == 0 {
		return strconv.Itoa(l) + "\t" + line + "\n"
	}
	return "\t" + line + "\n"
}

func chunkHeader(p string, lines int, chunks []Chunk) string {
	return fmt.Sprintf("\n## %s (lines %s of %d)\n", p, spans(chunks), lines)
}
