package agent

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/verify"
)

// summarize is the failure summary the model reads, at most max bytes.
func summarize(rep *verify.Report, max int) string {
	var b strings.Builder
	for _, c := range rep.Commands {
		if c.Passed {
			continue
		}
		fmt.Fprintf(&b, "$ %s (exit %d)\n", strings.Join(c.Argv, " "), c.ExitCode)
		for _, f := range c.Failures {
			fmt.Fprintf(&b, "--- %s", f.ID())
			if loc := f.Location(); loc != "" {
				fmt.Fprintf(&b, " at %s", loc)
			}
			fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(f.Output))
		}
	}
	s := b.String()
	if len(s) > max {
		s = s[:max] + "\n[… cut]\n"
	}
	return s
}
