package repoctx

import "encoding/binary"

// matcher finds the query's terms in file contents. It does not tokenize:
// one pass tests every pair of adjacent bytes against a bitset of the
// terms' first two letters (8 KB, so it stays in L1 cache), and only at a
// hit checks the word boundary and compares the candidate terms. That keeps
// the pass over the whole repository close to the speed of git grep.
//
// A sub-word term (from splitting identifiers: "parse", "date") matches
// where identifier splitting would produce it: ParseDate, parse_date,
// parseDate, "parse date". A whole-identifier term ("parsedate") matches a
// whole identifier. Both ignore ASCII case.
type matcher struct {
	terms   []mterm
	bits    [65536 / 64]uint64 // by a term's first two bytes, little-endian
	heads   map[uint16][]int   // first two letters -> term indexes
	symbols map[uint64]bool    // exact hashes of the symbols to find definitions of
}

type mterm struct {
	text []byte // lower-case
	full bool   // matches whole identifiers only
	sym  bool   // a symbol's term: check for a definition where it occurs
}

func pairOf(a, b byte) uint16 { return uint16(a|0x20)<<8 | uint16(b|0x20) }

func newMatcher(terms []mterm, symbols []string) *matcher {
	m := &matcher{terms: terms, heads: map[uint16][]int{}, symbols: map[uint64]bool{}}
	for i, t := range terms {
		if len(t.text) < 2 {
			continue
		}
		p := pairOf(t.text[0], t.text[1])
		m.heads[p] = append(m.heads[p], i)
		le := uint16(t.text[0]) | uint16(t.text[1])<<8
		m.bits[le>>6] |= 1 << (le & 63)
	}
	for _, s := range symbols {
		m.symbols[exactHash([]byte(s))] = true
	}
	return m
}

// each calls f with the position and term index of every match in data, in
// order of position.
func (m *matcher) each(data []byte, f func(pos, term int)) {
	n := len(data)
	if n < 2 {
		return
	}
	bits := &m.bits
	for i := 0; i+1 < n; i++ {
		// The pair as a little-endian word, case folded: one load.
		p := binary.LittleEndian.Uint16(data[i:]) | 0x2020
		if bits[p>>6]&(1<<(p&63)) != 0 {
			m.at(data, i, f)
		}
	}
}

// at calls f for every term that starts at data[i].
func (m *matcher) at(data []byte, i int, f func(pos, term int)) {
	p := binary.LittleEndian.Uint16(data[i:]) | 0x2020
	if m.bits[p>>6]&(1<<(p&63)) == 0 {
		return
	}
	startSub, startID := boundaryBefore(data, i)
	if !startSub {
		return
	}
	n := len(data)
	for _, t := range m.heads[pairOf(data[i], data[i+1])] {
		term := &m.terms[t]
		if term.full && !startID {
			continue
		}
		end := i + len(term.text)
		if end > n || !equalFold(data[i:end], term.text) {
			continue
		}
		if term.full {
			if end < n && identByte[data[end]] {
				continue
			}
		} else if !boundaryAfter(data, end) || splitInside(data, i, end) {
			continue
		}
		f(i, t)
	}
}

// boundaryBefore reports whether a sub-word (and whether an identifier)
// starts at data[i], by the rules of splitIdent.
func boundaryBefore(data []byte, i int) (sub, ident bool) {
	c := class[data[i]]
	if c == clOther || c == clUnder || c == clDigit {
		return false, false
	}
	if i == 0 {
		return true, true
	}
	p := class[data[i-1]]
	switch p {
	case clOther:
		return true, true
	case clUnder:
		return true, false
	}
	if c != clUpper {
		return false, false
	}
	if p == clLower || p == clDigit {
		return true, false
	}
	// An upper-case run: a sub-word starts at its last capital before a
	// lower-case letter (HTTPServer).
	return i+1 < len(data) && class[data[i+1]] == clLower, false
}

// boundaryAfter reports whether a sub-word ends just before data[end].
func boundaryAfter(data []byte, end int) bool {
	if end >= len(data) {
		return true
	}
	switch class[data[end]] {
	case clOther, clUnder:
		return true
	case clUpper:
		p := class[data[end-1]]
		return p == clLower || p == clDigit ||
			p == clUpper && end+1 < len(data) && class[data[end+1]] == clLower
	}
	return false
}

// splitInside reports whether splitIdent would split data[start:end]
// somewhere inside (aA, HTTPServer), so that it is not one sub-word.
func splitInside(data []byte, start, end int) bool {
	for k := start + 1; k < end; k++ {
		if class[data[k]] != clUpper {
			continue
		}
		p := class[data[k-1]]
		if p == clLower || p == clDigit || p == clUpper && k+1 < len(data) && class[data[k+1]] == clLower {
			return true
		}
	}
	return false
}

// equalFold compares b, ASCII case folded, with the lower-case term t.
func equalFold(b, t []byte) bool {
	for k := range t {
		c := b[k]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		if c != t[k] {
			return false
		}
	}
	return true
}

// Byte classes, by the rules of identifiers.
const (
	clOther = iota
	clLower
	clUpper
	clDigit
	clUnder
)

// class maps a byte to its class; bytes of non-ASCII runes count as
// lower-case letters, so identifiers in other scripts stay whole.
var class = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case isLower(b) || b >= 0x80:
			t[c] = clLower
		case isUpper(b):
			t[c] = clUpper
		case isDigit(b):
			t[c] = clDigit
		case b == '_':
			t[c] = clUnder
		}
	}
	return t
}()

// identByte is isIdentByte as a table.
var identByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = class[c] != clOther
	}
	return t
}()
