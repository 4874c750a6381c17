// Package pipeline is the one pipeline of agentfix. A local `agentfix fix`,
// every job of the GitHub Action and `agentfix replay` run through Run,
// which reads top to bottom:
//
//	workspace → session → before-check → model → loop → deliver
//
// The before-check runs before the model is reached, so that a green
// nightly or `fix --failing` on a green tree never needs the model server,
// and its report is the evidence every fix is judged against: a check that
// failed is the proof a fix must turn green; a task given as text while the
// checks pass is proven by a test the loop first has fail on the unfixed
// code (verify.proof: test), else the change is only Unproven. What differs
// by mode sits behind Deliverer: where progress goes and what becomes of
// the outcome (a local branch, a pull request, a comparison with a
// recorded session).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// Job is one run of the pipeline.
type Job struct {
	// Name names the job in the session file's name and the record:
	// "issue-7", "pr-12", "nightly", "local".
	Name string
	// Repo is the work tree: its root or any directory inside it.
	Repo   string
	Config *config.Config
	// Task is the text; empty when the failing checks are the task.
	Task agent.Task
	// FromFailures says the failing checks are the task (nightly, `/agent
	// check`, `fix --failing`): when they pass before any change, there is
	// nothing to do. A text task goes on to the loop either way.
	FromFailures bool
	// Revision says the job revises a pull request that already carries
	// its proof: no new reproducing test is asked for, the test files of
	// that proof (Frozen) may not change, and the suite, which runs them,
	// must pass.
	Revision bool
	Frozen   []string
	// Commands replace the configured verify commands for this job (`/agent
	// check CMD`). They come from a person's comment, so a refusal by the
	// allowlist ends the run refused instead of as a configuration error.
	Commands []string
	// Instructions gives the repository's instructions for agents, read
	// from the base branch (see package instructions); nil reads none.
	Instructions instructions.Source
	// Session is the session record's path; "" chooses one (see
	// SessionPath).
	Session string
	// Deliver makes the outcome visible.
	Deliver Deliverer
}

// Deps are what Run needs of the outside world; tests replace them.
type Deps struct {
	// Getenv reads the environment (GITHUB_ACTIONS, RUNNER_TEMP).
	Getenv func(string) string
	// Environ is the base environment of the verify commands; verify
	// scrubs secrets from it.
	Environ []string
	// Now is the clock; Sleep waits between retries of the model server.
	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
	// Log receives progress for a person.
	Log     io.Writer
	Version string
	// NewModel connects to the model server cfg names; Ollama when nil.
	NewModel func(cfg *config.Config, d Deps) (agent.Model, error)
	// ModelPhase is told what the model server is doing while a request
	// waits on it (llm.Phase); Run sets it so the deliverer hears it.
	ModelPhase func(model string, phase llm.Phase)
}

func (d Deps) withDefaults() Deps {
	if d.Getenv == nil {
		d.Getenv = func(string) string { return "" }
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = io.Discard
	}
	if d.NewModel == nil {
		d.NewModel = Ollama
	}
	return d
}

// Ollama is the model client of cfg: the Ollama server at ollama.host,
// sampling with agent.Seed so that the same task is the same run in every
// mode.
func Ollama(cfg *config.Config, d Deps) (agent.Model, error) {
	return llm.New(cfg.Ollama.Host, llm.Options{Timeout: cfg.Ollama.Timeout.D(), Log: d.Log, Sleep: d.Sleep, Now: d.Now, Seed: agent.Seed, OnPhase: d.ModelPhase})
}

// Result is how a run ended.
type Result string

// Results.
const (
	Fixed       Result = "fixed"
	NotFixed    Result = "not-fixed"
	NothingToDo Result = "nothing-to-do"
	// Unproven: the change passes the verify commands, but they passed
	// before it too and no test reproduced the task (see agent.Unproven).
	Unproven Result = "unproven"
	// Refused: the job's own commands were refused by the allowlist, or
	// the job could not start safely (a PR's head moved).
	Refused Result = "refused"
)

