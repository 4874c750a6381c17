package agent

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// recordWrongThenRight records a two-round run and returns its record,
// with the work tree put back where it started.
func recordWrongThenRight(t *testing.T) (*harness, []session.Event) {
	t.Helper()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "wrong.diff")), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("recording run: %s after %d rounds", res.Result, res.Rounds)
	}
	gitOut(t, h.repo, "checkout", "--quiet", "--", ".")
	return h, h.events()
}

func TestReplayIsByteIdenticalWithoutAServer(t *testing.T) {
	t.Parallel()
	h, events := recordWrongThenRight(t)
	h.srv.Close() // no model server from here on
	rec, err := ParseRecording(events)
	if err != nil {
		t.Fatal(err)
	}
	var own bytes.Buffer
	rep, err := Replay(context.Background(), rec, ReplayOptions{Repo: h.repo, Session: &own, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Identical || rep.Divergence != "" {
		t.Fatalf("replay not identical: %s", rep.Divergence)
	}
	if rep.Result.Diff != rec.Result.Diff || rep.Result.Rounds != 2 {
		t.Errorf("replayed %d rounds, diff:\n%s", rep.Result.Rounds, rep.Result.Diff)
	}
	// Verification ran for real: the replay's record has its own checks.
	replayed, _ := session.Read(&own)
	checks := 0
	for _, e := range replayed {
		if e.Kind == "check" {
			checks++
		}
	}
	if checks < 3 {
		t.Errorf("replay ran %d checks", checks)
	}
}

func TestReplayReportsTheFirstDivergence(t *testing.T) {
	t.Parallel()
	h, events := recordWrongThenRight(t)
	rec, err := ParseRecording(events)
	if err != nil {
		t.Fatal(err)
	}
	// Someone edits the record: the second patch reply is now the wrong
	// fix again.
	rec.Chats[2].Reply = rec.Chats[1].Reply
	rep, err := Replay(context.Background(), rec, ReplayOptions{Repo: h.repo, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Identical {
		t.Fatal("a replay with a different reply is reported identical")
	}
	if !strings.Contains(rep.Divergence, "round 2 patch attempt 1") {
		t.Errorf("divergence = %q, want it at round 2's patch", rep.Divergence)
	}
	h.assertPristine()
}

func TestReplayRefusesAnotherCommit(t *testing.T) {
	t.Parallel()
	h, events := recordWrongThenRight(t)
	rec, err := ParseRecording(events)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(h.repo+"/README", []byte("x\n"), 0o644)
	gitOut(t, h.repo, "add", "README")
	gitOut(t, h.repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "later")
	_, err = Replay(context.Background(), rec, ReplayOptions{Repo: h.repo})
	var mismatch *HeadMismatchError
	if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), "git switch --detach") {
		t.Fatalf("err = %v", err)
	}
}

func TestReplayOfARecordThatAskedMore(t *testing.T) {
	t.Parallel()
	h, events := recordWrongThenRight(t)
	rec, _ := ParseRecording(events)
	rec.Chats = rec.Chats[:2] // the record lost its last reply
	rep, err := Replay(context.Background(), rec, ReplayOptions{Repo: h.repo, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Identical || rep.Result.StopReason != StopError || !strings.Contains(rep.Result.StopDetail, "does not have") {
		t.Fatalf("identical=%v stop=%s %s", rep.Identical, rep.Result.StopReason, rep.Result.StopDetail)
	}
}

func TestReplayReproducesASchemaRefusal(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.FormatRejected(), ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")))
	if res := h.run(context.Background(), Task{Title: "Sum drops the first element"}); res.Result != Fixed {
		t.Fatalf("recording run: %s", res.Result)
	}
	gitOut(t, h.repo, "checkout", "--quiet", "--", ".")
	rec, err := ParseRecording(h.events())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(context.Background(), rec, ReplayOptions{Repo: h.repo, Environ: os.Environ()})
	if err != nil || !rep.Identical {
		t.Fatalf("replay: %v %+v", err, rep)
	}
}
