package agent

import (
	"context"
	"strings"
	"time"

	"github.com/agentfix/agentfix/internal/session"
)

// ResultEvent is the last event of a session record.
type ResultEvent struct {
	Result     string              `json:"result"`
	StopReason string              `json:"stop_reason"`
	StopDetail string              `json:"stop_detail,omitempty"`
	Rounds     int                 `json:"rounds"`
	Diff       string              `json:"diff"`
	Files      []string            `json:"files"`
	Ranges     []session.RangeHash `json:"ranges,omitempty"`
	Drift      []string            `json:"drift,omitempty"`
	Timings    Timings             `json:"timings"`
	Tokens     Tokens              `json:"tokens"`
}

// finish settles the result: a fix stays in the work tree, anything else is
// undone. The result event and the final transition close the record.
func (r *run) finish(ctx context.Context, result, reason, detail string) (*Result, error) {
	if result == Fixed && r.recordErr != nil {
		result, reason, detail = NotFixed, StopRecord, "verified, but the session record could not be written: "+r.recordErr.Error()
	}
	if result != Fixed {
		if err := r.restore(ctx); err != nil {
			detail += "; restoring the work tree failed: " + err.Error()
		}
	}
	r.res.Result, r.res.StopReason, r.res.StopDetail = result, reason, detail
	r.res.Rounds = r.round
	r.res.Diff, r.res.Files = r.best.diff, r.best.files
	if r.repro != nil {
		// The test and the fix go together: the fix never touches the
		// frozen test, so the two diffs are about different files.
		r.res.Diff = r.repro.diff + r.best.diff
		r.res.Files = append(append([]string(nil), r.repro.files...), r.best.files...)
	}
	if r.res.Files == nil {
		r.res.Files = []string{}
	}
	r.res.Proof = r.proof()
	if r.best.report != nil {
		r.res.Verify = r.best.report
	}
	if result == Fixed {
		r.res.Drift = r.drift(ctx)
	}
	r.res.Timings = Timings{ModelMS: r.modelTime.Milliseconds(), VerifyMS: r.verifyTime.Milliseconds(), TotalMS: time.Since(r.begin).Milliseconds()}
	r.record("result", ResultEvent{
		Result: result, StopReason: reason, StopDetail: detail, Rounds: r.res.Rounds,
		Diff: r.res.Diff, Files: r.res.Files, Ranges: session.RangeHashes(r.res.Diff), Drift: r.res.Drift,
		Timings: r.res.Timings, Tokens: r.res.Tokens,
	})
	r.enter(StateDone, reason+": "+detail)
	res := r.res
	return &res, nil
}

// drift compares the work tree of a verified fix with the validated diff
// and says what the code under test changed: none of it is ever
// committed, but a person should know the tests rewrote files.
func (r *run) drift(ctx context.Context) []string {
	if r.repo == nil || r.cp == nil {
		return nil
	}
	drift, err := r.repo.Drift(context.WithoutCancel(ctx), r.cp, r.best.diff)
	if err != nil {
		r.logf("%v", err)
		return nil
	}
	if len(drift) > 0 {
		r.logf("the work tree changed while the verify commands ran: %s differ from the validated diff; only the validated diff is committed or published", strings.Join(drift, ", "))
	}
	return drift
}

// reset puts the work tree back to the checkpoint after a failed round,
// with the reproducing test, if there is one.
func (r *run) reset(ctx context.Context) error {
	if err := r.restore(ctx); err != nil {
		return err
	}
	return r.reapplyTest()
}

// restore undoes whatever the loop changed, even when ctx is done (an
// interrupted run must still leave the tree as it found it).
func (r *run) restore(ctx context.Context) error {
	if r.repo == nil || r.cp == nil {
		return nil
	}
	err := r.repo.Restore(context.WithoutCancel(ctx), r.cp, r.touched...)
	r.touched = nil
	return err
}
