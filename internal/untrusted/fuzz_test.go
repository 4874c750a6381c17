package untrusted

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// gfm renders Markdown as GitHub does in the parts that matter here:
// CommonMark with tables, strike-through and bare-URL and e-mail links.
// Raw HTML is left out of its output as "raw HTML omitted".
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

var (
	codeElem = regexp.MustCompile(`(?s)<code>.*?</code>`)
	tag      = regexp.MustCompile(`<[^>]*>`)
	// live is what GitHub would link or act on in rendered text.
	live = regexp.MustCompile(`(?i)@[\p{L}\p{N}_-]|#[0-9]|\bgh-[0-9]|(?:https?|ftp)://[\p{L}\p{N}]|www\.[\p{L}\p{N}]`)
)

// FuzzMarkdown renders arbitrary model text with Markdown, places it where
// agentfix does (a paragraph, a list item, a table cell, a blockquote),
// renders that with a CommonMark+GFM renderer, and checks that nothing of
// it is live: no image, link or raw HTML, and no issue reference (so no
// closing keyword can act), mention or URL outside code. The text must
// also stay on one line that starts no workflow command.
func FuzzMarkdown(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.in)
	}
	f.Add("![x](http://e/i.png) <img src=x> [a](http://e) <http://e> @a/b #1 o/r#2 GH-3 www.e.com a@b.co")
	f.Add("&#64;x &#35;1 \\@y \\#2 `@z` ``#3`` \\`#4\\`")
	f.Fuzz(func(t *testing.T, s string) {
		out := Markdown(s)
		if strings.ContainsAny(out, "\r\n") {
			t.Fatalf("Markdown(%q) = %q spans lines", s, out)
		}
		if line, ok := commandLine(out); ok {
			t.Fatalf("Markdown(%q) starts a workflow command: %q", s, line)
		}
		for _, doc := range []string{out, "1. " + out, "| a |\n|---|\n| " + out + " |", "> " + out} {
			var buf bytes.Buffer
			if err := gfm.Convert([]byte(doc), &buf); err != nil {
				t.Fatal(err)
			}
			h := buf.String()
			for _, bad := range []string{"<img", "<a ", "raw HTML omitted"} {
				if strings.Contains(h, bad) {
					t.Fatalf("Markdown(%q) = %q renders %s:\n%s", s, out, bad, h)
				}
			}
			text := html.UnescapeString(tag.ReplaceAllString(codeElem.ReplaceAllString(h, " "), " "))
			if m := live.FindString(text); m != "" {
				t.Fatalf("Markdown(%q) = %q leaves %q live outside code:\n%s", s, out, m, h)
			}
		}
	})
}

// FuzzCode checks that a code span holds all of its text, so nothing of it
// is live.
func FuzzCode(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Code(s)
		var buf bytes.Buffer
		if err := gfm.Convert([]byte("x "+out), &buf); err != nil {
			t.Fatal(err)
		}
		text := html.UnescapeString(tag.ReplaceAllString(codeElem.ReplaceAllString(buf.String(), " "), " "))
		if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "x")) != "" {
			t.Fatalf("Code(%q) = %q leaves text outside code: %q", s, out, text)
		}
	})
}

// FuzzLogWriter checks that no line written through a LogWriter, in any
// pieces, starts a workflow command, and that LogLine never breaks a line.
func FuzzLogWriter(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.in, 3)
	}
	f.Fuzz(func(t *testing.T, s string, chunk int) {
		if line, ok := commandLine("x" + LogLine(s)); ok || strings.ContainsAny(LogLine(s), "\r\n") {
			t.Fatalf("LogLine(%q) = %q breaks the line or starts a command %q", s, LogLine(s), line)
		}
		if line, ok := commandLine(LogLine(s)); ok {
			t.Fatalf("LogLine(%q) starts a command: %q", s, line)
		}
		chunk = max(1, chunk%64)
		var out bytes.Buffer
		w := NewLogWriter(&out)
		for b := []byte(s); len(b) > 0; {
			n := min(chunk, len(b))
			w.Write(b[:n])
			b = b[n:]
		}
		w.Flush()
		if line, ok := commandLine(out.String()); ok {
			t.Fatalf("LogWriter(%q) wrote a command line %q", s, line)
		}
	})
}
