package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// BenchmarkChat measures one Chat round trip against a zero-latency fake
// server: the cost agentfix adds per model request (client, HTTP on
// loopback, streaming a ~2 KB diff in ~300 chunks, the fake itself).
//
//	go test -run '^$' -bench Chat -benchmem ./internal/llm/
func BenchmarkChat(b *testing.B) {
	srv := ollamafake.Start(ollamafake.Model{Name: model, ContextLength: 32768})
	defer srv.Close()
	diff := "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n" + strings.Repeat(" ctx := context.Background() // keep\n", 50)
	srv.Respond(model, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Text(diff) })
	c, err := New(srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	msgs := userMsg(strings.Repeat("context line\n", 2000))
	for b.Loop() {
		resp, err := c.Chat(context.Background(), Request{Model: model, Messages: msgs})
		if err != nil || len(resp.Content) != len(diff) {
			b.Fatalf("Chat: %v", err)
		}
	}
}
