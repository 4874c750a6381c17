package repoctx

import (
	"regexp"
	"slices"
	"strings"

	"github.com/agentfix/agentfix/internal/untrusted"
)

var (
	// reLogTime is the time GitHub Actions writes before each line of a
	// job's raw log (its "View raw logs" and "Download log archive", and
	// the API's job logs).
	reLogTime = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?`)
	// reEscape is a terminal's escape sequence: a CSI sequence (colors,
	// "\x1b[31m"; cursor moves and erasing, "\x1b[0K"), an OSC sequence
	// (a title or a link, ended by BEL or ST), or a two-byte escape.
	reEscape = regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b\n]*(?:\x07|\x1b\\\\)?|[@-Z\\\\-_])")
	// reOrphanColor is a color code whose escape byte is gone: GitHub
	// shows "\x1b[31m" pasted into an issue as "[31m", and agentfix reads
	// an issue as GitHub shows it.
	reOrphanColor = regexp.MustCompile(`\[\d{1,3}(?:;\d{1,3})*m`)
	// reExitLine is the line the Actions runner ends a failed step's log
	// with.
	reExitLine = regexp.MustCompile(`^##\[error\]Process completed with exit code \d+\.`)
)

// plainLog is text as a terminal or a CI page shows it: without a byte
// order mark, with "\n" line ends (a line that "\r" rewrites shows what
// was written last), without the terminal's escape sequences, which would
// glue their codes to the words they color ("[31mbound" reads as the word
// "mbound"), and without the marks of quoted lines (see unquoted). Of a
// GitHub Actions raw log it keeps what the failing steps printed, without
// the time before each line (see actionsOutput).
func plainLog(text string) string {
	return actionsOutput(unquoted(plainText(text)))
}

// reQuoteMark is the mark of a line that Markdown shows as a quote: "> ",
// or "> > " for a quote in a quote.
var reQuoteMark = regexp.MustCompile(`(?m)^ {0,3}>(?:[ \t]?>)*[ \t]?`)

// unquoted is text without the marks of quoted lines: a report that
// quotes go test's output or a panic ("> --- FAIL: TestGet", ">
// github.com/acme/kv.(*Store).Get(...)") shows it as it was printed, and
// its lines are read from their start, as the output's are.
func unquoted(text string) string {
	if !strings.Contains(text, ">") {
		return text
	}
	return reQuoteMark.ReplaceAllString(text, "")
}

// plainText is text without byte order marks, with "\n" line ends and
// each line as "\r" leaves it, and without escape sequences (see
// plainLog).
func plainText(text string) string {
	if strings.Contains(text, "\ufeff") { // a log file's mark, anywhere a file was pasted
		text = strings.ReplaceAll(text, "\ufeff", "")
	}
	if strings.Contains(text, "\r") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		if strings.Contains(text, "\r") {
			text = lastRewrite(text)
		}
	}
	if strings.Contains(text, "\x1b") {
		text = reEscape.ReplaceAllString(text, "")
	}
	return withoutOrphanColors(text)
}

