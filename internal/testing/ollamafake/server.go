// Package ollamafake is an in-process Ollama server for tests. It speaks the
// parts of the Ollama REST API agentfix uses (/api/chat streamed and not,
// /api/show, /api/tags, /api/version, HEAD /) closely enough that the real
// github.com/ollama/ollama/api client talks to it unchanged: point the client,
// or a built agentfix binary through OLLAMA_HOST, at Server.URL.
//
// Chat replies are scripted per model and consumed in order; each reply may
// carry a fault (an HTTP status, a hang, a cut stream, an error line, a
// delay). Every request is recorded so a test can assert what was sent.
//
//	srv := ollamafake.New(t, ollamafake.Model{Name: "qwen2.5-coder:14b", ContextLength: 32768})
//	srv.Script("qwen2.5-coder:14b",
//		ollamafake.Fail(503),
//		ollamafake.Text("--- a/x.go\n+++ b/x.go\n..."),
//	)
//	// ... run the code under test with OLLAMA_HOST=srv.URL ...
//	got := srv.Chats()[0].NumCtx()
//
// To act in the middle of a reply (cancel, SIGTERM the binary under test),
// script a slow reply with a hook:
//
//	srv.Script(model, ollamafake.Reply{Content: diff, Started: func() { cmd.Process.Signal(syscall.SIGTERM) }}.Slowly(time.Second))
//
// When a model's script is used up, a Handler set with Respond answers
// (useful for "garbage every time" or a benchmark); without one the server
// answers HTTP 400 "no reply scripted" (not retried, so the run fails fast)
// and, with New, the test fails.
//
// A Server is safe for concurrent use.
//
// Use ollamafake for fast tests that script replies and faults exactly and
// assert what was sent; use internal/testing/ollamatest, which runs the real
// Ollama server binary, to check that the client and the fix loop work
// against the server users run.
package ollamafake

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// DefaultVersion is what /api/version answers unless Options.Version is set.
const DefaultVersion = "0.24.0"

// Server is a fake Ollama server listening on a local port.
type Server struct {
	// URL is the base URL of the server, e.g. http://127.0.0.1:41234; use it
	// as OLLAMA_HOST or ollama.host.
	URL string

	srv     *httptest.Server
	closing chan struct{}
	once    sync.Once

	mu         sync.Mutex
	version    string
	tokenDelay time.Duration
	models     map[string]*Model // by canonical name (with tag)
	order      []string          // registration order, for /api/tags
	scripts    map[string][]Reply
	handlers   map[string]Handler
	requests   []Request
	allowUnuse bool
	unscripted int // chat requests nothing was scripted for
}

// New starts a Server with the given models registered, and closes it when
// the test ends. The test fails if a chat request found no reply to give,
// or if scripted replies are left unconsumed (call AllowUnused to permit
// that).
func New(tb testing.TB, models ...Model) *Server {
	tb.Helper()
	s := Start(models...)
	tb.Cleanup(func() {
		s.Close()
		if left := s.Unused(); len(left) > 0 && !s.unusedAllowed() {
			tb.Errorf("ollamafake: scripted replies never requested: %v", left)
		}
		if n := s.Unscripted(); n > 0 {
			tb.Errorf("ollamafake: %d chat requests found no scripted reply and no Handler", n)
		}
	})
	return s
}

// Start starts a Server with the given models registered. The caller must
// Close it. Most tests want New instead.
func Start(models ...Model) *Server {
	s := &Server{
		closing:  make(chan struct{}),
		version:  DefaultVersion,
		models:   map[string]*Model{},
		scripts:  map[string][]Reply{},
		handlers: map[string]Handler{},
	}
	for _, m := range models {
		s.AddModel(m)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", s.handleChat)
	mux.HandleFunc("POST /api/show", s.handleShow)
	mux.HandleFunc("GET /api/tags", s.handleTags)
	mux.HandleFunc("GET /api/version", s.handleVersion)
	mux.HandleFunc("GET /api/ps", s.handlePs)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		// The real server answers GET and HEAD / with this text; the client's
		// Heartbeat uses it.
		s.record(Request{Method: r.Method, Path: r.URL.Path})
		fmt.Fprint(w, "Ollama is running")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.record(Request{Method: r.Method, Path: r.URL.Path})
		http.NotFound(w, r)
	})
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// Close releases hanging requests and shuts the server down. It is safe to
// call more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Env is the environment entry that points agentfix (or the ollama CLI) at
// the server: "OLLAMA_HOST=<URL>".
func (s *Server) Env() string { return "OLLAMA_HOST=" + s.URL }

// SetVersion sets what /api/version answers.
func (s *Server) SetVersion(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version = v
}

// SetTokenDelay makes every streamed chat reply send its tokens one by one
// with d between them, like a slow model; 0 (the default) streams at once.
func (s *Server) SetTokenDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenDelay = d
}

// AllowUnused lets the test end with scripted replies left over.
func (s *Server) AllowUnused() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.allowUnuse = true
}

// Unscripted is the number of chat requests that found neither a scripted
// reply nor a Handler.
func (s *Server) Unscripted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unscripted
}

func (s *Server) unusedAllowed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allowUnuse
}
