package cli

import "context"

func runDoctor(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "doctor", "[--repo DIR]", "Check git, config, Ollama, the model and the verify commands.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	return notImplemented("doctor")
}
