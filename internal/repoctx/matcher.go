package repoctx

// matcher finds the query's terms in file contents. It does not tokenize:
// one pass tests every pair of adjacent bytes against a bitset of the
// terms' first two letters (16 KB, so it stays in L1 cache), and only at a
// hit checks the word boundary and compares the candidate terms. That keeps
// the pass over the whole repository close to the speed of git grep.
//
// A sub-word term (from splitting identifiers: "parse", "date") matches
// where identifier splitting would produce it: ParseDate, parse_date,
// parseDate, "parse date". A whole-identifier term ("parsedate") matches a
// whole identifier. Both ignore ASCII case.
type matcher struct {
	terms []mterm
	// bits holds the terms' first two bytes, little-endian: case folded
	// at a word's start, first byte upper case (afterWord) inside one.
	bits [2 * 65536 / 64]uint64
	// group maps a pair of bytes (little-endian, case folded) to 1 + its
	// index in heads, 0 for none: a table, not a map, because it is read
	// at every word boundary whose pair is in bits.
	group   [65536]uint8
	heads   [][]uint8       // the term indexes starting with one pair
	symbols map[uint64]bool // exact hashes of the symbols to find definitions of
}

type mterm struct {
	text []byte // lower-case
	full bool   // matches whole identifiers only
	sym  bool   // a symbol's term: check for a definition where it occurs
}

// foldedPair is the pair a, b as the scan loop reads it: little-endian,
// ASCII case folded.
func foldedPair(a, b byte) uint16 { return (uint16(a) | uint16(b)<<8) | 0x2020 }

func newMatcher(terms []mterm, symbols []string) *matcher {
	if len(terms) > maxMatcherTerms {
		panic("repoctx: more matcher terms than a byte indexes")
	}
	m := &matcher{terms: terms, symbols: map[uint64]bool{}}
	for i, t := range terms {
		if len(t.text) < 2 {
			continue
		}
		p := foldedPair(t.text[0], t.text[1])
		if m.group[p] == 0 {
			m.heads = append(m.heads, nil)
			m.group[p] = uint8(len(m.heads))
		}
		g := m.group[p] - 1
		m.heads[g] = append(m.heads[g], uint8(i))
		m.set(uint32(t.text[0]) | uint32(t.text[1])<<8)
		if isLower(t.text[0]) && t.text[1]|0x20 == t.text[1] {
			m.set(afterWord | uint32(t.text[0]-('a'-'A')) | uint32(t.text[1])<<8)
		}
	}
	for _, s := range symbols {
		m.symbols[exactHash([]byte(s))] = true
	}
	return m
}

func (m *matcher) set(k uint32) { m.bits[k>>6] |= 1 << (k & 63) }

// each calls f with the position and term index of every match in data, in
// order of position.
//
// One pass looks every pair of adjacent bytes up in bits, keyed also by
// the byte before: after a letter or digit, a term can only start at a
// capital (parseDate), so that half of bits holds the terms' pairs with
// the first letter upper case, and the pairs inside lower-case words, most
// of a file's bytes, hit nothing. (Finding the possible starts eight bytes
// at a time with SWAR masks was slower: the loop over them mispredicts.)
func (m *matcher) each(data []byte, f func(pos, term int)) {
	n := len(data)
	if n < 2 {
		return
	}
	bits, afterOf := &m.bits, &afterByte
	after := uint32(afterOther)
	b := data[0]
	for i, c := range data[1:] { // the pair b, c is at i
		k := after | uint32(b) | uint32(c|0x20)<<8
		if bits[k>>6&uint32(len(bits)-1)]&(1<<(k&63)) != 0 {
			m.at(data, i, f)
		}
		after, b = afterOf[b], c
	}
}

// The key of a pair in matcher.bits, by the byte before it: after a byte
// that is not part of a word (or an underscore) the pair is case folded;
// after a letter or digit it is looked up in the upper half, its first
// byte as written.
const (
	afterOther = 0x20
	afterWord  = 1 << 16
)

// afterByte is the key part for the byte before a pair.
var afterByte = func() (t [256]uint32) {
	for c := range t {
		switch class[c] {
		case clLower, clUpper, clDigit:
			t[c] = afterWord
		default:
			t[c] = afterOther
		}
	}
	return t
}()

// at calls f for every term that starts at data[i].
func (m *matcher) at(data []byte, i int, f func(pos, term int)) {
	g := m.group[foldedPair(data[i], data[i+1])]
	if g == 0 {
		return
	}
	startSub, startID := boundaryBefore(data, i)
	if !startSub {
		return
	}
	n := len(data)
	for _, t := range m.heads[g-1] {
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
		f(i, int(t))
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
