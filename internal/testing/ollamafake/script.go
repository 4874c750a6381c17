package ollamafake

import (
	"fmt"
	"net/http"
	"time"
)

// FaultKind is how a scripted reply misbehaves.
type FaultKind int

// The faults a reply can carry. The cut and error-line faults stream part of
// the content first (half of its tokens, at least one).
const (
	// NoFault answers normally.
	NoFault FaultKind = iota
	// FaultStatus answers with Reply.Status and the body {"error": Message},
	// the way the real server reports errors before streaming starts.
	FaultStatus
	// FaultHang sends nothing until the client cancels the request (or the
	// server is closed).
	FaultHang
	// FaultCutAtLine ends the body after a complete line, without the final
	// "done": true chunk, as when a server dies between two tokens.
	FaultCutAtLine
	// FaultCutMidLine ends the body in the middle of a JSON line.
	FaultCutMidLine
	// FaultErrorLine sends an {"error": Message} line inside a 200 stream,
	// the way the real server reports a failure after streaming started.
	FaultErrorLine
)

// String names the fault in test output.
func (k FaultKind) String() string {
	switch k {
	case NoFault:
		return "none"
	case FaultStatus:
		return "status"
	case FaultHang:
		return "hang"
	case FaultCutAtLine:
		return "cut-at-line"
	case FaultCutMidLine:
		return "cut-mid-line"
	case FaultErrorLine:
		return "error-line"
	}
	return fmt.Sprintf("FaultKind(%d)", int(k))
}

// Reply is one scripted answer to /api/chat.
type Reply struct {
	// Content is the assistant message.
	Content string
	// Fault, with Status and Message, says how the reply misbehaves.
	Fault   FaultKind
	Status  int
	Message string
	// Delay is waited before answering (cut short if the client goes away).
	Delay time.Duration
	// PromptTokens and CompletionTokens are reported in the done chunk;
	// estimated from the request and the content when 0.
	PromptTokens, CompletionTokens int
	// DoneReason is the done chunk's done_reason; "stop" when empty.
	DoneReason string
	// TokenDelay, if set, is waited between streamed tokens instead of the
	// server's SetTokenDelay.
	TokenDelay time.Duration
	// Started, if set, is called once the first token of a streamed reply
	// has been flushed to the client: a test can act mid-stream (cancel,
	// send SIGTERM to the binary under test) with a slow reply.
	Started func()
}

// After returns r answered only after d.
func (r Reply) After(d time.Duration) Reply { r.Delay = d; return r }

// Slowly returns r streamed with d between tokens.
func (r Reply) Slowly(d time.Duration) Reply { r.TokenDelay = d; return r }

// Text is a normal reply with content.
func Text(content string) Reply { return Reply{Content: content} }

// Fail answers with an HTTP status and the message the real server would
// give for it; 404 is "model '<requested model>' not found".
func Fail(status int) Reply { return FailWith(status, "") }

// FailWith answers with an HTTP status and body {"error": msg}.
func FailWith(status int, msg string) Reply {
	return Reply{Fault: FaultStatus, Status: status, Message: msg}
}

// FormatRejected is the real server's answer to a format that is not a
// valid JSON schema: HTTP 500, not 400.
func FormatRejected() Reply {
	return FailWith(http.StatusInternalServerError, "invalid JSON schema in format")
}

// Hang never answers; the request ends when the client cancels it.
func Hang() Reply { return Reply{Fault: FaultHang} }

// CutAtLine streams part of content, then ends without the done chunk.
func CutAtLine(content string) Reply { return Reply{Content: content, Fault: FaultCutAtLine} }

// CutMidLine streams part of content, then ends inside a JSON line.
func CutMidLine(content string) Reply { return Reply{Content: content, Fault: FaultCutMidLine} }

// ErrorLine streams part of content, then an {"error": msg} line, status 200.
func ErrorLine(content, msg string) Reply {
	return Reply{Content: content, Fault: FaultErrorLine, Message: msg}
}

// Handler computes a reply from the request; it answers when a model has no
// scripted reply left. It may be called concurrently.
type Handler func(Request) Reply

// Script appends replies to model's queue; each chat request to that model
// consumes the first one.
func (s *Server) Script(model string, replies ...Reply) {
	model = canonical(model)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts[model] = append(s.scripts[model], replies...)
}

// Respond sets the handler that answers chat requests to model once its
// script is used up; model "" answers for every model without its own.
func (s *Server) Respond(model string, h Handler) {
	if model != "" {
		model = canonical(model)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[model] = h
}

// Unused describes the scripted replies not consumed yet.
func (s *Server) Unused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for model, rs := range s.scripts {
		for _, r := range rs {
			out = append(out, fmt.Sprintf("%s: %s %q", model, r.Fault, clip(r.Content, 40)))
		}
	}
	return out
}

// next pops the reply for a request to model.
func (s *Server) next(req Request) (Reply, bool) {
	name := canonical(req.Model)
	s.mu.Lock()
	if q := s.scripts[name]; len(q) > 0 {
		r := q[0]
		s.scripts[name] = q[1:]
		s.mu.Unlock()
		return r, true
	}
	h := s.handlers[name]
	if h == nil {
		h = s.handlers[""]
	}
	s.mu.Unlock()
	if h == nil {
		return Reply{}, false
	}
	return h(req), true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
