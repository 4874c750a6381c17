package cli

import "context"

func runCheck(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "check", "--repo DIR [--json] [-- CMD ARG...]", "Run the allowlisted verify commands in DIR and summarise the failures.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("check")
}
