package repoctx

// Terms are lower-cased sub-words of identifiers and words: ParseDate,
// parse_date and "parse date" all give "parse" and "date"; the whole
// identifier ("parsedate") is a term too, so an exact match counts more.
// Definitions are found by name hash (FNV-1a, 64 bits).

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// exactHash is the FNV-1a hash of b as it is.
func exactHash(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// splitIdent calls f with each sub-word of the identifier id: it splits at
// underscores, at a lower-to-upper change (parseDate) and before the last
// capital of a run followed by a lower-case letter (HTTPServer). Digits stay
// with the letters before them (utf8, Int64). The matcher finds terms by the
// same rules without splitting anything; the tests hold the two together.
func splitIdent(id []byte, f func(sub []byte)) {
	start := -1
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c == '_' {
			if start >= 0 {
				f(id[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if isUpper(c) {
			p := class[id[i-1]] // bytes of non-ASCII runes count as lower-case
			if p == clLower || p == clDigit || (p == clUpper && i+1 < len(id) && class[id[i+1]] == clLower) {
				f(id[start:i])
				start = i
			}
		}
	}
	if start >= 0 {
		f(id[start:])
	}
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if isUpper(b[j]) {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
