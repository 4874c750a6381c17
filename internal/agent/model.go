package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentfix/agentfix/internal/llm"
)

// Model is what the loop needs of a model server. *llm.Client is one;
// Replay answers with the replies a session recorded.
type Model interface {
	// ModelInfo describes a model, or fails with *llm.ModelMissingError or
	// *llm.UnreachableError.
	ModelInfo(ctx context.Context, model string) (*llm.ModelInfo, error)
	// Chat sends one request and returns the whole reply.
	Chat(ctx context.Context, req llm.Request) (*llm.Response, error)
}

var _ Model = (*llm.Client)(nil)

// Chat is a session event: one request to the model and its reply, in full.
type Chat struct {
	// Purpose is "plan", "patch" or "review".
	Purpose          string          `json:"purpose"`
	Round            int             `json:"round,omitempty"`
	Attempt          int             `json:"attempt"`
	Model            string          `json:"model"`
	Messages         []llm.Message   `json:"messages"`
	Format           json.RawMessage `json:"format,omitempty"`
	NumCtx           int             `json:"num_ctx"`
	MaxReplyTokens   int             `json:"max_reply_tokens"`
	Reply            string          `json:"reply"`
	PromptTokens     int             `json:"prompt_tokens"`
	CompletionTokens int             `json:"completion_tokens"`
	Attempts         int             `json:"attempts"`
	DurationMS       int64           `json:"duration_ms"`
	Error            string          `json:"error,omitempty"`
	// FormatRejected says the server refused the request's format, which
	// replay must reproduce for the loop to take the same turn.
	FormatRejected bool `json:"format_rejected,omitempty"`
}

// jsonFormat is Ollama's format for "any JSON", quoted as the API wants it.
const jsonFormat = `"json"`

// chatCall is one request the loop wants to make.
type chatCall struct {
	purpose  string
	attempt  int
	model    string
	messages []llm.Message
	format   json.RawMessage
	maxReply int
	// capped sends maxReply as the reply limit (num_predict). A patch is
	// not capped: a diff cut short is worse than a slow one, and the
	// request timeout bounds a model that does not stop.
	capped bool
}

// chat sends c, records it, and returns the reply's text.
func (r *run) chat(ctx context.Context, c chatCall) (string, error) {
	msgs := r.fit(c.messages, c.maxReply)
	req := llm.Request{Model: c.model, Messages: msgs, Format: c.format, NumCtx: r.cfg.Ollama.NumCtx}
	if c.capped {
		req.MaxReplyTokens = c.maxReply
	}
	start := time.Now()
	resp, err := r.job.Model.Chat(ctx, req)
	took := time.Since(start)
	r.modelTime += took
	ev := Chat{
		Purpose: c.purpose, Round: r.round, Attempt: c.attempt, Model: c.model,
		Messages: msgs, Format: c.format, NumCtx: req.NumCtx, MaxReplyTokens: req.MaxReplyTokens,
		DurationMS: took.Milliseconds(),
	}
	var rejected *llm.RejectedError
	if errors.As(err, &rejected) && rejected.FormatRejected() && string(c.format) != jsonFormat && len(c.format) > 0 {
		// An older server without JSON-schema support: ask for plain JSON
		// and let the loop check the shape.
		ev.Error, ev.FormatRejected = err.Error(), true
		r.record("chat", ev)
		r.logf("%s: the server refused the JSON schema; asking for plain JSON", c.purpose)
		c.format = json.RawMessage(jsonFormat)
		return r.chat(ctx, c)
	}
	if err != nil {
		ev.Error = err.Error()
		r.record("chat", ev)
		return "", fmt.Errorf("chat with %s: %w", c.model, err)
	}
	if ctx.Err() != nil {
		// A stream cut by cancellation can come back as a short reply.
		return "", ctx.Err()
	}
	ev.Reply, ev.NumCtx, ev.Attempts = resp.Content, resp.NumCtx, resp.Attempts
	ev.PromptTokens, ev.CompletionTokens = resp.PromptTokens, resp.CompletionTokens
	r.res.Tokens.Prompt += resp.PromptTokens
	r.res.Tokens.Completion += resp.CompletionTokens
	r.cut = resp.DoneReason == "length"
	r.logf("%s reply: %d tokens in %s", c.purpose, resp.CompletionTokens, took.Round(time.Millisecond))
	return resp.Content, r.record("chat", ev)
}

// fit drops the oldest exchanges after the fixed prefix until the prompt
// and the reply fit the model's window, counted as the client sizes the
// window (llm.WindowTokens); the prefix and the last message are always
// kept. Cutting here, not at the server, keeps the front of the
// prompt: Ollama silently drops the front of a prompt that does not fit.
func (r *run) fit(msgs []llm.Message, maxReply int) []llm.Message {
	window := r.window()
	tokenizer := r.tokenizer()
	if window <= 0 || llm.WindowTokens(msgs, tokenizer)+maxReply <= window {
		return msgs
	}
	fixed := min(r.fixed, len(msgs)-1)
	out := append([]llm.Message(nil), msgs...)
	for len(out) > fixed+1 && llm.WindowTokens(out, tokenizer)+maxReply > window {
		n := 2 // a user message and the reply to it
		if len(out)-fixed-1 < n {
			n = len(out) - fixed - 1
		}
		out = append(out[:fixed], out[fixed+n:]...)
	}
	return out
}

// tokenizer is the model's pre-tokenizer, as llm.WindowTokens counts by
// it; "" when not known.
func (r *run) tokenizer() string {
	if r.info != nil {
		return r.info.Tokenizer
	}
	return ""
}

// window is the context window requests must fit in.
func (r *run) window() int {
	if r.cfg.Ollama.NumCtx > 0 {
		return r.cfg.Ollama.NumCtx
	}
	if r.info != nil {
		return r.info.ContextLength
	}
	return 0
}
