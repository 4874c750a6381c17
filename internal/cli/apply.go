package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/patch"
)

// applyOptions are the flags and argument of agentfix apply.
type applyOptions struct {
	cfg   configFlags
	check bool
	json  bool
	input string // a file, or "-" for stdin
}

const applyDescription = `
Validate a model reply's edit and apply it to the work tree of DIR (not staged).

The reply may hold unified diffs (fenced or bare, with or without git headers,
a/ b/ prefixes or line numbers), SEARCH/REPLACE blocks and whole-file blocks.
Edits are repaired where that is unambiguous, checked against paths.* and
limits.* of the config, and applied all or nothing. The normalised diff is
printed on stdout. The reply is read from FILE, or from stdin when FILE is -
or missing.

Exit status: 0 applied (with --check: would apply), 1 refused (nothing was
changed), 2 usage or configuration error.`

// parseApplyFlags reads the command line of agentfix apply.
func parseApplyFlags(e *Env, args []string) (*applyOptions, error) {
	o := &applyOptions{input: "-"}
	fs := newFlagSet(e, "apply", "--repo DIR [--check] [--json] [FILE|-]", applyDescription)
	o.cfg.register(fs, false)
	fs.BoolVar(&o.check, "check", false, "validate and dry-run only; write nothing")
	fs.BoolVar(&o.json, "json", false, "print one JSON object: applied, files, repairs, errors, diff")
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	rest := fs.Args()
	// Flags after FILE are accepted too: agentfix apply reply.txt --check.
	if len(rest) > 1 {
		if err := parseFlags(e, fs, rest[1:]); err != nil {
			return nil, err
		}
		rest = append(rest[:1], fs.Args()...)
	}
	switch len(rest) {
	case 0:
	case 1:
		o.input = rest[0]
	default:
		return nil, exitcode.Usagef("apply: one reply at most, got %d arguments (%q ...)", len(rest), rest[0])
	}
	return o, nil
}

func runApply(ctx context.Context, e *Env, args []string) error {
	o, err := parseApplyFlags(e, args)
	if err != nil {
		return done(err)
	}
	return o.run(e)
}

func (o *applyOptions) run(e *Env) error {
	cfg, _, err := o.cfg.load(e, false)
	if err != nil {
		return err
	}
	root, err := repoRoot(o.cfg.repo)
	if err != nil {
		return err
	}
	reply, err := o.read(e)
	if err != nil {
		return err
	}
	res, err := patch.Apply(root, reply, patch.PolicyFrom(cfg), patch.Options{Check: o.check})
	if err != nil {
		return exitcode.Failed(fmt.Errorf("apply: %w (no file was changed)", err))
	}
	if o.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		o.report(e, res)
	}
	if !res.Applied {
		return exitcode.Silent(exitcode.NotSucceeded)
	}
	return nil
}

// read returns the reply from the file named on the command line or stdin.
func (o *applyOptions) read(e *Env) (string, error) {
	if o.input == "-" {
		b, err := io.ReadAll(e.Stdin)
		if err != nil {
			return "", exitcode.Usagef("apply: read stdin: %v", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(o.input)
	if err != nil {
		return "", exitcode.Usagef("apply: read the reply: %v", err)
	}
	return string(b), nil
}

// report prints the diff on stdout and what happened on stderr. A refused
// reply changed nothing, so its repairs ("created it") are not reported as
// done: only the problems are.
func (o *applyOptions) report(e *Env, res *patch.Result) {
	if !res.Applied {
		fmt.Fprintln(e.Stderr, "agentfix apply: refused; nothing was changed:")
		for _, p := range res.Errors {
			fmt.Fprintf(e.Stderr, "  - %s\n", p)
		}
		return
	}
	for _, r := range res.Repairs {
		fmt.Fprintf(e.Stderr, "repaired: %s\n", r)
	}
	fmt.Fprint(e.Stdout, res.Diff)
	verb := "applied to"
	if o.check {
		verb = "would apply to (--check, nothing written)"
	}
	fmt.Fprintf(e.Stderr, "agentfix apply: %s %d file(s): %v\n", verb, len(res.Files), res.Files)
}