// Outcome is what a run did, for the deliverer and for the report.
type Outcome struct {
	Job    *Job
	Result Result
	// Reason says why the run ended so: the stop reason and its detail, a
	// refusal, a failed stage.
	Reason string
	// Err is the stage error that ended the run early, nil otherwise.
	Err error
	// Repo and Checkpoint are the work tree and its state before the run.
	Repo       *workspace.Repo
	Checkpoint *workspace.Checkpoint
	// Before is the check of the unchanged tree; nil if it did not run.
	Before *verify.Report
	// Loop is the loop's result; nil if the loop did not run.
	Loop *agent.Result
	// Instructions gives the repository's instructions for agents, read
	// from the base branch (see package instructions); nil reads none.
	Instructions instructions.Source
	// Session is the session record's path; "" when nothing was recorded.
	Session string
	// Elapsed is the run's wall time.
	Elapsed time.Duration
}

// Diff is the verified fix, or the best attempt; "" when there is none.
func (o *Outcome) Diff() string {
	if o.Loop == nil {
		return ""
	}
	return o.Loop.Diff
}

// Proof is the evidence of the outcome; nil when the loop did not run.
func (o *Outcome) Proof() *agent.Proof {
	if o.Loop == nil {
		return nil
	}
	return o.Loop.Proof
}

// ErrNoVerifyCommand: nothing could prove a fix.
var ErrNoVerifyCommand = errors.New("no verify command: set verify.commands in .github/agent-fix.yml, the test-command input or --test-cmd (on a pull request, `/agent check CMD` names one)")

// NotFixedError is the error of a run that ran to the end without a
// verified fix: the job did not succeed.
type NotFixedError struct{ Outcome *Outcome }

func (e *NotFixedError) Error() string { return "not fixed: " + e.Outcome.Reason }

// UnprovenError is the error of a run whose change passes the verify
// commands with nothing to show that it fixes the task: the job did not
// succeed unless the caller accepts unproven changes.
type UnprovenError struct{ Outcome *Outcome }

func (e *UnprovenError) Error() string { return "unproven: " + e.Outcome.Reason }

