// Package cli is the agentfix command line: it parses arguments into each
// command's options and runs the command. Every command has its own file with
// an options struct, a flag parser and a run function, so flags are tested
// apart from work.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/ghclient"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/untrusted"
)

// Env is everything a command may touch of the outside world: the
// environment, the standard streams, the clock, the model client. Tests
// build one from a map instead of mutating the process environment, and
// replace Sleep so that no retry backoff waits for real.
type Env struct {
	Getenv func(string) string
	// Environ is the environment the commands agentfix runs start from.
	Environ func() []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	// Now is the clock; Sleep waits between retries of the model server
	// and the GitHub API.
	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
	// NewModel connects to the model server; Ollama when nil.
	NewModel func(cfg *config.Config, d pipeline.Deps) (agent.Model, error)
	// NewGitHub makes the GitHub API client; ghclient.New when nil.
	NewGitHub func(ghclient.Options) (*github.Client, error)
}

// OSEnv is the process's real environment.
func OSEnv() *Env {
	return &Env{Getenv: os.Getenv, Environ: os.Environ, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now}
}

// MapEnv returns an Env reading variables from m, for tests. The commands
// it runs get m as their whole environment, plus PATH and HOME of the test
// process when m has none.
func MapEnv(m map[string]string, stdin io.Reader, stdout, stderr io.Writer) *Env {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	environ := func() []string {
		var env []string
		for k, v := range m {
			env = append(env, k+"="+v)
		}
		for _, k := range []string{"PATH", "HOME"} {
			if _, ok := m[k]; !ok {
				env = append(env, k+"="+os.Getenv(k))
			}
		}
		sort.Strings(env)
		return env
	}
	return &Env{Getenv: func(k string) string { return m[k] }, Environ: environ, Stdin: stdin, Stdout: stdout, Stderr: stderr, Now: time.Now}
}

// deps are the pipeline's dependencies from e, logging to log.
func (e *Env) deps(log io.Writer) pipeline.Deps {
	return pipeline.Deps{
		Getenv: e.Getenv, Environ: e.Environ(), Now: e.Now, Sleep: e.Sleep,
		Log: log, Version: Version, NewModel: e.NewModel,
	}
}

// command is one agentfix subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *Env, args []string) error
}

// commands lists the subcommands in the order usage shows them.
func commands() []command {
	return []command{
		{"fix", "fix an issue or failing tests in a local checkout", runFix},
		{"apply", "validate and apply a model's edit to a work tree", runApply},
		{"check", "run the allowlisted verify commands and summarise failures", runCheck},
		{"context", "show what context would be packed for the model", runContext},
		{"action", "run as a GitHub Action (the default inside Actions)", runAction},
		{"replay", "re-run a recorded session without a model server", runReplay},
		{"config", "validate the configuration, or print its schema", runConfig},
		{"init", "write the workflow and a commented config into a repository", runInit},
		{"doctor", "check that everything agentfix needs is in place", runDoctor},
		{"version", "print the version", runVersion},
	}
}

// Main runs agentfix with args (without the program name) and returns the
// process exit code. It is the one place where errors become exit codes.
func Main(ctx context.Context, args []string, e *Env) int {
	err := Run(ctx, args, e)
	if err != nil && !exitcode.IsSilent(err) && !reported(err) {
		printError(e.Stderr, err)
	}
	return exitCode(ctx, err)
}

// printError writes err to the log. Each line is made safe apart, so a
// config error's list of problems reads as a list, one per line, while no
// text in it can start a workflow command or a line of its own.
func printError(w io.Writer, err error) {
	var cerr *config.Error
	if !errors.As(err, &cerr) || len(cerr.Problems) < 2 {
		untrusted.Logf(w, "agentfix: %v", err)
		return
	}
	context, _ := strings.CutSuffix(err.Error(), cerr.Error()) // what wrapped it, if anything
	untrusted.Logf(w, "agentfix: %sconfig has %d problems:", context, len(cerr.Problems))
	for _, p := range cerr.Problems {
		untrusted.Logf(w, "  %s", p)
	}
}

// Run dispatches to the subcommand named by args[0].
func Run(ctx context.Context, args []string, e *Env) error {
	if len(args) == 0 {
		if e.Getenv("GITHUB_ACTIONS") == "true" {
			return runAction(ctx, e, nil)
		}
		usage(e.Stderr)
		return exitcode.Silent(exitcode.Usage)
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		usage(e.Stdout)
		return nil
	case "-v", "--version":
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, e, args[1:])
		}
	}
	usage(e.Stderr)
	return exitcode.Usagef("unknown command %q (run 'agentfix --help' for the list)", name)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: agentfix <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'agentfix <command> --help' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 the job did not succeed, 2 usage or configuration error.")
}

// newFlagSet returns a flag set for a command whose --help prints synopsis,
// the description and the flags to stdout.
func newFlagSet(e *Env, name, synopsis, description string) *flag.FlagSet {
	fs := flag.NewFlagSet("agentfix "+name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: agentfix %s %s\n\n%s\n", name, synopsis, strings.TrimSpace(description))
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if len(names) > 0 {
			sort.Strings(names)
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args with fs. --help prints usage to stdout and returns
// errHelp, which callers return as success; any other problem is a usage
// error (exit 2).
func parseFlags(e *Env, fs *flag.FlagSet, args []string) error {
	// The flag package prints usage itself on -help and on errors; print
	// it here instead, once, to stdout for -help and stderr otherwise.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(e.Stdout)
		fs.Usage()
		return errHelp
	}
	if err != nil {
		fs.Usage()
		return exitcode.Silent(exitcode.Usage)
	}
	return nil
}

// errHelp ends a command successfully after --help.
var errHelp = errors.New("help shown")

// done maps errHelp to success.
func done(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}
