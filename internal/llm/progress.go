package llm

import "time"

// progress logs a streaming reply's token count and rate every
// Client.progress, so a long generation shows it is alive.
type progress struct {
	c       *Client
	model   string
	start   time.Time
	last    time.Time
	tokens  int
	loggedN int
}

func (c *Client) newProgress(model string) *progress {
	now := c.now()
	return &progress{c: c, model: model, start: now, last: now}
}

// token counts one streamed chunk (Ollama streams a token per chunk).
func (p *progress) token() {
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
