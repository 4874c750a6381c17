package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// coldServer answers a chat as a cold Ollama does: the model loads (absent
// from /api/ps), then evaluates the prompt (listed, no token yet), then
// streams. Each phase lasts long enough for several progress lines.
func coldServer(t *testing.T, phase time.Duration) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	loaded := false
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/ps", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		resp := api.ProcessResponse{Models: []api.ProcessModelResponse{}}
		if loaded {
			resp.Models = append(resp.Models, api.ProcessModelResponse{Name: model, Model: model})
		}
		json.NewEncoder(w).Encode(resp)
	})
	mux.HandleFunc("POST /api/chat", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(phase) // loading
		mu.Lock()
		loaded = true
		mu.Unlock()
		time.Sleep(phase) // evaluating the prompt
		enc := json.NewEncoder(w)
		for _, tok := range []string{"fixed", " it"} {
			enc.Encode(api.ChatResponse{Model: model, Message: api.Message{Role: "assistant", Content: tok}})
		}
		enc.Encode(api.ChatResponse{Model: model, Done: true, DoneReason: "stop", Metrics: api.Metrics{EvalCount: 2, PromptEvalCount: 10}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestProgressBeforeTheFirstToken: while a cold model loads and reads the
// prompt, the log says which, at a steady interval, and OnPhase is told
// each change once: a request is never silent until its first token.
func TestProgressBeforeTheFirstToken(t *testing.T) {
	srv := coldServer(t, 150*time.Millisecond)
	var log syncBuffer
	var mu sync.Mutex
	var phases []Phase
	c, err := New(srv.URL, Options{Log: &log, ProgressEvery: 20 * time.Millisecond, OnPhase: func(m string, p Phase) {
		mu.Lock()
		defer mu.Unlock()
		phases = append(phases, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Chat(context.Background(), Request{Model: model, Messages: userMsg("fix it"), NumCtx: 4096})
	if err != nil || resp.Content != "fixed it" {
		t.Fatalf("chat: %v %+v", err, resp)
	}
	out := log.String()
	loading, prompt := strings.Count(out, model+": loading the model, "), strings.Count(out, model+": evaluating the prompt, ")
	if loading < 2 || prompt < 2 {
		t.Errorf("want several lines for each phase, got %d loading and %d prompt:\n%s", loading, prompt, out)
	}
	if strings.LastIndex(out, "loading the model") > strings.Index(out, "evaluating the prompt") {
		t.Errorf("phases out of order:\n%s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := fmtPhases(phases); got != "loading the model|evaluating the prompt|generating" {
		t.Errorf("OnPhase told %s", got)
	}
	n := strings.Count(out, "\n")
	time.Sleep(100 * time.Millisecond)
	if strings.Count(log.String(), "\n") != n {
		t.Errorf("lines after the reply ended:\n%s", log.String())
	}
}

func fmtPhases(ps []Phase) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, "|")
}
