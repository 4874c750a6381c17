package gitrun

import (
	"fmt"
	"strings"
)

// Error is a git command that failed, with what it printed. The token of
// the Runner is masked in every field.
type Error struct {
	// Args are git's arguments, without "git".
	Args []string
	// Stderr is what git printed on standard error.
	Stderr string
	// ExitCode is git's exit status; -1 when git did not exit normally
	// (not found, killed, cancelled).
	ExitCode int
	// Err is the error of the process (an *exec.ExitError, or the context's
	// error joined to it when the context ended).
	Err error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }
