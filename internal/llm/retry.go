package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"
)

// Retry schedules (docs: issue 6, "Talking to Ollama"). A failure of one kind
// waits the next delay of its own schedule; when the schedule is used up the
// failure is returned.
var (
	// transientBackoff is for timeouts, connection errors, HTTP 500/502/504,
	// cut streams and error lines: 3 retries.
	transientBackoff = []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second}
	// overloadBackoff is for HTTP 429 and 503, a busy server: 5 retries.
	overloadBackoff = []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second}
)

// errIncomplete marks a stream that ended without its "done": true chunk;
// the ollama/api client returns nil for it.
var errIncomplete = errors.New("the reply stream ended without its final done chunk")

// errCutMidLine marks a stream that ended inside a JSON line.
var errCutMidLine = errors.New("cut mid-line")

// errTimeout marks an attempt that ran into the per-request timeout.
var errTimeout = errors.New("request timed out")

type failureKind int

const (
	permanent failureKind = iota
	transient
	overload
)

// classify sorts a failed attempt. The ollama/api client returns
// api.StatusError only for errors it read with an HTTP status; a stream cut
// mid-line or an {"error": …} line inside a 200 stream come back as plain
// errors, so the message matters as much as the type.
func classify(err error) failureKind {
	if errors.Is(err, errTimeout) || errors.Is(err, errIncomplete) || errors.Is(err, errCutMidLine) {
		return transient
	}
	var se api.StatusError
	if errors.As(err, &se) {
		switch {
		case se.StatusCode == http.StatusTooManyRequests, se.StatusCode == http.StatusServiceUnavailable:
			return overload
		case isFormatMessage(se.ErrorMessage), isTooLongMessage(se.ErrorMessage):
			return permanent
		case se.StatusCode >= 500:
			return transient
		}
		return permanent
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return permanent
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) {
		return transient
	}
	if isFormatMessage(err.Error()) || isTooLongMessage(err.Error()) {
		return permanent
	}
	// A plain error: a partial JSON line or a server-side failure reported
	// in the stream. Both may go away on a retry.
	return transient
}

// isFormatMessage recognises the real server's complaints about a format
// (llm/server.go: "invalid format: …", "invalid JSON schema in format").
func isFormatMessage(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "invalid format") || strings.Contains(m, "schema in format")
}

// isTooLongMessage recognises the real server's refusal of a prompt that
// does not fit num_ctx, which it gives instead of cutting the prompt when
// the request says truncate: false (runner: "the input length exceeds the
// context length"; server: "input exceeds maximum context length …").
func isTooLongMessage(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "exceeds the context length") || strings.Contains(m, "exceeds maximum context length")
}

// isDial reports whether err means no connection could be opened at all.
func isDial(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED)
}

// retry runs op with the per-request timeout, retrying it on the schedules
// above. It returns the number of attempts made and, on failure, one of the
// package's error types or ctx.Err().
func (c *Client) retry(ctx context.Context, what, model string, op func(context.Context) error) (int, error) {
	var nTransient, nOverload int
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeoutCause(ctx, c.timeout, errTimeout)
		err := op(actx)
		if err != nil && ctx.Err() == nil && context.Cause(actx) == errTimeout {
			err = fmt.Errorf("%w after %s", errTimeout, c.timeout)
		}
		cancel()
		if err == nil {
			return attempt, nil
		}
		if ctx.Err() != nil {
			return attempt, ctx.Err()
		}
		var delay time.Duration
		switch classify(err) {
		case permanent:
			return attempt, c.permanentError(model, err)
		case transient:
			if nTransient == len(transientBackoff) {
				return attempt, c.exhaustedError(model, attempt, err)
			}
			delay = transientBackoff[nTransient]
			nTransient++
		case overload:
			if nOverload == len(overloadBackoff) {
				return attempt, c.exhaustedError(model, attempt, err)
			}
			delay = overloadBackoff[nOverload]
			nOverload++
		}
		c.logf("ollama: %s: attempt %d failed: %v; retrying in %s", strings.TrimSpace(what+" "+model), attempt, err, delay)
		if err := c.sleep(ctx, delay); err != nil {
			if ctx.Err() != nil {
				return attempt, ctx.Err()
			}
			return attempt, err
		}
	}
}

// permanentError turns a failure that is not worth retrying into its type.
func (c *Client) permanentError(model string, err error) error {
	re := &RejectedError{Host: c.host, Model: model, Status: http.StatusInternalServerError, Message: err.Error()}
	var se api.StatusError
	var ae api.AuthorizationError
	switch {
	case errors.As(err, &se):
		if se.StatusCode == http.StatusNotFound && strings.Contains(se.ErrorMessage, "model") && strings.Contains(se.ErrorMessage, "not found") {
			return &ModelMissingError{Model: model, Host: c.host}
		}
		re.Status, re.Message = se.StatusCode, se.ErrorMessage
	case errors.As(err, &ae):
		re.Status, re.Message = ae.StatusCode, ae.Error()
	}
	// Otherwise: a format complaint inside a 200 stream.
	if re.Config() {
		return re
	}
	return re
}

// exhaustedError is the error for a retryable failure that kept happening.
func (c *Client) exhaustedError(model string, attempts int, err error) error {
	switch {
	case isDial(err):
		return &UnreachableError{Host: c.host, Err: err}
	case errors.Is(err, errTimeout):
		return &TimeoutError{Host: c.host, Model: model, Timeout: c.timeout, Attempts: attempts}
	}
	return &ServerError{Host: c.host, Model: model, Attempts: attempts, Err: err}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
