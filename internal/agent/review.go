package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/verify"
)

// Verdict is the reviewer model's answer.
type Verdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

var reviewSchema = json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string","enum":["approve","reject"]},"reason":{"type":"string"}},"required":["verdict","reason"]}`)

// ReviewEvent is a session event: the reviewer's verdict on one fix.
type ReviewEvent struct {
	Round   int     `json:"round"`
	Verdict Verdict `json:"verdict"`
	Error   string  `json:"error,omitempty"`
}

// review asks the reviewer model, when one is configured, whether the
// verified fix may be offered. A reply that is not a verdict counts as a
// rejection: the reviewer is a gate, and a gate that cannot be read is
// closed. A rejection goes back to the main model and costs a round.
func (r *run) review(ctx context.Context, applied *appliedPatch, report *verify.Report) (bool, error) {
	model := r.cfg.Reviewer.Model
	if model == "" {
		return true, nil
	}
	if err := r.enter(StateReview, "reviewer "+model); err != nil {
		return false, err
	}
	evidence := "The configured checks pass: " + strings.Join(r.cfg.Verify.Commands, "; ")
	if r.before != nil {
		evidence = fmt.Sprintf("Before the change these checks failed:\n\n%s\n\nAfter it, they all pass: %s", r.before.Summary(feedbackBytes), strings.Join(r.cfg.Verify.Commands, "; "))
	}
	if r.repro != nil {
		evidence = fmt.Sprintf("This test was written to reproduce the task, and failed before the change:\n\n%s\n\nAfter it, the test passes, and so do: %s", r.repro.before.Summary(feedbackBytes), strings.Join(r.cfg.Verify.Commands, "; "))
	}
	diff := applied.Diff
	if r.repro != nil {
		diff = r.repro.diff + diff
	}
	msgs := []llm.Message{system(reviewSystem), user(fmt.Sprintf(reviewRequest, r.task, diff, evidence))}
	reply, err := r.chat(ctx, chatCall{purpose: "review", attempt: 1, model: model, messages: msgs, format: reviewSchema, maxReply: reviewReplyTokens, capped: true})
	if err != nil {
		return false, err
	}
	var v Verdict
	ev := ReviewEvent{Round: r.round}
	if err := json.Unmarshal([]byte(strings.TrimSpace(stripFence(reply))), &v); err != nil || (v.Verdict != "approve" && v.Verdict != "reject") {
		v = Verdict{Verdict: "reject", Reason: "the reviewer's answer was not a verdict"}
		ev.Error = fmt.Sprintf("not a verdict: %q", clip(reply, 200))
	}
	ev.Verdict = v
	r.record("review", ev)
	r.logf("review: %s: %s", v.Verdict, v.Reason)
	if v.Verdict == "approve" {
		return true, nil
	}
	r.say(fmt.Sprintf(feedbackReview, v.Reason))
	return false, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
