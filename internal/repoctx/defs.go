package repoctx

// defStart marks the first bytes of lines that may define a name.
var defStart = func() (t [256]bool) {
	for _, c := range "ftdcepasi" {
		t[c] = true
	}
	return t
}()

// kind says whether word is a defining keyword ('k': func, type, def,
// class, function, fn, struct, enum, trait, interface), a modifier that may
// come before one ('m': export, pub, async, public, ...), a variable
// keyword that defines only when exported ('v': const, let, var), or
// neither (0).
func kind(word []byte) byte {
	switch string(word) { // a switch on string(b) does not allocate
	case "func", "type", "def", "class", "function", "fn", "struct", "enum", "trait", "interface":
		return 'k'
	case "export", "default", "pub", "pub(crate)", "async", "public", "private", "protected", "static",
		"abstract", "final", "internal":
		return 'm'
	case "const", "let", "var":
		return 'v'
	}
	return 0
}

// defName returns the name a line defines, or nil. line starts at its first
// non-blank byte. Go methods are recognised: func (r *T) Name(...).
func defName(line []byte) []byte {
	exported := false
	for w := 0; w < 4; w++ {
		end := 0
		for end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != '\n' && line[end] != '(' {
			end++
		}
		if end < len(line) && line[end] == '(' && end == 3 && string(line[:3]) == "pub" {
			for end < len(line) && line[end] != ')' {
				end++
			}
			if end < len(line) {
				end++
			}
		}
		if end >= len(line) || end == 0 {
			return nil
		}
		word := line[:end]
		rest := skipBlanks(line[end:])
		switch kind(word) {
		case 'k':
			if string(word) == "func" && len(rest) > 0 && rest[0] == '(' { // method receiver
				i := 0
				for i < len(rest) && rest[i] != ')' && rest[i] != '\n' {
					i++
				}
				if i >= len(rest) || rest[i] != ')' {
					return nil
				}
				rest = skipBlanks(rest[i+1:])
			}
			return leadingIdent(rest)
		case 'm':
			exported = exported || string(word) == "export"
			line = rest
		case 'v': // export const x = ..., but not every local variable
			if !exported {
				return nil
			}
			return leadingIdent(rest)
		default:
			return nil
		}
	}
	return nil
}

func skipBlanks(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

func leadingIdent(b []byte) []byte {
	i := 0
	for i < len(b) && identByte[b[i]] {
		i++
	}
	if i == 0 || isDigit(b[0]) {
		return nil
	}
	return b[:i]
}
