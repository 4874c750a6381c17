package llm

import (
	"context"
	"testing"

	"github.com/agentfix/agentfix/internal/ollamafake"
)

func TestChatReturnsStreamedReply(t *testing.T) {
	f := newFixture(t, Options{})
	f.srv.Script(model, ollamafake.Reply{Content: "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n", PromptTokens: 321, CompletionTokens: 17})
	resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("fix it"), NumCtx: 8192})
	if err != nil {
		t.Fatal(err)
	}
	if want := "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n"; resp.Content != want {
		t.Errorf("content = %q, want %q", resp.Content, want)
	}
	if resp.PromptTokens != 321 || resp.CompletionTokens != 17 || resp.Attempts != 1 || resp.DoneReason != "stop" {
		t.Errorf("response = %+v", resp)
	}
}
