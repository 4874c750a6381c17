package ollamafake

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

const model = "qwen2.5-coder:14b"

// client is the real ollama/api client pointed at srv.
func client(t *testing.T, srv *Server) *api.Client {
	t.Helper()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api.NewClient(u, http.DefaultClient)
}

// chat runs one chat through the real client and collects what it saw.
type seen struct {
	content string
	chunks  int
	done    *api.ChatResponse
	err     error
}

func chat(t *testing.T, c *api.Client, ctx context.Context, stream bool, opts map[string]any) seen {
	t.Helper()
	var got seen
	var b strings.Builder
	req := &api.ChatRequest{Model: model, Messages: []api.Message{{Role: "user", Content: "hello there"}}, Stream: &stream, Options: opts}
	got.err = c.Chat(ctx, req, func(r api.ChatResponse) error {
		got.chunks++
		b.WriteString(r.Message.Content)
		if r.Done {
			got.done = &r
		}
		return nil
	})
	got.content = b.String()
	return got
}

func TestChatStreamedAndNot(t *testing.T) {
	srv := New(t, Model{Name: model})
	c := client(t, srv)
	const text = "first line\nsecond  line\n"
	srv.Script(model, Text(text), Text(text))

	got := chat(t, c, context.Background(), true, nil)
	if got.err != nil || got.content != text || got.done == nil {
		t.Fatalf("streamed: %+v", got)
	}
	if got.chunks != 5 { // "first ", "line\n", "second  ", "line\n", done
		t.Errorf("streamed in %d chunks, want 5", got.chunks)
	}
	if got.done.DoneReason != "stop" || got.done.EvalCount != 4 || got.done.PromptEvalCount == 0 {
		t.Errorf("done chunk = %+v", got.done)
	}

	got = chat(t, c, context.Background(), false, nil)
	if got.err != nil || got.content != text || got.done == nil || got.chunks != 1 {
		t.Fatalf("not streamed: %+v", got)
	}
	reqs := srv.Chats()
	if len(reqs) != 2 || !reqs[0].Stream || reqs[1].Stream {
		t.Errorf("recorded stream flags wrong: %+v", reqs)
	}
}

