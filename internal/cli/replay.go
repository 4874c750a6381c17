package cli

import "context"

func runReplay(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "replay", "SESSION [--repo DIR]", "Re-run a recorded session with its recorded model replies.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("replay")
}
