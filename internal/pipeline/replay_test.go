package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// recordWrongThenRight records a two-round run and returns its record,
// with the work tree put back where it started.
func recordWrongThenRight(t *testing.T) (*world, *agent.Recording) {
	t.Helper()
	w := newWorld(t)
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("wrong.diff")), ollamafake.Text(w.reply("fix.diff")))
	out, err := w.run(Job{FromFailures: true})
	if err != nil || out.Result != Fixed || out.Loop.Rounds != 2 {
		t.Fatalf("recording run: %v %+v", err, out)
	}
	w.git("checkout", "--quiet", "--", ".")
	return w, w.recording(out.Session)
}

func (w *world) recording(path string) *agent.Recording {
	w.t.Helper()
	events, err := session.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	rec, err := agent.ParseRecording(events)
	if err != nil {
		w.t.Fatal(err)
	}
	return rec
}

func (w *world) replay(rec *agent.Recording, out string) (*ReplayReport, error) {
	return Replay(context.Background(), rec, ReplayOptions{Repo: w.repo, SessionOut: out}, w.deps())
}

func TestReplayIsByteIdenticalWithoutAServer(t *testing.T) {
	t.Parallel()
	w, rec := recordWrongThenRight(t)
	w.srv.Close() // no model server from here on
	own := filepath.Join(t.TempDir(), "replay.jsonl")
	rep, err := w.replay(rec, own)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Identical || rep.Divergence != "" {
		t.Fatalf("replay not identical: %s", rep.Divergence)
	}
	if rep.Outcome.Diff() != rec.Result.Diff || rep.Outcome.Loop.Rounds != 2 {
		t.Errorf("replayed %d rounds, diff:\n%s", rep.Outcome.Loop.Rounds, rep.Outcome.Diff())
	}
	// Verification ran for real: the replay's record has its own checks,
	// the before-check and at least one per round.
	replayed, _ := session.ReadFile(own)
	checks := 0
	for _, e := range replayed {
		if e.Kind == "check" {
			checks++
		}
	}
	if checks < 3 {
		t.Errorf("replay ran %d checks", checks)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("replay left changes:\n%s", st)
	}
}

func TestReplayReportsTheFirstDivergence(t *testing.T) {
	t.Parallel()
	w, rec := recordWrongThenRight(t)
	// Someone edits the record: the second patch reply is now the wrong
	// fix again.
	rec.Chats[2].Reply = rec.Chats[1].Reply
	rep, err := w.replay(rec, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Identical {
		t.Fatal("a replay with a different reply is reported identical")
	}
	if !strings.Contains(rep.Divergence, "round 2 patch attempt 1") {
		t.Errorf("divergence = %q, want it at round 2's patch", rep.Divergence)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("replay left changes:\n%s", st)
	}
}

func TestReplayRefusesAnotherCommit(t *testing.T) {
	t.Parallel()
	w, rec := recordWrongThenRight(t)
	os.WriteFile(filepath.Join(w.repo, "README"), []byte("x\n"), 0o644)
	w.git("add", "README")
	w.git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "later")
	_, err := w.replay(rec, "")
	var mismatch *HeadMismatchError
	if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), "git switch --detach") {
		t.Fatalf("err = %v", err)
	}
}

func TestReplayOfARecordThatAskedMore(t *testing.T) {
	t.Parallel()
	w, rec := recordWrongThenRight(t)
	rec.Chats = rec.Chats[:2] // the record lost its last reply
	rep, err := w.replay(rec, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Identical || rep.Outcome.Loop.StopReason != agent.StopError || !strings.Contains(rep.Outcome.Loop.StopDetail, "does not have") {
		t.Fatalf("identical=%v outcome %+v", rep.Identical, rep.Outcome.Loop)
	}
}

func TestReplayReproducesASchemaRefusal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.srv.Script(testModel, ollamafake.FormatRejected(), ollamafake.Text(planReply), ollamafake.Text(w.reply("fix.diff")))
	out, err := w.run(Job{Task: agent.Task{Title: "Sum drops the first element"}})
	if err != nil || out.Result != Fixed {
		t.Fatalf("recording run: %v %+v", err, out)
	}
	w.git("checkout", "--quiet", "--", ".")
	rep, err := w.replay(w.recording(out.Session), "")
	if err != nil || !rep.Identical {
		t.Fatalf("replay: %v %+v", err, rep)
	}
}
