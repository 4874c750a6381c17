package cli

import "context"

func runContext(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "context", "--repo DIR (--query TEXT | --query-file F) [--budget TOKENS] [--json]", "Print the repo map and ranked code that would be packed for the model.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("context")
}
