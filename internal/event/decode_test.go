package event

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/testing/fixtures"
)

var defaults = config.Default().Triggers

// env returns a getenv for the Actions variables of one event.
func env(name, fixture string) func(string) string {
	m := map[string]string{
		"GITHUB_EVENT_NAME": name,
		"GITHUB_REPOSITORY": "acme/widgets",
	}
	if fixture != "" {
		m["GITHUB_EVENT_PATH"] = fixtures.Path("events", fixture)
	}
	return func(k string) string { return m[k] }
}

func TestDecodeFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		event, fixture string
		want           Job // compared field by field below
	}{
		{"issues", "issues.labeled.json", Job{
			Kind: KindFixIssue, Trigger: TriggerLabel, Action: "labeled", Number: 7,
			Title: "Parse fails on empty input", Actor: Actor{"maintainer", "User"}, Label: "agent-fix",
		}},
		{"issue_comment", "issue_comment.created.issue.json", Job{
			Kind: KindFixIssue, Trigger: TriggerComment, Action: "created", Number: 7,
			Title: "Parse fails on empty input", Actor: Actor{"maintainer", "User"},
			Task: "keep the public API unchanged",
		}},
		{"issue_comment", "issue_comment.created.pr.json", Job{
			Kind: KindCheckPR, Trigger: TriggerComment, Action: "created", Number: 12, IsPR: true,
			Title: "Speed up the tokenizer", Actor: Actor{"maintainer", "User"}, Task: "go test ./tokenizer/...",
		}},
		{"issue_comment", "issue_comment.edited.json", Job{
			Kind: KindIgnore, Trigger: TriggerComment, Action: "edited", Number: 7,
			Title: "Parse fails on empty input", Actor: Actor{"maintainer", "User"},
		}},
		{"schedule", "schedule.json", Job{Kind: KindNightly, Trigger: TriggerSchedule}},
		{"schedule", "", Job{Kind: KindNightly, Trigger: TriggerSchedule}},
		{"workflow_dispatch", "workflow_dispatch.json", Job{
			Kind: KindCheckPR, Trigger: TriggerDispatch, Number: 12, IsPR: true,
			Actor: Actor{"maintainer", "User"}, Task: "go test -race ./...",
		}},
		{"pull_request", "pull_request.opened.json", Job{Kind: KindIgnore}},
	}
	for _, tc := range tests {
		t.Run(tc.event+"/"+tc.fixture, func(t *testing.T) {
			t.Parallel()
			got, err := Decode(env(tc.event, tc.fixture), os.ReadFile, defaults)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if got.Kind != w.Kind || got.Trigger != w.Trigger || got.Action != w.Action || got.Number != w.Number ||
				got.IsPR != w.IsPR || got.Title != w.Title || got.Actor != w.Actor || got.Label != w.Label || got.Task != w.Task {
				t.Errorf("got  %+v\nwant %+v", *got, w)
			}
			if got.Owner != "acme" || got.Repo != "widgets" || got.EventName != tc.event {
				t.Errorf("repo %s/%s event %s", got.Owner, got.Repo, got.EventName)
			}
			if (got.Kind == KindIgnore) != (got.IgnoreReason != "") {
				t.Errorf("kind %s with ignore reason %q", got.Kind, got.IgnoreReason)
			}
			if got.IsPR && (got.PR == nil || got.PR.Number != got.Number || got.PR.Resolved) {
				t.Errorf("PR %+v: want the number, unresolved", got.PR)
			}
		})
	}
}

func TestDecodeDetails(t *testing.T) {
	t.Parallel()
	j, err := Decode(env("issue_comment", "issue_comment.created.pr.json"), os.ReadFile, defaults)
	if err != nil {
		t.Fatal(err)
	}
	if j.PR.APIURL != "https://api.github.com/repos/acme/widgets/pulls/12" {
		t.Errorf("PR API URL %q", j.PR.APIURL)
	}
	if j.Comment == nil || j.Comment.ID != 55620 || j.Command == nil || j.Command.Line != "/AGENT check go test ./tokenizer/..." {
		t.Errorf("comment %+v command %+v", j.Comment, j.Command)
	}
	if j.Quote() != "/AGENT check go test ./tokenizer/..." || j.DefaultBranch != "main" {
		t.Errorf("quote %q default branch %q", j.Quote(), j.DefaultBranch)
	}

	j, err = Decode(env("schedule", "schedule.json"), os.ReadFile, defaults)
	if err != nil || j.Schedule != "17 3 * * *" {
		t.Errorf("schedule %q err %v", j.Schedule, err)
	}
	j, err = Decode(env("issues", "issues.labeled.json"), os.ReadFile, defaults)
	if err != nil || strings.Join(j.IssueLabels, ",") != "bug,agent-fix" || j.Quote() != "label `agent-fix` added" {
		t.Errorf("labels %v quote %q err %v", j.IssueLabels, j.Quote(), err)
	}
}