// TestFaultsAsTheRealClientSeesThem pins the client behaviour the llm
// package works around (issue 6, "Known pitfalls").
func TestFaultsAsTheRealClientSeesThem(t *testing.T) {
	tests := []struct {
		name  string
		reply Reply
		check func(t *testing.T, got seen)
	}{
		{"cut at a line boundary: nil error, no done chunk", CutAtLine("a b c d"), func(t *testing.T, got seen) {
			if got.err != nil || got.done != nil || got.content != "a b " {
				t.Errorf("got %+v", got)
			}
		}},
		{"cut mid-line: a plain error", CutMidLine("a b c d"), func(t *testing.T, got seen) {
			var se api.StatusError
			if got.err == nil || errors.As(got.err, &se) || got.done != nil {
				t.Errorf("got %+v, want a plain error", got)
			}
		}},
		{"error line in a 200 stream: a plain error", ErrorLine("a b", "runner died"), func(t *testing.T, got seen) {
			var se api.StatusError
			if got.err == nil || got.err.Error() != "runner died" || errors.As(got.err, &se) {
				t.Errorf("got %+v, want plain error \"runner died\"", got)
			}
		}},
		{"503: a StatusError", Fail(503), func(t *testing.T, got seen) {
			var se api.StatusError
			if !errors.As(got.err, &se) || se.StatusCode != 503 || !strings.Contains(se.ErrorMessage, "server busy") {
				t.Errorf("got %+v", got)
			}
		}},
		{"404: the real body", Fail(404), func(t *testing.T, got seen) {
			var se api.StatusError
			if !errors.As(got.err, &se) || se.StatusCode != 404 || se.ErrorMessage != "model '"+model+"' not found" {
				t.Errorf("got %+v", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, Model{Name: model})
			srv.Script(model, tt.reply)
			tt.check(t, chat(t, client(t, srv), context.Background(), true, nil))
			if got := srv.Chats(); len(got) != 1 || got[0].Fault != tt.reply.Fault {
				t.Errorf("recorded %+v, want one request with fault %s", got, tt.reply.Fault)
			}
		})
	}
}

func TestHangEndsWhenClientCancels(t *testing.T) {
	srv := New(t, Model{Name: model})
	ctx, cancel := context.WithCancel(context.Background())
	srv.Respond(model, func(Request) Reply { cancel(); return Hang() })
	got := chat(t, client(t, srv), ctx, true, nil)
	if got.done != nil || !errors.Is(got.err, context.Canceled) {
		t.Errorf("got %+v, want context.Canceled", got)
	}
}

func TestCloseReleasesHangingRequests(t *testing.T) {
	srv := Start(Model{Name: model})
	arrived := make(chan struct{})
	srv.Respond(model, func(Request) Reply { close(arrived); return Hang() })
	result := make(chan seen, 1)
	go func() { result <- chat(t, client(t, srv), context.Background(), true, nil) }()
	<-arrived
	srv.Close()
	if got := <-result; got.done != nil {
		t.Errorf("a hanging request completed: %+v", got)
	}
	srv.Close() // twice is fine
}

func TestUnknownModelAndShow(t *testing.T) {
	srv := New(t, Model{Name: model, ContextLength: 32768}, Model{Name: "phi", Family: "phi3", Arch: "phi3", ContextLength: 4096})
	c := client(t, srv)

	// The raw body, byte for byte, as the real server writes it.
	resp, err := http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(`{"model":"x:1b","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || strings.TrimSpace(string(body)) != `{"error":"model 'x:1b' not found"}` {
		t.Errorf("chat to unknown model: %d %s", resp.StatusCode, body)
	}

	show, err := c.Show(context.Background(), &api.ShowRequest{Model: "phi"})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := show.ModelInfo["phi3.context_length"].(float64); !ok || n != 4096 {
		t.Errorf("phi3.context_length = %#v, want float64 4096", show.ModelInfo["phi3.context_length"])
	}
	if show.ModelInfo["general.architecture"] != "phi3" || show.Details.Family != "phi3" {
		t.Errorf("show = %+v", show)
	}
	_, err = c.Show(context.Background(), &api.ShowRequest{Model: "nope"})
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != 404 || se.ErrorMessage != "model 'nope' not found" {
		t.Errorf("show unknown model: %v", err)
	}

	list, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range list.Models {
		names = append(names, m.Name)
		if len(m.Digest) != 64 {
			t.Errorf("%s digest = %q", m.Name, m.Digest)
		}
	}
	if !slices.Equal(names, []string{model, "phi:latest"}) {
		t.Errorf("tags = %v", names)
	}
	srv.RemoveModel("phi")
	if list, _ := c.List(context.Background()); len(list.Models) != 1 {
		t.Errorf("after RemoveModel, tags = %+v", list.Models)
	}

	v, err := c.Version(context.Background())
	if err != nil || v != DefaultVersion {
		t.Errorf("version = %q, %v", v, err)
	}
	if err := c.Heartbeat(context.Background()); err != nil {
		t.Errorf("heartbeat: %v", err)
	}
}

func TestRecordsOptionsAndFormat(t *testing.T) {
	srv := New(t, Model{Name: model})
	srv.Script(model, Text("{}"))
	stream := false
	err := client(t, srv).Chat(context.Background(), &api.ChatRequest{
		Model:    model,
		Messages: []api.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}},
		Stream:   &stream,
		Format:   json.RawMessage(`"json"`),
		Options:  map[string]any{"temperature": 0, "seed": 7, "num_ctx": 8192},
	}, func(api.ChatResponse) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Chats()[0]
	temp, tok := r.Temperature()
	seed, sok := r.Seed()
	n, nok := r.NumCtx()
	if !tok || temp != 0 || !sok || seed != 7 || !nok || n != 8192 || string(r.Format) != `"json"` || r.LastMessage() != "u" {
		t.Errorf("recorded %+v", r)
	}
	if _, ok := (Request{}).Temperature(); ok {
		t.Error("an absent temperature reads as sent")
	}
}

func TestFallbackHandlers(t *testing.T) {
	srv := New(t, Model{Name: model}, Model{Name: "other:1b"})
	c := client(t, srv)
	srv.Respond("", func(r Request) Reply { return Text("default for " + r.Model) })
	srv.Respond(model, func(r Request) Reply { return Text("echo " + r.LastMessage()) })
	srv.Script(model, Text("scripted first"))

	want := []string{"scripted first", "echo hello there", "echo hello there"}
	for _, w := range want {
		if got := chat(t, c, context.Background(), true, nil); got.content != w {
			t.Errorf("got %q, want %q", got.content, w)
		}
	}
	var b strings.Builder
	stream := true
	err := c.Chat(context.Background(), &api.ChatRequest{Model: "other:1b", Messages: []api.Message{{Role: "user", Content: "x"}}, Stream: &stream},
		func(r api.ChatResponse) error { b.WriteString(r.Message.Content); return nil })
	if err != nil || b.String() != "default for other:1b" {
		t.Errorf("other model: %q, %v", b.String(), err)
	}
}

func TestNothingScriptedFailsFast(t *testing.T) {
	tb := &recordingTB{TB: t}
	srv := New(tb, Model{Name: model})
	got := chat(t, client(t, srv), context.Background(), true, nil)
	var se api.StatusError
	if !errors.As(got.err, &se) || se.StatusCode != 400 || !strings.Contains(se.ErrorMessage, "no reply scripted") {
		t.Errorf("got %+v, want HTTP 400 naming the problem", got)
	}
	for _, f := range tb.cleanups {
		f()
	}
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "1 chat requests found no scripted reply") {
		t.Errorf("test failures reported: %q", tb.errs)
	}
}

// recordingTB catches the failure New reports at cleanup.
type recordingTB struct {
	testing.TB
	cleanups []func()
	errs     []string
}

func (r *recordingTB) Helper()                   {}
func (r *recordingTB) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

func TestUnusedRepliesFailTheTest(t *testing.T) {
	for _, allow := range []bool{false, true} {
		tb := &recordingTB{TB: t}
		srv := New(tb, Model{Name: model})
		srv.Script(model, Text("used"), Fail(503))
		chat(t, client(t, srv), context.Background(), true, nil)
		if allow {
			srv.AllowUnused()
		}
		for _, f := range tb.cleanups {
			f()
		}
		if failed := len(tb.errs) > 0; failed == allow {
			t.Errorf("AllowUnused %v: reported %v", allow, tb.errs)
		}
		if !allow && !strings.Contains(strings.Join(tb.errs, ""), "status") {
			t.Errorf("report does not name the unused reply: %v", tb.errs)
		}
	}
}

// TestConcurrentUse consumes a script from many goroutines: every reply is
// served exactly once.
func TestConcurrentUse(t *testing.T) {
	srv := New(t, Model{Name: model})
	c := client(t, srv)
	const n = 24
	for i := range n {
		srv.Script(model, Text(fmt.Sprintf("reply-%02d", i)))
	}
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			r := chat(t, c, context.Background(), true, map[string]any{"temperature": 0})
			mu.Lock()
			got = append(got, r.content)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, g := range got {
		if want := fmt.Sprintf("reply-%02d", i); g != want {
			t.Fatalf("replies served: %v", got)
		}
	}
	if len(srv.Chats()) != n {
		t.Errorf("recorded %d requests, want %d", len(srv.Chats()), n)
	}
}

func TestSplitTokens(t *testing.T) {
	for _, s := range []string{"", "one", "a b  c\n\nd ", "  lead", "ünï cödé\tx"} {
		if got := strings.Join(splitTokens(s), ""); got != s {
			t.Errorf("splitTokens(%q) joins to %q", s, got)
		}
	}
	if got := splitTokens("a b  c\n"); !slices.Equal(got, []string{"a ", "b  ", "c\n"}) {
		t.Errorf("splitTokens = %q", got)
	}
}

// A slow reply with a Started hook lets a test act mid-stream: the hook runs
// once the first token is on the wire, while the rest is still to come.
func TestStartedHookFiresMidStream(t *testing.T) {
	srv := New(t, Model{Name: model})
	started := make(chan struct{})
	srv.Script(model, Reply{Content: "one two three", Started: func() { close(started) }}.Slowly(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/chat", strings.NewReader(`{"model":"`+model+`","messages":[{"role":"user","content":"hi"}]}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.Contains(first, `"content":"one "`) {
		t.Fatalf("first line %q, %v", first, err)
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("Started was not called after the first token")
	}
}

// TestPsListsTheModelsLoaded: /api/ps lists every model, as a warm server
// does, and is not recorded as a request.
func TestPsListsTheModelsLoaded(t *testing.T) {
	srv := New(t, Model{Name: model}, Model{Name: "other:1b"})
	ps, err := client(t, srv).ListRunning(context.Background())
	if err != nil || len(ps.Models) != 2 || ps.Models[0].Name != model {
		t.Fatalf("ps = %+v, %v", ps, err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests recorded", n)
	}
}
