package agent

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/verify"
)

func TestOutlineTellsEachEventOnALine(t *testing.T) {
	var buf bytes.Buffer
	rec := session.NewRecorder(&buf)
	rec.Record("transition", Transition{From: StatePlan, To: StatePatch, Round: 1, Reason: "attempt 1, diff"})
	rec.Record("check", Check{Stage: "full", Commands: []string{"go test ./..."}, Report: &verify.Report{Passed: true}, DurationMS: 1059})
	rec.Record("result", ResultEvent{Result: Fixed, Rounds: 1, StopDetail: "the verify commands pass after round 1"})
	rec.Record("custom", map[string]int{"x": 1})
	events, err := session.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := "  1 plan → round 1: patch: attempt 1, diff\n" +
		"  2 full check [go test ./...]: passed in 1059ms\n" +
		"  3 result fixed after 1 round(s): the verify commands pass after round 1\n" +
		"  4 custom\n"
	if got := Outline(events, 200, 20000); got != want {
		t.Errorf("Outline:\n%s\nwant:\n%s", got, want)
	}
	if got := Outline(events, 2, 20000); strings.Count(got, "\n") != 2 {
		t.Errorf("maxLines 2 gave:\n%s", got)
	}
}
