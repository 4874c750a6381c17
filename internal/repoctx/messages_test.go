package repoctx

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// bigDecoder is a decoder whose one big function writes forty look-alike
// messages, one of them msg, on its own line, halfway down.
func bigDecoder(msg string) string {
	var b strings.Builder
	b.WriteString("package yaml\n\nimport \"fmt\"\n\n// nodeToValue converts a node.\nfunc nodeToValue(kind int, name string) (any, error) {\n\tswitch kind {\n")
	for k := range 40 {
		if k == 20 {
			fmt.Fprintf(&b, "\tcase -1:\n\t\treturn nil, %s\n", msg)
		}
		fmt.Fprintf(&b, "\tcase %d:\n\t\treturn nil, fmt.Errorf(\"node %d of alias %%q has no value\", name)\n", k, k)
	}
	b.WriteString("\t}\n\treturn nil, nil\n}\n")
	return b.String()
}

// decoderRepo is a repository whose test fails with failing, the message
// written by decode.go (from bigDecoder) four calls below the test, past
// the edges.
func decoderRepo(t *testing.T, decode string, extra map[string]string) string {
	files := map[string]string{
		"go.mod":            "module example.com/yaml\n",
		"yaml/decode.go":    decode,
		"yaml/yaml.go":      "package yaml\n\n// Unmarshal decodes text.\nfunc Unmarshal(text string) (any, error) {\n\treturn document(text)\n}\n\nfunc document(text string) (any, error) {\n\treturn node(text)\n}\n\nfunc node(text string) (any, error) {\n\treturn value(text)\n}\n\nfunc value(text string) (any, error) {\n\treturn nodeToValue(len(text), text)\n}\n",
		"yaml/yaml_test.go": "package yaml\n\nimport \"testing\"\n\nfunc TestAnchor(t *testing.T) {\n\tif _, err := Unmarshal(\"a: *base_url\"); err != nil {\n\t\tt.Fatalf(\"failed to decode: %v\", err)\n\t}\n}\n",
	}
	maps.Copy(files, extra)
	return newRepo(t, files)
}

const anchorFailure = "--- FAIL: TestAnchor (0.00s)\n    yaml_test.go:7: failed to decode: [1:4] could not find alias \"base_url\"\nFAIL\nFAIL\texample.com/yaml\t0.002s\n"

// TestBuildShowsWhereTheQuotedMessageIsWritten: the failure quotes an
// error message; the line of the big function that writes it (a format
// string, its verb filled in) is shown, though the edges never reach it
// and its look-alikes share every word.
func TestBuildShowsWhereTheQuotedMessageIsWritten(t *testing.T) {
	code := bigDecoder(`fmt.Errorf("could not find alias %q", name)`)
	repo := decoderRepo(t, code, nil)
	site := lineOf(code, "could not find alias")
	issue := "Anchors in unmapped fields fail\n\nDecoding a document with an anchor under a field the struct does not map fails with `could not find alias \"base_url\"`, though the anchor is defined.\n"
	for _, query := range []string{anchorFailure, issue} {
		p := build(t, repo, query, 2048)
		if f := fileOf(p, "yaml/decode.go"); f == nil || !covers(f, site, site) {
			t.Errorf("for %q…, the line writing the message (yaml/decode.go:%d) is not shown: %+v", query[:20], site, f)
		}
	}
}

