package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/verify"
)

// Check is a session event: one run of verify commands.
type Check struct {
	Round int `json:"round,omitempty"`
	// Stage is "before", "targeted" or "full".
	Stage     string         `json:"stage"`
	Commands  []string       `json:"commands"`
	Report    *verify.Report `json:"report"`
	Signature string         `json:"signature,omitempty"`
	Summary   string         `json:"summary,omitempty"`
	// Outputs are the commands' captured outputs (capped by verify).
	Outputs    []string `json:"outputs,omitempty"`
	DurationMS int64    `json:"duration_ms"`
}

// checkBefore establishes the failing checks the task starts from: the
// report the caller gave, or, for a task with no text, a run of the verify
// commands now. It returns nil for a task that is only text.
func (r *run) checkBefore(ctx context.Context) (*verify.Report, error) {
	t := r.job.Task
	switch {
	case t.Failing != nil:
		r.before = t.Failing
	case t.Title == "" && t.Body == "":
		if err := r.enter(StateBefore, "no task text: the failing checks are the task"); err != nil {
			return nil, err
		}
		rep, err := r.runChecks(ctx, "before", r.cfg.Verify.Commands)
		if err != nil {
			return nil, err
		}
		r.before = rep
	}
	r.res.Before = r.before
	return r.before, nil
}

// verify runs the checks on the patched tree: first the tests that failed
// before, narrowed to them, then the full configured commands, which alone
// decide success. A failure is fed back to the model.
func (r *run) verify(ctx context.Context, applied *appliedPatch) (*verify.Report, error) {
	if err := r.enter(StateVerify, fmt.Sprintf("%d file(s) changed", len(applied.Files))); err != nil {
		return nil, err
	}
	var report *verify.Report
	if targeted := r.targeted(); len(targeted) > 0 {
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
	}
	return report, nil
}

// targeted narrows each configured command to the tests that failed
// before; commands that cannot be narrowed are left to the full run.
func (r *run) targeted() []string {
	if r.before == nil {
		return nil
	}
	var cmds []string
	for i, cmd := range r.cfg.Verify.Commands {
		if i >= len(r.before.Commands) || r.before.Commands[i].Passed {
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
	rep, err := verify.Run(ctx, cmds, verify.Options{
		Dir:            r.repo.Root,
		Timeout:        r.cfg.Verify.Timeout.D(),
		Allow:          r.cfg.Verify.Allow,
		EnvPassthrough: r.cfg.Verify.EnvPassthrough,
		Environ:        r.job.Environ,
		Log:            r.log,
		Actions:        r.job.Actions,
		FlakyReruns:    r.cfg.Verify.FlakyReruns,
	})
	took := time.Since(start)
	r.verifyTime += took
	if err != nil {
		return nil, fmt.Errorf("run %q: %w", cmds, err)
	}
	ev := Check{Round: r.round, Stage: stage, Commands: cmds, Report: rep, DurationMS: took.Milliseconds()}
	for _, c := range rep.Commands {
		ev.Outputs = append(ev.Outputs, c.Output)
	}
	if !rep.Passed {
		ev.Signature = rep.Signature()
		ev.Summary = rep.Summary(feedbackBytes)
	}
	r.logf("%s check: %s (%s)", stage, passFail(rep.Passed), took.Round(time.Millisecond))
	return rep, r.record("check", ev)
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
