package agent

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/verify"
)

// Check is a session event: one run of verify commands.
type Check struct {
	Round int `json:"round,omitempty"`
	// Stage is "before", "reproduce" (a reproducing test on the unfixed
	// code), "reproduced" (it, on the fixed code), "targeted" or "full".
	Stage     string         `json:"stage"`
	Commands  []string       `json:"commands"`
	Report    *verify.Report `json:"report"`
	Signature string         `json:"signature,omitempty"`
	Summary   string         `json:"summary,omitempty"`
	// Outputs are the commands' captured outputs (capped by verify).
	Outputs    []string `json:"outputs,omitempty"`
	DurationMS int64    `json:"duration_ms"`
}

// Before is how CheckBefore runs the checks a job starts from.
type Before struct {
	Repo     string
	Config   *config.Config
	Commands []string // the commands to run; Config.Verify.Commands when nil
	Record   *session.Recorder
	Log      io.Writer
	Environ  []string
	Actions  bool
}

// CheckBefore runs the verify commands on the unchanged work tree and
// records them as the "before" check: its failures are the task of a job
// that starts from failing checks, and the evidence a fix is judged
// against. The loop then starts from Task.Failing.
func CheckBefore(ctx context.Context, b Before) (*verify.Report, error) {
	cmds := b.Commands
	if cmds == nil {
		cmds = b.Config.Verify.Commands
	}
	start := time.Now()
	rep, err := verify.Run(ctx, cmds, VerifyOptions(b.Config, b.Repo, b.Environ, b.Log, b.Actions))
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", cmds, err)
	}
	took := time.Since(start)
	fmt.Fprintf(orDiscard(b.Log), "agentfix: %s\n", rep.Sandbox.Describe())
	fmt.Fprintf(orDiscard(b.Log), "agentfix: before check: %s (%s)\n", passFail(rep.Passed), took.Round(time.Millisecond))
	return rep, b.Record.Record("check", checkEvent(0, "before", cmds, rep, took))
}

// VerifyOptions are the verify options of cfg for commands run in dir:
// every check of a run, and agentfix check, use them.
func VerifyOptions(cfg *config.Config, dir string, environ []string, log io.Writer, actions bool) verify.Options {
	v := cfg.Verify
	return verify.Options{
		Dir:            dir,
		Timeout:        v.Timeout.D(),
		Allow:          v.Allow,
		EnvPassthrough: v.EnvPassthrough,
		Env:            v.Env,
		Environ:        environ,
		Log:            log,
		Actions:        actions,
		FlakyReruns:    v.FlakyReruns,
		Sandbox: verify.Sandbox{
			Mode: v.Sandbox, Network: v.Network, Readable: v.Readable, Writable: v.Writable,
			MaxMemoryMB: v.MaxMemoryMB, MaxProcesses: v.MaxProcesses,
		},
	}
}

// recordOutputBytes caps each command's output in the session record: the
// failures and their output are in the report; the rest is for a person
// reading the record, and a chatty suite must not make it huge.
const recordOutputBytes = 1 << 20

