package agent

import (
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/session"
)

// Outline tells a session record one event per line, for a person: the
// collapsed excerpt in a pull request body. It stops after maxLines lines
// or maxBytes bytes; the full record stays where it was written.
func Outline(events []session.Event, maxLines, maxBytes int) string {
	var b strings.Builder
	for i, e := range events {
		if i >= maxLines || b.Len() >= maxBytes {
			break
		}
		s := outlineEvent(e)
		if len(s) > 300 {
			s = s[:300] + " …"
		}
		fmt.Fprintf(&b, "%3d %s\n", e.Seq, s)
	}
	return b.String()
}

func outlineEvent(e session.Event) string {
	switch e.Kind {
	case "transition":
		var t Transition
		if e.Decode(&t) == nil {
			return fmt.Sprintf("%s → %s", t.From, describe(t))
		}
	case "chat":
		var c Chat
		if e.Decode(&c) == nil {
			s := fmt.Sprintf("%s request, round %d attempt %d: %d prompt + %d reply tokens in %dms", c.Purpose, c.Round, c.Attempt, c.PromptTokens, c.CompletionTokens, c.DurationMS)
			if c.Error != "" {
				s += ", error: " + c.Error
			}
			return s
		}
	case "check":
		var c Check
		if e.Decode(&c) == nil {
			return fmt.Sprintf("%s check %v: %s in %dms", c.Stage, c.Commands, passFail(c.Report != nil && c.Report.Passed), c.DurationMS)
		}
	case "patch":
		var p PatchEvent
		if e.Decode(&p) == nil {
			return fmt.Sprintf("patch round %d attempt %d (%s): applied %v", p.Round, p.Attempt, p.Form, p.Applied)
		}
	case "look":
		var l LookEvent
		if e.Decode(&l) == nil {
			return fmt.Sprintf("look: %d requests, %d tokens shown", len(l.Requests), l.Tokens)
		}
	case "result":
		var r ResultEvent
		if e.Decode(&r) == nil {
			return fmt.Sprintf("result %s after %d round(s): %s", r.Result, r.Rounds, r.StopDetail)
		}
	}
	return e.Kind
}
