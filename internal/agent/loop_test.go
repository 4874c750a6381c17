package agent

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/fixtures"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/verify"
)

var failingTask = Task{} // no text: the failing checks are the task

func TestFixedInOneRound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), failingTask)

	if res.Result != Fixed || res.StopReason != StopVerified || res.Rounds != 1 {
		t.Fatalf("result = %s/%s after %d rounds (%s), want fixed/verified after 1\n%s", res.Result, res.StopReason, res.Rounds, res.StopDetail, h.log.String())
	}
	if !strings.Contains(h.file("sum.go"), "for i := 0; i < len(xs); i++") {
		t.Errorf("the work tree does not hold the fix:\n%s", h.file("sum.go"))
	}
	if st := gitOut(t, h.repo, "status", "--porcelain"); st != " M sum.go\n" {
		t.Errorf("fix should be uncommitted, status:\n%s", st)
	}
	if res.Before == nil || res.Before.Passed || res.Verify == nil || !res.Verify.Passed {
		t.Errorf("before/after reports wrong: before=%+v verify=%+v", res.Before, res.Verify)
	}
	if len(res.Files) != 1 || res.Files[0] != "sum.go" || !strings.Contains(res.Diff, "+\tfor i := 0;") {
		t.Errorf("files %v, diff:\n%s", res.Files, res.Diff)
	}
	if res.Plan == nil || res.Plan.Files[0] != "sum.go" {
		t.Errorf("plan = %+v", res.Plan)
	}
	if res.Model != testModel || res.Digest == "" || len(res.Head) != 40 {
		t.Errorf("model %q digest %q head %q", res.Model, res.Digest, res.Head)
	}
	if res.Tokens.Prompt == 0 || res.Tokens.Completion == 0 || res.Timings.TotalMS < res.Timings.VerifyMS {
		t.Errorf("tokens %+v timings %+v", res.Tokens, res.Timings)
	}

	// Every request is deterministic and sized to the prompt.
	for i, c := range h.srv.Chats() {
		if temp, ok := c.Temperature(); !ok || temp != 0 {
			t.Errorf("request %d: temperature %v (sent: %v), want 0", i, temp, ok)
		}
		if seed, ok := c.Seed(); !ok || seed != Seed {
			t.Errorf("request %d: seed %d, want %d", i, seed, Seed)
		}
		if n, ok := c.NumCtx(); !ok || n < 2048 || n > 32768 {
			t.Errorf("request %d: num_ctx %d", i, n)
		}
	}
	chats := h.srv.Chats()
	if len(chats) != 2 || len(chats[0].Format) == 0 || len(chats[1].Format) != 0 {
		t.Fatalf("want a plan request with a schema then a free-text patch request, got %d", len(chats))
	}
	if n, ok := chats[0].NumPredict(); !ok || n != planReplyTokens {
		t.Errorf("plan reply limit %d (sent: %v), want %d", n, ok, planReplyTokens)
	}
	if n, ok := chats[1].NumPredict(); ok {
		t.Errorf("the patch reply is capped at %d tokens; a diff must not be cut", n)
	}
	// The stable prefix leads both requests.
	for i := 0; i < 2; i++ {
		if a, b := chats[1].Messages[i], chats[0].Messages[i]; a.Role != b.Role || a.Content != b.Content {
			t.Errorf("message %d differs between the plan and the patch request", i)
		}
	}

	// The record: every transition, the model's identity, the range hashes.
	var kinds []string
	var states []string
	for _, e := range h.events() {
		kinds = append(kinds, e.Kind)
		if e.Kind == "transition" {
			var tr Transition
			e.Decode(&tr)
			states = append(states, string(tr.To))
		}
	}
	if got := strings.Join(states, " "); got != "context plan patch verify done" {
		t.Errorf("states = %s", got)
	}
	// The harness ran the before check; the loop's record starts after it.
	if kinds[0] != "check" || kinds[1] != "start" || kinds[len(kinds)-2] != "result" {
		t.Errorf("kinds = %v", kinds)
	}
	var start Start
	h.events()[1].Decode(&start)
	if start.Model != testModel || start.Digest == "" || start.Head != res.Head || start.Version != "test" {
		t.Errorf("start event = %+v", start)
	}
	rec, err := ParseRecording(h.events())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Result.Ranges) != 1 || rec.Result.Ranges[0].File != "sum.go" || len(rec.Result.Ranges[0].SHA256) != 64 {
		t.Errorf("ranges = %+v", rec.Result.Ranges)
	}
}

