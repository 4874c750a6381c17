package cli

import (
	"context"

	"github.com/agentfix/agentfix/internal/action"
)

const actionHelp = `Run as a GitHub Action: read the event GitHub Actions describes in the
environment, decide whether its actor may trigger agentfix, then fix the
issue, check the pull request or run the nightly checks, and publish the
result as a pull request, a status comment or a tracking issue.

Environment: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_WORKSPACE, GITHUB_RUN_ID,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and the inputs INPUT_*
(github-token, ollama-host, model, test-command, config, max-rounds,
dry-run, trigger-label).

Outputs: result (fixed, nothing-to-do, not-fixed, unproven, refused, checked),
pr-number, pr-url, branch, rounds.`

func runAction(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "action", "", actionHelp)
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	err := action.Run(ctx, action.Options{Getenv: e.Getenv, Stdout: e.Stdout, Stderr: e.Stderr, Deps: e.deps(e.Stderr), NewGitHub: e.NewGitHub})
	if err != nil {
		return shown{err} // written as an ::error annotation already
	}
	return nil
}
