package llm

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// The per-request timeout is real time here, and nothing asserts how long
// anything took: a hang lasts until the client gives up. shortTimeout is for
// attempts that all hang; an attempt that must succeed gets okTimeout, long
// enough for a loaded machine.
const (
	shortTimeout = 100 * time.Millisecond
	okTimeout    = time.Second
)

func TestChatHangTimesOutThenRetries(t *testing.T) {
	f := newFixture(t, Options{Timeout: okTimeout})
	f.srv.Script(model, ollamafake.Hang(), ollamafake.Text("answer after a hang"))
	resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "answer after a hang" || resp.Attempts != 2 {
		t.Errorf("response = %+v, want the second reply on attempt 2", resp)
	}
	if got := f.sleeps.got(); !slices.Equal(got, []time.Duration{1 * s}) {
		t.Errorf("backoff = %v, want [1s]", got)
	}
}

func TestChatHangEveryTimeIsATimeoutError(t *testing.T) {
	f := newFixture(t, Options{Timeout: shortTimeout})
	f.srv.Script(model, ollamafake.Hang(), ollamafake.Hang(), ollamafake.Hang(), ollamafake.Hang())
	_, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Attempts != 4 || te.Timeout != shortTimeout {
		t.Fatalf("want *TimeoutError after 4 attempts of %s, got %v", shortTimeout, err)
	}
	if !strings.Contains(err.Error(), "raise ollama.timeout") || IsConfig(err) {
		t.Errorf("error %q (configuration error: %v) should say to raise ollama.timeout and not be a configuration error", err, IsConfig(err))
	}
	if got := f.sleeps.got(); !slices.Equal(got, []time.Duration{1 * s, 2 * s, 4 * s}) {
		t.Errorf("backoff = %v, want [1s 2s 4s]", got)
	}
}

func TestChatDelayLongerThanTimeoutIsRetried(t *testing.T) {
	f := newFixture(t, Options{Timeout: okTimeout})
	f.srv.Script(model, ollamafake.Text("too late").After(time.Hour), ollamafake.Text("in time"))
	resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "in time" || resp.Attempts != 2 {
		t.Errorf("response = %+v, want the second reply", resp)
	}
}

func TestChatCancelledWhileServerHangs(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The handler runs when the request has reached the server.
	f.srv.Respond(model, func(ollamafake.Request) ollamafake.Reply {
		cancel()
		return ollamafake.Hang()
	})
	_, err := f.client.Chat(ctx, Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(f.sleeps.got()) != 0 {
		t.Errorf("a cancelled request was retried: %v", f.sleeps.got())
	}
}

// cancelOnWrite cancels a context when the client logs its first progress
// line, that is in the middle of a stream.
type cancelOnWrite struct {
	cancel context.CancelFunc
	buf    syncBuffer
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "tokens/s") {
		w.cancel()
	}
	return w.buf.Write(p)
}

func TestChatCancelledMidStreamReturnsCtxErr(t *testing.T) {
	srv := ollamafake.New(t, ollamafake.Model{Name: model})
	// Each token after the first waits an hour, unless the client leaves.
	srv.SetTokenDelay(time.Hour)
	srv.Script(model, ollamafake.Text("one two three four"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelOnWrite{cancel: cancel}
	clock := time.Unix(0, 0)
	c, err := New(srv.URL, Options{
		Log:           w,
		ProgressEvery: time.Second,
		Now:           func() time.Time { clock = clock.Add(time.Second); return clock },
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Chat(ctx, Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Chat = %+v, %v; want context.Canceled (the api client itself returns nil)", resp, err)
	}
}

func TestChatCancelledDuringBackoff(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	f.client.sleep = func(ctx context.Context, d time.Duration) error {
		cancel()
		return ctx.Err()
	}
	f.srv.Script(model, ollamafake.Fail(503))
	_, err := f.client.Chat(ctx, Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestUnreachableServer(t *testing.T) {
	// A port that was just free: nothing listens there.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host := "http://" + l.Addr().String()
	l.Close()

	sl := &sleeps{}
	c, err := New(host, Options{Sleep: sl.sleep})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Version(context.Background())
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Host != host {
		t.Fatalf("want *UnreachableError for %s, got %v", host, err)
	}
	for _, want := range []string{"cannot reach Ollama at " + host, "ollama serve", "OLLAMA_HOST"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if !IsConfig(err) {
		t.Errorf("IsConfig(%v) = false, want true", err)
	}
	if got := sl.got(); !slices.Equal(got, []time.Duration{1 * s, 2 * s, 4 * s}) {
		t.Errorf("backoff = %v, want [1s 2s 4s]", got)
	}
}

func TestNewRejectsBadHost(t *testing.T) {
	for _, h := range []string{"", "127.0.0.1:11434", "ftp://x:1", "http://"} {
		if _, err := New(h, Options{}); err == nil || !IsConfig(err) {
			t.Errorf("New(%q) = %v, want a configuration error", h, err)
		}
	}
}

func TestVersion(t *testing.T) {
	f := newFixture(t, Options{})
	f.srv.SetVersion("0.99.1")
	v, err := f.client.Version(context.Background())
	if err != nil || v != "0.99.1" {
		t.Fatalf("Version = %q, %v; want 0.99.1", v, err)
	}
}
