package cli

import (
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/session"
)

func TestRoundWatcherSeesEachNewRoundOnce(t *testing.T) {
	var out strings.Builder
	var rounds []int
	rw := &roundWatcher{w: &out, onRound: func(k int) { rounds = append(rounds, k) }}
	rec := session.NewRecorder(rw)
	for _, ev := range []struct {
		kind string
		data any
	}{
		{"transition", map[string]any{"to": "plan"}},
		{"transition", map[string]any{"to": "patch", "round": 1}},
		{"chat", map[string]any{"round": 2}},
		{"transition", map[string]any{"to": "verify", "round": 1}},
		{"transition", map[string]any{"to": "patch", "round": 2}},
	} {
		if err := rec.Record(ev.kind, ev.data); err != nil {
			t.Fatal(err)
		}
	}
	if len(rounds) != 2 || rounds[0] != 1 || rounds[1] != 2 {
		t.Fatalf("rounds seen = %v, want [1 2]", rounds)
	}
	if strings.Count(out.String(), "\n") != 5 {
		t.Fatalf("the record was not passed through:\n%s", out.String())
	}
}
