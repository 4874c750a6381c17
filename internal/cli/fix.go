package cli

import "context"

func runFix(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "fix", "--repo DIR (--task TEXT | --issue-file F | --failing) [flags]", "Plan, patch and verify a fix with the Ollama model, on a local checkout.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("fix")
}
