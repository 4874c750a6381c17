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
	"github.com/agentfix/agentfix/internal/gitrun"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/pipeline"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/workspace"
)

// fixOptions are the flags of agentfix fix.
type fixOptions struct {
	cf        configFlags
	task      string
	issueFile string
	failing   bool
	outDiff   string
	session   string
	dryRun    bool
	json      bool
	// allowUnproven keeps a change no test proves, and exits 0 with it.
	allowUnproven bool
}

func runFix(ctx context.Context, e *Env, args []string) error {
	opts, err := parseFixFlags(e, args)
	if err != nil {
		return done(err)
	}
	return fix(ctx, e, opts)
}

func parseFixFlags(e *Env, args []string) (*fixOptions, error) {
	opts := &fixOptions{}
	fs := newFlagSet(e, "fix", "--repo DIR (--task TEXT | --issue-file F | --failing) [flags]", `
Plan, patch and verify a fix with the Ollama model, on a local checkout.

The verify commands run first. When they pass and the task is text (--task,
--issue-file), the model first writes a test that must fail on the unfixed
code; the fix must then make it pass, with the full commands (verify.proof).
On success (exit 0) the fix, with its test, is committed on a new branch
agent-fix/local-<slug> and the checkout is switched to it (with --dry-run the
tree is left untouched and only the diff is written). When no fix passes the
checks (exit 1) the tree is back where it started and the best attempt and the
reason are reported (and written to --out-diff). A change that passes the
checks while no test reproduced the task is "unproven": exit 1, the tree back
where it started and the diff reported, unless --allow-unproven keeps it on a
branch. Exit 2: usage or configuration error, including a dirty tree, a
missing test tool, an unreachable Ollama server or a model it does not have.`)
	opts.cf.register(fs, true)
	fs.StringVar(&opts.task, "task", "", "what to fix, as `TEXT`")
	fs.StringVar(&opts.issueFile, "issue-file", "", "Markdown `FILE` with the task: first heading is the title, the rest the body")
	fs.BoolVar(&opts.failing, "failing", false, "run the verify commands first; their failures are the task (nothing to do if they pass)")
	fs.StringVar(&opts.outDiff, "out-diff", "", "write the final unified diff to `FILE`")
	fs.StringVar(&opts.session, "session", "", "append the session record to `FILE` (default: a new file under .git/agentfix/sessions, or RUNNER_TEMP/agentfix/sessions in Actions)")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "leave the work tree untouched; only report and write the diff")
	fs.BoolVar(&opts.json, "json", false, "print the result as JSON")
	fs.BoolVar(&opts.allowUnproven, "allow-unproven", false, "keep a change that passes the checks although no test proves it fixes the task (committed on a branch; exit 0)")
	if err := parseFlags(e, fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, exitcode.Usagef("fix: unexpected argument %q", fs.Arg(0))
	}
	n := 0
	for _, set := range []bool{opts.task != "", opts.issueFile != "", opts.failing} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, exitcode.Usagef("fix: give exactly one of --task, --issue-file or --failing")
	}
	return opts, nil
}

// fixReport is what --json prints: the loop's result and what the command
// did with it.
type fixReport struct {
	*agent.Result
	Branch  string `json:"branch,omitempty"`
	Commit  string `json:"commit,omitempty"`
	OutDiff string `json:"out_diff,omitempty"`
	Session string `json:"session,omitempty"`
	DryRun  bool   `json:"dry_run,omitempty"`
}

func fix(ctx context.Context, e *Env, opts *fixOptions) error {
	repo, err := workspace.Open(ctx, opts.cf.repo)
	if err != nil {
		return exitcode.UsageError(fmt.Errorf("--repo: %w", err))
	}
	root := repo.Root
	// --repo may name a directory inside the work tree; the config file and
	// the detected verify command are the root's.
	opts.cf.repo = root
	cfg, _, err := opts.cf.load(e, true)
	if err != nil {
		return err
	}
	task, hidden, err := readTask(opts)
	if err != nil {
		return err
	}
	if hidden > 0 {
		fmt.Fprintf(e.Stderr, "agentfix: --issue-file %s: %d hidden passage(s) were ignored (%s): the model reads the issue as GitHub shows it\n", opts.issueFile, hidden, untrusted.HiddenKinds)
	}
	local := &pipeline.Local{OutDiff: opts.outDiff, DryRun: opts.dryRun, AllowUnproven: opts.allowUnproven}
	out, err := pipeline.Run(ctx, pipeline.Job{
		Name: "local", Repo: root, Config: cfg, Task: task, FromFailures: opts.failing,
		// The checkout's last commit: the instructions a maintainer
		// committed, not uncommitted edits to them.
		Instructions: instructions.AtCommit(root, "HEAD"),
		Session:      opts.session, Deliver: local,
	}, e.deps(e.Stderr))
	if out.Err != nil {
		return err // a stage failed: Main prints it
	}
	rep := &fixReport{Result: loopResult(out), Branch: local.Branch, Commit: local.Commit, OutDiff: local.DiffWritten, Session: out.Session, DryRun: opts.dryRun}
	if opts.json {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printFix(e.Stdout, rep)
	}
	var unproven *pipeline.UnprovenError
	if errors.As(err, &unproven) && opts.allowUnproven {
		return nil
	}
	if err != nil {
		return exitcode.Silent(classify(err)) // the report says why
	}
	return nil
}

