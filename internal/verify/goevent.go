package verify

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeEvent decodes one test2json line into e without reflection: a
// chatty suite prints hundreds of thousands of events and encoding/json
// would be most of agentfix's overhead. It accepts only a flat object of
// strings, numbers, booleans and nulls, and returns false for anything
// else, which the caller hands to encoding/json.
func decodeEvent(line []byte, e *rawEvent) bool {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return skipSpace(line, i+1) == len(line)
	}
	for {
		key, next, ok := jsonString(line, i)
		if !ok {
			return false
		}
		i = skipSpace(line, next)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return false
		}
		// Keys match case-insensitively, as in encoding/json.
		var dst *[]byte
		switch {
		case bytes.EqualFold(key, []byte("Action")):
			dst = &e.Action
		case bytes.EqualFold(key, []byte("Package")):
			dst = &e.Package
		case bytes.EqualFold(key, []byte("Test")):
			dst = &e.Test
		case bytes.EqualFold(key, []byte("Output")):
			dst = &e.Output
		case bytes.EqualFold(key, []byte("ImportPath")):
			dst = &e.ImportPath
		case bytes.EqualFold(key, []byte("FailedBuild")):
			dst = &e.FailedBuild
		}
		switch c := line[i]; {
		case c == '"':
			s, next, ok := jsonString(line, i)
			if !ok {
				return false
			}
			if dst != nil {
				*dst = s
			}
			i = next
		case dst != nil:
			return false // a field we use with a type we do not expect
		default:
			j := i
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] >= 'a' && line[j] <= 'z' || line[j] == '-' || line[j] == '+' || line[j] == '.' || line[j] == 'E') {
				j++
			}
			if !validScalar(line[i:j]) {
				return false
			}
			i = j
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		switch line[i] {
		case ',':
			i = skipSpace(line, i+1)
		case '}':
			return skipSpace(line, i+1) == len(line)
		default:
			return false
		}
	}
}

// validScalar reports whether b is a JSON literal or number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validScalar(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// rawEvent is a goEvent whose fields are bytes, often slices of the line
// itself: valid only until the next line is read.
type rawEvent struct {
	Action, Package, Test, Output, ImportPath, FailedBuild []byte
}

// jsonString reads the JSON string starting at b[i] (a quote) and returns
// it, and the index after its closing quote. Without escapes the result is
// a slice of b.
func jsonString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	j := start
	for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 && b[j] < utf8.RuneSelf {
		j++
	}
	if j < len(b) && b[j] == '"' {
		return b[start:j], j + 1, true
	}
	// Slow path: escapes, non-ASCII, or an error.
	out := make([]byte, 0, j-start+16)
	out = append(out, b[start:j]...)
	for j < len(b) {
		c := b[j]
		switch {
		case c == '"':
			return out, j + 1, true
		case c < 0x20:
			return nil, 0, false
		case c == '\\':
			if j+1 >= len(b) {
				return nil, 0, false
			}
			switch e := b[j+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, n, ok := jsonEscapedRune(b, j)
				if !ok {
					return nil, 0, false
				}
				out = utf8.AppendRune(out, r)
				j += n
				continue
			default:
				return nil, 0, false
			}
			j += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			j++
		default:
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError) // as encoding/json does
			} else {
				out = append(out, b[j:j+size]...)
			}
			j += size
		}
	}
	return nil, 0, false
}

// jsonEscapedRune decodes \uXXXX at b[j] (and a following low surrogate),
// returning the rune and the bytes consumed.
func jsonEscapedRune(b []byte, j int) (rune, int, bool) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(b) || b[at] != '\\' || b[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[at+2:at+6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(j)
	if !ok {
		return 0, 0, false
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex(j + 6); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12, true
			}
		}
		return utf8.RuneError, 6, true
	}
	return r, 6, true
}
