package report

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentfix/agentfix/internal/testing/golden"
)

// assertGolden compares got with testdata/name (go test -update rewrites it).
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name), got)
}

// limited is r run in a sandbox whose limits a cgroup set.
func limited(r *Run) *Run {
	r.Limits = "at most 4096 MiB of memory, without swap, and 1024 processes and threads for the whole command (cgroup v2)"
	return r
}

func fixedRun() *Run {
	return &Run{
		Repo:      "octo/widgets",
		Trigger:   "label `agent-fix` on #7 by @alice",
		Kind:      "fix-issue",
		Number:    7,
		Title:     "Add returns the wrong sum",
		Result:    Fixed,
		Decision:  "alice has write permission",
		Rounds:    2,
		MaxRounds: 5,
		Model:     "qwen2.5-coder:14b",
		Elapsed:   83 * time.Second,
		RunURL:    "https://github.com/octo/widgets/actions/runs/42",
		Summary:   "Add subtracted its second operand; it now adds it.",
		Plan:      []string{"Fix the operator in calc.Add", "Run the tests"},
		Files:     []string{"calc/calc.go"},
		Diff:      "--- a/calc/calc.go\n+++ b/calc/calc.go\n@@ -1 +1 @@\n-return a - b\n+return a + b\n",
		Before: &Check{Commands: []Command{{Command: "go test ./...", Duration: 1200 * time.Millisecond, Failures: []string{"example.com/calc TestAdd"}}},
			Summary: "--- FAIL: TestAdd\n    calc_test.go:9: Add(2, 3) = -1, want 5"},
		After:           &Check{Passed: true, Commands: []Command{{Command: "go test ./...", Passed: true, Duration: 900 * time.Millisecond}}},
		Verified:        true,
		Session:         `{"state":"plan"}` + "\n" + `{"state":"patch","round":1}`,
		SessionFile:     "/runner/_temp/agentfix/sessions/20260101T000000Z-issue-7-add-returns-the-wrong-sum.jsonl",
		SessionArtifact: SessionArtifactName("42", "1", "agent-fix"),
		PR:              &PR{Number: 12, URL: "https://github.com/octo/widgets/pull/12", Branch: "agent-fix/issue-7", Base: "main", Created: true},
	}
}

// revisedRun is the second revision of fixedRun's PR, asked for by a
// review with two inline comments, one on a file it changed.
func revisedRun() *Run {
	r := fixedRun()
	r.Kind, r.Number, r.IsPR = "revise-pr", 12, true
	r.Trigger = "review (changes requested) on #12 by @bob"
	r.Plan = []string{"Keep the doc comment in sync with Add"}
	r.Diff = "--- a/calc/calc.go\n+++ b/calc/calc.go\n@@ -1,2 +1,2 @@\n-// Add subtracts.\n+// Add adds.\n"
	r.PR.Created = false
	r.Revision = &Revision{N: 2, Max: 5, Commit: "0123456789abcdef0123456789abcdef01234567", Requester: "bob", Request: "review",
		RequestURL: "https://github.com/octo/widgets/pull/12#pullrequestreview-80", Fixes: 7,
		Answered:   []Thread{{ID: 91, Path: "calc/calc.go", Line: 3, URL: "https://github.com/octo/widgets/pull/12#discussion_r91"}},
		Unanswered: []Thread{{ID: 92, Path: "README.md", Line: 1, URL: "https://github.com/octo/widgets/pull/12#discussion_r92"}}}
	return r
}

