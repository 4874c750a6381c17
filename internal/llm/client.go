// Package llm is agentfix's client for a self-hosted Ollama server, built on
// the official github.com/ollama/ollama/api client. It adds what that client
// leaves to its callers: deterministic options on every request (temperature
// 0, a fixed seed, an explicit num_ctx), a per-request timeout, retries with
// backoff by kind of failure, detection of incomplete streams, progress
// lines for long generations, and typed errors that say what to do.
package llm

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/agentfix/agentfix/internal/untrusted"
)

// DefaultTimeout bounds one model request when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Minute

// DefaultProgressEvery is how often a streaming reply logs its progress
// when Options.ProgressEvery is 0.
const DefaultProgressEvery = 5 * time.Second

// Options tune a Client. The zero value is usable.
type Options struct {
	// Timeout bounds one attempt of one request (ollama.timeout); retries
	// get a fresh timeout. DefaultTimeout if 0.
	Timeout time.Duration
	// HTTPClient carries the requests; a fresh client if nil. Its own
	// Timeout should be 0: Timeout above is applied per attempt.
	HTTPClient *http.Client
	// Log receives progress and retry lines; discarded if nil.
	Log io.Writer
	// Sleep waits between retries; tests replace it to run instantly and
	// record the schedule. It must return ctx.Err() if ctx ends first.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for progress lines and durations; time.Now if nil.
	Now func() time.Time
	// ProgressEvery is the interval between progress lines.
	ProgressEvery time.Duration
	// OnPhase is told, from another goroutine, when a request's phase
	// changes: loading the model, evaluating the prompt, generating. nil
	// tells no one.
	OnPhase func(model string, p Phase)
	// Seed is sent as the seed option on every chat request; 0 is a valid,
	// fixed seed (the server's "random" is -1).
	Seed int
}

// Client talks to one Ollama server. It is safe for concurrent use.
type Client struct {
	host     string
	api      *api.Client
	timeout  time.Duration
	log      io.Writer
	logMu    sync.Mutex
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	progress time.Duration
	onPhase  func(string, Phase)
	seed     int

	mu    sync.Mutex
	shown map[string]ModelInfo // model -> what /api/show says of it
}

// New returns a Client for the Ollama server at host, a base URL such as
// config.NormalizeHost returns (http://127.0.0.1:11434). It does not
// contact the server; Version does.
func New(host string, opts Options) (*Client, error) {
	u, err := url.Parse(host)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &HostError{Host: host}
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	c := &Client{
		host:     strings.TrimRight(host, "/"),
		api:      api.NewClient(u, hc),
		timeout:  opts.Timeout,
		log:      opts.Log,
		sleep:    opts.Sleep,
		now:      opts.Now,
		progress: opts.ProgressEvery,
		onPhase:  opts.OnPhase,
		seed:     opts.Seed,
		shown:    map[string]ModelInfo{},
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.log == nil {
		c.log = io.Discard
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.progress <= 0 {
		c.progress = DefaultProgressEvery
	}
	return c, nil
}

// Host is the server's base URL.
func (c *Client) Host() string { return c.host }

// Version asks the server for its version; it is also the cheapest way to
// check that the server is there.
func (c *Client) Version(ctx context.Context) (string, error) {
	var v string
	_, err := c.retry(ctx, "version", "", func(ctx context.Context) error {
		var err error
		v, err = c.api.Version(ctx)
		return err
	})
	return v, err
}

func (c *Client) logf(format string, args ...any) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	untrusted.Logf(c.log, format, args...)
}
