package report

import (
	"regexp"
	"strings"
	"testing"
)

// hostileRun is a run whose model, tests and issue say what an attacker
// would have them say.
func hostileRun() *Run {
	r := fixedRun()
	// The trigger is agentfix's own text; its mention of the person who
	// asked is deliberate and not under test here.
	r.Trigger = "label `agent-fix` on #7"
	r.Title = "Add is wrong <!-- hi --> @octo/security-team"
	r.Plan = []string{
		"Closes #1, fixes #3, resolves #4",
		"cc @octo/security-team ![pwn](https://evil.example/p.png)",
		"<img src=https://evil.example/x.png> fixes https://github.com/octo/widgets/issues/5",
		"::warning title=Security::Tests passed. Approve and merge.",
		"Fixes &#35;6 and \\#7 and &#64;mallory",
	}
	r.Files = []string{"calc/`x`.go", "calc/@team.go"}
	r.Reason = "review: reject: fixes #8 @mallory"
	r.Before.Commands[0].Failures = []string{"Test | closes #9", "test @octo/team ![x](https://e/x.png)"}
	return r
}

var (
	codeSpan = regexp.MustCompile("(`+)[^`]*?(`+)")
	closing  = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b\s*:?\s+(?:[\w.-]+/[\w.-]+)?#(\d+)`)
	live     = regexp.MustCompile(`(?i)(?:^|[^\w\x60])@[\w-]|(?:^|[^\\])(?:!\[|<img)|https://evil`)
)

func TestHostileModelTextIsInert(t *testing.T) {
	r := hostileRun()
	nightly := hostileRun()
	nightly.Kind, nightly.Number = "nightly", 0
	for _, tc := range []struct{ name, text string }{
		{"pr_body_hostile.md", PRBody(r)},
		{"status_hostile.md", StatusComment(r, StageDone)},
		{"summary_hostile.md", StepSummary(r)},
		{"tracking_hostile.md", TrackingBody(nightly, "main")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assertGolden(t, tc.name, tc.text)
			closes := ""
			if tc.name != "tracking_hostile.md" {
				closes = "7"
			}
			assertInert(t, tc.text, tc.text, closes)
		})
	}
}

// TestHostileRevisionTextIsInert: the replies on a revised pull request
// quote the model's plan, the changed paths and why nothing was pushed;
// the one deliberate mention is of the person who asked.
func TestHostileRevisionTextIsInert(t *testing.T) {
	h := hostileRun()
	r := revisedRun()
	r.Plan, r.Files = h.Plan, h.Files
	r.Revision.Answered[0].Path = "calc/`x` fixes #5 @mallory.go"
	r.Revision.Unanswered[0].Path = "docs/@octo/team ![x](https://evil.example/x.png).md"
	refused := revisedRun()
	refused.Revision.Commit, refused.Reason = "", h.Reason
	for _, tc := range []struct{ name, text string }{
		{"revision_reply_hostile.md", RevisionReply(r)},
		{"revision_refused_hostile.md", RevisionReply(refused)},
		{"thread_reply_hostile.md", ThreadReply(r, r.Revision.Answered[0])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assertGolden(t, tc.name, tc.text)
			mentionless := strings.ReplaceAll(tc.text, "@"+r.Revision.Requester+",", "")
			mentionless = strings.ReplaceAll(mentionless, "by @"+r.Revision.Requester+"]", "")
			assertInert(t, tc.text, mentionless, "")
		})
	}
}

// assertInert fails t when checked, outside fenced blocks and code
// spans, closes an issue other than closes ("" for none), mentions
// someone or shows an image or link, or when a line of text starts a
// workflow command.
func assertInert(t *testing.T, text, checked, closes string) {
	t.Helper()
	// Fenced blocks (the session excerpt, the diff) show text only.
	outside := codeSpan.ReplaceAllString(fencedBlock.ReplaceAllString(checked, ""), "")
	for _, m := range closing.FindAllStringSubmatch(outside, -1) {
		if m[1] != closes {
			t.Errorf("a closing keyword acts on #%s: %q", m[1], m[0])
		}
	}
	if m := live.FindString(outside); m != "" {
		t.Errorf("live mention, image or link outside code: %q", m)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a line starts a workflow command: %q", line)
		}
	}
}

var fencedBlock = regexp.MustCompile("(?s)\n(```+|~~~+)[^\n]*\n.*?\n```+\n")
