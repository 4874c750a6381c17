package llm_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// A chat with a server that is busy once: the client waits 5 s (here: not
// at all, Sleep is replaced) and sends the request again.
func ExampleClient_Chat() {
	srv := ollamafake.Start(ollamafake.Model{Name: "qwen2.5-coder:14b", ContextLength: 32768})
	defer srv.Close()
	srv.Script("qwen2.5-coder:14b", ollamafake.Fail(503), ollamafake.Text("--- a/x.go\n+++ b/x.go\n"))

	c, err := llm.New(srv.URL, llm.Options{
		Seed:  42,
		Sleep: func(ctx context.Context, d time.Duration) error { fmt.Println("waiting", d); return nil },
	})
	if err != nil {
		panic(err)
	}
	resp, err := c.Chat(context.Background(), llm.Request{
		Model:    "qwen2.5-coder:14b",
		Messages: []llm.Message{{Role: "system", Content: "You fix Go bugs."}, {Role: "user", Content: "Fix Add."}},
	})
	if err != nil {
		panic(err)
	}
	sent := srv.Chats()[1]
	numCtx, _ := sent.NumCtx()
	temp, _ := sent.Temperature()
	seed, _ := sent.Seed()
	fmt.Printf("%q after %d attempts\n", resp.Content, resp.Attempts)
	fmt.Println("num_ctx", numCtx, "temperature", temp, "seed", seed)
	// Output:
	// waiting 5s
	// "--- a/x.go\n+++ b/x.go\n" after 2 attempts
	// num_ctx 8192 temperature 0 seed 42
}

// Configuration problems come back as typed errors that IsConfig
// recognises (the command line exits 2 on them).
func ExampleModelMissingError() {
	srv := ollamafake.Start() // no models pulled
	defer srv.Close()
	c, _ := llm.New(srv.URL, llm.Options{})
	_, err := c.ModelInfo(context.Background(), "qwen2.5-coder:14b")
	var missing *llm.ModelMissingError
	fmt.Println(errors.As(err, &missing), llm.IsConfig(err))
	// Output: true true
}