func TestGoldenTexts(t *testing.T) {
	notFixed := fixedRun()
	notFixed.Result, notFixed.Verified, notFixed.PR = NotFixed, false, nil
	notFixed.Reason = "max-rounds: 5 rounds used"
	notFixed.After = &Check{Commands: []Command{{Command: "go test ./...", Duration: time.Second, Failures: []string{"example.com/calc TestAdd"}}}}

	checkedRun := &Run{Repo: "octo/widgets", Trigger: "`/agent check` on #9 by @bob", Kind: "check-pr", Number: 9, IsPR: true,
		Result: Checked, Before: &Check{Passed: true, Commands: []Command{{Command: "go test ./...", Passed: true, Duration: 2 * time.Second}}},
		RunURL: "https://github.com/octo/widgets/actions/runs/43"}

	nightly := &Run{Repo: "octo/widgets", Trigger: "schedule 0 3 * * *", Kind: "nightly", Result: NotFixed,
		Reason: "the failure is flaky: it passed on a re-run",
		Before: &Check{Commands: []Command{{Command: "go test ./...", Failures: []string{"example.com/calc TestRace"}}}, Flaky: []string{"example.com/calc TestRace"}, Summary: "--- FAIL: TestRace"},
		RunURL: "https://github.com/octo/widgets/actions/runs/44", Tracking: &PR{Number: 3, URL: "https://github.com/octo/widgets/issues/3"}}

	forkFixed := fixedRun()
	forkFixed.Kind, forkFixed.IsPR, forkFixed.Number, forkFixed.PR = "check-pr", true, 9, nil
	forkFixed.Notes = []string{"#9 comes from a fork, so agentfix cannot open a pull request into its branch; the verified diff is below for its author to apply."}

	dryRun := fixedRun()
	dryRun.DryRun, dryRun.PR = true, &PR{Branch: "agent-fix/issue-7", Base: "main"}
	dryRun.Diff = "--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-```\n+~~~\n"

	revised := revisedRun()
	refusedRevision := revisedRun()
	refusedRevision.Result, refusedRevision.Reason, refusedRevision.Revision.Commit = Refused, "this pull request has had 5 revisions, the most limits.max_revisions allows", ""

	proven := fixedRun()
	proven.Files = []string{"calc/calc_test.go", "calc/calc.go"}
	proven.Before = &Check{Passed: true, Commands: []Command{{Command: "go test ./...", Passed: true, Duration: time.Second}}}
	proven.Proof = &Proof{Kind: ProofReproduced, Tests: []string{"TestAddNegative"}, Files: []string{"calc/calc_test.go"},
		Before: &Check{Commands: []Command{{Command: "go test ./calc", Duration: 300 * time.Millisecond, Failures: []string{"example.com/calc TestAddNegative"}}},
			Summary: "--- FAIL: TestAddNegative\n    calc_test.go:14: Add(-2, 3) = -5, want 1"},
		After: &Check{Passed: true, Commands: []Command{{Command: "go test ./calc", Passed: true, Duration: 280 * time.Millisecond}}}}

	unproven := fixedRun()
	unproven.Result, unproven.Verified = Unproven, false
	unproven.Reason = "the verify commands pass after round 1, but they passed before the change too and no test reproduced the task"
	unproven.Before = &Check{Passed: true, Commands: []Command{{Command: "go test ./...", Passed: true, Duration: time.Second}}}
	unproven.Proof = &Proof{Kind: "none"}
	unprovenDraft := fixedRun()
	*unprovenDraft = *unproven
	unprovenDraft.PR = &PR{Number: 13, URL: "https://github.com/octo/widgets/pull/13", Branch: "agent-fix/issue-7", Base: "main", Draft: true, Created: true}
	unproven.PR = nil

	for _, tc := range []struct {
		name string
		got  string
	}{
		{"pr_body_revised.md", PRBody(revised)},
		{"revision_reply.md", RevisionReply(revised)},
		{"revision_refused.md", RevisionReply(refusedRevision)},
		{"thread_reply.md", ThreadReply(revised, revised.Revision.Answered[0])},
		{"pr_body_fixed.md", PRBody(limited(fixedRun()))},
		{"pr_body_proven.md", PRBody(proven)},
		{"pr_body_unproven.md", PRBody(unprovenDraft)},
		{"pr_title_unproven.txt", PRTitle(unprovenDraft) + "\n"},
		{"status_proven.md", StatusComment(proven, StageDone)},
		{"status_unproven.md", StatusComment(unproven, StageDone)},
		{"status_unproven_draft.md", StatusComment(unprovenDraft, StageDone)},
		{"summary_proven.md", StepSummary(proven)},
		{"summary_unproven.md", StepSummary(unproven)},
		{"pr_title_fixed.txt", PRTitle(fixedRun()) + "\n"},
		{"status_working.md", StatusComment(fixedRun(), StageWorking)},
		{"status_round.md", StatusComment(fixedRun(), StageRound)},
		{"status_fixed.md", StatusComment(fixedRun(), StageDone)},
		{"status_not_fixed.md", StatusComment(notFixed, StageDone)},
		{"status_checked.md", StatusComment(checkedRun, StageDone)},
		{"status_fixed_fork.md", StatusComment(forkFixed, StageDone)},
		{"summary_fixed.md", StepSummary(limited(fixedRun()))},
		{"summary_not_fixed.md", StepSummary(notFixed)},
		{"summary_nightly.md", StepSummary(nightly)},
		{"summary_dry_run.md", StepSummary(dryRun)},
		{"tracking_body.md", TrackingBody(nightly, "main")},
		{"help.md", Help(HelpOptions{Prefix: "/agent", Label: "agent-fix", AllowBots: []string{"renovate[bot]"}})},
	} {
		t.Run(tc.name, func(t *testing.T) { assertGolden(t, tc.name, tc.got) })
	}
}