// Run runs job: it opens the work tree and the session record, runs the
// verify commands on the unchanged tree, reaches the model, runs the loop
// and delivers the outcome. Each stage's error is wrapped with its name.
// The deliverer is told the outcome exactly once, also when a stage
// failed, so that a status comment never stays at "working". The error is
// nil when the job succeeded, a *NotFixedError when it ran without a
// verified fix, an *UnprovenError when its change passes the checks with
// no test to prove it, and the failed stage's error otherwise.
func Run(ctx context.Context, job Job, d Deps) (*Outcome, error) {
	d = d.withDefaults()
	start := d.Now()
	parent := ctx
	if wall := job.Config.Limits.WallTime.D(); wall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wall)
		defer cancel()
	}
	if job.Commands != nil {
		cfg := *job.Config
		cfg.Verify.Commands = job.Commands
		job.Config = &cfg
	}
	out := &Outcome{Job: &job}
	var rec *sessionFile
	deliver := func(err error) (*Outcome, error) {
		out.Elapsed = d.Now().Sub(start)
		if rec != nil {
			out.Session = rec.Path()
		}
		if err != nil {
			out.Result, out.Reason, out.Err = NotFixed, err.Error(), err
		}
		// An interrupted or timed-out run still says how it ended.
		if derr := job.Deliver.Deliver(context.WithoutCancel(parent), out); derr != nil && err == nil {
			err = fmt.Errorf("deliver: %w", derr)
		}
		switch {
		case err == nil && out.Result == NotFixed:
			err = &NotFixedError{Outcome: out}
		case err == nil && out.Result == Unproven:
			err = &UnprovenError{Outcome: out}
		}
		return out, err
	}

	if len(job.Config.Verify.Commands) == 0 {
		return deliver(fmt.Errorf("verify: %w", ErrNoVerifyCommand))
	}
	repo, err := workspace.Open(ctx, job.Repo)
	if err != nil {
		return deliver(fmt.Errorf("workspace: %w", err))
	}
	cp, err := repo.Checkpoint(ctx)
	if err != nil {
		return deliver(fmt.Errorf("workspace: %w", err))
	}
	out.Repo, out.Checkpoint = repo, cp

	rec, err = openSession(ctx, job, repo, d)
	if err != nil {
		return deliver(fmt.Errorf("session: %w", err))
	}
	defer rec.Close()
	rec.Record("job", JobEvent{Name: job.Name, FromFailures: job.FromFailures, Commands: job.Commands, Revision: job.Revision, Frozen: job.Frozen})

	prog := &progressTracker{d: job.Deliver}
	d.ModelPhase = prog.phase
	prog.Progress(Progress{Stage: StageChecking})
	before, err := agent.CheckBefore(ctx, agent.Before{
		Repo: repo.Root, Config: job.Config, Commands: job.Commands, Record: rec.Recorder,
		Log: d.Log, Environ: d.Environ, Actions: d.Getenv("GITHUB_ACTIONS") == "true",
	})
	if rerr := rec.Err(); rerr != nil {
		// A fix without its evidence cannot be published or replayed.
		untrusted.Logf(d.Log, "agentfix: session record: %v (the run stops: a fix without its record is not kept)", rerr)
		out.Result, out.Reason = NotFixed, agent.StopRecord+": the session record could not be written: "+rerr.Error()
		return deliver(nil)
	}
	var refused *verify.RefusedError
	if errors.As(err, &refused) && job.Commands != nil {
		out.Result, out.Reason = Refused, refused.Error()
		return deliver(nil)
	}
	if err != nil {
		return deliver(fmt.Errorf("before: %w", err))
	}
	out.Before = before
	task := job.Task
	switch {
	case before.Passed && job.FromFailures:
		out.Result, out.Reason = NothingToDo, "the verify commands pass"
		return deliver(nil)
	case !before.Passed:
		task.Failing = before
	}

	var instr []instructions.File
	if job.Instructions != nil {
		if instr, err = job.Instructions(ctx); err != nil {
			return deliver(fmt.Errorf("instructions: %w", err))
		}
	}

	model, err := d.NewModel(job.Config, d)
	if err != nil {
		return deliver(fmt.Errorf("model: %w", err))
	}

	prog.Progress(Progress{Stage: StageWorking})
	res, err := agent.Run(ctx, agent.Job{
		Repo: repo, Checkpoint: cp, Config: job.Config, Task: task, Instructions: instr, Model: model,
		Record: rec.Recorder, Log: d.Log, Environ: d.Environ, Version: d.Version,
		Actions: d.Getenv("GITHUB_ACTIONS") == "true", Progress: loopProgress(prog),
		// A task given as text while the checks pass has no failing check
		// to judge a fix by: a test that reproduces it is asked for first.
		Reproduce: !job.FromFailures && !job.Revision && before.Passed && job.Config.Verify.Proof == config.ProofTest,
		Frozen:    job.Frozen,
	})
	if err != nil {
		return deliver(fmt.Errorf("loop: %w", err))
	}
	out.Loop = res
	out.Result, out.Reason = NotFixed, res.StopReason
	if res.StopDetail != "" {
		out.Reason += ": " + res.StopDetail
	}
	switch res.Result {
	case agent.Fixed:
		out.Result, out.Reason = Fixed, res.StopDetail
	case agent.Unproven:
		out.Result, out.Reason = Unproven, res.StopDetail
	}
	return deliver(nil)
}

// JobEvent is the first event of a session record: what the job was, so
// that a replay runs the same job.
type JobEvent struct {
	Name         string   `json:"name"`
	FromFailures bool     `json:"from_failures"`
	Revision     bool     `json:"revision,omitempty"`
	Frozen       []string `json:"frozen,omitempty"`
	Commands     []string `json:"commands,omitempty"`
}
