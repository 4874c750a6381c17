package llm

import (
	"context"
	"errors"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// tooLong is the real runner's refusal of a prompt over num_ctx when the
// request says truncate: false.
var tooLong = ollamafake.FailWith(500, "the input length exceeds the context length")

func TestPromptOverNumCtxIsAskedAgainWithTheWholeWindow(t *testing.T) {
	f := newFixture(t, Options{})
	f.srv.Script(model, tooLong, ollamafake.Text("done"))
	resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("a prompt the estimate got wrong")})
	if err != nil {
		t.Fatal(err)
	}
	chats := f.srv.Chats()
	if len(chats) != 2 || resp.Content != "done" {
		t.Fatalf("%d chats, reply %q; want the refused one and one more", len(chats), resp.Content)
	}
	first, _ := chats[0].NumCtx()
	second, _ := chats[1].NumCtx()
	if first >= 32768 || second != 32768 || resp.NumCtx != 32768 {
		t.Errorf("num_ctx %d then %d (reported %d); want a smaller window first, then the model's 32768", first, second, resp.NumCtx)
	}
	if len(f.sleeps.got()) != 0 {
		t.Errorf("a refusal was retried as if transient: %v", f.sleeps.got())
	}
	for i, c := range chats {
		if c.Truncate {
			t.Errorf("chat %d lets the server cut the prompt (truncate is not false)", i)
		}
	}
}

func TestPromptOverAChosenNumCtxIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		numCtx int
		script []ollamafake.Reply
	}{
		{"num_ctx set by the user", 4096, []ollamafake.Reply{tooLong}},
		{"already the whole window", 0, []ollamafake.Reply{tooLong}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Options{})
			msgs := userMsg("x")
			if tc.numCtx == 0 {
				// An estimate over the model's window starts at the whole window.
				msgs = userMsg(string(make([]byte, 4*40000)))
			}
			f.srv.Script(model, tc.script...)
			_, err := f.client.Chat(context.Background(), Request{Model: model, Messages: msgs, NumCtx: tc.numCtx})
			var re *RejectedError
			if !errors.As(err, &re) || !re.PromptTooLong() {
				t.Fatalf("err = %v, want a RejectedError that says the prompt is too long", err)
			}
		})
	}
}