// TestMessagesThatPointNowhere: a message written in many places, an
// assertion helper's message, and a message in a test file are no focus;
// a Python message with a {} placeholder, beside each, is.
func TestMessagesThatPointNowhere(t *testing.T) {
	var many strings.Builder
	many.WriteString("package yaml\n\nimport \"fmt\"\n\n")
	for k := range 4 {
		fmt.Fprintf(&many, "func check%d(name string) error {\n\treturn fmt.Errorf(\"could not find alias %%q\", name)\n}\n\n", k)
	}
	query := "Decoding fails: could not find alias \"base_url\"; the check says expected values to be equal: 1 and 2.\nKeyError: could not find alias base_url\n"
	for name, src := range map[string]string{
		"yaml/many.go":   many.String(),
		"yaml/assert.go": "package yaml\n\nimport \"testing\"\n\n// Equal fails t unless a == b.\nfunc Equal(t testing.TB, a, b any) {\n\tif a != b {\n\t\tt.Fatalf(\"expected values to be equal: %v and %v\", a, b)\n\t}\n}\n",
		"yaml/a_test.go": "package yaml\n\nimport \"testing\"\n\nfunc TestAlias(t *testing.T) {\n\tt.Fatalf(\"could not find alias %q\", \"x\")\n}\n",
	} {
		repo := newRepo(t, map[string]string{
			"go.mod":          "module example.com/yaml\n",
			name:              src,
			"tool/resolve.py": "def resolve(name):\n    raise KeyError(\"could not find alias {}\".format(name))\n",
		})
		r := rank(t, repo, query)
		focus := map[string][]int{}
		for i, ls := range r.focus {
			focus[r.ix.paths[i]] = ls
		}
		if len(focus[name]) > 0 {
			t.Errorf("%s: lines %v are foci, want none", name, focus[name])
		}
		if !slices.Contains(focus["tool/resolve.py"], 2) {
			t.Errorf("beside %s, tool/resolve.py:2 (a {} placeholder) is no focus: %v", name, focus)
		}
	}
}

