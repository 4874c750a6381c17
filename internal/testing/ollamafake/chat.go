package ollamafake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/ollama/ollama/api"
)

// defaultMessages are the real server's texts for statuses scripted with Fail.
var defaultMessages = map[int]string{
	http.StatusBadRequest:          "invalid request",
	http.StatusTooManyRequests:     "too many requests",
	http.StatusInternalServerError: "an error was encountered while running the model: unexpected EOF",
	http.StatusServiceUnavailable:  "server busy, please try again.  maximum pending requests exceeded",
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var cr api.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&cr); err != nil {
		s.record(Request{Method: r.Method, Path: r.URL.Path})
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	req := Request{
		Method:   r.Method,
		Path:     r.URL.Path,
		Model:    cr.Model,
		Messages: cr.Messages,
		Options:  cr.Options,
		Format:   cr.Format,
		Stream:   cr.Stream == nil || *cr.Stream,
		Truncate: cr.Truncate == nil || *cr.Truncate,

		PromptTokens: estimatePromptTokens(cr.Messages),
	}
	if _, ok := s.model(cr.Model); !ok {
		s.record(req)
		notFound(w, cr.Model)
		return
	}
	if msg := formatProblem(cr.Format); msg != "" {
		s.record(req)
		writeError(w, http.StatusInternalServerError, msg)
		return
	}
	reply, ok := s.next(req)
	if !ok {
		// 400, which clients do not retry, so the test fails fast.
		reply = FailWith(http.StatusBadRequest,
			fmt.Sprintf("ollamafake: no reply scripted for model %q; script more replies or set a Handler", cr.Model))
		s.mu.Lock()
		s.unscripted++
		s.mu.Unlock()
	}
	req.Fault = reply.Fault
	s.record(req)

	if !s.wait(r, reply.Delay) {
		return
	}
	switch reply.Fault {
	case FaultStatus:
		msg := reply.Message
		if msg == "" && reply.Status == http.StatusNotFound {
			msg = fmt.Sprintf("model '%s' not found", cr.Model)
		}
		if msg == "" {
			msg = defaultMessages[reply.Status]
		}
		writeError(w, reply.Status, msg)
		return
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	s.answer(w, r, req, reply)
}

// formatProblem is the real server's complaint about a format, "" if none:
// it accepts "json" and JSON objects (schemas) and answers 500 otherwise.
func formatProblem(f json.RawMessage) string {
	t := strings.TrimSpace(string(f))
	switch {
	case t == "", t == "null", t == `""`, t == `"json"`, strings.HasPrefix(t, "{"):
		return ""
	}
	return fmt.Sprintf("invalid format: %q; expected \"json\" or a valid JSON Schema object", t)
}

// answer writes the reply's content, streamed or not, with its fault.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, reply Reply) {
	start := time.Now()
	tokens := splitTokens(reply.Content)
	sent := tokens
	if reply.Fault != NoFault {
		sent = tokens[:(len(tokens)+1)/2]
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	line := func(v any) []byte {
		b, _ := json.Marshal(v)
		return append(b, '\n')
	}
	if req.Stream {
		s.mu.Lock()
		delay := s.tokenDelay
		s.mu.Unlock()
		if reply.TokenDelay > 0 {
			delay = reply.TokenDelay
		}
		for i, tok := range sent {
			if i > 0 && !s.wait(r, delay) {
				return
			}
			w.Write(line(chunk(req.Model, tok)))
			flush()
			if i == 0 && reply.Started != nil {
				reply.Started()
			}
		}
	}
	last := reply.doneChunk(req, len(tokens), time.Since(start))
	if !req.Stream {
		last.Message.Content = strings.Join(sent, "")
	}
	switch reply.Fault {
	case FaultCutAtLine:
		return
	case FaultCutMidLine:
		b := line(last)
		w.Write(b[:len(b)/2])
		return
	case FaultErrorLine:
		msg := reply.Message
		if msg == "" {
			msg = "an error was encountered while running the model: unexpected EOF"
		}
		w.Write(line(map[string]string{"error": msg}))
		return
	}
	w.Write(line(last))
	flush()
}

func chunk(model, content string) api.ChatResponse {
	return api.ChatResponse{
		Model:     model,
		CreatedAt: time.Now().UTC(),
		Message:   api.Message{Role: "assistant", Content: content},
	}
}

func (reply Reply) doneChunk(req Request, ntokens int, took time.Duration) api.ChatResponse {
	c := chunk(req.Model, "")
	c.Done = true
	c.DoneReason = reply.DoneReason
	if c.DoneReason == "" {
		c.DoneReason = "stop"
	}
	c.PromptEvalCount = reply.PromptTokens
	if c.PromptEvalCount == 0 {
		c.PromptEvalCount = req.PromptTokens
	}
	c.EvalCount = reply.CompletionTokens
	if c.EvalCount == 0 {
		c.EvalCount = ntokens
	}
	c.TotalDuration = took + time.Millisecond
	c.EvalDuration = took + time.Millisecond
	return c
}

// estimatePromptTokens is about what a BPE tokenizer gives for code and
// English: four bytes a token, plus the chat template's few per message.
func estimatePromptTokens(msgs []api.Message) int {
	n := 0
	for _, m := range msgs {
		n += (len(m.Content)+3)/4 + 4
	}
	return n
}

// splitTokens cuts s into word-sized pieces (each word with the white space
// after it), the way a model streams them. Joined, they give s back.
func splitTokens(s string) []string {
	var out []string
	start := 0
	prevSpace := false
	for i, c := range s {
		space := unicode.IsSpace(c)
		if prevSpace && !space && i > start {
			out = append(out, s[start:i])
			start = i
		}
		prevSpace = space
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// wait waits d unless the client goes away or the server closes first, and
// reports whether the handler should go on.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}
