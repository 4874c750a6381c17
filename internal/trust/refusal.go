package trust

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// RefusalComment is the Markdown reply agentfix posts when d refuses job:
// it quotes the command (or names the label), mentions the actor, and gives
// the reason. It carries event.Marker so it can never trigger agentfix.
func RefusalComment(job *event.Job, d Decision) string {
	var b strings.Builder
	b.WriteString(event.Marker + "\n")
	if job.Command != nil {
		// Anyone's words: quoted so that they mention, link and close
		// nothing from agentfix's account.
		b.WriteString("> " + untrusted.Markdown(job.Command.Line) + "\n")
	} else {
		for _, line := range strings.Split(job.Quote(), "\n") {
			b.WriteString("> " + line + "\n")
		}
	}
	b.WriteString("\n")
	if job.Actor.Login != "" {
		fmt.Fprintf(&b, "@%s, agentfix did not act on this.\n", job.Actor.Login)
	} else {
		b.WriteString("agentfix did not act on this.\n")
	}
	fmt.Fprintf(&b, "\nReason: %s.\n", strings.TrimSuffix(d.Reason, "."))
	return b.String()
}
