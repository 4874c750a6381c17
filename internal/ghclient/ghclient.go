// Package ghclient builds the go-github client agentfix talks to GitHub
// with: the API URL from GITHUB_API_URL (GitHub Enterprise Server works by
// that alone), the token through oauth2, and a transport that waits out
// rate limits and retries server errors, so callers see a failure only when
// waiting would not help.
package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"golang.org/x/oauth2"

	"github.com/agentfix/agentfix/internal/config"
)

// DefaultAPIURL is the API of github.com, used when GITHUB_API_URL is not
// set.
const DefaultAPIURL = "https://api.github.com"

// Options configure New. Zero values get the defaults documented on each
// field.
type Options struct {
	// APIURL is GITHUB_API_URL, without a trailing slash; DefaultAPIURL
	// when empty.
	APIURL string
	// Token is sent as a bearer token; empty sends none.
	Token string
	// MaxWait is the longest agentfix waits for a rate limit: a primary
	// limit that resets sooner is waited out, a later one fails with its
	// reset time; a Retry-After longer than this fails too. Default 5m.
	MaxWait time.Duration
	// Retries is how many times a 5xx answer or a network error on an
	// idempotent request is retried, with backoff 1s, 2s, 4s, ...
	// Default 3; negative disables.
	Retries int
	// Sleep waits d or until ctx ends; tests replace it. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for rate-limit resets; default time.Now.
	Now func() time.Time
	// Logf, when set, is told about every wait.
	Logf func(format string, args ...any)
	// Base is the transport below the retries; default
	// http.DefaultTransport.
	Base http.RoundTripper
}

// FromEnv builds Options from the Actions environment: GITHUB_API_URL,
// and the token from the action input github-token (INPUT_GITHUB-TOKEN, or
// INPUT_GITHUB_TOKEN as action.yml passes it) or else GITHUB_TOKEN.
func FromEnv(getenv func(string) string) Options {
	tok := config.Input(getenv, "github-token")
	if tok == "" {
		tok = strings.TrimSpace(getenv("GITHUB_TOKEN"))
	}
	return Options{APIURL: strings.TrimSpace(getenv("GITHUB_API_URL")), Token: tok}
}

// New returns a go-github client for o.
func New(o Options) (*github.Client, error) {
	o = o.withDefaults()
	var rt http.RoundTripper = &Transport{opts: o}
	if o.Token != "" {
		rt = &oauth2.Transport{Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: o.Token}), Base: rt}
	}
	// go-github needs a trailing slash on the base URL and GITHUB_API_URL
	// has none; WithEnterpriseURLs adds it (and /api/v3/ for a GHES root),
	// and leaves https://api.github.com as it is.
	c, err := github.NewClient(&http.Client{Transport: rt}).WithEnterpriseURLs(o.APIURL, o.APIURL)
	if err != nil {
		return nil, fmt.Errorf("github: API URL %q: %w", o.APIURL, err)
	}
	return c, nil
}

func (o Options) withDefaults() Options {
	if o.APIURL == "" {
		o.APIURL = DefaultAPIURL
	}
	if o.MaxWait == 0 {
		o.MaxWait = 5 * time.Minute
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Base == nil {
		o.Base = http.DefaultTransport
	}
	return o
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Error is a failed API call, naming the call and the object it was
// about: "github: create pull request octo/hello agent-fix/issue-7: 422
// Validation Failed: A pull request already exists for octo:agent-fix/issue-7."
type Error struct {
	// Call says what was asked ("create pull request").
	Call string
	// Object names what it was about ("octo/hello#7").
	Object string
	// Status is the HTTP status, 0 when there was no answer.
	Status int
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("github: %s %s: %s", e.Call, e.Object, describe(e.Err, e.Status))
}

func (e *Error) Unwrap() error { return e.Err }

// Wrap returns err (from a go-github call that returned resp) as an *Error
// naming call and object; nil stays nil. resp may be nil.
func Wrap(call, object string, resp *github.Response, err error) error {
	if err == nil {
		return nil
	}
	e := &Error{Call: call, Object: object, Err: err}
	if resp != nil && resp.Response != nil {
		e.Status = resp.StatusCode
	}
	var er *github.ErrorResponse
	if e.Status == 0 && errors.As(err, &er) && er.Response != nil {
		e.Status = er.Response.StatusCode
	}
	return e
}

// Status is the HTTP status of a failed call: from an *Error, a go-github
// error response, or 0. (GetBranch's 404 is a plain error; Wrap it with its
// response to keep the status.)
func Status(err error) int {
	var e *Error
	if errors.As(err, &e) && e.Status != 0 {
		return e.Status
	}
	var rl *github.RateLimitError
	if errors.As(err, &rl) && rl.Response != nil {
		return rl.Response.StatusCode
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) && ab.Response != nil {
		return ab.Response.StatusCode
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is a 404.
func IsNotFound(err error) bool { return Status(err) == http.StatusNotFound }

// ValidationMessage returns the first detail message of a 422 (where
// GitHub puts "A pull request already exists for ..."), or "".
func ValidationMessage(err error) string {
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		return ""
	}
	for _, d := range er.Errors {
		if d.Message != "" {
			return d.Message
		}
	}
	return ""
}

func describe(err error, status int) string {
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return fmt.Sprintf("API rate limit exhausted (limit %d); it resets at %s", rl.Rate.Limit, rl.Rate.Reset.Time.UTC().Format(time.RFC3339))
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) {
		return fmt.Sprintf("secondary rate limit hit; GitHub asks to retry after %s", ab.GetRetryAfter())
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		msg := fmt.Sprintf("%d %s", status, er.Message)
		if m := ValidationMessage(err); m != "" {
			msg += ": " + m
		} else if len(er.Errors) > 0 {
			d := er.Errors[0]
			msg += fmt.Sprintf(": %s %s %s", d.Resource, d.Field, d.Code)
		}
		return msg
	}
	if status != 0 {
		return fmt.Sprintf("%d: %v", status, err)
	}
	return err.Error()
}
