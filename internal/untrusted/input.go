// Package untrusted is what agentfix does with text it did not write: an
// issue's title, body and comments, a model's reply, a file name, a test's
// output. Such text is attacker-controlled (GitHub's hardening guide for
// Actions says so of every issue and comment), so it passes through one
// function of this package wherever it crosses a boundary:
//
//   - into the prompt: Clean drops what the maintainer who labelled the
//     issue could not see (HTML comments, image alt text, link reference
//     definitions, invisible and bidi control characters) and counts it;
//   - into the job log: LogLine and LogWriter make sure no line of it can
//     start a workflow command (::add-mask::, ::warning::, ...);
//   - onto GitHub: Markdown, Code and Plain render it so that it cannot
//     close an issue, mention a person or team, show a remote image or
//     carry raw HTML.
package untrusted

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// HiddenKinds names what Clean removes, for the messages that say how
// many passages it left out.
const HiddenKinds = "HTML comments, image alt text, link reference definitions, invisible or bidi characters"

// Cleaned is text with its hidden parts removed.
type Cleaned struct {
	Text string
	// Hidden counts the passages removed: each HTML comment, image with
	// alt text, link reference definition, and run of invisible or control
	// characters.
	Hidden int
}

var (
	mdImage   = regexp.MustCompile(`!\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])`)
	htmlImage = regexp.MustCompile(`(?is)<img\b[^>]*>`)
	imgText   = regexp.MustCompile(`(?is)\b(?:alt|title)\s*=\s*(?:"[^"]*[^"\s][^"]*"|'[^']*[^'\s][^']*'|[^\s>"']+)`)
	// linkDef is a link reference definition ("[x]: url 'title'"), which
	// Markdown renders as nothing; `[//]: # (text)` is the usual way to
	// write an invisible note.
	linkDef = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*\S`)
	fence   = regexp.MustCompile("^ {0,3}(```+|~~~+)")
)

// Clean returns s as a maintainer reading it on GitHub sees it: HTML
// comments, image alt text and titles, link reference definitions, and
// invisible, bidi and control characters are removed (outside fenced code
// blocks, where Markdown shows them, only the characters are). An image
// becomes "[image]".
func Clean(s string) Cleaned {
	var c Cleaned
	// Markdown ends a line at "\r" too.
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	s = c.dropInvisible(s)
	var out strings.Builder
	out.Grow(len(s))
	var open string // the fence of the code block we are in, "" outside
	for pos := 0; pos < len(s); {
		line := s[pos:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		next, code := Fence(open, line)
		open = next
		switch {
		case code:
			out.WriteString(line)
		case linkDef.MatchString(line):
			c.Hidden++
		case strings.Contains(line, "<!--"):
			// A comment hides everything up to "-->", across lines and
			// fences, or to the end of the text when it is not closed.
			head, n := c.dropComments(s[pos:])
			out.WriteString(c.images(head))
			pos += n
			continue
		default:
			out.WriteString(c.images(line))
		}
		pos += len(line)
	}
	c.Text = out.String()
	return c
}

// Fence follows Markdown's fenced code blocks line by line: open is the
// fence of the block line is in ("" outside one); it returns the fence
// after line, and whether line is a fence's or code's, which Markdown
// shows as written, rather than text's.
func Fence(open, line string) (next string, code bool) {
	m := fence.FindStringSubmatch(line)
	switch {
	case open != "":
		if m != nil && m[1][0] == open[0] && len(m[1]) >= len(open) && strings.Trim(line, m[1][:1]+" \t\r\n") == "" {
			return "", true
		}
		return open, true
	case m != nil:
		return m[1], true
	}
	return "", false
}

// dropComments removes the HTML comments that start on the first line of
// s, and those starting on the line where one of them ends; it returns
// the cleaned text up to the end of that line and how much of s it read.
func (c *Cleaned) dropComments(s string) (head string, n int) {
	var b strings.Builder
	for {
		nl := strings.IndexByte(s[n:], '\n')
		j := strings.Index(s[n:], "<!--")
		if j < 0 || (nl >= 0 && nl < j) {
			if nl < 0 {
				b.WriteString(s[n:])
				return b.String(), len(s)
			}
			b.WriteString(s[n : n+nl+1])
			return b.String(), n + nl + 1
		}
		b.WriteString(s[n : n+j])
		c.Hidden++
		end := strings.Index(s[n+j+len("<!--"):], "-->")
		if end < 0 {
			return b.String(), len(s)
		}
		n += j + len("<!--") + end + len("-->")
	}
}

// images replaces Markdown and HTML images with "[image]", counting those
// whose alt text or title said something.
func (c *Cleaned) images(line string) string {
	line = mdImage.ReplaceAllStringFunc(line, func(m string) string {
		if alt := mdImage.FindStringSubmatch(m)[1]; strings.TrimSpace(alt) != "" {
			c.Hidden++
		}
		return "[image]"
	})
	return htmlImage.ReplaceAllStringFunc(line, func(m string) string {
		if imgText.MatchString(m) {
			c.Hidden++
		}
		return "[image]"
	})
}

// dropInvisible removes invisible, bidi and control characters (keeping
// tab, newline and the joiners inside emoji), counting each run once.
func (c *Cleaned) dropInvisible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return Invisible(r) || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	inRun := false
	prev := rune(0)
	for i, r := range s {
		drop := Invisible(r)
		if r == '\u200d' && emojiJoin(prev, s[i+len("\u200d"):]) {
			drop = false
		}
		if r == utf8.RuneError {
			drop = true
		}
		if drop {
			if !inRun {
				c.Hidden++
			}
			inRun = true
			continue
		}
		inRun = false
		prev = r
		b.WriteRune(r)
	}
	return b.String()
}

// emojiJoin reports whether a zero-width joiner between prev and the start
// of next joins two emoji (👨‍👩‍👧), where it is part of what people see.
func emojiJoin(prev rune, next string) bool {
	r, _ := utf8.DecodeRuneInString(next)
	return isEmoji(prev) && isEmoji(r)
}

func isEmoji(r rune) bool {
	return r >= 0x1F000 || unicode.Is(unicode.So, r) || r == '\ufe0f'
}

// Invisible reports whether r is a character a reader does not see but a
// model reads: format characters (zero-width spaces and joiners, the BOM,
// bidi controls, Unicode tags), control characters other than tab and
// newline, variation selectors other than the emoji ones, and the Hangul
// fillers that render as blanks.
func Invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r == '\ufe0e' || r == '\ufe0f':
		return false
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xFE00 && r <= 0xFE0D, r >= 0xE0100 && r <= 0xE01EF:
		return true
	case r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r == 0x2800:
		return true
	}
	return false
}
