package patch

import "strings"

// reindent is how a hunk's indentation maps onto the file's, when the model
// changed it (tabs written as spaces, a block shifted): it is applied to the
// added lines so they are indented the way the file is.
type reindent func(indent string) (string, bool)

// indentOf splits a line into its leading whitespace and the rest.
func indentOf(s string) (string, string) {
	rest := strings.TrimLeft(s, " \t")
	return s[:len(s)-len(rest)], rest
}

// findReindent finds the one simple rule that turns the indentation of
// every non-blank line of pat into that of the file line it matched:
// tabs for runs of spaces, spaces for tabs, or a prefix added or removed.
// It reports false if no rule fits all lines, so nothing is guessed.
func findReindent(pat, file []string) (reindent, bool) {
	swap := func(from, to string) reindent {
		return func(in string) (string, bool) { return strings.ReplaceAll(in, from, to), true }
	}
	rules := []reindent{swap("    ", "\t"), swap("\t", "    "), swap("  ", "\t"), swap("\t", "  ")}
	for i, p := range pat {
		if strings.TrimSpace(p) == "" {
			continue
		}
		mi, _ := indentOf(trimCR(p))
		fi, _ := indentOf(file[i])
		if add, ok := strings.CutSuffix(fi, mi); ok {
			rules = append(rules, func(in string) (string, bool) { return add + in, true })
		}
		if drop, ok := strings.CutSuffix(mi, fi); ok {
			rules = append(rules, func(in string) (string, bool) {
				out, ok := strings.CutPrefix(in, drop)
				return out, ok
			})
		}
		break
	}
	for _, r := range rules {
		fits := true
		for i, p := range pat {
			if strings.TrimSpace(p) == "" {
				continue
			}
			mi, _ := indentOf(trimCR(p))
			fi, _ := indentOf(file[i])
			if got, ok := r(mi); !ok || got != fi {
				fits = false
				break
			}
		}
		if fits {
			return r, true
		}
	}
	return nil, false
}

// apply reindents one added line; ok is false if the rule does not fit it.
func (r reindent) apply(line string) (string, bool) {
	if strings.TrimSpace(line) == "" {
		return line, true
	}
	in, rest := indentOf(line)
	out, ok := r(in)
	return out + rest, ok
}
