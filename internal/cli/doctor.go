package cli

import (
	"context"
	"encoding/json"

	"github.com/agentfix/agentfix/internal/doctor"
	"github.com/agentfix/agentfix/internal/exitcode"
)

type doctorOptions struct {
	cf   configFlags
	json bool
}

func runDoctor(ctx context.Context, e *Env, args []string) error {
	var opts doctorOptions
	fs := newFlagSet(e, "doctor", "[--repo DIR] [--config FILE] [--model MODEL] [--ollama-host URL] [--test-cmd CMD] [--max-rounds N] [--json]", `
Check that everything agentfix needs is in place: git and a clean checkout,
a valid config, the Ollama server and the model (and whether its context
fits), the verify commands, and inside GitHub Actions the token, its
permissions, persist-credentials and the event. Each ✗ comes with its fix.
Exit 0 when all is well, 1 otherwise.`)
	opts.cf.register(fs, true)
	fs.BoolVar(&opts.json, "json", false, "print the checklist as JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	if fs.NArg() > 0 {
		return exitcode.Usagef("doctor: unexpected argument %q", fs.Arg(0))
	}
	repo, err := repoRoot(opts.cf.repo)
	if err != nil {
		return err
	}
	do := doctor.Options{Repo: repo, Getenv: e.Getenv, Flags: opts.cf.flags}
	if !opts.json {
		do.Out = e.Stdout // each check as it is made: the model server can take seconds
	}
	r := doctor.Run(ctx, do)
	if opts.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			OK bool `json:"ok"`
			*doctor.Report
		}{r.OK(), r}); err != nil {
			return err
		}
	} else {
		r.PrintSummary(e.Stdout)
	}
	if !r.OK() {
		return exitcode.Silent(exitcode.NotSucceeded)
	}
	return nil
}
