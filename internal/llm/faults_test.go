package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

const s = time.Second

// TestChatRetries drives every retryable fault through the real client and
// checks the reply that finally comes back and the backoff schedule.
func TestChatRetries(t *testing.T) {
	const good = "the good reply\nwith two lines\n"
	tests := []struct {
		name   string
		script []ollamafake.Reply
		sleeps []time.Duration
	}{
		{"500 then success", []ollamafake.Reply{ollamafake.Fail(500)}, []time.Duration{1 * s}},
		{"502 then success", []ollamafake.Reply{ollamafake.Fail(502)}, []time.Duration{1 * s}},
		{"503 twice then success", []ollamafake.Reply{ollamafake.Fail(503), ollamafake.Fail(503)}, []time.Duration{5 * s, 10 * s}},
		{"429 then success", []ollamafake.Reply{ollamafake.Fail(429)}, []time.Duration{5 * s}},
		{"cut at a line boundary", []ollamafake.Reply{ollamafake.CutAtLine("partial reply that is cut\n")}, []time.Duration{1 * s}},
		{"cut mid-line", []ollamafake.Reply{ollamafake.CutMidLine("partial reply that is cut\n")}, []time.Duration{1 * s}},
		{"error line in a 200 stream", []ollamafake.Reply{ollamafake.ErrorLine("partial reply ", "model runner has unexpectedly stopped")}, []time.Duration{1 * s}},
		{"kinds keep their own schedules",
			[]ollamafake.Reply{ollamafake.Fail(503), ollamafake.Fail(500), ollamafake.Fail(503), ollamafake.CutAtLine("x y z")},
			[]time.Duration{5 * s, 1 * s, 10 * s, 2 * s}},
		{"three transient failures are still retried",
			[]ollamafake.Reply{ollamafake.Fail(500), ollamafake.CutMidLine("a b"), ollamafake.ErrorLine("a b", "boom")},
			[]time.Duration{1 * s, 2 * s, 4 * s}},
		{"five overloads are still retried",
			[]ollamafake.Reply{ollamafake.Fail(503), ollamafake.Fail(429), ollamafake.Fail(503), ollamafake.Fail(503), ollamafake.Fail(503)},
			[]time.Duration{5 * s, 10 * s, 20 * s, 40 * s, 80 * s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Options{})
			f.srv.Script(model, append(tt.script, ollamafake.Text(good))...)
			resp, err := f.client.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096})
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if resp.Content != good {
				t.Errorf("content = %q, want only the good reply %q", resp.Content, good)
			}
			if resp.Attempts != len(tt.script)+1 {
				t.Errorf("attempts = %d, want %d", resp.Attempts, len(tt.script)+1)
			}
			if got := f.sleeps.got(); !slices.Equal(got, tt.sleeps) {
				t.Errorf("backoff = %v, want %v", got, tt.sleeps)
			}
			if n := len(f.srv.Chats()); n != len(tt.script)+1 {
				t.Errorf("server saw %d chat requests, want %d", n, len(tt.script)+1)
			}
			if !strings.Contains(f.log.String(), "retrying in") {
				t.Errorf("log does not mention the retry:\n%s", f.log.String())
			}
		})
	}
}

