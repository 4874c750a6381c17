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
	// Skipped checks did not run: an earlier one failed (and is counted
	// there) or they do not apply. They do not need attention themselves.
	Skipped bool `json:"skipped,omitempty"`
}

// Report is the whole checklist.
type Report struct {
	Checks []Check `json:"checks"`
	// out, when set, receives each check as it is made, so a slow one
	// (a cold model server) does not hold back the ones before it.
	out io.Writer
}

// nameWidth aligns the printed checklist; it is the longest check name
// ("persist-credentials"), fixed so checks can be printed as they come.
const nameWidth = 19

// OK reports whether no check failed.
func (r *Report) OK() bool { return r.failed() == 0 }

// failed counts the checks that need attention: failed, not skipped.
func (r *Report) failed() int {
	n := 0
	for _, c := range r.Checks {
		if !c.OK && !c.Skipped {
			n++
		}
	}
	return n
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

func (r *Report) add(c Check) {
	r.Checks = append(r.Checks, c)
	if r.out != nil {
		printCheck(r.out, c)
	}
}

func (r *Report) pass(name, format string, args ...any) {
	r.add(Check{Name: name, OK: true, Detail: fmt.Sprintf(format, args...)})
}

func (r *Report) fail(name, detail, fix string) {
	r.add(Check{Name: name, Detail: detail, Fix: fix})
}

func (r *Report) skip(name, why string) {
	r.add(Check{Name: name, Skipped: true, Detail: "not checked: " + why})
}

// Print writes the checklist with ✓, ✗ and - (skipped), the fix under
// each ✗, and the summary.
func (r *Report) Print(w io.Writer) {
	for _, c := range r.Checks {
		printCheck(w, c)
	}
	r.PrintSummary(w)
}

// PrintSummary writes the last line: all good, or how many checks need
// attention.
func (r *Report) PrintSummary(w io.Writer) {
	if r.OK() {
		fmt.Fprintln(w, "\nall good")
		return
	}
	fmt.Fprintf(w, "\n%d of %d checks need attention\n", r.failed(), len(r.Checks))
}

func printCheck(w io.Writer, c Check) {
	mark := "✓"
	switch {
	case c.Skipped:
		mark = "-"
	case !c.OK:
		mark = "✗"
	}
	fmt.Fprintf(w, "%s %-*s  %s\n", mark, nameWidth, c.Name, oneLine(c.Detail))
	if c.Fix != "" {
		fmt.Fprintf(w, "  %*s  fix: %s\n", nameWidth, "", oneLine(c.Fix))
	}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Run performs every check that applies and returns the checklist.
func Run(ctx context.Context, opts Options) *Report {
	r := &Report{out: opts.Out}
	d := &doctor{opts: opts, r: r}
	d.git(ctx)
	d.config()
	d.ollama(ctx)
	d.verify()
	d.sandbox()
	d.workflow()
	if opts.Getenv("GITHUB_ACTIONS") == "true" {
		d.actions(ctx)
	}
	return r
}