// fixture returns a shared event payload changed by edit.
func fixture(t *testing.T, name string, edit func(m map[string]any)) []byte {
	t.Helper()
	b, err := os.ReadFile(fixtures.Path("events", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sub(m map[string]any, k string) map[string]any { return m[k].(map[string]any) }

func TestParseVariants(t *testing.T) {
	t.Parallel()
	commentBody := func(body string) func(map[string]any) {
		return func(m map[string]any) { sub(m, "comment")["body"] = body }
	}
	tests := []struct {
		name, event, fixture string
		edit                 func(map[string]any)
		triggers             config.Triggers
		kind                 Kind
	}{
		{"other label", "issues", "issues.labeled.json", func(m map[string]any) { sub(m, "label")["name"] = "bug" }, defaults, KindIgnore},
		{"label case-insensitive", "issues", "issues.labeled.json", func(m map[string]any) { sub(m, "label")["name"] = "Agent-Fix" }, defaults, KindFixIssue},
		{"configured label", "issues", "issues.labeled.json", func(m map[string]any) { sub(m, "label")["name"] = "autofix" }, config.Triggers{Label: "autofix"}, KindFixIssue},
		{"empty config label means default", "issues", "issues.labeled.json", func(map[string]any) {}, config.Triggers{}, KindFixIssue},
		{"issue opened", "issues", "issues.labeled.json", func(m map[string]any) { m["action"] = "opened" }, defaults, KindIgnore},
		{"unlabeled", "issues", "issues.labeled.json", func(m map[string]any) { m["action"] = "unlabeled" }, defaults, KindIgnore},
		{"help on issue", "issue_comment", "issue_comment.created.issue.json", commentBody("/agent help"), defaults, KindHelp},
		{"help on PR", "issue_comment", "issue_comment.created.pr.json", commentBody("/agent help"), defaults, KindHelp},
		{"check on issue", "issue_comment", "issue_comment.created.issue.json", commentBody("/agent check"), defaults, KindIgnore},
		{"fix on PR", "issue_comment", "issue_comment.created.pr.json", commentBody("/agent fix"), defaults, KindFixPR},
		{"quoted command", "issue_comment", "issue_comment.created.issue.json", commentBody("> /agent fix\n\nwhy?"), defaults, KindIgnore},
		{"command in code block", "issue_comment", "issue_comment.created.issue.json", commentBody("Try:\n```\n/agent fix\n```"), defaults, KindIgnore},
		{"own comment", "issue_comment", "issue_comment.created.issue.json", commentBody(Marker + "\n/agent fix"), defaults, KindIgnore},
		{"plain comment", "issue_comment", "issue_comment.created.issue.json", commentBody("+1"), defaults, KindIgnore},
		{"deleted comment", "issue_comment", "issue_comment.created.issue.json", func(m map[string]any) { m["action"] = "deleted" }, defaults, KindIgnore},
		{"custom command", "issue_comment", "issue_comment.created.issue.json", commentBody("/fixbot fix"), config.Triggers{Command: "/fixbot"}, KindFixIssue},
		{"default command off with custom", "issue_comment", "issue_comment.created.issue.json", commentBody("/agent fix"), config.Triggers{Command: "/fixbot"}, KindIgnore},
		{"dispatch fix", "workflow_dispatch", "workflow_dispatch.json", func(m map[string]any) { m["inputs"] = map[string]any{"mode": "fix-issue", "number": "#7"} }, defaults, KindFixIssue},
		{"dispatch nightly", "workflow_dispatch", "workflow_dispatch.json", func(m map[string]any) { m["inputs"] = map[string]any{"mode": "nightly"} }, defaults, KindNightly},
		{"dispatch no inputs", "workflow_dispatch", "workflow_dispatch.json", func(m map[string]any) { delete(m, "inputs") }, defaults, KindNightly},
		{"dispatch number only", "workflow_dispatch", "workflow_dispatch.json", func(m map[string]any) { m["inputs"] = map[string]any{"number": 9} }, defaults, KindFixIssue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j, err := Parse(tc.event, fixture(t, tc.fixture, tc.edit), "acme/widgets", tc.triggers)
			if err != nil {
				t.Fatal(err)
			}
			if j.Kind != tc.kind {
				t.Errorf("kind %s (%s), want %s", j.Kind, j.IgnoreReason, tc.kind)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	inputs := func(in map[string]any) func(map[string]any) {
		return func(m map[string]any) { m["inputs"] = in }
	}
	tests := []struct {
		name, event, fixture string
		edit                 func(map[string]any)
		repo, want           string
	}{
		{"bad mode", "workflow_dispatch", "workflow_dispatch.json", inputs(map[string]any{"mode": "deploy"}), "acme/widgets", `input mode "deploy"`},
		{"bad number", "workflow_dispatch", "workflow_dispatch.json", inputs(map[string]any{"mode": "fix-issue", "number": "seven"}), "acme/widgets", `input number "seven"`},
		{"missing number", "workflow_dispatch", "workflow_dispatch.json", inputs(map[string]any{"mode": "check-pr"}), "acme/widgets", "needs input number"},
		{"no issue", "issues", "issues.labeled.json", func(m map[string]any) { delete(m, "issue") }, "acme/widgets", "no issue number"},
		{"bad repository", "issues", "issues.labeled.json", func(map[string]any) {}, "widgets", `GITHUB_REPOSITORY "widgets"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.event, fixture(t, tc.fixture, tc.edit), tc.repo, defaults)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "event "+tc.event+": ") {
				t.Errorf("err %v, want one naming the event and containing %q", err, tc.want)
			}
		})
	}
}

func TestDecodeEnvErrors(t *testing.T) {
	t.Parallel()
	if _, err := Decode(func(string) string { return "" }, os.ReadFile, defaults); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_NAME") {
		t.Errorf("no event name: %v", err)
	}
	if _, err := Decode(env("issues", ""), os.ReadFile, defaults); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH") {
		t.Errorf("no event path: %v", err)
	}
	if _, err := Decode(env("issues", "missing.json"), os.ReadFile, defaults); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing payload: %v", err)
	}
	if j, err := Decode(env("schedule", "missing.json"), os.ReadFile, defaults); err != nil || j.Kind != KindNightly {
		t.Errorf("schedule without payload file: %v", err)
	}
	// The repository comes from the payload when GITHUB_REPOSITORY is unset.
	j, err := Decode(func(k string) string {
		return map[string]string{"GITHUB_EVENT_NAME": "issues", "GITHUB_EVENT_PATH": fixtures.Path("events", "issues.labeled.json")}[k]
	}, os.ReadFile, defaults)
	if err != nil || j.FullName() != "acme/widgets" {
		t.Errorf("repo from payload: %v %v", j, err)
	}
}

func TestSetPullRequest(t *testing.T) {
	t.Parallel()
	pr := func(head, base string) *github.PullRequest {
		p := &github.PullRequest{
			Number: github.Int(12), Title: github.String("t"),
			Head: &github.PullRequestBranch{Ref: github.String("fast"), SHA: github.String("abc")},
			Base: &github.PullRequestBranch{Ref: github.String("main"), Repo: &github.Repository{FullName: github.String(base)}},
		}
		if head != "" {
			p.Head.Repo = &github.Repository{FullName: github.String(head), Fork: github.Bool(true)}
		}
		return p
	}
	for _, tc := range []struct {
		head string
		fork bool
	}{
		{"acme/widgets", false},
		{"ACME/Widgets", false},
		{"stranger/widgets", true},
		{"", true}, // the fork was deleted
	} {
		j, err := Parse("issue_comment", fixture(t, "issue_comment.created.pr.json", func(map[string]any) {}), "acme/widgets", defaults)
		if err != nil {
			t.Fatal(err)
		}
		j.SetPullRequest(pr(tc.head, "acme/widgets"))
		if !j.PR.Resolved || j.PR.Fork != tc.fork || j.PR.HeadRef != "fast" || j.PR.HeadSHA != "abc" || j.PR.BaseRef != "main" {
			t.Errorf("head %q: %+v, want fork=%v", tc.head, *j.PR, tc.fork)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"issues.labeled.json", "issue_comment.created.issue.json", "issue_comment.created.pr.json", "schedule.json", "workflow_dispatch.json",
		"pull_request_review.submitted.json", "pull_request_review_comment.created.json"} {
		b, err := os.ReadFile(fixtures.Path("events", name))
		if err != nil {
			f.Fatal(err)
		}
		ev := strings.SplitN(name, ".", 2)[0]
		f.Add(ev, b)
	}
	f.Add("schedule", []byte(nil))
	f.Fuzz(func(t *testing.T, name string, payload []byte) {
		j, err := Parse(name, payload, "acme/widgets", defaults)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "event "+name+": ") {
				t.Fatalf("error %q does not name the event", err)
			}
			return
		}
		switch j.Kind {
		case KindIgnore:
			if j.IgnoreReason == "" {
				t.Fatal("ignored without a reason")
			}
		case KindFixIssue, KindCheckPR:
			if j.Number <= 0 {
				t.Fatalf("%s without a number", j.Kind)
			}
			if j.Kind == KindCheckPR && (!j.IsPR || j.PR == nil) {
				t.Fatal("check-pr without a PR")
			}
		case KindFixPR, KindRevisePR:
			if !j.IsPR || j.PR == nil || j.Number <= 0 {
				t.Fatalf("%s without a PR", j.Kind)
			}
			if j.Kind == KindRevisePR && j.Review == nil {
				t.Fatal("a revision without the review that asks for it")
			}
			// Settle never turns a job on someone else's PR into a revision.
			j.Settle("agent-fix/")
			if j.Kind == KindRevisePR && !j.PR.Own("agent-fix/") {
				t.Fatalf("revision of %s:%s, not agentfix's", j.PR.HeadRepo, j.PR.HeadRef)
			}
		case KindHelp, KindNightly:
		default:
			t.Fatalf("kind %q", j.Kind)
		}
		if j.Trigger == TriggerComment && j.Kind != KindIgnore && (j.Command == nil || HasMarker(j.Comment.Body)) {
			t.Fatalf("comment job %s without a command, or from agentfix itself", j.Kind)
		}
	})
}
