package event

import (
	"regexp"
	"strings"
)

// Verbs of the slash command.
const (
	VerbFix   = "fix"
	VerbCheck = "check"
	VerbHelp  = "help"
)

// DefaultCommand is the slash command prefix when the config leaves
// triggers.command empty.
const DefaultCommand = "/agent"

// Commands parses slash commands written with one prefix ("/agent").
// Following Prow, each verb has its own anchored, case-insensitive regexp,
// matched at the start of a line (up to three spaces of indentation, as
// Markdown allows) of the comment with code blocks, quoted lines and HTML
// comments removed, so that quoting or showing a command does not run it.
type Commands struct {
	prefix string
	verbs  []verbRE
}

type verbRE struct {
	verb string
	re   *regexp.Regexp
}

// NewCommands returns the parser for prefix; an empty prefix means
// DefaultCommand.
func NewCommands(prefix string) *Commands {
	prefix = strings.TrimSpace(prefix)
	if prefix == "" {
		prefix = DefaultCommand
	}
	c := &Commands{prefix: prefix}
	for _, v := range []string{VerbFix, VerbCheck, VerbHelp} {
		// `/agent fix`, `/agent fix extra words`; not `/agent fixit`,
		// not `/agent fix: x`.
		re := regexp.MustCompile(`(?im)^ {0,3}` + regexp.QuoteMeta(prefix) + `[ \t]+` + v + `(?:[ \t]+(.*?))?[ \t]*$`)
		c.verbs = append(c.verbs, verbRE{v, re})
	}
	return c
}

// Prefix is the command prefix, e.g. "/agent".
func (c *Commands) Prefix() string { return c.prefix }

// Parse returns the first command in body, or nil when there is none.
// When several commands appear, the one on the earliest line wins.
func (c *Commands) Parse(body string) *Command {
	text := StripNonCommands(body)
	best := -1
	var cmd *Command
	for _, v := range c.verbs {
		m := v.re.FindStringSubmatchIndex(text)
		if m == nil || (best >= 0 && m[0] >= best) {
			continue
		}
		best = m[0]
		args := ""
		if m[2] >= 0 {
			args = strings.TrimSpace(text[m[2]:m[3]])
		}
		cmd = &Command{Verb: v.verb, Args: args, Line: strings.TrimSpace(text[m[0]:m[1]])}
	}
	return cmd
}

// StripNonCommands removes from a Markdown comment everything in which a
// command must not be recognised: fenced code blocks (``` and ~~~),
// indented code blocks (four spaces or a tab), block quotes (`>` lines and
// the lines that continue them), and HTML comments. Line endings are
// normalised to \n; removed lines become empty lines, so what is left keeps
// its line structure. One pass, line by line, so that a code block showing
// "<!--" does not hide the rest of the comment.
func StripNonCommands(body string) string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	lines := strings.Split(body, "\n")
	var fence string // the opening fence while inside a fenced block
	inQuote := false // the previous line belonged to a block quote
	inHTML := false  // inside an HTML comment opened on an earlier line
	for i, line := range lines {
		if inHTML {
			end := strings.Index(line, "-->")
			if end < 0 {
				lines[i] = ""
				continue
			}
			inHTML = false
			// What follows the comment is not at the start of a line.
			line = hidden + line[end+3:]
		}
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent <= 3 && isClosingFence(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		switch {
		case indent <= 3 && openingFence(trimmed) != "":
			fence = openingFence(trimmed)
			lines[i] = ""
			inQuote = false
		case strings.TrimSpace(line) == "":
			lines[i] = ""
			inQuote = false
		case indent >= 4 || strings.HasPrefix(line, "\t") || (indent > 0 && strings.HasPrefix(trimmed, "\t")):
			lines[i] = ""
		case strings.HasPrefix(trimmed, ">"):
			lines[i] = ""
			inQuote = true
		case inQuote:
			// A line right after a quote, without a blank line between,
			// continues the quote ("lazy continuation" in CommonMark):
			// GitHub shows it inside the quote.
			lines[i] = ""
		default:
			lines[i], inHTML = stripHTMLComments(line)
		}
	}
	return strings.Join(lines, "\n")
}

// hidden replaces a removed HTML comment inside a line: it is not a space,
// so text after the comment never counts as the start of a line.
const hidden = "\x00"

// stripHTMLComments replaces each <!-- ... --> in line with hidden; open
// reports a comment that continues on the next lines (everything after it
// is dropped).
func stripHTMLComments(line string) (out string, open bool) {
	for {
		i := strings.Index(line, "<!--")
		if i < 0 {
			return line, false
		}
		j := strings.Index(line[i+4:], "-->")
		if j < 0 {
			return line[:i], true
		}
		line = line[:i] + hidden + line[i+4+j+3:]
	}
}

// openingFence returns the fence (a run of three or more ` or ~) that
// opens a fenced code block on line, or "".
func openingFence(line string) string {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	// A backtick fence's info string may not contain backticks.
	if line[0] == '`' && strings.Contains(line[n:], "`") {
		return ""
	}
	return line[:n]
}

// isClosingFence reports whether line closes a block opened with fence: the
// same character, at least as long, nothing else but spaces.
func isClosingFence(line, fence string) bool {
	n := 0
	for n < len(line) && line[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimRight(line[n:], " \t") == ""
}