// loopResult is the outcome as the loop's result, also when the loop did
// not run (nothing to do, or refused).
func loopResult(o *pipeline.Outcome) *agent.Result {
	if o.Loop != nil {
		return o.Loop
	}
	res := &agent.Result{Result: string(o.Result), StopReason: string(o.Result), StopDetail: o.Reason, Verify: o.Before, Before: o.Before, Files: []string{},
		Proof: &agent.Proof{Kind: agent.ProofNone, Tests: []string{}, Files: []string{}}}
	if o.Checkpoint != nil {
		res.Head = o.Checkpoint.Head
	}
	res.Timings.TotalMS = o.Elapsed.Milliseconds()
	return res
}

// readTask builds the task from --task, --issue-file or --failing. An
// issue file is often an issue's text as GitHub stores it (gh issue view
// --json body), anyone's words: like the issue a label triggers, it is
// read as GitHub shows it, without what a reader there cannot see, and
// hidden counts the passages left out.
func readTask(opts *fixOptions) (task agent.Task, hidden int, err error) {
	switch {
	case opts.task != "":
		return agent.Task{Title: opts.task}, 0, nil
	case opts.issueFile != "":
		data, err := os.ReadFile(opts.issueFile)
		if err != nil {
			return agent.Task{}, 0, exitcode.Usagef("--issue-file: %v", err)
		}
		c := untrusted.Clean(string(data))
		t := parseIssue(c.Text)
		if t.Title == "" && t.Body == "" && c.Hidden > 0 {
			return agent.Task{}, 0, exitcode.Usagef("--issue-file %s shows nothing: all it holds is %d hidden passage(s) (%s), which the model is not shown", opts.issueFile, c.Hidden, untrusted.HiddenKinds)
		}
		if t.Title == "" && t.Body == "" {
			return agent.Task{}, 0, exitcode.Usagef("--issue-file %s is empty", opts.issueFile)
		}
		t.Title = untrusted.Line(t.Title)
		return t, c.Hidden, nil
	}
	return agent.Task{}, 0, nil // --failing: the failing checks are the task
}

// parseIssue reads a Markdown issue: the first heading is the title, the
// rest the body; without a heading the first line is the title.
func parseIssue(md string) agent.Task {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") {
			t = strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
		return agent.Task{Title: t, Body: strings.TrimSpace(strings.Join(lines[i+1:], "\n"))}
	}
	return agent.Task{}
}

// printProof says what shows the change fixes the task.
func printProof(w io.Writer, p *agent.Proof) {
	if p == nil {
		return
	}
	switch p.Kind {
	case agent.ProofReproduced:
		fmt.Fprintf(w, "proof: %s (%s) failed on the unfixed code and passes with the fix\n", strings.Join(p.Tests, ", "), strings.Join(p.Files, ", "))
	case agent.ProofFailingChecks:
		fmt.Fprintf(w, "proof: the checks that failed before pass with the fix\n")
	default:
		fmt.Fprintf(w, "proof: none: no test failed before the change\n")
	}
}

func printFix(w io.Writer, rep *fixReport) {
	r := rep.Result
	switch r.Result {
	case string(pipeline.NothingToDo):
		fmt.Fprintln(w, "nothing to do: the verify commands pass")
	case agent.Fixed, agent.Unproven:
		if r.Result == agent.Fixed {
			fmt.Fprintf(w, "fixed in %d round(s): %s\n", r.Rounds, r.StopDetail)
		} else {
			fmt.Fprintf(w, "unproven after %d round(s): %s\n", r.Rounds, r.StopDetail)
		}
		printProof(w, r.Proof)
		fmt.Fprintf(w, "files: %s\n", strings.Join(r.Files, ", "))
		if r.Result == agent.Unproven && rep.Branch == "" {
			fmt.Fprintf(w, "not kept (--allow-unproven keeps it): the work tree is back at %s; the change:\n%s", gitrun.Short(r.Head), r.Diff)
		}
		switch {
		case rep.Branch != "":
			fmt.Fprintf(w, "committed on branch %s (%s); the checkout is on it now (git switch - goes back)\n", rep.Branch, gitrun.Short(rep.Commit))
		case rep.DryRun && rep.OutDiff == "":
			fmt.Fprintf(w, "dry run: the work tree is unchanged; the fix:\n%s", r.Diff)
		case rep.DryRun:
			fmt.Fprintln(w, "dry run: the work tree is unchanged")
		}
		if rep.OutDiff != "" {
			fmt.Fprintf(w, "diff written to %s\n", rep.OutDiff)
		}
	default:
		fmt.Fprintf(w, "not fixed after %d round(s): %s: %s\n", r.Rounds, r.StopReason, r.StopDetail)
		fmt.Fprintf(w, "the work tree is back at %s\n", gitrun.Short(r.Head))
		if r.Diff != "" {
			fmt.Fprintf(w, "best attempt:\n%s", r.Diff)
		}
		if rep.OutDiff != "" {
			fmt.Fprintf(w, "diff written to %s\n", rep.OutDiff)
		}
	}
	fmt.Fprintf(w, "time: model %dms, verify %dms, agentfix %dms, total %dms; tokens: %d prompt, %d completion\n",
		r.Timings.ModelMS, r.Timings.VerifyMS, r.Timings.OverheadMS(), r.Timings.TotalMS, r.Tokens.Prompt, r.Tokens.Completion)
	if rep.Session != "" {
		fmt.Fprintf(w, "session record: %s\n", rep.Session)
	}
}
