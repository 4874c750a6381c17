package ollamatest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

func chat(t testing.TB, s *Server, req *api.ChatRequest) (string, api.ChatResponse) {
	t.Helper()
	var out strings.Builder
	var final api.ChatResponse
	err := s.Client.Chat(context.Background(), req, func(r api.ChatResponse) error {
		out.WriteString(r.Message.Content)
		if r.Done {
			final = r
		}
		return nil
	})
	if err != nil {
		t.Fatalf("chat: %v\nserver log:\n%s", err, s.Log())
	}
	return out.String(), final
}

// TestRealServerAnswersScript creates the scripted model on a real server
// and checks each reply comes back exactly, streamed or not, with a JSON
// schema as format (the server turns it into a grammar the reply must fit)
// and without.
func TestRealServerAnswersScript(t *testing.T) {
	s := Start(t)
	s.MustCreate(t, "scripted", testModel)

	schema := json.RawMessage(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"}},"steps":{"type":"array","items":{"type":"string"}}},"required":["files","steps"]}`)
	stream, noStream := true, false
	cases := []struct {
		name   string
		msgs   []api.Message
		format json.RawMessage
		stream *bool
		want   string
	}{
		{"plan with schema", []api.Message{{Role: "system", Content: "You plan fixes."}, {Role: "user", Content: "Add subtracts."}}, schema, &stream, testModel.Replies[0].Text},
		{"plan as json", []api.Message{{Role: "system", Content: "You plan fixes."}, {Role: "user", Content: "Add subtracts."}}, json.RawMessage(`"json"`), &noStream, testModel.Replies[0].Text},
		{"diff", []api.Message{{Role: "system", Content: "You write diffs."}, {Role: "user", Content: "Write the diff."}}, nil, &stream, testModel.Replies[1].Text},
		{"unicode", []api.Message{{Role: "user", Content: "¿?"}}, nil, &noStream, testModel.Replies[2].Text},
		{"unscripted", []api.Message{{Role: "user", Content: "hello"}}, nil, &stream, ""},
	}
	for _, c := range cases {
		got, final := chat(t, s, &api.ChatRequest{Model: "scripted", Messages: c.msgs, Format: c.format, Stream: c.stream})
		if got != c.want {
			t.Errorf("%s: reply %q, want %q", c.name, got, c.want)
		}
		if final.DoneReason != "stop" {
			t.Errorf("%s: done reason %q, want stop", c.name, final.DoneReason)
		}
	}
}

// TestRealServerStops checks that Start's cleanup leaves no server or model
// runner behind.
func TestRealServerStops(t *testing.T) {
	var s *Server
	t.Run("run", func(t *testing.T) {
		s = Start(t)
		s.MustCreate(t, "scripted", testModel)
		chat(t, s, &api.ChatRequest{Model: "scripted", Messages: []api.Message{{Role: "user", Content: "¿"}}})
	})
	if s == nil {
		t.Skip("server did not start")
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("server still running after its test ended")
	}
	// A runner killed with the group may take a moment to be reaped; a
	// minute is far more than that takes on a loaded machine.
	for deadline := time.Now().Add(time.Minute); alive(s.cmd.Process.Pid); {
		if time.Now().After(deadline) {
			t.Fatal("process group still has members after its test ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkRealServer measures what the tests pay for a real server: start
// plus model creation and first load; one scripted answer on a loaded
// model; and the same answer after a prompt of 4000 tokens (the scripted
// tokenizer spends a token per byte, and the attention over a long prompt
// costs time even though its output is thrown away).
// Run: go test -run '^$' -bench RealServer ./internal/testing/ollamatest
func BenchmarkRealServer(b *testing.B) {
	msgs := []api.Message{{Role: "system", Content: "You write diffs."}, {Role: "user", Content: "Write the diff."}}
	b.Run("StartCreateLoad", func(b *testing.B) {
		for b.Loop() {
			s := Start(b)
			s.MustCreate(b, "scripted", testModel)
			chat(b, s, &api.ChatRequest{Model: "scripted", Messages: msgs})
			s.stop()
		}
	})
	b.Run("Answer", func(b *testing.B) {
		s := Start(b)
		s.MustCreate(b, "scripted", testModel)
		chat(b, s, &api.ChatRequest{Model: "scripted", Messages: msgs})
		for b.Loop() {
			chat(b, s, &api.ChatRequest{Model: "scripted", Messages: msgs})
		}
	})
	b.Run("Prompt4000", func(b *testing.B) {
		s := Start(b)
		s.MustCreate(b, "scripted", testModel)
		opts := map[string]any{"num_ctx": 8192}
		chat(b, s, &api.ChatRequest{Model: "scripted", Messages: msgs, Options: opts})
		filler := strings.Repeat("abcdefgh\n", 4000/9)
		i := 0
		for b.Loop() {
			// A different system prompt each time defeats the prompt cache.
			i++
			long := []api.Message{{Role: "system", Content: fmt.Sprintf("You write diffs. %d", i)}, {Role: "user", Content: "Write the diff.\n" + filler}}
			if got, _ := chat(b, s, &api.ChatRequest{Model: "scripted", Messages: long, Options: opts}); got != testModel.Replies[1].Text {
				b.Fatalf("reply %q", got)
			}
		}
	})
}
