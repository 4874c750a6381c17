package report

import (
	"strings"
	"testing"
)

// TestStatusCommentSaysWhatTheModelServerIsDoing: while a stage waits on a
// cold model the comment says so; the final text does not.
func TestStatusCommentSaysWhatTheModelServerIsDoing(t *testing.T) {
	r := &Run{Trigger: "label `agent-fix` on #7", Model: "qwen2.5-coder:14b", MaxRounds: 3, Rounds: 1, Waiting: "loading the model", Result: NotFixed, Reason: "x"}
	for _, stage := range []Stage{StageWorking, StageRound} {
		if got := StatusComment(r, stage); !strings.Contains(got, "The model server is loading the model (`qwen2.5-coder:14b`).") {
			t.Errorf("%s:\n%s", stage, got)
		}
	}
	if got := StatusComment(r, StageDone); strings.Contains(got, "loading the model") {
		t.Errorf("done still says it is waiting:\n%s", got)
	}
}
