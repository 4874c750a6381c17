package llm

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

const model = "qwen2.5-coder:14b"

// sleeps records the retry waits a client asked for, without waiting.
type sleeps struct {
	mu sync.Mutex
	ds []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.ds = append(s.ds, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.ds...)
}

type fixture struct {
	srv    *ollamafake.Server
	client *Client
	sleeps *sleeps
	log    *syncBuffer
}

// newFixture starts a fake server with one model and a client for it whose
// retry waits are recorded instead of slept.
func newFixture(t *testing.T, opts Options) *fixture {
	t.Helper()
	srv := ollamafake.New(t, ollamafake.Model{Name: model, ContextLength: 32768})
	f := &fixture{srv: srv, sleeps: &sleeps{}, log: &syncBuffer{}}
	if opts.Sleep == nil {
		opts.Sleep = f.sleeps.sleep
	}
	opts.Log = f.log
	c, err := New(srv.URL, opts)
	if err != nil {
		t.Fatal(err)
	}
	f.client = c
	return f
}

func userMsg(s string) []Message { return []Message{{Role: "user", Content: s}} }

// syncBuffer is a bytes.Buffer safe for the client's log writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
