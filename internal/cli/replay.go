package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/exitcode"
	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/session"
)

// replayOptions are the flags of agentfix replay.
type replayOptions struct {
	session string
	repo    string
	out     string
	json    bool
}

func runReplay(ctx context.Context, e *Env, args []string) error {
	opts, err := parseReplayFlags(e, args)
	if err != nil {
		return done(err)
	}
	return replay(ctx, e, opts)
}

func parseReplayFlags(e *Env, args []string) (*replayOptions, error) {
	opts := &replayOptions{}
	fs := newFlagSet(e, "replay", "SESSION [--repo DIR] [--session-out F] [--json]", `
Re-run a recorded session with its recorded model replies and no model server.
The verify commands run for real. The work tree must be clean and at the
commit the session was recorded at; it is left as it was found.

Exit 0 when the final diff is byte-identical to the recorded one; exit 1 with
the first divergence otherwise.`)
	fs.StringVar(&opts.repo, "repo", ".", "repository `DIR` to replay in")
	fs.StringVar(&opts.out, "session-out", "", "append the replay's own session record to `FILE`")
	fs.BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	// The session is positional and may come before the flags.
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		opts.session, args = args[0], args[1:]
	}
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	rest := fs.Args()
	if opts.session == "" && len(rest) > 0 {
		opts.session, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return nil, exitcode.Usagef("replay: unexpected argument %q", rest[0])
	}
	if opts.session == "" {
		return nil, exitcode.Usagef("replay: name the SESSION record to replay")
	}
	return opts, nil
}

// replayReport is what --json prints.
type replayReport struct {
	Identical  bool           `json:"identical"`
	Divergence string         `json:"divergence,omitempty"`
	Recorded   *recordedBrief `json:"recorded"`
	Result     *agent.Result  `json:"replayed"`
}

type recordedBrief struct {
	Result     string `json:"result"`
	StopReason string `json:"stop_reason"`
	Diff       string `json:"diff"`
}

func replay(ctx context.Context, e *Env, opts *replayOptions) error {
	events, err := session.ReadFile(opts.session)
	if err != nil {
		return exitcode.UsageError(fmt.Errorf("replay: %w", err))
	}
	rec, err := agent.ParseRecording(events)
	if err != nil {
		return exitcode.UsageError(fmt.Errorf("replay: %s: %w", opts.session, err))
	}
	if rec.Result == nil {
		return exitcode.Usagef("replay: %s has no result event: the recorded run did not finish", opts.session)
	}
	rep, err := pipeline.Replay(ctx, rec, pipeline.ReplayOptions{Repo: opts.repo, SessionOut: opts.out}, e.deps(e.Stderr))
	if err != nil {
		return err
	}
	res := loopResult(rep.Outcome)
	if opts.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		brief := &recordedBrief{Result: rec.Result.Result, StopReason: rec.Result.StopReason, Diff: rec.Result.Diff}
		if err := enc.Encode(replayReport{Identical: rep.Identical, Divergence: rep.Divergence, Recorded: brief, Result: res}); err != nil {
			return err
		}
	} else {
		printReplay(e.Stdout, rec, rep, res)
	}
	if !rep.Identical {
		return exitcode.Silent(exitcode.NotSucceeded)
	}
	return nil
}

func printReplay(w io.Writer, rec *agent.Recording, rep *pipeline.ReplayReport, res *agent.Result) {
	fmt.Fprintf(w, "recorded: %s (%s) with %s at %s\n", rec.Result.Result, rec.Result.StopReason, rec.Start.Model, gitrun.Short(rec.Start.Head))
	fmt.Fprintf(w, "replayed: %s (%s) in %d round(s)\n", res.Result, res.StopReason, res.Rounds)
	if rep.Identical {
		fmt.Fprintln(w, "the final diff is byte-identical to the recorded one")
		return
	}
	fmt.Fprintf(w, "the final diff differs from the recorded one\nfirst divergence: %s\n", rep.Divergence)
}