// withoutOrphanColors is text without the color codes whose escape byte
// is gone. A code written after the escape's spelling in a string
// ("\x1b[31m", "\033[0m") is code, and stays.
func withoutOrphanColors(text string) string {
	ms := reOrphanColor.FindAllStringIndex(text, -1)
	if ms == nil {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		head := strings.ToLower(text[max(0, m[0]-6):m[0]])
		if strings.HasSuffix(head, `\x1b`) || strings.HasSuffix(head, `\033`) || strings.HasSuffix(head, `\u001b`) || strings.HasSuffix(head, `\e`) {
			continue
		}
		b.WriteString(text[last:m[0]])
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// lastRewrite is text with each line as "\r" leaves it on a terminal: a
// progress bar's last state, a CI's hidden section marker gone.
func lastRewrite(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if j := strings.LastIndexByte(strings.TrimSuffix(l, "\n"), '\r'); j >= 0 {
			lines[i] = l[j+1:]
		}
	}
	return strings.Join(lines, "")
}

// logTimed tells whether text is a raw CI log: most of its lines start
// with the time GitHub Actions writes. The lines without one are the
// text of whoever pasted it.
func logTimed(text string) bool {
	n := len(reLogTime.FindAllStringIndex(text, -1))
	return n > 0 && 2*n >= strings.Count(text, "\n")
}

// actionsOutput is text without the time before each line of a raw GitHub
// Actions log, and of a job's log what its steps printed, without the
// runner's own lines; of the steps that failed only, when one did. The
// log of a job is its set-up (runner version, image, permissions), then a
// step after each "##[group]Run X" line, which opens a group with the
// step's script or inputs and its environment, then the step's output; a
// failed step ends with "##[error]Process completed with exit code 1.",
// and the post steps' cleanup follows. The set-up, the script echoed,
// checkout's git commands, setup-go's paths and versions name nothing of
// the failure but are many words. A line without a time in a timed log
// is the text of whoever pasted it, and stays; in a log without times,
// what comes before the first step stays too, as it cannot be told from
// such text. A timed log copied from the middle of a failed step (its
// head left out, a later step that runs always after it) keeps that
// step's end: it failed.
func actionsOutput(text string) string {
	timed := logTimed(text)
	if !strings.Contains(text, "##[group]Run ") {
		if timed {
			return reLogTime.ReplaceAllString(text, "")
		}
		return text
	}
	// A line is its own text's (step -1), or a step's.
	type line struct {
		text string
		step int
	}
	var lines []line
	// failed is each step's: has it failed? In a timed log what precedes
	// the first step is one too: the job's set-up, which never fails, or
	// the end of a step whose head was not copied.
	var failed []bool
	if timed {
		failed = []bool{false}
	}
	header, ended := false, false
	for _, l := range strings.SplitAfter(text, "\n") {
		if timed {
			loc := reLogTime.FindStringIndex(l)
			if loc == nil {
				lines = append(lines, line{l, -1})
				continue
			}
			l = l[loc[1]:]
		}
		switch {
		case strings.HasPrefix(l, "##[group]Run "):
			failed = append(failed, false)
			header, ended = true, false
			continue
		case len(failed) == 0:
			lines = append(lines, line{l, -1})
			continue
		case ended:
			continue // the post steps after a failed one
		case header:
			header = !strings.HasPrefix(l, "##[endgroup]")
			continue
		case reExitLine.MatchString(l):
			failed[len(failed)-1] = true
			ended = true
			continue
		case strings.HasPrefix(l, "##[debug]"):
			continue
		}
		for _, mark := range []string{"##[error]", "##[warning]", "##[notice]"} {
			if rest, ok := strings.CutPrefix(l, mark); ok {
				l = rest
				failed[len(failed)-1] = failed[len(failed)-1] || mark == "##[error]"
			}
		}
		lines = append(lines, line{l, len(failed) - 1})
	}
	anyFailed := slices.Contains(failed, true)
	var b strings.Builder
	for _, l := range lines {
		if l.step < 0 || failed[l.step] || !anyFailed {
			b.WriteString(l.text)
		}
	}
	return b.String()
}

// reHTMLTag is a tag of the HTML that GitHub renders in an issue or a
// comment: <details> and <summary> around a log, <br>, <code>, <kbd>, a
// link or an image. What it wraps is the reporter's; the tag is markup.
var reHTMLTag = regexp.MustCompile(`(?i)</?(?:details|summary|br|p|b|i|em|strong|sub|sup|kbd|code|pre|div|span|hr|img|a|ul|ol|li|h[1-6]|table|thead|tbody|tr|td|th|blockquote)(?:\s[^<>\n]*)?/?>`)

// withoutHTMLTags is text without the tags reHTMLTag matches, outside
// fenced code blocks and code spans, which Markdown shows as written (a
// report of a template that renders <br> wrong quotes it so). The words
// a tag wraps stay: "<summary>Stack trace</summary>" gives " Stack trace ".
// The tags' own words (details, summary, href) would be looked for in the
// code: a Prometheus Summary, a template's details.
func withoutHTMLTags(text string) string {
	if !strings.Contains(text, "<") || !reHTMLTag.MatchString(text) {
		return text
	}
	var b strings.Builder
	fence := ""
	for pos := 0; pos < len(text); {
		line := text[pos:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		pos += len(line)
		var code bool
		if fence, code = untrusted.Fence(fence, line); code {
			b.WriteString(line)
			continue
		}
		// Between an odd and an even backtick: a code span.
		for k, part := range strings.Split(line, "`") {
			if k > 0 {
				b.WriteByte('`')
			}
			if k%2 == 0 {
				part = reHTMLTag.ReplaceAllString(part, " ") // a<br>b: two words
			}
			b.WriteString(part)
		}
	}
	return b.String()
}

// withoutHTMLComments is text without the HTML comments that start a line
// (indented by three spaces at most) outside fenced code blocks: GitHub
// hides them, and issue templates are full of them ("<!-- Paste the
// output of go version -->"), hints the reporter did not write and the
// maintainer does not see. A comment that is not closed runs to the end
// of the text, as GitHub shows it. A comment inside a line stays: go test
// prints such lines ("=== RUN   TestTokens/<!--_-->"), and their output
// is indented.
func withoutHTMLComments(text string) string {
	if !strings.Contains(text, "<!--") {
		return text
	}
	var b strings.Builder
	fence := "" // the fence of the code block we are in
	for pos := 0; pos < len(text); {
		line := text[pos:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		var code bool
		if fence, code = untrusted.Fence(fence, line); !code {
			indent := len(line) - len(strings.TrimLeft(line, " "))
			if indent <= 3 && strings.HasPrefix(line[indent:], "<!--") {
				end := strings.Index(text[pos+indent+4:], "-->")
				if end < 0 {
					return b.String()
				}
				pos += indent + 4 + end + 3
				continue // the rest of the line where it ends
			}
		}
		b.WriteString(line)
		pos += len(line)
	}
	return b.String()
}
