package pipeline

import (
	"context"
	"sync"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/llm"
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
	// Model is what the model server is doing while the stage waits on it
	// (loading the model, evaluating the prompt, generating); "" until
	// it has been slow enough to say.
	Model string
}

// progressTracker passes progress on, and remembers the stage so that the
// model server's phases are told with it.
type progressTracker struct {
	d    interface{ Progress(Progress) }
	mu   sync.Mutex
	last Progress
}

// Progress tells a new stage; what the model was doing belongs to the
// stage before.
func (t *progressTracker) Progress(p Progress) {
	t.mu.Lock()
	t.last = p
	t.mu.Unlock()
	t.d.Progress(p)
}

// phase tells the current stage again with what the model server is doing.
func (t *progressTracker) phase(_ string, ph llm.Phase) {
	t.mu.Lock()
	t.last.Model = string(ph)
	p := t.last
	t.mu.Unlock()
	t.d.Progress(p)
}

// loopProgress turns the loop's states into the rounds a person follows:
// each round's first patch is news, the rest are not.
func loopProgress(d interface{ Progress(Progress) }) func(agent.Progress) {
	last := 0
	return func(p agent.Progress) {
		if p.State == agent.StatePatch && p.Round > last {
			last = p.Round
			d.Progress(Progress{Stage: StageRound, Round: p.Round, MaxRounds: p.MaxRounds})
		}
	}
}
