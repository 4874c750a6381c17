package trust

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/event"
)

// RefusalComment is the Markdown reply agentfix posts when d refuses job:
// it quotes the command (or names the label), mentions the actor, and gives
// the reason. It carries event.Marker so it can never trigger agentfix.
func RefusalComment(job *event.Job, d Decision) string {
	var b strings.Builder
	b.WriteString(event.Marker + "\n")
	for _, line := range strings.Split(job.Quote(), "\n") {
		b.WriteString("> " + line + "\n")
	}
	b.WriteString("\n")
	who := "this"
	if job.Actor.Login != "" {
		who = "@" + job.Actor.Login + ", this"
	}
	fmt.Fprintf(&b, "%s was not run: %s.\n", capitalize(who), strings.TrimSuffix(d.Reason, "."))
	return b.String()
}

func capitalize(s string) string {
	if s == "" || s[0] == '@' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
