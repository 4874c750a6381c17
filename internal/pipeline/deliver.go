package pipeline

import (
	"context"

	"github.com/agentfix/agentfix/internal/agent"
)

// Deliverer is what differs by mode once the work is done: a local branch
// or diff, a pull request and its status comment, a comparison with a
// recorded session. Run tells it progress while it works and the outcome
// once, at the end.
type Deliverer interface {
	// Progress is told each stage as it starts. It is called on the
	// pipeline's goroutine and must not block: a deliverer that posts it
	// somewhere slow does so on its own goroutine.
	Progress(Progress)
	// Deliver makes the outcome visible. It is called exactly once, also
	// when a stage failed (Outcome.Err) or the run was interrupted (ctx is
	// then no longer cancelled with the run).
	Deliver(ctx context.Context, out *Outcome) error
}

// Stage is where a run is.
type Stage string

// Stages, in order.
const (
	StageChecking Stage = "checking" // the verify commands on the unchanged tree
	StageWorking  Stage = "working"  // the model plans the fix
	StageRound    Stage = "round"    // patch and verify, Round of MaxRounds
)

// Progress is a stage, with the round once the loop patches.
type Progress struct {
	Stage     Stage
	Round     int
	MaxRounds int
}

// loopProgress turns the loop's states into the rounds a person follows:
// each round's first patch is news, the rest are not.
func loopProgress(d Deliverer) func(agent.Progress) {
	last := 0
	return func(p agent.Progress) {
		if p.State == agent.StatePatch && p.Round > last {
			last = p.Round
			d.Progress(Progress{Stage: StageRound, Round: p.Round, MaxRounds: p.MaxRounds})
		}
	}
}
