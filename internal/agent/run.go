package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/untrusted"
	"github.com/agentfix/agentfix/internal/verify"
	"github.com/agentfix/agentfix/internal/workspace"
)

// run is the state of one Run.
type run struct {
	job   Job
	cfg   *config.Config
	log   io.Writer
	rec   *session.Recorder
	repo  *workspace.Repo
	cp    *workspace.Checkpoint
	info  *llm.ModelInfo
	state State
	round int
	begin time.Time
	// modelTime and verifyTime are the time spent waiting for the model
	// server and for the verify commands.
	modelTime, verifyTime time.Duration
	res                   Result

	conv    []llm.Message              // the conversation: stable prefix, then exchanges
	fixed   int                        // how many leading messages are never trimmed
	pending []string                   // feedback for the next patch request
	cut     bool                       // the last reply ran into its token limit
	early   string                     // an edit the model sent instead of a plan
	index   *repoctx.Index             // the repository's files, for the look step
	ranked  *repoctx.Ranking           // the pack's ranking: the look step's plan files
	shown   map[string][]repoctx.Chunk // lines shown so far, per file

	recordErr error          // why the session record could not be written
	task      string         // the task as the model reads it
	before    *verify.Report // the failing checks the task started from
	diffs     map[string]int // normalised diffs proposed so far, by round
	sigs      []string       // failure signature of each round, "" for none
	best      attempt        // the best attempt so far
	touched   []string       // files the applied patches touched, for restore

	testGlobs []string      // what a test file is: verify.test_paths, else the runners' conventions
	repro     *reproduction // the test that reproduced the task; nil without one
	held      string        // a reply whose test reproduced the task: its fix is the first patch
}

// attempt is an applied patch and how the checks went with it.
type attempt struct {
	diff     string
	files    []string
	failures int // -1 until one was verified
	report   *verify.Report
}

// Run turns job.Task into a verified diff. On success the work tree holds
// the fix, uncommitted; otherwise the tree is back at job.Checkpoint and
// Result.Diff is the best attempt. Errors are for runs that could not start
// (an unreachable server, a missing model, a refused verify command);
// everything else ends in a Result with its StopReason.
func Run(ctx context.Context, job Job) (*Result, error) {
	r := newRun(job)
	parent := ctx
	if wall := r.cfg.Limits.WallTime.D(); wall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wall)
		defer cancel()
	}
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	r.before = job.Task.Failing
	r.res.Before = r.before
	if r.recordErr != nil {
		return r.recordLost(ctx)
	}
	if err := r.pack(ctx); err != nil {
		return r.stop(parent, ctx, fmt.Errorf("context: %w", err))
	}
	if job.Reproduce {
		if err := r.reproduce(ctx); err != nil {
			return r.stop(parent, ctx, fmt.Errorf("reproduce: %w", err))
		}
	}
	if r.held == "" {
		if err := r.plan(ctx); err != nil {
			return r.stop(parent, ctx, fmt.Errorf("plan: %w", err))
		}
	}
	for r.round = 1; r.round <= r.cfg.Limits.MaxRounds; r.round++ {
		if err := ctx.Err(); err != nil {
			return r.stop(parent, ctx, fmt.Errorf("round %d: %w", r.round, err))
		}
		if r.recordErr != nil {
			return r.recordLost(ctx)
		}
		applied, err := r.patch(ctx)
		if err != nil {
			return r.stop(parent, ctx, fmt.Errorf("patch: round %d: %w", r.round, err))
		}
		if applied == nil {
			r.sigs = append(r.sigs, "")
			continue
		}
		if prev, seen := r.diffs[applied.Diff]; seen {
			return r.finish(ctx, NotFixed, StopSameDiff, fmt.Sprintf("round %d proposed the same diff as round %d", r.round, prev))
		}
		r.diffs[applied.Diff] = r.round
		report, err := r.verify(ctx, applied)
		if err != nil {
			if r.best.diff == "" {
				// Interrupted or out of time while proving it: the
				// attempt is still the best one there is; do not lose it.
				r.best = attempt{diff: applied.Diff, files: applied.Files, failures: -1}
			}
			return r.stop(parent, ctx, fmt.Errorf("verify: round %d: %w", r.round, err))
		}
		if report.Passed && job.Reproduce && r.repro == nil {
			return r.finish(ctx, Unproven, StopUnproven, fmt.Sprintf("the verify commands pass after round %d, but they passed before the change too and no test reproduced the task: nothing shows that the change fixes it", r.round))
		}
		if report.Passed {
			approved, err := r.review(ctx, applied, report)
			if err != nil {
				return r.stop(parent, ctx, fmt.Errorf("review: round %d: %w", r.round, err))
			}
			if approved {
				detail := fmt.Sprintf("the verify commands pass after round %d", r.round)
				if r.repro != nil {
					detail = fmt.Sprintf("%s, which fails without the fix, and the verify commands pass after round %d", strings.Join(testNames(r.repro.tests), ", "), r.round)
				}
				return r.finish(ctx, Fixed, StopVerified, detail)
			}
		} else if r.sameFailure() {
			return r.finish(ctx, NotFixed, StopSameFailure, fmt.Sprintf("the same tests failed %d rounds running", sameFailureRounds))
		}
		if err := r.reset(ctx); err != nil {
			return r.stop(parent, ctx, fmt.Errorf("workspace: reset after round %d: %w", r.round, err))
		}
	}
	r.round = r.cfg.Limits.MaxRounds
	return r.finish(ctx, NotFixed, StopMaxRounds, fmt.Sprintf("no verified fix in %d round(s)", r.cfg.Limits.MaxRounds))
}

