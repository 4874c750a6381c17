package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/verify"
)

// checkOptions are the flags of agentfix check.
type checkOptions struct {
	cfg   configFlags
	json  bool
	quiet bool
	// command, when given after --, replaces verify.commands.
	command []string
}

const checkDescription = `
Run the verify commands (verify.commands, or the one command after --) in DIR,
exactly as agentfix would before publishing a fix: allowlisted, without a shell,
in their own process group with a timeout, an output cap and an environment
without tokens. Failing tests are re-run verify.flaky_reruns times to tell flaky
from broken. Prints a verdict per command and the failures (test, location,
trimmed output); inside GitHub Actions the raw output is folded into groups and
failures become error annotations.

Exit status: 0 all passed, 1 a command failed, 2 a command was refused (not
allowlisted, malformed) or the configuration is invalid.`

// parseCheck parses the flags of agentfix check.
func parseCheck(e *Env, args []string) (*checkOptions, error) {
	o := &checkOptions{}
	fs := newFlagSet(e, "check", "--repo DIR [--json] [--quiet] [-- CMD ARG...]", checkDescription)
	o.cfg.register(fs, false)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON on stdout")
	fs.BoolVar(&o.quiet, "quiet", false, "do not stream the commands' output to stderr")
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	o.command = fs.Args()
	return o, nil
}

func runCheck(ctx context.Context, e *Env, args []string) error {
	o, err := parseCheck(e, args)
	if err != nil {
		return done(err)
	}
	return check(ctx, e, o)
}

// check runs the commands and reports them.
func check(ctx context.Context, e *Env, o *checkOptions) error {
	cfg, _, err := o.cfg.load(e, len(o.command) == 0)
	if err != nil {
		return err
	}
	root, err := repoRoot(o.cfg.repo)
	if err != nil {
		return err
	}
	cmds := cfg.Verify.Commands
	switch {
	case len(o.command) == 1 && strings.ContainsAny(o.command[0], " \t"):
		// `-- "go test ./..."`: one argument holding a whole command line,
		// read as verify.commands reads its entries (still no shell).
		cmds = o.command
		fmt.Fprintf(e.Stderr, "agentfix: reading the one argument %q as a command line; the words can also be passed apart: agentfix check -- %s\n", o.command[0], o.command[0])
	case len(o.command) > 0:
		// The words after -- are argv already; quoting them keeps them so
		// through the allowlist check.
		cmds = []string{verify.Join(o.command)}
	}
	actions := e.Getenv("GITHUB_ACTIONS") == "true"
	var log io.Writer
	switch {
	case o.quiet:
	case actions && !o.json:
		log = e.Stdout // groups fold in the job log
	default:
		log = e.Stderr
	}
	rep, err := verify.Run(ctx, cmds, agent.VerifyOptions(cfg, root, e.Environ(), log, actions))
	var refused *verify.RefusedError
	var unavailable *verify.UnavailableError
	switch {
	case errors.As(err, &refused):
		return exitcode.Usagef("check: %v", err)
	case errors.As(err, &unavailable):
		return exitcode.Usagef("check: %v (verify.sandbox is required)", err)
	case errors.Is(err, verify.ErrStart):
		return exitcode.Usagef("check: %v (is the tool installed and on PATH?)", err)
	case err != nil:
		return fmt.Errorf("check: %w", err)
	}
	if log != nil {
		fmt.Fprintf(log, "agentfix: %s\n", rep.Sandbox.Describe())
	}
	if o.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("check: write the JSON report: %w", err)
		}
	} else {
		writeCheckReport(e.Stdout, rep)
	}
	if actions {
		// stdout holds nothing but the JSON when --json is given.
		w := e.Stdout
		if o.json {
			w = e.Stderr
		}
		annotate(w, rep)
	}
	if !rep.Passed {
		return exitcode.Silent(exitcode.NotSucceeded)
	}
	return nil
}

// checkOutputLines is how much of a failure's output the human report shows.
const checkOutputLines = 40

// writeCheckReport prints a verdict line per command, then its failures
// and the flaky tests.
func writeCheckReport(w io.Writer, rep *verify.Report) {
	for _, c := range rep.Commands {
		fmt.Fprintln(w, c.Verdict())
		for _, f := range c.Failures {
			fmt.Fprintf(w, "\n    %s\n", f.Title())
			for _, line := range lastLines(f.Output, checkOutputLines) {
				fmt.Fprintf(w, "        %s\n", line)
			}
		}
		for _, f := range c.Flaky {
			fmt.Fprintf(w, "    flaky: %s (failed, then passed on a re-run)\n", strings.TrimPrefix(f.Title(), "--- "))
		}
		if len(c.Failures) > 0 {
			fmt.Fprintln(w)
		}
	}
	if rep.Passed {
		fmt.Fprintln(w, "all verify commands passed")
	} else {
		fmt.Fprintf(w, "verify failed (signature %s)\n", rep.Signature())
	}
}

// lastLines returns the last n non-empty-trailing lines of s, with a note
// when lines were left out.
func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return lines
	}
	cut := len(lines) - n
	return append([]string{fmt.Sprintf("[... %d earlier lines ...]", cut)}, lines[cut:]...)
}

// annotate turns failures into ::error annotations (and flaky tests into
// warnings) on their file and line.
func annotate(w io.Writer, rep *verify.Report) {
	a := githubactions.New(githubactions.WithWriter(w))
	fields := func(f verify.Failure) map[string]string {
		title := f.Test
		if title == "" {
			title = f.Package
		}
		m := map[string]string{"title": "agentfix check: " + strings.TrimSpace(title+" failed")}
		if f.File != "" {
			m["file"] = f.File
		}
		if f.Line > 0 {
			m["line"] = strconv.Itoa(f.Line)
		}
		return m
	}
	for _, c := range rep.Commands {
		for _, f := range c.Failures {
			a.WithFieldsMap(fields(f)).Errorf("%s", strings.Join(lastLines(f.Output, 20), "\n"))
		}
		for _, f := range c.Flaky {
			a.WithFieldsMap(fields(f)).Warningf("flaky: failed, then passed on a re-run")
		}
	}
}
