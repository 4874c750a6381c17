package githubfake

import (
	"fmt"
	"net/http"
	"time"
)

// quota models the primary rate limit window; guarded by Server.mu.
type quota struct {
	on    bool
	left  int
	reset time.Time
}

// SetQuota starts a primary rate-limit window: the next remaining requests
// succeed, counting X-RateLimit-Remaining down to 0, and the ones after
// them get GitHub's 403 with X-RateLimit-Remaining: 0 until the fake's
// clock reaches reset, when the window refills. Without SetQuota every
// answer reports 4999 requests left.
func (s *Server) SetQuota(remaining int, reset time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota = quota{on: true, left: remaining, reset: reset}
}

// SetClock replaces the fake's clock (time.Now), which decides when a
// SetQuota window resets and stamps created and updated times. Tests that
// inject a sleep into the client advance this clock from it.
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// spendQuota counts one request against the window. It returns false when
// the window is spent, having written the 403. s.mu held.
func (s *Server) spendQuota(w http.ResponseWriter, now time.Time) bool {
	q := &s.quota
	if !q.on {
		return true
	}
	if !now.Before(q.reset) {
		q.on = false
		return true
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Reset", fmt.Sprint(q.reset.Unix()))
	if q.left <= 0 {
		h.Set("X-RateLimit-Remaining", "0")
		writeError(w, http.StatusForbidden, "API rate limit exceeded for installation ID 1.",
			"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")
		return false
	}
	q.left--
	h.Set("X-RateLimit-Remaining", fmt.Sprint(q.left))
	return true
}
