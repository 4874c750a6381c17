package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/exitcode"
)

func runConfig(ctx context.Context, e *Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := e.Stdout
		if len(args) == 0 {
			w = e.Stderr
		}
		fmt.Fprint(w, `Usage: agentfix config <subcommand>

Subcommands:
  validate [--repo DIR] [--config FILE] [--show]   check the effective configuration
  schema                                          print the JSON Schema of the config file
`)
		if len(args) == 0 {
			return exitcode.Silent(exitcode.Usage)
		}
		return nil
	}
	switch args[0] {
	case "validate":
		return runConfigValidate(e, args[1:])
	case "schema":
		return runConfigSchema(ctx, e, args[1:])
	}
	return exitcode.Usagef("config: unknown subcommand %q (validate or schema)", args[0])
}

type configValidateOptions struct {
	cf   configFlags
	show bool
}

func runConfigValidate(e *Env, args []string) error {
	var opts configValidateOptions
	fs := newFlagSet(e, "config validate", "[--repo DIR] [--config FILE] [--show]",
		"Check the configuration: defaults, "+config.DefaultPath+", environment, action inputs.\nExit 0 when valid; exit 2 with every problem otherwise.")
	opts.cf.register(fs, false)
	fs.BoolVar(&opts.show, "show", false, "print the effective config and where each value came from")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	if fs.NArg() > 0 {
		return exitcode.Usagef("config validate: unexpected argument %q", fs.Arg(0))
	}
	cfg, src, err := opts.cf.load(e, true)
	if err != nil {
		return err
	}
	if !opts.show {
		fmt.Fprintln(e.Stdout, "config is valid")
		return nil
	}
	return showConfig(e.Stdout, cfg, src)
}

// showConfig prints cfg as YAML, then each key with its source.
func showConfig(w io.Writer, cfg *config.Config, src config.Sources) error {
	out, err := yaml.Marshal(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n# where each value came from:\n", out)
	keys := make([]string, 0, len(src))
	for k := range src {
		if !strings.Contains(k, "[") { // list items are located by their list
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	for _, k := range keys {
		fmt.Fprintf(w, "#   %-*s  %s\n", width, k, strings.TrimSpace(src[k]))
	}
	return nil
}

func runConfigSchema(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "config schema", "", "Print the JSON Schema of "+config.DefaultPath+", for editors.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	if fs.NArg() > 0 {
		return exitcode.Usagef("config schema: unexpected argument %q", fs.Arg(0))
	}
	schema, err := config.Schema()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.Stdout, "%s\n", schema)
	return err
}
