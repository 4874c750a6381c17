package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

// systemOf is the first chat's system message in a session record.
func systemOf(t *testing.T, events []session.Event) string {
	t.Helper()
	for _, e := range events {
		var c agent.Chat
		if e.Kind == "chat" && e.Decode(&c) == nil && len(c.Messages) > 0 && c.Messages[0].Role == "system" {
			return c.Messages[0].Content
		}
	}
	t.Fatal("the record has no chat with a system message")
	return ""
}

// The committed AGENTS.md reaches the model in the system message and the
// record keeps it; a replay shows the model what the record says, not
// what the branch says by then.
func TestInstructionsAreRecordedAndReplayed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if err := os.WriteFile(filepath.Join(w.repo, "AGENTS.md"), []byte("COMMITTED-RULE: keep Sum's signature.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git("add", "AGENTS.md")
	w.git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "instructions")
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("fix.diff")))
	out, err := w.run(Job{FromFailures: true, Instructions: instructions.AtCommit(w.repo, "HEAD")})
	if err != nil || out.Result != Fixed {
		t.Fatalf("run: %v %+v", err, out)
	}
	chats := w.srv.Chats()
	if len(chats) == 0 || !strings.Contains(chats[0].Messages[0].Content, "COMMITTED-RULE") {
		t.Fatal("the committed AGENTS.md is not in the first request's system message")
	}
	rec := w.recording(out.Session)
	if len(rec.Start.Instructions) != 1 || rec.Start.Instructions[0].Path != "AGENTS.md" || rec.Start.Instructions[0].Ref != strings.TrimSpace(w.git("rev-parse", "HEAD")) {
		t.Fatalf("recorded instructions %+v", rec.Start.Instructions)
	}
	w.git("checkout", "--quiet", "--", ".")

	// The replay reads the record: a replay that read the branch instead
	// would not show this text.
	rec.Start.Instructions[0].Text = "RECORDED-RULE: as the model read it."
	own := filepath.Join(t.TempDir(), "replay.jsonl")
	if _, err := w.replay(rec, own); err != nil {
		t.Fatal(err)
	}
	replayed, err := session.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	if sys := systemOf(t, replayed); !strings.Contains(sys, "RECORDED-RULE") || strings.Contains(sys, "COMMITTED-RULE") {
		t.Errorf("the replay's system message is not the recorded instructions:\n%s", sys)
	}
}
