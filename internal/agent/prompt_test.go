package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/instructions"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/testing/golden"
)

// assertGolden compares got with testdata/prompts/name (go test -update
// rewrites it).
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", "prompts", name), got)
}

func render(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "===== %s =====\n%s\n", m.Role, strings.TrimRight(m.Content, "\n"))
	}
	return b.String()
}

// TestPromptsGolden shows a whole conversation as the model reads it: the
// stable prefix, the plan, a diff that did not apply, the SEARCH/REPLACE
// request, failed checks, a rejection by the reviewer.
func TestPromptsGolden(t *testing.T) {
	ctxText := "# Repository map (1 file indexed)\n## sum.go (package sum)\n5: func Sum(xs []int) int\n# Code\n\n## sum.go (lines 5-7 of 11)\n5\tfunc Sum(xs []int) int {\n6\t\tt := 0\n7\t\tfor i := 1; i < len(xs); i++ {\n"
	conv := prefix(nil, ctxText, "Sum drops the first element\n\nSum(1, 2, 3) returns 5.\n"+fmt.Sprintf(checkedWith, "go test ./..."))
	conv = append(conv, user(planRequest), assistant(planReply))
	conv = append(conv, user(patchMessage(nil, false, &Plan{})), assistant("--- a/sum.go\n+++ b/sum.go\n@@ -7 +7 @@\n-\tnot there\n+\tfor i := 0; i < len(xs); i++ {"))
	conv = append(conv, user(patchMessage([]string{fmt.Sprintf(feedbackPatch, "sum.go: hunk 1: the removed line \"\\tnot there\" is not in the file")}, false, &Plan{})), assistant("(another broken diff)"))
	conv = append(conv, user(patchMessage([]string{fmt.Sprintf(feedbackPatch, "sum.go: hunk 1: ...")}, true, &Plan{})), assistant("sum.go\n<<<<<<< SEARCH\n\tt := 0\n=======\n\tt := xs[0]\n>>>>>>> REPLACE"))
	conv = append(conv, user(patchMessage([]string{fmt.Sprintf(feedbackVerify, "FAIL  go test ./... (exit 1 after 0.4s; 1 failure)\n\n--- TestSumEmpty (example.com/sum) at sum_test.go:12\npanic: runtime error: index out of range [0] with length 0")}, false, &Plan{})))
	assertGolden(t, "conversation.golden", render(conv))

	withInstr := prefix([]instructions.File{
		{Path: "AGENTS.md", Ref: "main", Text: "Run gofmt. Never change exported names.", Size: 40},
		{Path: ".github/agent-fix.md", Ref: "main", Text: "Add a test for every fix in the package's _test.go file.\nKeep", Size: 5000, Cut: true},
	}, ctxText, "Sum drops the first element\n")
	assertGolden(t, "prefix-instructions.golden", render(withInstr))

	review := []llm.Message{system(reviewSystem), user(fmt.Sprintf(reviewRequest, "Sum drops the first element\n", "--- a/sum.go\n+++ b/sum.go\n@@ -7 +7 @@\n-\tfor i := 1; i < len(xs); i++ {\n+\tfor i := 0; i < len(xs); i++ {\n", "The configured checks pass: go test ./..."))}
	assertGolden(t, "review.golden", render(review))
	assertGolden(t, "plan-retry.golden", render([]llm.Message{user(fmt.Sprintf(feedbackPlanInvalid, `"files" is empty; name at least one file to change`))}))
	assertGolden(t, "review-rejected.golden", render([]llm.Message{user(patchMessage([]string{fmt.Sprintf(feedbackReview, "the test was weakened")}, false, nil))}))
}

func TestParsePlan(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("package pkg\n"), 0o644)
	for _, tc := range []struct {
		reply, err string
	}{
		{`{"files":["pkg/a.go"],"steps":["x"]}`, ""},
		{"```json\n{\"files\":[\"./pkg/a.go\", \"pkg/new.go\"],\"steps\":[\"x\"]}\n```", ""},
		{`{"files":["nowhere/a.go"],"steps":["x"]}`, "do not exist"},
		{`{"files":["../etc/passwd"],"steps":["x"]}`, "outside the repository"},
		{`{"files":[],"steps":["x"]}`, `"files" is empty`},
		{`{"files":["pkg/a.go"],"steps":[]}`, `"steps" is empty`},
		{`{"files":["pkg/a.go"],"steps":["x"],"notes":"..."}`, ""},
		{`{"files":"pkg/a.go","steps":["x"]}`, "not JSON of the form"},
		{`Sure! Here is the plan`, "not JSON of the form"},
		{"Here is the plan: {\"files\":[\"pkg/a.go\"],\"steps\":[\"x\"]} Hope this helps.", ""},
		{`{"files":["pkg/a.go","pkg/b.go","pkg/c.go"],"steps":["x"]}`, "at most 2"},
		{`{"files":["pkg/a.go\n::add-mask::pkg/a.go"],"steps":["x"]}`, "line break"},
		{`{"files":["pkg/a.go\r::warning title=Security::ok"],"steps":["x"]}`, "line break"},
		{`{"files":["pkg/\u202ea.go"],"steps":["x"]}`, "invisible"},
		{`{"files":["pkg/a.go\n"],"steps":["x"]}`, ""},
		{`{"files":["pkg/a.go", " "],"steps":["x"]}`, `"files" holds an empty name (entry 2)`},
		{`{"files":[""],"steps":["x"]}`, `"files" holds an empty name (entry 1)`},
	} {
		_, err := parsePlan(tc.reply, root, 2)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("parsePlan(%q) = %v", tc.reply, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parsePlan(%q) = %v, want %q", tc.reply, err, tc.err)
		}
	}
}

func TestFitKeepsThePrefixAndTheLastMessage(t *testing.T) {
	r := &run{cfg: nil, fixed: 2, info: &llm.ModelInfo{ContextLength: 3000}}
	r.cfg = newRun(Job{}).cfg
	big := strings.Repeat("x", 4000) // about 1150 tokens
	msgs := []llm.Message{system("s"), user("prefix"), user(big), assistant(big), user(big), assistant(big), user("last")}
	got := r.fit(msgs, 500)
	if got[0].Content != "s" || got[1].Content != "prefix" || got[len(got)-1].Content != "last" {
		t.Fatalf("prefix or last message dropped: %d messages", len(got))
	}
	if llm.EstimateTokens(got)+500 > 3000 {
		t.Errorf("still too long: %d tokens", llm.EstimateTokens(got))
	}
	if len(got) != 5 {
		t.Errorf("kept %d messages, want the newest exchange kept", len(got))
	}
}

// fit counts as the client sizes the window: a Qwen model's window holds
// more of the conversation than the count for any model says.
func TestFitCountsByTheModelsTokenizer(t *testing.T) {
	big := strings.Repeat("x", 4000) // 1143 tokens by the count, 915 for Qwen
	msgs := []llm.Message{system("s"), user("prefix"), user(big), assistant(big), user(big), assistant(big), user("last")}
	for tokenizer, want := range map[string]int{"": 5, "qwen2": 7} {
		r := newRun(Job{})
		r.fixed, r.info = 2, &llm.ModelInfo{ContextLength: 4500, Tokenizer: tokenizer}
		if got := r.fit(msgs, 500); len(got) != want {
			t.Errorf("tokenizer %q: kept %d messages of 7, want %d", tokenizer, len(got), want)
		}
	}
}
