package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/session"
)

// Recording is a session record read back: how the run started, every
// model exchange in order, and how it ended.
type Recording struct {
	Start Start
	// Config is the recorded run's effective configuration.
	Config *config.Config
	Chats  []Chat
	Result *ResultEvent
	Events []session.Event
}

// ParseRecording picks the events replay needs out of a session record.
func ParseRecording(events []session.Event) (*Recording, error) {
	rec := &Recording{Events: events}
	seenStart := false
	for _, e := range events {
		switch e.Kind {
		case "start":
			if err := e.Decode(&rec.Start); err != nil {
				return nil, err
			}
			seenStart = true
		case "chat":
			var c Chat
			if err := e.Decode(&c); err != nil {
				return nil, err
			}
			rec.Chats = append(rec.Chats, c)
		case "result":
			rec.Result = &ResultEvent{}
			if err := e.Decode(rec.Result); err != nil {
				return nil, err
			}
		}
	}
	if !seenStart || rec.Start.Config == "" {
		return nil, errors.New("the record has no start event: it is not an agentfix session")
	}
	rec.Config = config.Default()
	if err := config.Parse("recorded config", []byte(rec.Start.Config), rec.Config, config.Sources{}); err != nil {
		return nil, err
	}
	return rec, nil
}

// ReplayModel answers every chat request with the next recorded reply, in
// order; it never talks to a server.
type ReplayModel struct {
	rec  *Recording
	next int
}

var _ Model = (*ReplayModel)(nil)

// NewReplayModel serves the replies of rec.
func NewReplayModel(rec *Recording) *ReplayModel { return &ReplayModel{rec: rec} }

// ModelInfo returns what the recorded run was told about the model.
func (m *ReplayModel) ModelInfo(ctx context.Context, model string) (*llm.ModelInfo, error) {
	s := m.rec.Start
	if model == m.rec.Config.Reviewer.Model && s.Reviewer != "" {
		return &llm.ModelInfo{Name: s.Reviewer, Digest: s.ReviewerDigest, ContextLength: s.ContextLength}, nil
	}
	return &llm.ModelInfo{Name: s.Model, Digest: s.Digest, ContextLength: s.ContextLength}, nil
}

// ExhaustedError says the replayed run asked the model for something the
// record does not have at that point: more requests than were recorded,
// or (Recorded set) a different kind of request.
type ExhaustedError struct {
	N        int
	Purpose  string
	Recorded string
}

func (e *ExhaustedError) Error() string {
	if e.Recorded != "" {
		return fmt.Sprintf("replay: request %d asks for a %s reply where the record has a %s reply", e.N, e.Purpose, e.Recorded)
	}
	return fmt.Sprintf("replay: the run asked for a %s reply (request %d) that the record does not have", e.Purpose, e.N)
}

// Chat returns the next recorded reply, or the recorded error.
func (m *ReplayModel) Chat(ctx context.Context, req llm.Request) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m.next >= len(m.rec.Chats) {
		return nil, &ExhaustedError{N: m.next + 1, Purpose: purposeOf(req)}
	}
	c := m.rec.Chats[m.next]
	m.next++
	if c.Model != req.Model || (len(c.Format) > 0) != (len(req.Format) > 0) {
		return nil, &ExhaustedError{N: m.next, Purpose: purposeOf(req), Recorded: c.Purpose}
	}
	if c.FormatRejected {
		return nil, &llm.RejectedError{Model: c.Model, Status: 500, Message: "invalid JSON schema in format (recorded)"}
	}
	if c.Error != "" {
		return nil, fmt.Errorf("recorded: %s", c.Error)
	}
	return &llm.Response{
		Content: c.Reply, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens,
		Attempts: 1, NumCtx: c.NumCtx, DoneReason: "stop",
	}, nil
}

func purposeOf(req llm.Request) string {
	if len(req.Format) > 0 {
		return "plan or review"
	}
	return "patch"
}

// Divergence walks the milestones of two records (transitions, patch
// outcomes, check outcomes, the result) and describes the first that
// differs. Timings, token counts and output text are not compared: they
// change from run to run without changing what the loop did.
func Divergence(recorded, replayed []session.Event) string {
	a, b := milestones(recorded), milestones(replayed)
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x == "" {
				x = "(nothing: the record ends here)"
			}
			if y == "" {
				y = "(nothing: the replay ended here)"
			}
			return fmt.Sprintf("step %d: recorded %s; replayed %s", i+1, x, y)
		}
	}
	return "the final diffs differ although every step matched"
}

// milestones lists what a record says the loop did, one line per step.
func milestones(events []session.Event) []string {
	var out []string
	for _, e := range events {
		switch e.Kind {
		case "transition":
			var t Transition
			if e.Decode(&t) == nil {
				if t.To == StateDone {
					t.Reason = "" // carries timings and error text
				}
				out = append(out, "transition "+describe(t))
			}
		case "patch":
			var p PatchEvent
			if e.Decode(&p) == nil {
				diff := ""
				if p.Result != nil {
					diff = p.Result.Diff
				}
				out = append(out, fmt.Sprintf("round %d patch attempt %d: applied=%v diff %s", p.Round, p.Attempt, p.Applied, digest(diff)))
			}
		case "look":
			var l LookEvent
			if e.Decode(&l) == nil {
				switch l.Stage {
				case "verify":
					out = append(out, fmt.Sprintf("look after round %d's failures at %q", l.Round, l.Requests))
				case "reproduce":
					out = append(out, fmt.Sprintf("look after the reproduction's failures at %q", l.Requests))
				case "rerank":
					out = append(out, fmt.Sprintf("look at what the reproduction's failure ranks first: %q", l.Requests))
				default:
					out = append(out, fmt.Sprintf("look at %q", l.Requests))
				}
			}
		case "check":
			var c Check
			if e.Decode(&c) == nil {
				passed := c.Report != nil && c.Report.Passed
				out = append(out, fmt.Sprintf("round %d %s check: passed=%v signature %q", c.Round, c.Stage, passed, c.Signature))
			}
		case "result":
			var r ResultEvent
			if e.Decode(&r) == nil {
				out = append(out, fmt.Sprintf("result %s (%s) diff %s", r.Result, r.StopReason, digest(r.Diff)))
			}
		}
	}
	return out
}

func digest(s string) string {
	if s == "" {
		return "(none)"
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
