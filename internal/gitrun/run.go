// Package gitrun is the one place agentfix starts git. Every git process
// runs with one environment policy (Environ), and a failure is one typed
// error (*Error) with the token masked. The package is not called git so
// that the name stays free for the helpers and variables that run it.
package gitrun

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
)

// Runner runs git in one directory. The zero value runs git in the
// current directory, with the environment of the process as the base of
// Environ.
type Runner struct {
	// Dir is the directory git runs in (any directory of a work tree).
	Dir string
	// Env is the base environment Environ filters; os.Environ() when nil.
	// Tests pass their own.
	Env []string
	// Token authenticates calls that ask for it (Cmd.Auth), and is masked
	// in the output and errors of every call.
	Token string
	// Server is the URL the token is sent to (GITHUB_SERVER_URL);
	// DefaultServer when empty.
	Server string
}

// Cmd is one git invocation.
type Cmd struct {
	// Args are git's arguments, without "git".
	Args []string
	// Stdin is git's standard input; none when nil.
	Stdin []byte
	// Env are variables for this call only, set after the policy:
	// GIT_INDEX_FILE, a commit identity.
	Env []string
	// Auth sends the Runner's token as an HTTP header. Only the commands
	// that talk to the remote (fetch, push, ls-remote) ask for it.
	Auth bool
}

// Run runs git with args and returns its standard output.
func (r Runner) Run(ctx context.Context, args ...string) (string, error) {
	return r.Exec(ctx, Cmd{Args: args})
}

// Exec runs c and returns its standard output, also when it fails (a
// rejected push says why on it). A failure is an *Error.
func (r Runner) Exec(ctx context.Context, c Cmd) (string, error) {
	cmd := exec.CommandContext(ctx, "git", c.Args...)
	cmd.Dir = r.Dir
	cmd.Env = r.Environ(c)
	if c.Stdin != nil {
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := r.mask(stdout.String())
	if err == nil {
		return out, nil
	}
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		err = errors.Join(ctx.Err(), err)
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = r.mask(a)
	}
	return out, &Error{Args: args, Stderr: r.mask(stderr.String()), ExitCode: code, Err: err}
}

// mask hides the token, and the header made of it, in s.
func (r Runner) mask(s string) string {
	if r.Token == "" {
		return s
	}
	s = strings.ReplaceAll(s, r.Token, "***")
	return strings.ReplaceAll(s, basicAuth(r.Token), "***")
}

// Short is the abbreviated commit id people read in logs and messages.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