func newRun(job Job) *run {
	cfg := job.Config
	if cfg == nil {
		cfg = config.Default()
	}
	log := job.Log
	if log == nil {
		log = io.Discard
	}
	if job.Environ == nil {
		job.Environ = os.Environ()
	}
	rec := job.Record
	if rec == nil {
		rec = session.NewRecorder(nil)
	}
	globs := cfg.Verify.TestPaths
	if len(globs) == 0 {
		globs = verify.TestPaths(cfg.Verify.Commands)
	}
	return &run{
		testGlobs: globs,
		job:       job,
		cfg:       cfg,
		log:       log,
		rec:       rec,
		repo:      job.Repo,
		cp:        job.Checkpoint,
		state:     StateStart,
		begin:     time.Now(),
		diffs:     map[string]int{},
		best:      attempt{failures: -1},
	}
}

// stop ends the run after a stage failed: cancelled by the caller, out of
// wall time, a configuration problem (returned as an error, exit 2), or an
// unrecoverable error (a not-fixed result that says which).
func (r *run) stop(parent, ctx context.Context, err error) (*Result, error) {
	switch {
	case parent.Err() != nil:
		return r.finish(ctx, NotFixed, StopInterrupted, err.Error())
	case ctx.Err() != nil:
		return r.finish(ctx, NotFixed, StopWallTime, fmt.Sprintf("limits.wall_time (%s) used up: %v", r.cfg.Limits.WallTime, err))
	case isConfig(err):
		_ = r.restore(ctx)
		_ = r.enter(StateDone, "configuration error: "+err.Error())
		return nil, err
	}
	return r.finish(ctx, NotFixed, StopError, err.Error())
}

// isConfig reports whether err is the user's to fix before any run can
// work: the model server, the model, a verify command the allowlist
// refuses.
func isConfig(err error) bool {
	var refused *verify.RefusedError
	return llm.IsConfig(err) || errors.As(err, &refused)
}

func (r *run) logf(format string, args ...any) {
	untrusted.Logf(r.log, "agentfix: "+format, args...)
}

// record appends an event to the session record. A record that cannot be
// written (a full disk) is logged once; the loop then stops at its next
// step with StopRecord, because a fix without its evidence cannot be
// published or replayed. The best diff so far stays in the result.
func (r *run) record(kind string, data any) error {
	if err := r.rec.Record(kind, data); err != nil && r.recordErr == nil {
		r.recordErr = err
		r.logf("session record: %v (the run stops: a fix without its record is not kept)", err)
	}
	return nil
}

// recordLost ends the run when the session record could not be written.
func (r *run) recordLost(ctx context.Context) (*Result, error) {
	return r.finish(ctx, NotFixed, StopRecord, "the session record could not be written: "+r.recordErr.Error())
}
