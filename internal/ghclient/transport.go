package ghclient

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Transport retries what waiting can fix, below go-github:
//   - primary rate limit (403/429 with X-RateLimit-Remaining: 0): wait
//     until X-RateLimit-Reset when that is within MaxWait, else hand the
//     403 to go-github, whose RateLimitError carries the reset time;
//   - secondary rate limit (403/429 with Retry-After, or the secondary
//     limit message): wait Retry-After (a minute when absent) when within
//     MaxWait;
//   - 5xx, and network errors on idempotent requests: retry with backoff.
//
// Retrying here, before go-github sees the 403, matters: once go-github has
// seen a rate-limit answer it refuses further calls locally until the reset
// time, so a retry loop above it would spin.
//
// GitHub docs: REST "Rate limits for the REST API", "Best practices".
//
// A successful answer that spends the last request of the window
// (X-RateLimit-Remaining: 0) would make go-github refuse the next call
// locally; when the reset is within MaxWait, Transport reports one request
// left instead and waits for the reset before sending the next request.
type Transport struct {
	opts Options

	mu sync.Mutex
	// exhaustedUntil is the reset of a window whose last request was
	// spent on a successful call.
	exhaustedUntil time.Time
}

// maxLimitRetries bounds waits for rate limits on one request.
const maxLimitRetries = 3

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	o := t.opts
	ctx := req.Context()
	serverRetries, limitRetries := 0, 0
	if err := t.waitForWindow(req); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(ctx)
			if req.Body != nil && req.Body != http.NoBody {
				b, err := req.GetBody()
				if err != nil {
					return nil, fmt.Errorf("retry %s %s: rewind body: %w", req.Method, req.URL.Path, err)
				}
				r.Body = b
			}
		}
		resp, err := o.Base.RoundTrip(r)
		canRewind := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
		if err != nil {
			if ctx.Err() != nil || !idempotent(req.Method) || serverRetries >= o.Retries || o.Retries < 0 {
				return nil, err
			}
			d := backoff(serverRetries)
			serverRetries++
			t.logf("github: %s %s: %v; retrying in %s", req.Method, req.URL.Path, err, d)
			if err := o.Sleep(ctx, d); err != nil {
				return nil, err
			}
			continue
		}
		wait, why, retry := t.decide(resp, serverRetries, limitRetries)
		if !retry || !canRewind {
			t.noteSpentWindow(resp)
			return resp, nil
		}
		if resp.StatusCode >= 500 {
			serverRetries++
		} else {
			limitRetries++
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		t.logf("github: %s %s: %s; waiting %s", req.Method, req.URL.Path, why, wait)
		if err := o.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// noteSpentWindow handles a non-rate-limited answer that spent the last
// request of the window (see Transport).
func (t *Transport) noteSpentWindow(resp *http.Response) {
	if resp.StatusCode >= 400 || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		return
	}
	reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil {
		return
	}
	until := time.Unix(reset, 0)
	if until.Sub(t.opts.Now()) > t.opts.MaxWait {
		return // too far: let go-github fail the next call with the reset time
	}
	t.mu.Lock()
	t.exhaustedUntil = until
	t.mu.Unlock()
	resp.Header.Set("X-RateLimit-Remaining", "1")
}

// waitForWindow waits for the reset of a window noteSpentWindow saw spent.
func (t *Transport) waitForWindow(req *http.Request) error {
	t.mu.Lock()
	until := t.exhaustedUntil
	t.exhaustedUntil = time.Time{}
	t.mu.Unlock()
	if until.IsZero() {
		return nil
	}
	d := until.Sub(t.opts.Now()) + time.Second
	if d <= 0 {
		return nil
	}
	t.logf("github: %s %s: rate limit window spent; waiting %s for its reset", req.Method, req.URL.Path, d)
	return t.opts.Sleep(req.Context(), d)
}

// decide says whether resp is worth retrying, after how long, and why.
func (t *Transport) decide(resp *http.Response, serverRetries, limitRetries int) (time.Duration, string, bool) {
	o := t.opts
	h := resp.Header
	switch code := resp.StatusCode; {
	case code >= 500 && code <= 599:
		if o.Retries < 0 || serverRetries >= o.Retries {
			return 0, "", false
		}
		return backoff(serverRetries), fmt.Sprintf("%d %s", code, http.StatusText(code)), true
	case code == http.StatusForbidden || code == http.StatusTooManyRequests:
		if limitRetries >= maxLimitRetries {
			return 0, "", false
		}
		if ra := h.Get("Retry-After"); ra != "" {
			secs, err := strconv.Atoi(strings.TrimSpace(ra))
			if err != nil || secs < 0 {
				return 0, "", false
			}
			d := time.Duration(max(secs, 1)) * time.Second
			return d, "secondary rate limit (Retry-After " + ra + "s)", d <= o.MaxWait
		}
		if h.Get("X-RateLimit-Remaining") == "0" {
			reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
			if err != nil {
				return 0, "", false
			}
			// One second past the reset, so the new window has opened.
			d := time.Unix(reset, 0).Sub(o.Now()) + time.Second
			if d < time.Second {
				d = time.Second
			}
			return d, "primary rate limit exhausted until " + time.Unix(reset, 0).UTC().Format(time.RFC3339), d <= o.MaxWait
		}
		if isSecondaryMessage(resp) && time.Minute <= o.MaxWait {
			// GitHub: without Retry-After, wait at least one minute.
			return time.Minute, "secondary rate limit", true
		}
	}
	return 0, "", false
}

// isSecondaryMessage peeks at the body for GitHub's secondary limit
// message, leaving the body readable.
func isSecondaryMessage(resp *http.Response) bool {
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil {
		return false
	}
	s := strings.ToLower(string(b))
	return strings.Contains(s, "secondary rate limit") || strings.Contains(s, "abuse")
}

func backoff(n int) time.Duration { return time.Second << min(n, 6) }

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

func (t *Transport) logf(format string, args ...any) {
	if t.opts.Logf != nil {
		t.opts.Logf(format, args...)
	}
}
