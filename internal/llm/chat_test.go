package llm

import (
	"context"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
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

func TestChatReportsLengthStopAndDurations(t *testing.T) {
	clock := time.Unix(0, 0)
	f := newFixture(t, Options{Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	f.srv.Script(model, ollamafake.Reply{Content: "a reply cut by num_predict", DoneReason: "length"})
	resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 2048, MaxReplyTokens: 5})
	if err != nil {
		t.Fatal(err)
	}
	if resp.DoneReason != "length" {
		t.Errorf("done reason = %q, want length: the caller must see a truncated reply", resp.DoneReason)
	}
	// Clock readings: start, progress start, 5 tokens (a progress line at
	// the 5th), the closing progress line, end.
	if resp.ModelDuration != 8*time.Second || resp.ServerDuration <= 0 {
		t.Errorf("model duration %s (want 8s on the test clock), server duration %s", resp.ModelDuration, resp.ServerDuration)
	}
}
