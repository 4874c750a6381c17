package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/repoctx"
)

// contextOptions are the flags of agentfix context.
type contextOptions struct {
	cf        configFlags
	query     string
	queryFile string
	budget    int
	json      bool
}

func parseContextFlags(e *Env, args []string) (*contextOptions, error) {
	opts := &contextOptions{}
	fs := newFlagSet(e, "context", "--repo DIR (--query TEXT | --query-file F) [--budget TOKENS] [--json]",
		`Print what would be packed for the model: the repo map, then the ranked files
and chunks with line numbers. The query is an issue (title and body) or failing
test output; --query-file - reads it from stdin. The default budget is the one
agentfix fix packs with: ollama.num_ctx less room for the reply and the
conversation, at most 12288 tokens (12288 when num_ctx is 0: the window of the
model is not asked for here).`)
	opts.cf.register(fs, false)
	fs.StringVar(&opts.query, "query", "", "the issue or test output `TEXT` to find code for")
	fs.StringVar(&opts.queryFile, "query-file", "", "read the query from `FILE` (- for stdin)")
	fs.IntVar(&opts.budget, "budget", 0, "`TOKENS` for the whole pack, map and code (default: what fix packs)")
	fs.BoolVar(&opts.json, "json", false, "print files, chunks, tokens_used, repo_files and took_ms as JSON")
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, exitcode.Usagef("context: unexpected argument %q", fs.Arg(0))
	}
	if (opts.query == "") == (opts.queryFile == "") {
		return nil, exitcode.Usagef("context: give exactly one of --query TEXT or --query-file FILE")
	}
	if opts.budget < 0 {
		return nil, exitcode.Usagef("context: --budget %d: must be a positive number of tokens", opts.budget)
	}
	return opts, nil
}

func runContext(ctx context.Context, e *Env, args []string) error {
	opts, err := parseContextFlags(e, args)
	if err != nil {
		return done(err)
	}
	query, err := readQuery(e, opts)
	if err != nil {
		return err
	}
	cfg, _, err := opts.cf.load(e, false)
	if err != nil {
		return err
	}
	budget := opts.budget
	if budget == 0 {
		budget = agent.ContextBudget(cfg.Ollama.NumCtx)
	}
	root, err := repoRoot(opts.cf.repo)
	if err != nil {
		return err
	}
	pack, err := repoctx.Build(ctx, root, query, repoctx.Options{Budget: budget})
	if errors.Is(err, repoctx.ErrNotRepo) || errors.Is(err, repoctx.ErrNoFiles) {
		return exitcode.UsageError(err)
	}
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(pack)
	}
	fmt.Fprint(e.Stdout, pack.Text())
	fmt.Fprintf(e.Stderr, "agentfix context: %d files packed, %d of %d tokens, %d files indexed in %d ms\n",
		len(pack.Files), pack.TokensUsed, budget, pack.RepoFiles, pack.TookMS)
	return nil
}

// readQuery returns the query text from --query or --query-file.
func readQuery(e *Env, opts *contextOptions) (string, error) {
	q := opts.query
	if opts.queryFile != "" {
		var b []byte
		var err error
		if opts.queryFile == "-" {
			b, err = io.ReadAll(e.Stdin)
		} else {
			b, err = os.ReadFile(opts.queryFile)
		}
		if err != nil {
			return "", exitcode.Usagef("context: --query-file %s: %v", opts.queryFile, err)
		}
		q = string(b)
	}
	if strings.TrimSpace(q) == "" {
		return "", exitcode.Usagef("context: the query is empty: give the issue text or the failing test output")
	}
	return q, nil
}
