package llm

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress logs a streaming reply's token count and rate every
// Client.progress, so a long generation shows it is alive.
type progress struct {
	c       *Client
	model   string
	start   time.Time
	last    time.Time // the last progress line
	tokens  int
	loggedN int
	first   atomic.Bool // a token came: the watcher stops

	mu  sync.Mutex
	now Phase // the phase last told to Options.OnPhase
}

func (c *Client) newProgress(model string) *progress {
	now := c.now()
	return &progress{c: c, model: model, start: now, last: now}
}

// token counts one streamed chunk (Ollama streams a token per chunk).
func (p *progress) token() {
	if !p.first.Swap(true) {
		p.mu.Lock()
		waited := p.now != ""
		p.mu.Unlock()
		if waited { // a fast reply is not news; the end of a wait is
			p.phase(PhaseGenerating)
		}
	}
	p.tokens++
	now := p.c.now()
	if now.Sub(p.last) < p.c.progress {
		return
	}
	p.last = now
	p.loggedN++
	p.c.logf("ollama: %s: %d tokens, %.1f tokens/s, %s", p.model, p.tokens, p.rate(now), now.Sub(p.start).Round(time.Second))
}

// finish logs a closing line if progress lines were logged.
func (p *progress) finish(evalCount int) {
	if p.loggedN == 0 {
		return
	}
	if evalCount > 0 {
		p.tokens = evalCount
	}
	now := p.c.now()
	p.c.logf("ollama: %s: done, %d tokens in %s", p.model, p.tokens, now.Sub(p.start).Round(time.Second))
}

func (p *progress) rate(now time.Time) float64 {
	s := now.Sub(p.start).Seconds()
	if s <= 0 {
		return 0
	}
	return float64(p.tokens) / s
}

// Phase is what a model request is doing before its reply streams in.
// Ollama's /api/ps lists a model once it is loaded: a request whose model
// is not listed is waiting for it to load (minutes for a cold 14B model),
// one whose model is listed and has no token yet is evaluating the prompt.
type Phase string

// Phases of one request, in order.
const (
	PhaseLoading    Phase = "loading the model"
	PhasePrompt     Phase = "evaluating the prompt"
	PhaseGenerating Phase = "generating"
	// PhaseWaiting is a server that does not answer /api/ps.
	PhaseWaiting Phase = "waiting for the first token"
)

// firstLineAfter is when a request that has no token yet says what it is
// waiting for: within the first second, not after a whole ProgressEvery.
const firstLineAfter = time.Second

// watch logs, until the first token or stop, what the server is doing:
// after a second, then every Client.progress. It returns stop, which
// waits for the watcher to end.
func (p *progress) watch(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		wait := min(firstLineAfter, p.c.progress)
		for {
			t := time.NewTimer(wait)
			select {
			case <-done:
				t.Stop()
				return
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			if p.first.Load() {
				return
			}
			ph := p.c.phaseOf(ctx, p.model)
			if p.first.Load() {
				return
			}
			p.phase(ph)
			p.c.logf("ollama: %s: %s, %s", p.model, ph, p.c.now().Sub(p.start).Round(time.Second))
			wait = p.c.progress
		}
	}()
	return func() { close(done); <-ended }
}

// phase tells Options.OnPhase of a change of phase.
func (p *progress) phase(ph Phase) {
	p.mu.Lock()
	changed := p.now != ph
	p.now = ph
	p.mu.Unlock()
	if changed && p.c.onPhase != nil {
		p.c.onPhase(p.model, ph)
	}
}

// phaseOf asks /api/ps whether model is loaded.
func (c *Client) phaseOf(ctx context.Context, model string) Phase {
	ctx, cancel := context.WithTimeout(ctx, psTimeout)
	defer cancel()
	ps, err := c.api.ListRunning(ctx)
	if err != nil {
		return PhaseWaiting
	}
	for _, m := range ps.Models {
		if sameModel(m.Name, model) || sameModel(m.Model, model) {
			return PhasePrompt
		}
	}
	return PhaseLoading
}

// psTimeout bounds one /api/ps question; a busy server still answers it
// at once.
const psTimeout = 2 * time.Second

// sameModel compares model names as Ollama does: "qwen" is "qwen:latest".
func sameModel(a, b string) bool {
	tag := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return strings.EqualFold(tag(a), tag(b))
}
