package githubfake

import (
	"fmt"
	"net/http"
	"path"
	"strings"
	"time"
)

// Fault makes the next Times requests matching Method and Path fail.
type Fault struct {
	// Method is the HTTP method to match; empty matches any.
	Method string
	// Path is a path.Match pattern over the path below Prefix, without the
	// query: "/repos/o/r/pulls", "/repos/o/r/issues/*/comments". Empty
	// matches any.
	Path string
	// Times is how many requests fail; 0 means 1.
	Times int
	// Status is the HTTP status to answer with.
	Status int
	// Header is added to the response.
	Header http.Header
	// Message is the JSON error message; empty means the status text.
	Message string
	// DocumentationURL goes into the error body.
	DocumentationURL string
}

type fault struct {
	Fault
	left int
	// reset, when set, is written as X-RateLimit-Reset (primary limit).
	reset time.Time
	// retryAfter, when set, is written as Retry-After (secondary limit).
	retryAfter time.Duration
}

// Inject queues f; faults are matched in the order they were injected.
func (s *Server) Inject(f Fault) {
	if f.Times <= 0 {
		f.Times = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{Fault: f, left: f.Times})
}

// FailNext makes the next times requests to method and pattern (see
// Fault.Path) answer status, e.g. 502.
func (s *Server) FailNext(method, pattern string, times, status int) {
	s.Inject(Fault{Method: method, Path: pattern, Times: times, Status: status})
}

// RateLimitNext makes the next times matching requests hit the primary
// rate limit: 403 with X-RateLimit-Remaining: 0 and X-RateLimit-Reset at
// reset, as GitHub answers when the token's quota is spent.
func (s *Server) RateLimitNext(method, pattern string, times int, reset time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if times <= 0 {
		times = 1
	}
	s.faults = append(s.faults, &fault{
		Fault: Fault{Method: method, Path: pattern, Times: times, Status: http.StatusForbidden,
			Message:          "API rate limit exceeded for installation ID 1.",
			DocumentationURL: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"},
		left:  times,
		reset: reset,
	})
}

// SecondaryRateLimitNext makes the next times matching requests hit a
// secondary rate limit: status (403 or 429) with Retry-After.
func (s *Server) SecondaryRateLimitNext(method, pattern string, times, status int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if times <= 0 {
		times = 1
	}
	s.faults = append(s.faults, &fault{
		Fault: Fault{Method: method, Path: pattern, Times: times, Status: status,
			Message:          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
			DocumentationURL: "https://docs.github.com/rest/overview/resources-in-the-rest-api#secondary-rate-limits"},
		left:       times,
		retryAfter: retryAfter,
	})
}

// PendingFaults is how many injected failures have not fired yet.
func (s *Server) PendingFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.faults {
		n += f.left
	}
	return n
}

// unfired describes the faults left.
func (s *Server) unfired() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, f := range s.faults {
		m := f.Method
		if m == "" {
			m = "*"
		}
		out = append(out, fmt.Sprintf("%s %s: %d× %d", m, f.Path, f.left, f.Status))
	}
	return out
}

// takeFault returns the first fault matching r and counts it; s.mu held.
func (s *Server) takeFault(r *http.Request) *fault {
	for i, f := range s.faults {
		if f.Method != "" && !strings.EqualFold(f.Method, r.Method) {
			continue
		}
		if f.Path != "" {
			if ok, _ := path.Match(f.Path, r.URL.Path); !ok {
				continue
			}
		}
		f.left--
		if f.left <= 0 {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
		}
		return f
	}
	return nil
}

func (f *fault) write(w http.ResponseWriter, now time.Time) {
	h := w.Header()
	for k, vs := range f.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	h.Set("X-RateLimit-Limit", "5000")
	switch {
	case !f.reset.IsZero():
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", fmt.Sprint(f.reset.Unix()))
	default:
		h.Set("X-RateLimit-Remaining", "4999")
		h.Set("X-RateLimit-Reset", fmt.Sprint(now.Add(time.Hour).Unix()))
	}
	if f.retryAfter > 0 {
		h.Set("Retry-After", fmt.Sprint(int(f.retryAfter.Seconds())))
	}
	msg := f.Message
	if msg == "" {
		msg = http.StatusText(f.Status)
	}
	writeError(w, f.Status, msg, f.DocumentationURL)
}
