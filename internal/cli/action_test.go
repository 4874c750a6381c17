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

func TestDescribeEvent(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"seq":7,"kind":"transition","data":{"from":"plan","to":"patch","round":1,"reason":"attempt 1, diff"}}`, "  7 plan → patch (round 1): attempt 1, diff"},
		{`{"seq":12,"kind":"check","data":{"stage":"full","commands":["go test ./..."],"report":{"passed":true},"duration_ms":1059}}`, " 12 full check [go test ./...]: passed in 1059ms"},
		{`{"seq":13,"kind":"result","data":{"result":"fixed","rounds":1,"stop_detail":"the verify commands pass after round 1"}}`, " 13 result fixed after 1 round(s): the verify commands pass after round 1"},
		{`not json`, "not json"},
	} {
		if got := describeEvent([]byte(tc.line)); got != tc.want {
			t.Errorf("describeEvent(%s)\n got %q\nwant %q", tc.line, got, tc.want)
		}
	}
	if got := shownCommand([]string{"go", "test", "-json", "./..."}); got != "go test ./..." {
		t.Errorf("shownCommand = %q", got)
	}
}
