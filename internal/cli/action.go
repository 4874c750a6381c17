package cli

import "context"

func runAction(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "action", "", "Run as a GitHub Action: read the event, decide, fix or check, publish.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("action")
}
