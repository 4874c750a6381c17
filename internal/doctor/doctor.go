// Package doctor checks, one item at a time, that everything agentfix needs
// is in place, and says how to fix each thing that is not.
package doctor

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Check is one item of the checklist.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// Fix says what to do when the check failed.
	Fix string `json:"fix,omitempty"`
	// Skipped checks could not run because an earlier one failed; they
	// count as failed.
	Skipped bool `json:"skipped,omitempty"`
}

// Report is the whole checklist.
type Report struct {
	Checks []Check `json:"checks"`
}

// OK reports whether every check passed.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// Find returns the check named name, or nil.
func (r *Report) Find(name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Name == name {
			return &r.Checks[i]
		}
	}
	return nil
}

func (r *Report) pass(name, format string, args ...any) {
	r.Checks = append(r.Checks, Check{Name: name, OK: true, Detail: fmt.Sprintf(format, args...)})
}

func (r *Report) fail(name, detail, fix string) {
	r.Checks = append(r.Checks, Check{Name: name, Detail: detail, Fix: fix})
}

func (r *Report) skip(name, why string) {
	r.Checks = append(r.Checks, Check{Name: name, Skipped: true, Detail: "not checked: " + why})
}

// Print writes the checklist with ✓ and ✗ and the fix under each ✗.
func (r *Report) Print(w io.Writer) {
	width := 0
	for _, c := range r.Checks {
		width = max(width, len(c.Name))
	}
	for _, c := range r.Checks {
		mark := "✓"
		switch {
		case c.Skipped:
			mark = "-"
		case !c.OK:
			mark = "✗"
		}
		fmt.Fprintf(w, "%s %-*s  %s\n", mark, width, c.Name, oneLine(c.Detail))
		if c.Fix != "" {
			fmt.Fprintf(w, "  %*s  fix: %s\n", width, "", oneLine(c.Fix))
		}
	}
	if r.OK() {
		fmt.Fprintln(w, "\nall good")
		return
	}
	n := 0
	for _, c := range r.Checks {
		if !c.OK {
			n++
		}
	}
	fmt.Fprintf(w, "\n%d of %d checks need attention\n", n, len(r.Checks))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Run performs every check that applies and returns the checklist.
func Run(ctx context.Context, opts Options) *Report {
	r := &Report{}
	d := &doctor{opts: opts, r: r}
	d.git(ctx)
	d.config()
	d.ollama(ctx)
	d.verify()
	d.sandbox()
	if opts.Getenv("GITHUB_ACTIONS") == "true" {
		d.actions(ctx)
	}
	return r
}