func TestPRBodyNeverExceedsLimit(t *testing.T) {
	r := fixedRun()
	r.Session = strings.Repeat("é session line with ``` fences\n", 20000)
	r.Summary = strings.Repeat("long summary ", 3000)
	body := PRBody(r)
	if len(body) > MaxBody {
		t.Fatalf("PR body is %d bytes, limit %d", len(body), MaxBody)
	}
	if !utf8.ValidString(body) {
		t.Fatal("PR body was cut inside a rune")
	}
	for _, want := range []string{"Fixes #7", "## Verification", "Marker", "cut"} {
		if want == "Marker" {
			want = Marker("pr", "agent-fix/issue-7")
		}
		if !strings.Contains(body, want) {
			t.Errorf("PR body lost %q", want)
		}
	}
	// Even a summary alone larger than the limit is cut, keeping the marker.
	r.Summary = strings.Repeat("x", 2*MaxBody)
	body = PRBody(r)
	if len(body) > MaxBody || !strings.Contains(body, Marker("pr", "agent-fix/issue-7")) {
		t.Fatalf("oversized summary: %d bytes, marker kept: %v", len(body), strings.Contains(body, "agentfix:pr"))
	}
}

func TestPRBodyForPRCheckHasNoFixesLine(t *testing.T) {
	r := fixedRun()
	r.IsPR, r.Number = true, 9
	if strings.Contains(PRBody(r), "Fixes #9\n") {
		t.Fatal("a PR into a PR's branch must not say Fixes #N (it would close the PR)")
	}
}

func TestUnverifiedPRBodyWarns(t *testing.T) {
	r := fixedRun()
	r.Verified, r.Reason = false, "max-rounds"
	if !strings.Contains(PRBody(r), "did **not** pass verification") {
		t.Fatal("an unverified PR body does not say so")
	}
}

// GitHub closes an issue when a merged PR's body says "fixes #7" and the
// like: an unproven change must never do that.
// https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue
var closingKeyword = regexp.MustCompile(`(?i)\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\s*:?\s+#\d`)

func TestUnprovenPRNeverClosesTheIssue(t *testing.T) {
	r := fixedRun()
	r.Result, r.Verified, r.Reason = Unproven, false, "no test reproduced the task"
	body, title := PRBody(r), PRTitle(r)
	if m := closingKeyword.FindString(body + "\n" + title); m != "" {
		t.Errorf("the unproven PR says %q:\n%s", m, body)
	}
	if !strings.Contains(body, "Refs #7") || !strings.Contains(body, "no test shows") || !strings.Contains(title, "unproven") {
		t.Errorf("title %q, body:\n%s", title, body)
	}
	if !closingKeyword.MatchString(PRBody(fixedRun())) {
		t.Error("the closing-keyword check finds nothing in a fixed PR: it checks nothing")
	}
}

