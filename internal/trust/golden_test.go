package trust_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/event"
	"github.com/agentfix/agentfix/internal/testing/golden"
	"github.com/agentfix/agentfix/internal/trust"
)

// TestRefusalGolden: the refusals people read, one file per case, with the
// reasons Decide really gives.
func TestRefusalGolden(t *testing.T) {
	t.Parallel()
	_, gh := fake(t)
	ctx := context.Background()

	stranger := job(event.KindFixIssue, event.TriggerComment, "stranger", "User")
	stranger.Command = &event.Command{Verb: "fix", Args: "and make it fast", Line: "/agent fix and make it fast"}

	// A stranger's words quoted back must not mention, link or close
	// anything from agentfix's account.
	hostile := job(event.KindFixIssue, event.TriggerComment, "stranger", "User")
	hostile.Command = &event.Command{Verb: "fix", Line: "/agent fix @octo/security-team closes #1 ![x](https://evil.example/x.png) <img src=x>"}

	triage := job(event.KindFixIssue, event.TriggerLabel, "triage-user", "User")
	triage.Command, triage.Label = nil, "agent-fix"

	bot := job(event.KindCheckPR, event.TriggerComment, "helper[bot]", "Bot")
	bot.Command = &event.Command{Verb: "check", Line: "/agent check"}

	fork := job(event.KindCheckPR, event.TriggerComment, "write-user", "User")
	fork.Command = &event.Command{Verb: "check", Args: "make test", Line: "/agent check make test"}
	fork.Number, fork.IsPR = 2, true
	pr, _, err := gh.PullRequests.Get(ctx, "acme", "widgets", 2)
	if err != nil {
		t.Fatal(err)
	}
	fork.SetPullRequest(pr)

	for name, j := range map[string]*event.Job{"stranger": stranger, "hostile-command": hostile, "triage-label": triage, "bot": bot, "fork": fork} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, err := trust.Decide(ctx, gh.Repositories, j, config.Default().Triggers)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				t.Fatalf("allowed: %+v", d)
			}
			golden.Assert(t, filepath.Join("testdata", "refusal-"+name+".md"), trust.RefusalComment(j, d))
		})
	}
}