func TestLiteralsAndQuotes(t *testing.T) {
	r := &Ranking{q: &query{text: "error: could not find alias \"base_url\" at 10%, line 3 of {root}"}}
	for _, c := range []struct {
		line   string
		goFile bool
		want   []string // the literals the query quotes
	}{
		{`return fmt.Errorf("could not find alias %q", name)`, true, []string{"could not find alias %q"}},
		{"return fmt.Errorf(`could not find alias %q`, name)", true, []string{"could not find alias %q"}},
		{`msg := "could not find alias \"base_url\""`, true, []string{`could not find alias "base_url"`}},
		{`fmt.Errorf("could not find alias %q at %d%%", a, b)`, true, []string{"could not find alias %q at %d%%"}}, // %% prints %
		{`fmt.Errorf("could not find alias %q at %%d", a)`, true, nil},                                             // prints "at %d
		{`fmt.Errorf("could not find type %q", name)`, true, nil},
		{`fmt.Sprintf("%s %s", a, b)`, true, nil}, // no prose
		{`errors.New("alias")`, true, nil},        // too short
		{`raise KeyError('could not find alias "{}"'.format(n))`, false, []string{`could not find alias "{}"`}},
		{`log("line {n} of {root}")`, false, nil}, // too few letters
		{`log("line %d of {root}, could not")`, false, nil},
		// A template: an {{if}} may drop text, so its longest text alone
		// must be quoted, and at least 16 bytes long.
		{"t := `{{if .Quiet}}warning: {{end}}could not find alias {{.Name}}{{if .Verbose}} at line {{.Line}}{{end}}`", true,
			[]string{"{{if .Quiet}}warning: {{end}}could not find alias {{.Name}}{{if .Verbose}} at line {{.Line}}{{end}}"}},
		{"t := `{{.Name}}: {{if .Alias}}could not{{end}} at 10%`", true, nil},
	} {
		var got []string
		for _, lit := range literals(c.line, c.goFile) {
			if _, ok := r.quotes(lit, c.goFile); ok {
				got = append(got, lit)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: quoted %q, want %q", c.line, got, c.want)
		}
	}
}

// TestBuildShowsTheTemplateLineThatPrintsTheQuotedText: the report quotes
// a help line that a template spanning many lines prints; its line is
// shown, though its {{if}} drops text and no line of it has a quote.
func TestBuildShowsTheTemplateLineThatPrintsTheQuotedText(t *testing.T) {
	var b strings.Builder
	b.WriteString("package help\n\n")
	for k := range 30 {
		fmt.Fprintf(&b, "// Help%dTemplate is the help of command %d.\nvar Help%dTemplate = `NAME:\n   {{.Name}} - command %d\n\nUSAGE:\n   {{.Name}} {{if .Flags}}command [command options %d]{{end}}{{if .Args}} [arguments %d...]{{end}}\n`\n\n", k, k, k, k, k, k)
		if k == 15 {
			b.WriteString("// GroupTemplate is the help of a group.\nvar GroupTemplate = `NAME:\n   {{.Name}}\n\nUSAGE:\n   {{.Name}} {{if .Flags}}command [command options]{{end}}{{if .Args}} [arguments...]{{end}}\n`\n\n")
		}
	}
	code := b.String()
	repo := newRepo(t, map[string]string{
		"go.mod":           "module example.com/help\n",
		"help/template.go": code,
		"help/help.go":     "package help\n\n// Show prints the help of a command.\nfunc Show(name string) string {\n\treturn name\n}\n",
	})
	site := lineOf(code, "command [command options]")
	issue := "Wrong usage line\n\nThe USAGE line of a command that has subcommands reads `base foo command [command options] [arguments...]`; expected `base foo [command options] [arguments...]`.\n"
	p := build(t, repo, issue, 1024)
	if f := fileOf(p, "help/template.go"); f == nil || !covers(f, site, site) {
		t.Errorf("the template line printing the quoted text (help/template.go:%d) is not shown: %+v", site, f)
	}
}

func TestRawLines(t *testing.T) {
	src := "package p\n" + // 1
		"var a = `one line`\n" + // 2: whole on its line, not marked
		"var b = `first\n" + // 3
		"second\n" + // 4
		"last`\n" + // 5
		"// a comment's ` opens nothing\n" + // 6
		"var c = \"a string's ` opens nothing\"\n" + // 7
		"var d = '`'\n" + // 8
		"/* a block comment's `\n" + // 9
		"spans lines */\n" + // 10
		"var e = `x\n" + // 11
		"y`\n" // 12
	var got []int
	for k, in := range rawLines([]byte(src)) {
		if in {
			got = append(got, k+1)
		}
	}
	if want := []int{3, 4, 5, 11, 12}; !slices.Equal(got, want) {
		t.Errorf("rawLines marks lines %v, want %v", got, want)
	}
}

// TestBuildShowsTheCallerOfTheFunctionWritingTheQuotedMessage: a report
// quotes "duplicate flag -f", which checkFlag writes; its one caller,
// assemble, hands it the flags seen so far and forgets to clear a short
// one, the fault. It is shown, though no word of the report is in it and
// sixty look-alike functions stand between them. A function with a second caller points at neither.
func TestBuildShowsTheCallerOfTheFunctionWritingTheQuotedMessage(t *testing.T) {
	repoWith := func(callers int) (repo, code string) {
		var c strings.Builder
		c.WriteString("package cli\n\nimport \"fmt\"\n\n// checkFlag fails on a flag seen before.\nfunc checkFlag(seen map[string]bool, name string) error {\n\tif seen[name] {\n\t\treturn fmt.Errorf(\"duplicate flag %s\", name)\n\t}\n\tseen[name] = true\n\treturn nil\n}\n\n")
		c.WriteString(strings.TrimPrefix(lookAlikes("cli", "buildStep", ""), "package cli"))
		for k := range callers {
			fmt.Fprintf(&c, "\n// assemble%d collects the names of each group.\nfunc assemble%d(groups map[string][]string) error {\n\tseen := map[string]bool{}\n\tfor _, names := range groups {\n\t\tfor _, n := range names {\n\t\t\tif err := checkFlag(seen, \"-\"+n); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n\t\tfor _, n := range names {\n\t\t\tdelete(seen, \"--\"+n) // the fault\n\t\t}\n\t}\n\treturn nil\n}\n", k, k)
		}
		return newRepo(t, map[string]string{"go.mod": "module example.com/cli\n", "cli/cli.go": c.String()}), c.String()
	}
	issue := "Subcommands sharing a short alias fail\n\nTwo sibling subcommands that both take `-f` fail at start with `duplicate flag -f`. Long flags in separate subcommands are fine.\n"
	repo, code := repoWith(1)
	mustPackFunc(t, build(t, repo, issue, 800), "cli/cli.go", code, "assemble0")

	repo, code = repoWith(2)
	r := rank(t, repo, issue)
	i := slices.Index(r.ix.paths, "cli/cli.go")
	for k := range 2 {
		if w := r.reached[i][lineOf(code, fmt.Sprintf("func assemble%d(", k))]; w > 0 {
			t.Errorf("assemble%d is reached (%v), though checkFlag has two callers", k, w)
		}
	}
}
