package untrusted

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The runner reads every line of a step's stdout and stderr, and a line
// that starts, after blanks, with "::" (or the older "##[") is a workflow
// command: ::add-mask::, ::warning title=...::, ::stop-commands::. It
// breaks lines at "\n" and at "\r".
//
// GitHub docs: "Workflow commands for GitHub Actions"; actions/runner
// ActionCommand.TryParseV2 (message.TrimStart()).

// LogLine returns s made safe to write as, or inside, one line of the log:
// line breaks, other control characters and invisible characters are
// written as escapes (\n, \x1b, \u202e), so that s cannot start a new line,
// and a command at its start is escaped with a backslash ("\::warning::").
func LogLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteRune(r)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Invisible(r) || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if startsCommand(out) {
		return `\` + out
	}
	return out
}

// startsCommand reports whether a line that begins with s would be read
// as a workflow command.
func startsCommand(s string) bool {
	s = strings.TrimLeftFunc(s, lineBlank)
	return strings.HasPrefix(s, "::") || strings.HasPrefix(s, "##[")
}

// lineBlank is what the runner skips at the start of a line (white space),
// and the invisible characters a reader would not see there either.
func lineBlank(r rune) bool {
	return r != '\n' && r != '\r' && (unicode.IsSpace(r) || Invisible(r))
}

// LogWriter escapes, with a backslash, every line written through it that
// would start a workflow command; everything else passes unchanged. It is
// for streamed text (a test's output); Flush writes a line head it is
// still holding.
type LogWriter struct {
	w io.Writer
	// head holds the start of the current line while it may still become
	// a command: blanks, then a prefix of "::" or "##[".
	head []byte
	// decided: the current line's start has been written; the rest of the
	// line passes through.
	decided bool
}

// NewLogWriter returns a LogWriter writing to w.
func NewLogWriter(w io.Writer) *LogWriter { return &LogWriter{w: w} }

// Write writes p, escaping command lines. It reports len(p) unless w
// failed.
func (l *LogWriter) Write(p []byte) (int, error) {
	n := len(p)
	var out []byte
	for len(p) > 0 {
		if l.decided {
			i := indexBreak(p)
			if i < 0 {
				out = append(out, p...)
				break
			}
			out = append(out, p[:i+1]...)
			p = p[i+1:]
			l.decided = false
			continue
		}
		if !utf8.FullRune(p) {
			// A rune split across writes: wait for the rest.
			l.head = append(l.head, p...)
			break
		}
		_, size := utf8.DecodeRune(p)
		l.head = append(l.head, p[:size]...)
		p = p[size:]
		switch v := verdict(l.head); {
		case v == headCommand, v == headOpen && len(l.head) > maxHead:
			// A backslash before the blanks works as well: the runner
			// does not skip it.
			out = append(out, '\\')
			out = append(out, l.head...)
			l.head, l.decided = l.head[:0], true
		case v == headPlain:
			out = append(out, l.head...)
			last := l.head[len(l.head)-1]
			l.head, l.decided = l.head[:0], last != '\n' && last != '\r'
		}
	}
	if len(out) > 0 {
		if _, err := l.w.Write(out); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Flush writes the line head still held back.
func (l *LogWriter) Flush() error {
	if len(l.head) == 0 {
		return nil
	}
	_, err := l.w.Write(l.head)
	l.head = l.head[:0]
	return err
}

// maxHead bounds the blanks held back at the start of a line.
const maxHead = 4096

type headVerdict int

const (
	headOpen    headVerdict = iota // may still become a command
	headCommand                    // starts a command
	headPlain                      // cannot start one
)

// verdict says whether a line starting with head starts a command.
func verdict(head []byte) headVerdict {
	s := string(head)
	rest := strings.TrimLeftFunc(s, lineBlank)
	switch {
	case strings.HasPrefix(rest, "::") || strings.HasPrefix(rest, "##["):
		return headCommand
	case rest == "", rest == ":", rest == "#", rest == "##":
		return headOpen
	}
	return headPlain
}

func indexBreak(p []byte) int {
	for i, c := range p {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// Logf writes one line to the log: the message formatted, made safe with
// LogLine (its arguments may hold anyone's text), and a newline.
func Logf(w io.Writer, format string, args ...any) {
	io.WriteString(w, LogLine(fmt.Sprintf(format, args...))+"\n")
}
