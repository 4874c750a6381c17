package pipeline

import (
	"testing"

	"github.com/agentfix/agentfix/internal/llm"
)

type progressLog []Progress

func (l *progressLog) Progress(p Progress) { *l = append(*l, p) }

// TestModelPhasesAreToldWithTheirStage: what the model server is doing is
// told with the stage it holds up, and a new stage starts without it.
func TestModelPhasesAreToldWithTheirStage(t *testing.T) {
	var got progressLog
	tr := &progressTracker{d: &got}
	tr.Progress(Progress{Stage: StageWorking})
	tr.phase("m", llm.PhaseLoading)
	tr.phase("m", llm.PhasePrompt)
	tr.Progress(Progress{Stage: StageRound, Round: 1, MaxRounds: 3})
	want := []Progress{
		{Stage: StageWorking},
		{Stage: StageWorking, Model: "loading the model"},
		{Stage: StageWorking, Model: "evaluating the prompt"},
		{Stage: StageRound, Round: 1, MaxRounds: 3},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}
