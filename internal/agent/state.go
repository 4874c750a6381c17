package agent

import "fmt"

// State is where the loop is.
type State string

// The states of the loop, in the order a successful run passes them.
const (
	StateStart   State = "start"   // opening the model
	StateContext State = "context" // packing the repository for the prompt
	// StateReproduce: asking for a test that fails on the unfixed code
	// and running it (a task given as text, see Job.Reproduce).
	StateReproduce State = "reproduce"
	StatePlan      State = "plan"   // asking for a plan
	StatePatch     State = "patch"  // asking for a diff and applying it
	StateVerify    State = "verify" // running the checks on the patched tree
	StateReview    State = "review" // asking the reviewer model
	StateDone      State = "done"   // the result is final
)

// next lists the transitions the machine allows; Done is reachable from
// every state because any stage can end the run.
var next = map[State][]State{
	StateStart:     {StateContext},
	StateContext:   {StatePlan, StateReproduce},
	StateReproduce: {StateReproduce, StatePlan, StatePatch},
	StatePlan:      {StatePatch},
	StatePatch:     {StatePatch, StateVerify},
	StateVerify:    {StatePatch, StateReview},
	StateReview:    {StatePatch},
}

// Transition is one recorded change of state.
type Transition struct {
	From   State  `json:"from"`
	To     State  `json:"to"`
	Round  int    `json:"round,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// enter moves the machine to state to and records why. A transition the
// machine does not allow is a bug in the loop, reported as an error.
func (r *run) enter(to State, reason string) error {
	if to != StateDone && !allowed(r.state, to) {
		return fmt.Errorf("internal error: no transition from %s to %s", r.state, to)
	}
	t := Transition{From: r.state, To: to, Round: r.round, Reason: reason}
	r.state = to
	r.logf("%s", describe(t))
	if r.job.Progress != nil {
		r.job.Progress(Progress{State: to, Round: r.round, MaxRounds: r.cfg.Limits.MaxRounds})
	}
	return r.record("transition", t)
}

func allowed(from, to State) bool {
	for _, s := range next[from] {
		if s == to {
			return true
		}
	}
	return false
}

func describe(t Transition) string {
	s := string(t.To)
	if t.Round > 0 {
		s = fmt.Sprintf("round %d: %s", t.Round, s)
	}
	if t.Reason != "" {
		s += ": " + t.Reason
	}
	return s
}