func TestMalformedDiffCorrectedAfterFeedback(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	bad := "```diff\n--- a/sum.go\n+++ b/sum.go\n@@ -40,3 +40,3 @@\n-\tnot in the file\n+\tfor i := 0; i < len(xs); i++ {\n```\n"
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(bad), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), Task{Title: "Sum drops the first element"})
	if res.Result != Fixed || res.Rounds != 1 {
		t.Fatalf("result %s after %d rounds (%s)", res.Result, res.Rounds, res.StopDetail)
	}
	chats := h.srv.Chats()
	last := chats[len(chats)-1].LastMessage()
	if !strings.Contains(last, "was not applied") {
		t.Errorf("the second patch request does not carry the patch errors:\n%s", last)
	}
	// The failed reply stays in the conversation, followed by the feedback.
	msgs := chats[len(chats)-1].Messages
	if msgs[len(msgs)-2].Role != "assistant" || msgs[len(msgs)-2].Content != bad {
		t.Errorf("the failed diff is not in the conversation")
	}
}

func TestWrongFixThenRightFixAfterTestFeedback(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "wrong.diff")), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("result %s after %d rounds (%s)\n%s", res.Result, res.Rounds, res.StopDetail, h.log.String())
	}
	last := h.srv.Chats()[2].LastMessage()
	if !strings.Contains(last, "TestSumEmpty") || !strings.Contains(last, "reset to the original files") {
		t.Errorf("round 2's request does not carry the test failure:\n%s", last)
	}
	if strings.Contains(h.file("sum.go"), "xs[0]") || !strings.Contains(h.file("sum.go"), "i := 0") {
		t.Errorf("the work tree should hold only the right fix:\n%s", h.file("sum.go"))
	}
	// The suite takes well under targetedFrom: each round runs it whole.
	if got := h.stages(); got != "before full full" {
		t.Errorf("check stages = %s", got)
	}
}

// slowBefore is the failing before-check of h's project, recorded as if
// every command had taken a minute.
func slowBefore(t *testing.T, h *harness) *verify.Report {
	t.Helper()
	before, err := verify.Run(context.Background(), h.cfg.Verify.Commands, verify.Options{Dir: h.repo, Environ: fixtures.Environ()})
	if err != nil || before.Passed {
		t.Fatalf("before: %v %+v", err, before)
	}
	for i := range before.Commands {
		before.Commands[i].DurationMS = time.Minute.Milliseconds()
	}
	return before
}

func TestSlowSuiteRunsTheFailedTestsFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "wrong.diff")), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), Task{Failing: slowBefore(t, h)})
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("result %s after %d rounds (%s)\n%s", res.Result, res.Rounds, res.StopDetail, h.log.String())
	}
	// Each round runs the tests that failed first, then the whole suite
	// (round 1's wrong fix passes TestSumEmpty and breaks another test).
	if got := h.stages(); got != "targeted full targeted full" {
		t.Errorf("check stages = %s", got)
	}
}

func TestGarbageEveryTimeStopsAtMaxRounds(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.cfg.Limits.MaxRounds = 2
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply {
		return ollamafake.Text("I am not sure what you mean. Could you clarify?")
	})
	res := h.run(context.Background(), failingTask)
	if res.Result != NotFixed || res.StopReason != StopMaxRounds || res.Rounds != 2 {
		t.Fatalf("result %s/%s after %d rounds", res.Result, res.StopReason, res.Rounds)
	}
	if !strings.Contains(res.StopDetail, "2 round(s)") {
		t.Errorf("detail %q", res.StopDetail)
	}
	// 3 plan attempts, then 3 patch attempts in each of 2 rounds.
	if n := len(h.srv.Chats()); n != 3+2*3 {
		t.Errorf("%d requests, want 9", n)
	}
	if !strings.Contains(h.srv.Chats()[5].LastMessage(), "SEARCH/REPLACE") {
		t.Errorf("the third attempt of a round should ask for SEARCH/REPLACE:\n%s", h.srv.Chats()[5].LastMessage())
	}
	h.assertPristine()
}

