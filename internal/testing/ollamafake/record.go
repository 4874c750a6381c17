package ollamafake

import (
	"encoding/json"
	"slices"

	"github.com/ollama/ollama/api"
)

// Request is one request as the server received it. Chat fields are set for
// /api/chat only; Model is also set for /api/show.
type Request struct {
	Method string
	Path   string
	Model  string
	// Messages, Options, Format and Stream are the decoded chat request.
	Messages []api.Message
	Options  map[string]any
	Format   json.RawMessage
	Stream   bool
	// Truncate is whether the request lets the server cut a prompt longer
	// than num_ctx (the default when the request does not say).
	Truncate bool
	// PromptTokens is the server's estimate of the prompt's size (four bytes
	// a token, four more a message), the count its done chunk reports
	// unless the reply sets one. Compare it with NumCtx to catch a prompt
	// the real server would silently cut at the front.
	PromptTokens int
	// Fault is the fault the server injected into its reply, if any.
	Fault FaultKind
}

// NumCtx is the num_ctx option as sent, and whether it was sent at all.
func (r Request) NumCtx() (int, bool) { return r.intOption("num_ctx") }

// Seed is the seed option as sent, and whether it was sent at all.
func (r Request) Seed() (int, bool) { return r.intOption("seed") }

// NumPredict is the num_predict option as sent, and whether it was sent.
func (r Request) NumPredict() (int, bool) { return r.intOption("num_predict") }

// Temperature is the temperature option as sent, and whether it was sent at
// all: a missing temperature means the server's default (0.8), not 0.
func (r Request) Temperature() (float64, bool) {
	v, ok := r.Options["temperature"].(float64)
	return v, ok
}

func (r Request) intOption(name string) (int, bool) {
	// JSON numbers decode as float64.
	v, ok := r.Options[name].(float64)
	return int(v), ok
}

// LastMessage is the content of the last message sent, "" if none.
func (r Request) LastMessage() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Chats returns the /api/chat requests received so far, in order.
func (s *Server) Chats() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == "/api/chat" {
			out = append(out, r)
		}
	}
	return out
}
