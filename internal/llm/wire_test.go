package llm

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/ollama/ollama/api"
)

// TestChatSendsDeterministicOptions asserts the request as the server
// received it: temperature 0 sent explicitly (api.Options would drop it),
// the seed, num_ctx, num_predict, the format and the messages.
func TestChatSendsDeterministicOptions(t *testing.T) {
	f := newFixture(t, Options{Seed: 0})
	f.srv.Script(model, ollamafake.Text(`{"files":["a.go"]}`))
	schema := json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"}}},"required":["files"]}`)
	msgs := []Message{{Role: "system", Content: "You fix bugs."}, {Role: "user", Content: "Plan the fix."}}
	if _, err := f.client.Chat(context.Background(), Request{Model: model, Messages: msgs, Format: schema, NumCtx: 16384, MaxReplyTokens: 1024}); err != nil {
		t.Fatal(err)
	}
	chats := f.srv.Chats()
	if len(chats) != 1 {
		t.Fatalf("server saw %d chat requests, want 1", len(chats))
	}
	got := chats[0]
	if temp, ok := got.Temperature(); !ok || temp != 0 {
		t.Errorf("temperature = %v (sent: %v), want 0 sent explicitly", temp, ok)
	}
	if seed, ok := got.Seed(); !ok || seed != 0 {
		t.Errorf("seed = %v (sent: %v), want 0 sent explicitly", seed, ok)
	}
	if n, ok := got.NumCtx(); !ok || n != 16384 {
		t.Errorf("num_ctx = %v (sent: %v), want 16384", n, ok)
	}
	if n, ok := got.NumPredict(); !ok || n != 1024 {
		t.Errorf("num_predict = %v (sent: %v), want 1024", n, ok)
	}
	if string(got.Format) != string(schema) {
		t.Errorf("format = %s, want %s", got.Format, schema)
	}
	if !got.Stream {
		t.Error("request was not streamed")
	}
	want := []api.Message{{Role: "system", Content: "You fix bugs."}, {Role: "user", Content: "Plan the fix."}}
	if !slices.EqualFunc(got.Messages, want, func(a, b api.Message) bool { return a.Role == b.Role && a.Content == b.Content }) {
		t.Errorf("messages = %+v, want %+v", got.Messages, want)
	}
}

func TestChatSendsConfiguredSeedAndOmitsNumPredict(t *testing.T) {
	f := newFixture(t, Options{Seed: 1234})
	f.srv.Script(model, ollamafake.Text("ok"))
	if _, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 2048, Format: json.RawMessage(`"json"`)}); err != nil {
		t.Fatal(err)
	}
	got := f.srv.Chats()[0]
	if seed, _ := got.Seed(); seed != 1234 {
		t.Errorf("seed = %d, want 1234", seed)
	}
	if _, ok := got.NumPredict(); ok {
		t.Error("num_predict sent without MaxReplyTokens")
	}
	if string(got.Format) != `"json"` {
		t.Errorf("format = %s, want \"json\"", got.Format)
	}
}

// With NumCtx 0, Chat sizes num_ctx from the prompt and the model's context
// length, and never asks for more than the model has.
func TestChatChoosesNumCtx(t *testing.T) {
	srv := ollamafake.New(t,
		ollamafake.Model{Name: "big:32b", ContextLength: 131072},
		ollamafake.Model{Name: "small:1b", Family: "llama", ContextLength: 8192},
		ollamafake.Model{Name: "qwen:14b", ContextLength: 32768, Tokenizer: "qwen2"},
	)
	c, err := New(srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("return nil\n", 5000) // 55000 bytes, 20000 tokens by tokens.Estimate
	mid := strings.Repeat("return nil\n", 3500)
	tests := []struct {
		model, prompt string
		want          int
	}{
		{"big:32b", "short", 8192}, // 4096 reply room + margin
		{"big:32b", long, 32768},   // 24104 tokens with the reply
		{"small:1b", long, 8192},   // capped at the model's length
		{"small:1b", "short prompt", 8192},
		// 14008 tokens by the count: 18104 with the reply; a Qwen
		// tokenizer needs at most 11207 of its own, 15303 with the reply.
		{"big:32b", mid, 32768},
		{"qwen:14b", mid, 16384},
	}
	for _, tt := range tests {
		srv.Script(tt.model, ollamafake.Text("ok"))
		resp, err := c.Chat(context.Background(), Request{Model: tt.model, Messages: userMsg(tt.prompt)})
		if err != nil {
			t.Fatal(err)
		}
		chats := srv.Chats()
		sent, _ := chats[len(chats)-1].NumCtx()
		if sent != tt.want || resp.NumCtx != tt.want {
			t.Errorf("%s, %d-byte prompt: num_ctx sent %d, reported %d, want %d", tt.model, len(tt.prompt), sent, resp.NumCtx, tt.want)
		}
	}
}

func TestChatLogsProgress(t *testing.T) {
	clock := time.Unix(0, 0)
	f := newFixture(t, Options{
		ProgressEvery: 5 * time.Second,
		Now:           func() time.Time { clock = clock.Add(time.Second); return clock },
	})
	words := strings.Repeat("token ", 12)
	f.srv.Script(model, ollamafake.Reply{Content: words, CompletionTokens: 12})
	if _, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 2048}); err != nil {
		t.Fatal(err)
	}
	// One second a clock reading: the first line comes at the 5th token.
	log := f.log.String()
	for _, want := range []string{
		"ollama: " + model + ": 5 tokens, 1.0 tokens/s, 5s\n",
		"ollama: " + model + ": 10 tokens, 1.0 tokens/s, 10s\n",
		"ollama: " + model + ": done, 12 tokens in 13s\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestChatRejectsEmptyRequest(t *testing.T) {
	f := newFixture(t, Options{})
	if _, err := f.client.Chat(context.Background(), Request{Model: model}); err == nil {
		t.Error("a request without messages was accepted")
	}
	if len(f.srv.Chats()) != 0 {
		t.Error("an invalid request reached the server")
	}
}