// checkEvent is the session event of one run of cmds.
func checkEvent(round int, stage string, cmds []string, rep *verify.Report, took time.Duration) Check {
	ev := Check{Round: round, Stage: stage, Commands: cmds, Report: rep, DurationMS: took.Milliseconds()}
	for _, c := range rep.Commands {
		ev.Outputs = append(ev.Outputs, verify.TrimMiddle(c.Output, recordOutputBytes))
	}
	if !rep.Passed {
		ev.Signature = rep.Signature()
		ev.Summary = rep.Summary(feedbackBytes)
	}
	return ev
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// verify runs the checks on the patched tree: first the tests that failed
// before, narrowed to them when their command is slow (targetedFrom), then
// the full configured commands, which alone decide success. A failure is fed back to the model.
func (r *run) verify(ctx context.Context, applied *appliedPatch) (*verify.Report, error) {
	if err := r.enter(StateVerify, fmt.Sprintf("%d file(s) changed", len(applied.Files))); err != nil {
		return nil, err
	}
	var report *verify.Report
	if r.repro != nil {
		rep, err := r.checkReproduction(ctx)
		if err != nil {
			return nil, err
		}
		if !rep.Passed {
			report = rep
		}
	} else if targeted := r.targeted(); len(targeted) > 0 {
		rep, err := r.runChecks(ctx, "targeted", targeted)
		if err != nil {
			return nil, err
		}
		if !rep.Passed {
			report = rep
		}
	}
	if report == nil {
		rep, err := r.runChecks(ctx, "full", r.cfg.Verify.Commands)
		if err != nil {
			return nil, err
		}
		report = rep
	}
	r.res.Verify = report
	r.sigs = append(r.sigs, report.Signature())
	r.consider(applied, report)
	if !report.Passed {
		r.say(fmt.Sprintf(feedbackVerify, strings.TrimSpace(report.Summary(feedbackBytes))))
		written := applied.Files // and the reproducing test, the model's too
		if r.repro != nil {
			written = append(slices.Clone(written), r.repro.files...)
		}
		if more := r.failureLook("verify", report, written); more != "" {
			r.say(more)
		}
	}
	return report, nil
}

// targetedFrom is how long a command must have taken in the before-check
// for its failing tests to be re-run on their own before it: narrowing
// pays when the whole command is slow. A faster command is run whole at
// once, which costs one run instead of two when the fix is right and
// shows any test the fix broke in the same round.
const targetedFrom = 30 * time.Second

// targeted narrows each configured command to the tests that failed
// before; commands that cannot be narrowed, and commands that took less
// than targetedFrom, are left to the full run.
func (r *run) targeted() []string {
	if r.before == nil {
		return nil
	}
	var cmds []string
	for i, cmd := range r.cfg.Verify.Commands {
		if i >= len(r.before.Commands) || r.before.Commands[i].Passed {
			continue
		}
		if time.Duration(r.before.Commands[i].DurationMS)*time.Millisecond < targetedFrom {
			continue
		}
		if t, ok := verify.Targeted(cmd, r.before.Commands[i].Failures); ok {
			cmds = append(cmds, t)
		}
	}
	return cmds
}

// runChecks runs cmds with the configured options and records the result.
func (r *run) runChecks(ctx context.Context, stage string, cmds []string) (*verify.Report, error) {
	start := time.Now()
	rep, err := verify.Run(ctx, cmds, VerifyOptions(r.cfg, r.repo.Root, r.job.Environ, r.log, r.job.Actions))
	took := time.Since(start)
	r.verifyTime += took
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", cmds, err)
	}
	r.logf("%s check: %s (%s)", stage, passFail(rep.Passed), took.Round(time.Millisecond))
	return rep, r.record("check", checkEvent(r.round, stage, cmds, rep, took))
}

// sameFailure reports whether the last rounds all failed the same way.
func (r *run) sameFailure() bool {
	n := len(r.sigs)
	if n < sameFailureRounds {
		return false
	}
	last := r.sigs[n-1]
	for _, s := range r.sigs[n-sameFailureRounds:] {
		if s == "" || s != last {
			return false
		}
	}
	return true
}

// consider keeps the attempt with the fewest failures as the best one; the
// latest passing attempt always wins, since it is the one in the tree when
// the run ends fixed.
func (r *run) consider(a *appliedPatch, rep *verify.Report) {
	n := len(rep.Failures())
	if rep.Passed {
		n = 0
	} else if n == 0 {
		n = 1
	}
	if rep.Passed || r.best.failures < 0 || n < r.best.failures {
		r.best = attempt{diff: a.Diff, files: a.Files, failures: n, report: rep}
	}
}

func passFail(ok bool) string {
	if ok {
		return "passed"
	}
	return "failed"
}
