// Package exitcode holds the user-facing error kinds of agentfix and the one
// mapping from an error to a process exit code.
//
//	0  success
//	1  the job did not succeed: not fixed, checks failed, patch refused
//	2  usage or configuration error
package exitcode

import (
	"errors"
	"fmt"
)

// Exit codes, the same for every command.
const (
	OK           = 0
	NotSucceeded = 1
	Usage        = 2
)

// Error carries the exit code a failure should end the process with.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// UsageError marks err as a usage or configuration error (exit 2).
func UsageError(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: Usage, Err: err}
}

// Usagef is UsageError(fmt.Errorf(format, args...)).
func Usagef(format string, args ...any) error {
	return UsageError(fmt.Errorf(format, args...))
}

// Failed marks err as "the job did not succeed" (exit 1).
func Failed(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: NotSucceeded, Err: err}
}

// Silent is an error whose report has already been printed: it only sets the
// exit code. Commands return it after writing a JSON or human report that
// says what went wrong.
type Silent int

func (s Silent) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// Code is the exit code for err: 0 for nil, the code of the outermost
// *Error or Silent in the chain, and 1 for any other error.
func Code(err error) int {
	if err == nil {
		return OK
	}
	var s Silent
	if errors.As(err, &s) {
		return int(s)
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return NotSucceeded
}

// Of is the exit code an error carries explicitly (a *Error or Silent in
// its chain), and false when it carries none.
func Of(err error) (int, bool) {
	var s Silent
	if errors.As(err, &s) {
		return int(s), true
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code, true
	}
	return 0, false
}

// IsSilent reports whether err needs no further printing.
func IsSilent(err error) bool {
	var s Silent
	return errors.As(err, &s)
}
