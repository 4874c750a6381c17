package cli

import (
	"context"
	"errors"
	"os"

	"github.com/agentfix/agentfix/internal/action"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// classify is the exit code of err, for every command: 0 success, 1 the
// job did not succeed, 2 usage or configuration error. The kinds of error
// that are the user's to fix before any run can work are listed here and
// nowhere else; the packages that return them know nothing of exit codes.
func classify(err error) int {
	if err == nil {
		return exitcode.OK
	}
	if code, ok := exitcode.Of(err); ok {
		return code // usage errors and reports the command printed itself
	}
	if isConfigError(err) {
		return exitcode.Usage
	}
	return exitcode.NotSucceeded
}

// Interrupted is the cause main cancels the run's context with when a
// signal arrives, so that the exit code can say which one.
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string { return "interrupted by " + i.Signal.String() }

// ExitInterrupted is the exit code of a run that a SIGINT (Ctrl-C) ended
// without success: 128+2, as shells report it. A SIGTERM keeps its code.
const ExitInterrupted = 130

// exitCode is the exit code of a run that ended with err: classify's, or
// ExitInterrupted when Ctrl-C interrupted a run that did not succeed.
func exitCode(ctx context.Context, err error) int {
	code := classify(err)
	var in Interrupted
	if code != exitcode.OK && errors.As(context.Cause(ctx), &in) && in.Signal == os.Interrupt {
		return ExitInterrupted
	}
	return code
}

// isConfigError reports whether err is a problem with the setup rather
// than with the job: a re-run fails the same way until the user fixes it.
func isConfigError(err error) bool {
	var (
		cfg       *config.Error
		actionCfg *action.ConfigError
		dirty     *workspace.DirtyError
		notRepo   *workspace.NotARepoError
		head      *pipeline.HeadMismatchError
		refused   *verify.RefusedError
	)
	return errors.As(err, &cfg) || errors.As(err, &actionCfg) ||
		errors.As(err, &dirty) || errors.As(err, &notRepo) || errors.As(err, &head) ||
		errors.As(err, &refused) || errors.Is(err, verify.ErrStart) || errors.Is(err, pipeline.ErrNoVerifyCommand) ||
		llm.IsConfig(err)
}

// shown is an error the command has already shown the user (the action
// writes it as an ::error annotation); Main does not print it again.
type shown struct{ error }

func (s shown) Unwrap() error { return s.error }

func reported(err error) bool {
	var s shown
	return errors.As(err, &s)
}
