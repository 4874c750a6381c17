package llm

import (
	"errors"
	"fmt"
	"time"
)

// The errors below are what Chat, ModelInfo and Version return besides
// ctx.Err(). Configuration problems (IsConfig: UnreachableError,
// ModelMissingError, HostError, and a RejectedError whose Config method is
// true) are the user's to fix before any run can work; the command line
// exits 2 on them, 1 on the others.

// UnreachableError means nothing answered at the configured Ollama URL, even
// after retries.
type UnreachableError struct {
	Host string
	Err  error
}

// Error names the URL and says how to start or point at a server.
func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach Ollama at %s: %v (start it with `ollama serve` or set ollama.host / OLLAMA_HOST)", e.Host, e.Err)
}

// Unwrap returns the connection error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// ModelMissingError means the server answered that it does not have the model.
type ModelMissingError struct {
	Model, Host string
}

// Error names the model and how to pull it.
func (e *ModelMissingError) Error() string {
	return fmt.Sprintf("Ollama at %s: model %s is not available on that server (ollama pull %s)", e.Host, e.Model, e.Model)
}

// TimeoutError means every attempt ran into the per-request timeout.
type TimeoutError struct {
	Host, Model string
	Timeout     time.Duration
	Attempts    int
}

// Error says which timeout ran out and how to raise it.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("Ollama at %s: %s did not finish within %s on the last of %d attempts; raise ollama.timeout or use a smaller model",
		e.Host, subject(e.Model), e.Timeout, e.Attempts)
}

// ServerError means the server kept failing (HTTP 5xx, 429, cut streams,
// error lines) until the retries ran out. Err is the last failure.
type ServerError struct {
	Host, Model string
	Attempts    int
	Err         error
}

// Error gives the last failure and where to look next.
func (e *ServerError) Error() string {
	return fmt.Sprintf("Ollama at %s: %s failed %d times, last: %v; see the server log (journalctl -u ollama)",
		e.Host, subject(e.Model), e.Attempts, e.Err)
}

// Unwrap returns the last failure.
func (e *ServerError) Unwrap() error { return e.Err }

// RejectedError means the server refused the request itself (HTTP 400, an
// invalid format schema, 401/403, another 4xx); retrying would not help.
type RejectedError struct {
	Host, Model string
	Status      int
	Message     string
}

// Error gives the server's answer and what it most likely means.
func (e *RejectedError) Error() string {
	hint := "this is a bug in agentfix's request; please report it"
	switch {
	case e.FormatRejected():
		hint = "the server rejected the JSON schema sent as format"
	case e.PromptTooLong():
		hint = "the prompt does not fit the model's context even at its full length; use a model with a longer context or lower limits.max_files"
	case e.Status == 401 || e.Status == 403:
		hint = "the server wants credentials; agentfix talks to self-hosted servers without them"
	case e.Status == 404:
		hint = "is ollama.host the URL of an Ollama server?"
	}
	return fmt.Sprintf("Ollama at %s refused the %s: HTTP %d: %s (%s)", e.Host, subject(e.Model), e.Status, e.Message, hint)
}

// Config reports whether the refusal is a configuration problem: HTTP 404
// for something other than a model (ollama.host is not an Ollama server),
// 401 or 403 (the server or a proxy in front of it wants credentials).
func (e *RejectedError) Config() bool {
	return e.Status == 401 || e.Status == 403 || e.Status == 404
}

// PromptTooLong reports whether the server refused a prompt longer than
// num_ctx (agentfix asks it not to cut prompts silently).
func (e *RejectedError) PromptTooLong() bool { return isTooLongMessage(e.Message) }

// FormatRejected reports whether the server refused the request's format
// (a real server answers an invalid JSON schema with HTTP 500, not 400).
func (e *RejectedError) FormatRejected() bool { return isFormatMessage(e.Message) }

// IsConfig reports whether err is a configuration problem (the server
// cannot be reached, is not an Ollama server, the model is not there)
// rather than a failed request.
func IsConfig(err error) bool {
	var u *UnreachableError
	var m *ModelMissingError
	var r *RejectedError
	var h *HostError
	return errors.As(err, &u) || errors.As(err, &m) || errors.As(err, &h) || (errors.As(err, &r) && r.Config())
}

// subject names what a request was for in an error message.
func subject(model string) string {
	if model == "" {
		return "request"
	}
	return "request for model " + model
}

// HostError says ollama.host is not the URL of a server.
type HostError struct{ Host string }

func (e *HostError) Error() string {
	return fmt.Sprintf("ollama.host %q is not an http(s) URL of an Ollama server, e.g. http://127.0.0.1:11434", e.Host)
}