func TestSameDiffTwiceStops(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	wrong := reply(t, "wrong.diff")
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(wrong), ollamafake.Text(wrong))
	res := h.run(context.Background(), failingTask)
	if res.Result != NotFixed || res.StopReason != StopSameDiff || res.Rounds != 2 {
		t.Fatalf("result %s/%s after %d rounds", res.Result, res.StopReason, res.Rounds)
	}
	if !strings.Contains(res.Diff, "xs[0]") {
		t.Errorf("the best attempt should be reported:\n%s", res.Diff)
	}
	h.assertPristine()
}

func TestSameFailureThreeRoundsTripsTheBreaker(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.cfg.Limits.MaxRounds = 5
	comment := func(word string) ollamafake.Reply {
		return ollamafake.Text("```diff\n--- a/sum.go\n+++ b/sum.go\n@@ -4,3 +4,3 @@\n // Sum returns the sum of xs.\n-func Sum(xs []int) int {\n+func Sum(xs []int) int { // " + word + "\n \tt := 0\n```\n")
	}
	h.srv.Script(testModel, ollamafake.Text(planReply), comment("one"), comment("two"), comment("three"))
	res := h.run(context.Background(), failingTask)
	if res.StopReason != StopSameFailure || res.Rounds != 3 {
		t.Fatalf("stop %s after %d rounds (%s)", res.StopReason, res.Rounds, res.StopDetail)
	}
	h.assertPristine()
}

func TestServerErrorsAreRetried(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults []ollamafake.Reply
	}{
		{"500 then success", []ollamafake.Reply{ollamafake.Fail(500)}},
		{"503 twice then success", []ollamafake.Reply{ollamafake.Fail(503), ollamafake.Fail(503)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, "sum")
			script := append(append([]ollamafake.Reply{}, tc.faults...), ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")))
			h.srv.Script(testModel, script...)
			res := h.run(context.Background(), Task{Title: "Sum is wrong", Body: "Sum(1, 2, 3) returns 5."})
			if res.Result != Fixed {
				t.Fatalf("result %s (%s)", res.Result, res.StopDetail)
			}
		})
	}
}

func TestModelMissingIsAConfigurationError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.cfg.Model = "llama3:70b"
	_, err := Run(context.Background(), h.job(failingTask))
	var missing *llm.ModelMissingError
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "ollama pull llama3:70b") {
		t.Fatalf("err = %v, want *llm.ModelMissingError with the pull hint", err)
	}
	h.assertPristine()
}

func TestHangingModelTimesOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.timeout = 200 * time.Millisecond
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Hang() })
	res := h.run(context.Background(), Task{Title: "Sum is wrong"})
	if res.Result != NotFixed || res.StopReason != StopError || !strings.Contains(res.StopDetail, "raise ollama.timeout") {
		t.Fatalf("result %s/%s: %s", res.Result, res.StopReason, res.StopDetail)
	}
	h.assertPristine()
}

func TestCancelMidStreamEndsCleanly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.srv.Script(testModel, ollamafake.Text(planReply))
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply {
		cancel() // SIGTERM arrives while the patch is being written
		return ollamafake.Hang()
	})
	res := h.run(ctx, failingTask)
	if res.Result != NotFixed || res.StopReason != StopInterrupted {
		t.Fatalf("result %s/%s: %s", res.Result, res.StopReason, res.StopDetail)
	}
	h.assertPristine()
	ev := h.events()
	if ev[len(ev)-1].Kind != "transition" || ev[len(ev)-2].Kind != "result" {
		t.Errorf("the record does not end with the result: %v", ev[len(ev)-1].Kind)
	}
}

func TestWallTimeStopsTheRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.cfg.Limits.WallTime = config.Duration(2 * time.Second)
	h.srv.Script(testModel, ollamafake.Text(planReply))
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Hang() })
	res := h.run(context.Background(), Task{Title: "Sum is wrong"})
	if res.StopReason != StopWallTime || !strings.Contains(res.StopDetail, "limits.wall_time (2s)") {
		t.Fatalf("stop %s: %s", res.StopReason, res.StopDetail)
	}
	h.assertPristine()
}

func TestFailingReportFromCallerIsTheTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	before, err := verify.Run(context.Background(), []string{"go test ./..."}, verify.Options{Dir: h.repo, Environ: fixtures.Environ()})
	if err != nil || before.Passed {
		t.Fatalf("before: %v %+v", err, before)
	}
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), Task{Failing: before})
	if res.Result != Fixed || res.Before != before {
		t.Fatalf("result %s, before kept: %v", res.Result, res.Before == before)
	}
	if task := h.srv.Chats()[0].Messages[1].Content; !strings.Contains(task, "TestSum") {
		t.Errorf("the failing test is not in the task:\n%s", task)
	}
}

func TestReviewerRejectCostsARound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	const reviewer = "reviewer:7b"
	h.srv.AddModel(ollamafake.Model{Name: reviewer})
	h.cfg.Reviewer.Model = reviewer
	h.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")), ollamafake.Text(reply(t, "fix-commented.diff")))
	h.srv.Script(reviewer,
		ollamafake.Text(`{"verdict": "reject", "reason": "explain the loop bound in a comment"}`),
		ollamafake.Text(`{"verdict": "approve", "reason": "minimal and correct"}`))
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed || res.Rounds != 2 {
		t.Fatalf("result %s after %d rounds (%s)", res.Result, res.Rounds, res.StopDetail)
	}
	if !strings.Contains(h.file("sum.go"), "the first too") || !strings.Contains(res.Diff, "the first too") {
		t.Errorf("the approved fix is not the one in the tree and the result:\n%s\n%s", h.file("sum.go"), res.Diff)
	}
	var patchAsks []string
	for _, c := range h.srv.Chats() {
		if c.Model == testModel+"" && len(c.Format) == 0 {
			patchAsks = append(patchAsks, c.LastMessage())
		}
	}
	if len(patchAsks) != 2 || !strings.Contains(patchAsks[1], "explain the loop bound") {
		t.Errorf("the rejection is not fed back: %q", patchAsks)
	}
}

func TestSchemaRefusedFallsBackToPlainJSON(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel, ollamafake.FormatRejected(), ollamafake.Text(planReply), ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), Task{Title: "Sum drops the first element"})
	if res.Result != Fixed || res.Plan == nil {
		t.Fatalf("result %s plan %v (%s)", res.Result, res.Plan, res.StopDetail)
	}
	chats := h.srv.Chats()
	if got := string(chats[len(chats)-2].Format); got != `"json"` {
		t.Errorf("plan retry format = %s, want \"json\"", got)
	}
}

func TestInvalidPlanIsRetriedWithTheError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	h.srv.Script(testModel,
		ollamafake.Text(`{"files": ["src/summer.go"], "steps": ["fix it"]}`),
		ollamafake.Text(planReply),
		ollamafake.Text(reply(t, "fix.diff")))
	res := h.run(context.Background(), Task{Title: "Sum drops the first element"})
	if res.Result != Fixed || res.Plan == nil || res.Plan.Files[0] != "sum.go" {
		t.Fatalf("result %s plan %+v", res.Result, res.Plan)
	}
	retry := h.srv.Chats()[1].LastMessage()
	if !strings.Contains(retry, "src/summer.go") || !strings.Contains(retry, "do not exist") {
		t.Errorf("the retry does not say what was wrong:\n%s", retry)
	}
	// The failed plan exchange is not carried into the patch request.
	for _, m := range h.srv.Chats()[2].Messages {
		if strings.Contains(m.Content, "src/summer.go") {
			t.Error("the rejected plan leaked into the patch conversation")
		}
	}
}

