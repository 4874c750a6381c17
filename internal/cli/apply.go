package cli

import "context"

func runApply(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "apply", "--repo DIR [--check] [--json] [FILE|-]", "Validate a model reply's edit and apply it to the work tree of DIR.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("apply")
}
