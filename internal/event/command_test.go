package event

import (
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		verb, args string // verb "" means no command
	}{
		{"fix", "/agent fix", "fix", ""},
		{"fix with instructions", "/agent fix keep the API", "fix", "keep the API"},
		{"check with command", "/agent check go test ./...", "check", "go test ./..."},
		{"help", "/agent help", "help", ""},
		{"case insensitive", "/Agent FIX now", "fix", "now"},
		{"after text", "Looks bad.\n\n/agent fix\nthanks", "fix", ""},
		{"crlf", "hi\r\n/agent check make test\r\n", "check", "make test"},
		{"three spaces indent", "   /agent fix", "fix", ""},
		{"trailing spaces", "/agent help   ", "help", ""},
		{"tab separated", "/agent\tcheck\tgo vet", "check", "go vet"},
		{"first command wins", "/agent help\n/agent fix", "help", ""},
		{"first command wins, other order", "/agent check x\n/agent help", "check", "x"},

		{"mid line", "please run /agent fix", "", ""},
		{"no verb", "/agent", "", ""},
		{"unknown verb", "/agent deploy", "", ""},
		{"verb prefix", "/agent fixit", "", ""},
		{"verb then colon", "/agent fix: it", "", ""},
		{"other prefix", "/agents fix", "", ""},
		{"no space", "/agentfix", "", ""},
		{"quoted", "> /agent fix", "", ""},
		{"quoted indented", "  > /agent fix", "", ""},
		{"quoted nested", ">> /agent check", "", ""},
		{"lazy quote continuation", "> you said\n/agent fix", "", ""},
		{"after quote and blank line", "> you said\n\n/agent fix", "fix", ""},
		{"fenced", "```\n/agent fix\n```", "", ""},
		{"fenced with info", "```sh\n/agent fix\n```\n", "", ""},
		{"tilde fence", "~~~\n/agent fix\n~~~", "", ""},
		{"longer closing fence", "````\n/agent fix\n`````\n/agent help", "help", ""},
		{"short fence does not close", "````\n```\n/agent fix\n````", "", ""},
		{"unclosed fence hides rest", "```\n/agent fix", "", ""},
		{"after fence", "```\ncode\n```\n/agent fix", "fix", ""},
		{"indented code", "text\n\n    /agent fix", "", ""},
		{"tab indented code", "\t/agent fix", "", ""},
		{"html comment", "<!-- /agent fix -->", "", ""},
		{"multi-line html comment", "<!--\n/agent fix\n-->\n", "", ""},
		{"unterminated html comment", "<!--\n/agent fix", "", ""},
		{"after html comment", "<!-- note -->\n/agent help", "help", ""},
		{"after html comment on the same line", "<!-- note -->/agent help", "", ""},
		{"after multi-line html comment on its last line", "<!--\nnote -->/agent help", "", ""},
		{"line after multi-line html comment", "<!--\nnote\n-->\n/agent help", "help", ""},
		{"html comment shown in code", "```html\n<!-- comment\n```\n/agent fix", "fix", ""},
		{"html comment in inline text", "see <!-- x --> below\n/agent check", "check", ""},
		{"inline code", "`/agent fix`", "", ""},
		{"empty", "", "", ""},
	}
	c := NewCommands("")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := c.Parse(tc.body)
			switch {
			case tc.verb == "" && got != nil:
				t.Errorf("Parse(%q) = %+v, want no command", tc.body, *got)
			case tc.verb != "" && got == nil:
				t.Errorf("Parse(%q) = nil, want %s %q", tc.body, tc.verb, tc.args)
			case got != nil && (got.Verb != tc.verb || got.Args != tc.args):
				t.Errorf("Parse(%q) = %s %q, want %s %q", tc.body, got.Verb, got.Args, tc.verb, tc.args)
			}
		})
	}
}

func TestParseCommandCustomPrefix(t *testing.T) {
	t.Parallel()
	c := NewCommands("/bot.fix")
	if got := c.Parse("/bot.fix check go test"); got == nil || got.Verb != "check" || got.Args != "go test" {
		t.Errorf("custom prefix: %+v", got)
	}
	// The prefix is literal, not a regexp: "." does not match any char.
	if got := c.Parse("/botxfix help"); got != nil {
		t.Errorf("prefix treated as regexp: %+v", got)
	}
	if got := c.Parse("/agent fix"); got != nil {
		t.Errorf("default prefix accepted with a custom one: %+v", got)
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	got := NewCommands("").Parse("hi\n  /Agent check  go test ./...  \n")
	if got == nil || got.Line != "/Agent check  go test ./..." {
		t.Errorf("Line = %+v, want the command as written, trimmed", got)
	}
}

func TestHasMarker(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		Marker + "\nworking":               true,
		"<!-- agentfix:status issue-7 -->": true,
		"<!--agentfix-->":                  true,
		"<!-- agentfixer -->":              false,
		"agentfix":                         false,
		"/agent fix":                       false,
	} {
		if got := HasMarker(body); got != want {
			t.Errorf("HasMarker(%q) = %v, want %v", body, got, want)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"/agent fix x", "```\n/agent fix\n```", "> /agent check", "<!--\n/agent help", "    /agent fix", "/agent check go test ./...\r\n"} {
		f.Add(s)
	}
	c := NewCommands("")
	f.Fuzz(func(t *testing.T, body string) {
		// Stripping keeps the line structure.
		norm := strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
		if got, want := strings.Count(StripNonCommands(body), "\n"), strings.Count(norm, "\n"); got != want {
			t.Fatalf("StripNonCommands(%q) has %d line breaks, want %d", body, got, want)
		}
		cmd := c.Parse(body)
		if cmd == nil {
			return
		}
		switch cmd.Verb {
		case VerbFix, VerbCheck, VerbHelp:
		default:
			t.Fatalf("verb %q", cmd.Verb)
		}
		// A command is only ever found in text that survives stripping,
		// and parsing what was found finds it again.
		again := c.Parse(cmd.Line)
		if again == nil || again.Verb != cmd.Verb || again.Args != cmd.Args {
			t.Fatalf("Parse(%q) = %+v, but Parse(its line) = %+v", body, cmd, again)
		}
		if !strings.HasPrefix(strings.ToLower(cmd.Line), "/agent") {
			t.Fatalf("line %q does not start with the prefix", cmd.Line)
		}
	})
}
