package untrusted

import (
	"regexp"
	"strings"
)

// A token is what GitHub turns into a link or an action when it reads
// Markdown: an issue reference ("#1", "GH-1", "owner/repo#1"), which a
// closing keyword before it turns into "close issue 1 on merge"; a person
// or team mention ("@octo/security-team"), which notifies them; a URL
// (GitHub links bare URLs, and "Closes https://…/issues/1" closes too).
// GitHub finds references and mentions in the rendered text, so a
// backslash or an HTML entity (\#1, &#35;1) does not stop it; only code
// formatting does.
//
// GitHub docs: "Autolinked references and URLs"; "Linking a pull request
// to an issue"; "Basic writing and formatting syntax" (mentions).
var token = regexp.MustCompile(`(?i)` +
	"(?:[a-z][a-z0-9+.-]*://|www\\.)[^\\s<>`|]+" +
	// A mention, or an e-mail address with all of its local part (which
	// renderers read generously).
	"|[^\\s<>`|\\\\]*@[\\p{L}\\p{N}_-][\\p{L}\\p{N}_.-]*(?:/[\\p{L}\\p{N}_.-]+)?" +
	`|(?:[\p{L}\p{N}_.-]+/[\p{L}\p{N}_.-]+)?#[0-9]+` +
	`|gh-[0-9]+`)

// mdSpecial are the characters escaped with a backslash in text outside
// tokens: they would start emphasis, a link or an image, raw HTML or an
// entity, a table cell, math, or strike-through.
const mdSpecial = "\\`*_[]<>!&|~#$"

// Markdown renders untrusted text as inline Markdown that shows the text
// and does nothing else: on one line, with every token (see above) in code
// formatting, every other character that Markdown would act on escaped,
// and no invisible or control characters. It is safe inside a paragraph,
// a list item, a blockquote and a table cell.
func Markdown(s string) string {
	s = strings.TrimSpace(oneLine(s))
	var b strings.Builder
	last := 0
	ms := token.FindAllStringIndex(s, -1)
	for i := 0; i < len(ms); i++ {
		start, end := ms[i][0], ms[i][1]
		for i+1 < len(ms) && ms[i+1][0] == end {
			// Adjacent tokens share one code span.
			i++
			end = ms[i][1]
		}
		escapeText(&b, s[last:start], last == 0)
		b.WriteString("`" + s[start:end] + "`")
		last = end
	}
	escapeText(&b, s[last:], last == 0)
	return b.String()
}

// escapeText writes text outside tokens with Markdown's special characters
// escaped; at the start of the rendered text, also what would start a
// list or a heading, and a workflow command's colons.
func escapeText(b *strings.Builder, s string, start bool) {
	for i, r := range s {
		if strings.ContainsRune(mdSpecial, r) || (start && i == 0 && strings.ContainsRune("-+=:", r)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
}

// Code renders untrusted text as one inline code span (a file name, a
// command), with a fence longer than any backtick run in it. Inside code
// GitHub links nothing and mentions no one. In a table cell, the caller
// escapes "|".
func Code(s string) string {
	s = oneLine(s)
	if strings.TrimSpace(s) == "" {
		return "` `"
	}
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ")) {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// Plain renders untrusted text for a plain-text place GitHub still reads
// for references, such as a commit message: on one line, without
// invisible or control characters, with every token broken by a space so
// that no parser takes it for one ("# 1", "@ octo", "https[:]//…").
func Plain(s string) string {
	s = strings.TrimSpace(oneLine(s))
	return token.ReplaceAllStringFunc(s, func(t string) string {
		switch {
		case strings.Contains(t, "://"):
			return strings.Replace(t, "://", "[:]//", 1)
		case strings.HasPrefix(strings.ToLower(t), "www."):
			return "www[.]" + t[4:]
		case strings.HasPrefix(t, "@"):
			return "@ " + t[1:]
		case strings.Contains(t, "#"):
			return strings.Replace(t, "#", "# ", 1)
		}
		return t[:3] + " " + t[3:] // GH-1
	})
}

// oneLine drops invisible and control characters and turns line breaks
// and tabs into spaces.
func oneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case Invisible(r) || r == '\uFFFD':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func longestRun(s string, c rune) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// Line is s on one line, trimmed, without invisible or control characters:
// for a title, which GitHub shows as text.
func Line(s string) string { return strings.TrimSpace(oneLine(s)) }
