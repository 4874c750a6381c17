package verify

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Summary is the failures of the failing commands as text to feed back to
// a model: per command a verdict line, then per failure its test, location
// and output. Outputs are trimmed in the middle so that the whole fits in
// maxBytes (no limit when maxBytes <= 0); each failure gets an equal share.
func (r *Report) Summary(maxBytes int) string {
	type block struct {
		head string
		out  string
	}
	var blocks []block
	for _, c := range r.Commands {
		if c.Passed {
			continue
		}
		blocks = append(blocks, block{head: c.verdict(false) + "\n"})
		for _, f := range c.Failures {
			blocks = append(blocks, block{head: "\n" + f.Title() + "\n", out: strings.TrimRight(f.Output, "\n") + "\n"})
		}
	}
	if len(blocks) == 0 {
		return "all verify commands passed\n"
	}
	fixed, outs, nOut := 0, 0, 0
	for _, b := range blocks {
		fixed += len(b.head)
		outs += len(b.out)
		if b.out != "" {
			nOut++
		}
	}
	share := 0
	if maxBytes > 0 && fixed+outs > maxBytes && nOut > 0 {
		// The marker trimMiddle adds costs about 60 bytes.
		share = max((maxBytes-fixed)/nOut-64, 0)
	}
	var sb strings.Builder
	for _, b := range blocks {
		sb.WriteString(b.head)
		switch {
		case share == 0 && maxBytes > 0 && fixed+outs > maxBytes:
		case share > 0 && len(b.out) > share:
			sb.WriteString(TrimMiddle(b.out, share))
		default:
			sb.WriteString(b.out)
		}
	}
	s := sb.String()
	if maxBytes > 0 && len(s) > maxBytes {
		s = s[:maxBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// Command is the command as configured: without the -json agentfix adds
// to go test.
func (c CommandResult) Command() string { return Join(withoutJSON(c.Argv)) }

// Verdict is the one-line outcome of the command, with its duration.
func (c CommandResult) Verdict() string { return c.verdict(true) }

// verdict leaves the duration out for Summary, so that the same failure
// gives the same text to the model.
func (c CommandResult) verdict(withTime bool) string {
	cmd := c.Command()
	took := ""
	if withTime {
		took = fmt.Sprintf(" after %.1fs", float64(c.DurationMS)/1000)
	}
	n := len(c.Failures)
	switch {
	case c.Passed && len(c.Flaky) > 0:
		return fmt.Sprintf("PASS  %s (%d flaky %s passed on re-run%s)", cmd, len(c.Flaky), plural(len(c.Flaky), "test", "tests"), took)
	case c.Passed && withTime:
		return fmt.Sprintf("PASS  %s (%.1fs)", cmd, float64(c.DurationMS)/1000)
	case c.Passed:
		return "PASS  " + cmd
	case c.TimedOut:
		return fmt.Sprintf("FAIL  %s (killed at the timeout%s; %d %s)", cmd, took, n, plural(n, "failure", "failures"))
	}
	return fmt.Sprintf("FAIL  %s (exit %d%s; %d %s)", cmd, c.ExitCode, took, n, plural(n, "failure", "failures"))
}

// Title is the failure's one-line heading: test, package and location.
func (f Failure) Title() string {
	var parts []string
	switch {
	case f.Test != "":
		parts = append(parts, "--- "+f.Test)
	case f.Package != "":
		parts = append(parts, "--- "+f.Package+" (no test: build failure or crash)")
	default:
		parts = append(parts, "---")
	}
	if f.Test != "" && f.Package != "" && f.Package != f.File {
		parts = append(parts, "("+f.Package+")")
	}
	if loc := f.Location(); loc != "" {
		parts = append(parts, "at "+loc)
	}
	return strings.Join(parts, " ")
}

// withoutJSON drops the -json agentfix added, to show the command as
// configured.
func withoutJSON(argv []string) []string {
	if k, _ := goSub(argv); len(argv) > k+1 && argv[k+1] == "-json" {
		return append(append([]string(nil), argv[:k+1]...), argv[k+2:]...)
	}
	return argv
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
