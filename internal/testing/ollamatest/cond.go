package ollamatest

import (
	"fmt"
	"strings"
)

// Cond is a condition on a chat request, which the server evaluates when it
// renders the prompt through the model's template. Build one with the
// functions below; the zero value always holds.
//
// The server merges consecutive messages of one role before rendering
// (joined by a blank line), so "the last user message" is all the user
// messages after the last assistant message.
type Cond struct {
	// expr renders the condition as a template pipeline; name gives the
	// variable a scan sets.
	expr  func(name func(scan) string) string
	scans []scan
}

// scan is a search through a template variable that the template runs
// before choosing a reply, setting a variable of its own when it matches:
// templates have no strings.Contains, but they can range over an integer.
type scan struct {
	in     string // $last or $system
	needle string
	suffix bool // match only at the end
}

// Always holds for every request.
func Always() Cond { return Cond{} }

// LastHasPrefix holds when the last user message starts with p.
func LastHasPrefix(p string) Cond { return hasPrefix("$last", p) }

// LastContains holds when the last user message contains s.
func LastContains(s string) Cond { return scanCond(scan{in: "$last", needle: s}) }

// LastHasSuffix holds when the last user message ends with s.
func LastHasSuffix(s string) Cond { return scanCond(scan{in: "$last", needle: s, suffix: true}) }

// SystemHasPrefix holds when the system prompt starts with p.
func SystemHasPrefix(p string) Cond { return hasPrefix("$system", p) }

// SystemContains holds when the system prompt contains s.
func SystemContains(s string) Cond { return scanCond(scan{in: "$system", needle: s}) }

// Messages holds when the request has exactly n messages once the server
// has merged consecutive messages of one role, the system prompt included.
func Messages(n int) Cond {
	return Cond{expr: func(func(scan) string) string { return fmt.Sprintf("(eq $n %d)", n) }}
}

// Not holds when c does not.
func Not(c Cond) Cond {
	return Cond{scans: c.scans, expr: func(name func(scan) string) string { return "(not " + c.render(name) + ")" }}
}

// And holds when all of cs hold.
func And(cs ...Cond) Cond {
	var scans []scan
	for _, c := range cs {
		scans = append(scans, c.scans...)
	}
	return Cond{scans: scans, expr: func(name func(scan) string) string {
		parts := []string{"(and true"}
		for _, c := range cs {
			parts = append(parts, c.render(name))
		}
		return strings.Join(parts, " ") + ")"
	}}
}

func hasPrefix(v, p string) Cond {
	return Cond{expr: func(func(scan) string) string {
		return fmt.Sprintf("(and (ge (len %s) %d) (eq (slice %s 0 %d) %q))", v, len(p), v, len(p), p)
	}}
}

func scanCond(s scan) Cond {
	return Cond{scans: []scan{s}, expr: func(name func(scan) string) string { return name(s) }}
}

func (c Cond) render(name func(scan) string) string {
	if c.expr == nil {
		return "true"
	}
	return c.expr(name)
}

// template renders the scan: it sets variable v when it matches.
func (s scan) template(v string) string {
	match := fmt.Sprintf("(and (ge (len $r) %d) (eq (slice $r 0 %d) %q))", len(s.needle), len(s.needle), s.needle)
	if s.suffix {
		match = fmt.Sprintf("(eq $r %q)", s.needle)
	}
	return fmt.Sprintf(`{{- %s := false }}{{ range $i := len %s }}{{ if not %s }}{{ $r := slice %s $i }}{{ if %s }}{{ %s = true }}{{ end }}{{ end }}{{ end }}`,
		v, s.in, v, s.in, match, v)
}

// Template returns the Modelfile TEMPLATE: it renders the conversation and
// ends the prompt with the trigger of the first reply whose When holds, or
// with the no-reply token.
func (m Model) Template() string {
	var b strings.Builder
	b.WriteString(`{{- $system := .System }}{{ $last := "" }}{{ $n := len .Messages }}`)
	b.WriteString(`{{- range .Messages }}{{ if eq .Role "user" }}{{ $last = .Content }}{{ end }}{{ end }}`)

	vars := map[scan]string{}
	name := func(s scan) string { return vars[s] }
	for _, r := range m.Replies {
		for _, s := range r.When.scans {
			if _, ok := vars[s]; !ok {
				vars[s] = fmt.Sprintf("$found%d", len(vars))
				b.WriteString(s.template(vars[s]))
			}
		}
	}

	b.WriteString(`{{- range .Messages }}{{ .Role }}: {{ .Content }}` + "\n" + `{{ end }}`)
	for i, r := range m.Replies {
		if i == 0 {
			b.WriteString("{{- if ")
		} else {
			b.WriteString("{{- else if ")
		}
		fmt.Fprintf(&b, "%s }}%s", r.When.render(name), triggerText(i))
	}
	if len(m.Replies) > 0 {
		b.WriteString("{{- else }}" + noReplyText + "{{- end }}")
	} else {
		b.WriteString(noReplyText)
	}
	return b.String()
}