// A model server that answers every request with the same fix, whatever
// was asked: the diff sent instead of a plan is the first patch.
func TestFixSentInsteadOfAPlanIsTried(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	fix := reply(t, "fix.diff")
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Text(fix) })
	res := h.run(context.Background(), failingTask)
	if res.Result != Fixed || res.Rounds != 1 || res.Plan != nil {
		t.Fatalf("result %s after %d rounds, plan %v (%s)", res.Result, res.Rounds, res.Plan, res.StopDetail)
	}
	if n := len(h.srv.Chats()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}

func TestWrongFixEveryTimeStopsOnTheSameDiff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	wrong := reply(t, "wrong.diff")
	h.srv.Respond(testModel, func(ollamafake.Request) ollamafake.Reply { return ollamafake.Text(wrong) })
	res := h.run(context.Background(), failingTask)
	if res.Result != NotFixed || res.StopReason != StopSameDiff {
		t.Fatalf("result %s/%s (%s)", res.Result, res.StopReason, res.StopDetail)
	}
	h.assertPristine()
}

func TestSearchReplaceAfterTwoBrokenDiffsInASubpackage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "shop")
	broken := ollamafake.Text("```diff\n--- a/price/price.go\n+++ b/price/price.go\n@@ -9 +9 @@\n-\treturn cents - cents*percent/1000\n+\treturn cents - cents*percent/100\n```\n")
	h.srv.Script(testModel,
		ollamafake.Text(`{"files": ["price/price.go"], "steps": ["Divide the percentage by 100, not 10."]}`),
		broken, broken, ollamafake.Text(reply(t, "shop-fix.sr")))
	res := h.run(context.Background(), Task{Failing: slowBefore(t, h)})
	if res.Result != Fixed || res.Rounds != 1 {
		t.Fatalf("result %s after %d rounds (%s)\n%s", res.Result, res.Rounds, res.StopDetail, h.log.String())
	}
	if !strings.Contains(h.file("price/price.go"), "percent/100") {
		t.Errorf("fix not in the tree:\n%s", h.file("price/price.go"))
	}
	if !strings.Contains(res.Diff, "diff --git a/price/price.go b/price/price.go") {
		t.Errorf("the SEARCH/REPLACE edit is not reported as a normalised diff:\n%s", res.Diff)
	}
	if ask := h.srv.Chats()[3].LastMessage(); !strings.Contains(ask, "<<<<<<< SEARCH") {
		t.Errorf("the third attempt did not ask for SEARCH/REPLACE:\n%s", ask)
	}
	narrowed := false
	for _, e := range h.events() {
		var c Check
		if e.Kind == "check" && e.Decode(&c) == nil && c.Stage == "targeted" {
			narrowed = true
			if !strings.Contains(strings.Join(c.Commands, " "), "price") {
				t.Errorf("targeted run is not narrowed to the failing package: %v", c.Commands)
			}
		}
	}
	if !narrowed {
		t.Errorf("no targeted run before the slow suite: %s", h.stages())
	}
}

// fullDisk fails every write, like a session record on a full disk.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestSessionRecordOnAFullDiskStopsCleanly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sum")
	job := h.job(failingTask)
	job.Record = session.NewRecorder(fullDisk{})
	res, err := Run(context.Background(), job)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Result != NotFixed || res.StopReason != StopRecord || !strings.Contains(res.StopDetail, "no space left on device") {
		t.Fatalf("result = %s/%s (%s), want not-fixed/%s naming the full disk", res.Result, res.StopReason, res.StopDetail, StopRecord)
	}
	if n := len(h.srv.Chats()); n != 0 {
		t.Errorf("the model was asked %d time(s) although nothing could be recorded", n)
	}
	if got := strings.Count(h.log.String(), "session record: "); got != 1 {
		t.Errorf("the record failure was reported %d times, want once:\n%s", got, h.log.String())
	}
	h.assertPristine()
}