type outputs map[string]string

func (o outputs) SetOutput(k, v string) { o[k] = v }

func TestWriteOutputs(t *testing.T) {
	got := outputs{}
	WriteOutputs(got, fixedRun())
	want := outputs{"result": "fixed", "pr-number": "12", "pr-url": "https://github.com/octo/widgets/pull/12", "branch": "agent-fix/issue-7", "rounds": "2"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q", k, got[k], v)
		}
	}
	got = outputs{}
	WriteOutputs(got, &Run{Result: Refused})
	if got["result"] != "refused" || got["pr-number"] != "" || got["rounds"] != "0" {
		t.Errorf("refused outputs = %v", got)
	}
}

func TestCutKeepsRunesAndSaysSo(t *testing.T) {
	s := strings.Repeat("日本語\n", 1000)
	c := cut(s, 100)
	if len(c) > 100 || !utf8.ValidString(c) || !strings.Contains(c, "more bytes cut") {
		t.Fatalf("cut = %q (%d bytes)", c, len(c))
	}
	if cut("short", 100) != "short" {
		t.Fatal("cut changed a short string")
	}
}

func TestFenceOutgrowsBackticks(t *testing.T) {
	if f := fence("a ```` b"); f != "`````" {
		t.Fatalf("fence = %q", f)
	}
	if RunURL("https://ghe.example/", "o/r", "5") != "https://ghe.example/o/r/actions/runs/5" {
		t.Fatal("RunURL")
	}
}

// TestStatusHistoryCarriesEarlierOutcomes: each run's status comment
// carries the outcome of the one before it and the history that one
// carried, newest first, bounded.
func TestStatusHistoryCarriesEarlierOutcomes(t *testing.T) {
	if got := EarlierRuns(""); got != nil {
		t.Errorf("no earlier comment: history %v", got)
	}
	first := StatusComment(fixedRun(), StageDone)
	refused := &Run{Result: Refused, Reason: "command \"curl\" refused", RunURL: "https://github.com/octo/widgets/actions/runs/43", History: EarlierRuns(first)}
	second := StatusComment(refused, StageDone)
	working := &Run{Trigger: "label", RunURL: "https://github.com/octo/widgets/actions/runs/44", History: EarlierRuns(second)}
	third := StatusComment(working, StageWorking)
	h := EarlierRuns(third)
	want := []string{
		"⏳ **agentfix is working on this** (label). (this run did not report an outcome) ([workflow run](https://github.com/octo/widgets/actions/runs/44))",
		"🚫 **Not run**: command \"curl\" refused ([workflow run](https://github.com/octo/widgets/actions/runs/43))",
		"✅ **Fixed**: pull request #12 opened (branch `agent-fix/issue-7`, 2 round(s), 1m23s). ([workflow run](https://github.com/octo/widgets/actions/runs/42))",
	}
	if strings.Join(h, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
	assertGolden(t, "status_history.md", second)
	r := &Run{Result: NothingToDo}
	for i := 0; i < 3*maxHistory; i++ {
		r.History = EarlierRuns(StatusComment(r, StageDone))
	}
	if len(r.History) != maxHistory {
		t.Errorf("history grew to %d entries, want at most %d", len(r.History), maxHistory)
	}
}

// TestStatusUnchangedPRReadsAsASentence: no stray colon before the branch.
func TestStatusUnchangedPRReadsAsASentence(t *testing.T) {
	r := fixedRun()
	r.PR.Created, r.PR.Unchanged = false, true
	got := StatusComment(r, StageDone)
	if !strings.Contains(got, "pull request #12 already has this fix (branch `agent-fix/issue-7`") {
		t.Errorf("status comment:\n%s", got)
	}
}
