package patch

import "strings"

// text is a file's content as lines, with what is needed to write it back
// byte for byte: lines keep a trailing "\r" when the file has CRLF endings,
// and finalNL says whether the last line ends with a newline.
type text struct {
	lines   []string
	finalNL bool
}

// parseText splits b into lines without their "\n".
func parseText(b []byte) text {
	s := string(b)
	if s == "" {
		return text{finalNL: true}
	}
	t := text{finalNL: strings.HasSuffix(s, "\n")}
	s = strings.TrimSuffix(s, "\n")
	t.lines = strings.Split(s, "\n")
	return t
}

// bytes joins the lines back into file content.
func (t text) bytes() []byte {
	if len(t.lines) == 0 {
		return nil
	}
	s := strings.Join(t.lines, "\n")
	if t.finalNL {
		s += "\n"
	}
	return []byte(s)
}

// crlf reports whether most lines of t end with "\r", so that added lines
// should get one too.
func (t text) crlf() bool {
	n := 0
	for _, l := range t.lines {
		if strings.HasSuffix(l, "\r") {
			n++
		}
	}
	return n > 0 && n*2 >= len(t.lines)
}

// loose is the form lines are compared in when exact matching fails:
// trailing spaces, tabs and carriage returns do not count.
func loose(s string) string { return strings.TrimRight(s, " \t\r") }