// TestChatGivesUp checks what comes back when retries run out or a failure
// is not worth retrying.
func TestChatGivesUp(t *testing.T) {
	repeat := func(r ollamafake.Reply, n int) []ollamafake.Reply {
		out := make([]ollamafake.Reply, n)
		for i := range out {
			out[i] = r
		}
		return out
	}
	tests := []struct {
		name     string
		script   []ollamafake.Reply
		format   string
		sleeps   []time.Duration
		check    func(t *testing.T, err error)
		config   bool // a configuration problem (IsConfig): the command line exits 2
		wantText string
	}{
		{
			name: "500 four times", script: repeat(ollamafake.Fail(500), 4),
			sleeps: []time.Duration{1 * s, 2 * s, 4 * s}, wantText: "failed 4 times",
			check: func(t *testing.T, err error) {
				var se *ServerError
				if !errors.As(err, &se) || se.Attempts != 4 {
					t.Errorf("want *ServerError after 4 attempts, got %#v", err)
				}
			},
		},
		{
			name: "stream cut at a line boundary every time", script: repeat(ollamafake.CutAtLine("a b c d"), 4),
			sleeps: []time.Duration{1 * s, 2 * s, 4 * s}, wantText: "without its final done chunk",
			check: func(t *testing.T, err error) {
				if !errors.Is(err, errIncomplete) {
					t.Errorf("want errIncomplete in the chain, got %v", err)
				}
			},
		},
		{
			name: "503 six times", script: repeat(ollamafake.Fail(503), 6),
			sleeps: []time.Duration{5 * s, 10 * s, 20 * s, 40 * s, 80 * s}, wantText: "server busy",
			check: func(t *testing.T, err error) {
				var se *ServerError
				if !errors.As(err, &se) || se.Attempts != 6 {
					t.Errorf("want *ServerError after 6 attempts, got %#v", err)
				}
			},
		},
		{
			name: "404 model not found", script: []ollamafake.Reply{ollamafake.Fail(404)},
			config: true, wantText: "model " + model + " is not available on that server (ollama pull " + model + ")",
			check: func(t *testing.T, err error) {
				var me *ModelMissingError
				if !errors.As(err, &me) || me.Model != model || !IsConfig(err) {
					t.Errorf("want *ModelMissingError for %s, got %#v", model, err)
				}
			},
		},
		{
			name: "400", script: []ollamafake.Reply{ollamafake.FailWith(400, "invalid options")},
			wantText: "HTTP 400: invalid options",
			check: func(t *testing.T, err error) {
				var re *RejectedError
				if !errors.As(err, &re) || re.Status != 400 || re.FormatRejected() {
					t.Errorf("want *RejectedError 400, got %#v", err)
				}
			},
		},
		{
			name: "500 for an invalid format schema", script: []ollamafake.Reply{ollamafake.FormatRejected()},
			format: `{"type":"object","properties":7}`, wantText: "invalid JSON schema in format",
			check: func(t *testing.T, err error) {
				var re *RejectedError
				if !errors.As(err, &re) || !re.FormatRejected() || re.Status != http.StatusInternalServerError {
					t.Errorf("want *RejectedError with FormatRejected, got %#v", err)
				}
			},
		},
		{
			name: "format that is neither \"json\" nor a schema", format: `"yaml"`,
			wantText: "invalid format",
			check: func(t *testing.T, err error) {
				var re *RejectedError
				if !errors.As(err, &re) || !re.FormatRejected() {
					t.Errorf("want *RejectedError with FormatRejected, got %#v", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Options{})
			f.srv.Script(model, tt.script...)
			req := Request{Model: model, Messages: userMsg("hi"), NumCtx: 4096}
			if tt.format != "" {
				req.Format = []byte(tt.format)
			}
			resp, err := f.client.Chat(context.Background(), req)
			if err == nil {
				t.Fatalf("Chat succeeded with %+v, want an error", resp)
			}
			tt.check(t, err)
			if got := IsConfig(err); got != tt.config {
				t.Errorf("IsConfig = %v, want %v (err: %v)", got, tt.config, err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q does not contain %q", err, tt.wantText)
			}
			if got := f.sleeps.got(); !slices.Equal(got, tt.sleeps) {
				t.Errorf("backoff = %v, want %v", got, tt.sleeps)
			}
		})
	}
}

func TestChatUnknownModelIsAConfigError(t *testing.T) {
	for _, numCtx := range []int{0, 4096} { // 0 asks /api/show first
		f := newFixture(t, Options{})
		_, err := f.client.Chat(context.Background(), Request{Model: "nope:7b", Messages: userMsg("hi"), NumCtx: numCtx})
		var me *ModelMissingError
		if !errors.As(err, &me) || me.Model != "nope:7b" || me.Host != f.srv.URL {
			t.Errorf("num_ctx %d: want *ModelMissingError for nope:7b at %s, got %v", numCtx, f.srv.URL, err)
		}
		if !IsConfig(err) {
			t.Errorf("num_ctx %d: %v is not a configuration error", numCtx, err)
		}
		if len(f.sleeps.got()) != 0 {
			t.Errorf("num_ctx %d: a missing model was retried: %v", numCtx, f.sleeps.got())
		}
	}
}

// A URL that answers, but not as Ollama does, is a configuration error.
func TestNotAnOllamaServer(t *testing.T) {
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	sl := &sleeps{}
	c, err := New(web.URL, Options{Sleep: sl.sleep})
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"chat": func() error {
			_, err := c.Chat(context.Background(), Request{Model: model, Messages: userMsg("hi"), NumCtx: 2048})
			return err
		},
		"version": func() error { _, err := c.Version(context.Background()); return err },
	} {
		err := call()
		var re *RejectedError
		if !errors.As(err, &re) || re.Status != 404 || !IsConfig(err) {
			t.Errorf("%s: want a 404 *RejectedError that is a config error, got %v", name, err)
		}
		if !strings.Contains(err.Error(), "is ollama.host the URL of an Ollama server?") {
			t.Errorf("%s: error %q lacks the hint", name, err)
		}
	}
	if len(sl.got()) != 0 {
		t.Errorf("a 404 was retried: %v", sl.got())
	}
}
