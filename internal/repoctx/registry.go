package repoctx

import (
	"bytes"
	"regexp"
)

// registered are the functions a registry of the test's package maps the
// test's string literals to: a test of Var(v, "url") reaches isURL
// through `"url": isURL,` in a map literal, a call no name shows.
func (r *Ranking) registered(i int, s symbol, dir string) []call {
	o := r.outlineOf(i)
	if o == nil {
		return nil
	}
	reg := r.registry(dir)
	var out []call
	seen := map[string]bool{}
	for l := s.start; l <= s.end && l <= len(o.lines); l++ {
		for _, m := range reKeyLiteral.FindAllStringSubmatch(o.lines[l-1], -1) {
			for _, name := range reg[m[1]] {
				if !seen[name] {
					seen[name] = true
					out = append(out, call{dir: dir, name: name, weight: 1})
				}
			}
		}
	}
	return out
}

// registry maps the string keys of the map literals in the Go package in
// dir (not its tests) to the names the entries give them (read once per
// directory).
func (r *Ranking) registry(dir string) map[string][]string {
	reg, ok := r.registries[dir]
	if !ok {
		reg = map[string][]string{}
		for _, f := range r.dirFiles(dir) {
			if !r.goCode(f.i) {
				continue
			}
			entries, calls := registryLines(f.src)
			for _, m := range append(entries, calls...) {
				reg[string(m[1])] = append(reg[string(m[1])], string(m[2]))
			}
		}
		r.registries[dir] = reg
	}
	return reg
}

// registryLines are the submatches of reRegistryEntry and of
// reRegistryCall in src, each in the order of their lines. Each is
// matched only from the first non-blank byte of a line that can start it
// (a quote; a name and a parenthesis): across the whole text, the
// regexps would try every byte, and cost the most of a report's
// ranking.
func registryLines(src []byte) (entries, calls [][][]byte) {
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		at := start
		for at < end && (src[at] == ' ' || src[at] == '\t' || src[at] == '\r' || src[at] == '\f') { // \s
			at++
		}
		switch {
		case at == end:
		case src[at] == '"':
			if m := reRegistryEntry.FindSubmatch(src[at:]); m != nil {
				entries = append(entries, m)
			}
		case src[at] == '_' || isLower(src[at]) || isUpper(src[at]):
			k := at + 1
			for k < end && (wordByte(src[k]) || src[k] == '.') {
				k++
			}
			if k < end && src[k] == '(' {
				if m := reRegistryCall.FindSubmatch(src[at:]); m != nil {
					calls = append(calls, m)
				}
			}
		}
		start = end + 1
	}
	return entries, calls
}

// wordByte reports whether c is in a regexp's \w: an ASCII letter, digit
// or underscore.
func wordByte(c byte) bool { return c == '_' || isLower(c) || isUpper(c) || isDigit(c) }

var (
	// reKeyLiteral is a short string literal that could name a registry
	// entry: a tag, a command, a format.
	reKeyLiteral = regexp.MustCompile(`"([A-Za-z_][\w\-.]{0,30})"`)
	// reRegistryEntry is a map literal's entry from a string to a name.
	// It is matched from a line's first non-blank byte (registryLines).
	reRegistryEntry = regexp.MustCompile(`\A"([A-Za-z_][\w\-.]{0,30})"\s*:\s*([A-Za-z_]\w*)\s*,`)
	// reRegistryCall is a statement that registers a name under a string:
	// a call whose first argument is the string and whose last is the
	// name (`Default.Add("uri", &u, isRequestURI)`).
	reRegistryCall = regexp.MustCompile(`(?m)\A[A-Za-z_][\w.]*\(\s*"([A-Za-z_][\w\-.]{0,30})"\s*,[^\n]*?([A-Za-z_]\w*)\s*\)\s*$`)
)
