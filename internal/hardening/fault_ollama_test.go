package hardening

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

var ollamaFaults = []scenario{
	{"ollama: 500 then success", "retried after 1 s; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.Fail(500))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		retry := logged(r, "attempt 1 failed")
		c.must(r, strings.Contains(retry, "retrying in 1s"), "no retry logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: 503 ×N (backoff honoured)", "waits 5, 10, 20, 40, 80 s, then succeeds; a sixth 503 fails with the last error (the real client with an injected Sleep: the schedule cannot be shortened from outside the binary)", func(t *testing.T, c *check) {
		// The overload schedule (5 s … 80 s) cannot be shortened from
		// outside the binary, so this row drives the real client with an
		// injected Sleep; the rows through the binary cover the wiring.
		srv := ollamafake.New(t, ollamafake.Model{Name: actiontest.Model, ContextLength: 32768})
		var mu sync.Mutex
		var slept []time.Duration
		client, err := llm.New(srv.URL, llm.Options{Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			slept = append(slept, d)
			mu.Unlock()
			return ctx.Err()
		}})
		c.must(nil, err == nil, "llm.New: %v", err)
		req := llm.Request{Model: actiontest.Model, Messages: []llm.Message{{Role: "user", Content: "hi"}}, NumCtx: 4096}
		five := slices.Repeat([]ollamafake.Reply{ollamafake.Fail(503)}, 5)
		srv.Script(actiontest.Model, append(five, ollamafake.Text("ok"))...)
		resp, err := client.Chat(context.Background(), req)
		c.must(nil, err == nil && resp.Content == "ok" && resp.Attempts == 6, "5×503 then success: %v", err)
		want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second}
		c.must(nil, slices.Equal(slept, want), "waits %v, want %v", slept, want)
		c.see("5×503: waited %v (injected Sleep), then the reply", slept)

		srv.Script(actiontest.Model, slices.Repeat([]ollamafake.Reply{ollamafake.Fail(503)}, 6)...)
		_, err = client.Chat(context.Background(), req)
		var se *llm.ServerError
		c.must(nil, errors.As(err, &se) && se.Attempts == 6 && strings.Contains(err.Error(), "503"), "6×503: %v", err)
		c.see("6×503: %s", oneLine(err.Error()))
	}},
	{"ollama: hang (timeout)", "the request times out (ollama.timeout), is retried, fixed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.config("ollama:\n  timeout: 2s\n")
		w.Ollama.Script(actiontest.Model, ollamafake.Hang())
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		retry := logged(r, "attempt 1 failed")
		c.must(r, strings.Contains(retry, "timed out"), "no timeout logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: hangs every time", "timed out 4 times; not fixed, exit 1, the reason in the status comment", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.config("ollama:\n  timeout: 300ms\n")
		w.Ollama.Respond("", func(ollamafake.Request) ollamafake.Reply { return ollamafake.Hang() })
		n, r := fixIssue(w)
		c.wantNotFixed(w, r, n, 1, "did not finish within 300ms on the last of 4 attempts")
		c.see("exit %d %s; status: %q", r.Code, r.Outputs["result"], statusLine(w.status(n), "within"))
		c.settle(w, r, outcome{session: "fix-issue"})
	}},
	{"ollama: stream cut mid-line", "retried after 1 s; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.Text(actiontest.PlanJSON), ollamafake.CutMidLine("```diff\n"+actiontest.FixDiff+"```\n"))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		retry := logged(r, "attempt 1 failed")
		c.must(r, retry != "", "no retry logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: stream cut at a line (no done chunk)", "retried after 1 s; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.Text(actiontest.PlanJSON), ollamafake.CutAtLine("```diff\n"+actiontest.FixDiff+"```\n"))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		retry := logged(r, "attempt 1 failed")
		c.must(r, retry != "", "no retry logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: error line inside a 200 stream", "retried after 1 s; fixed, one PR", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.Text(actiontest.PlanJSON), ollamafake.ErrorLine("```diff\n"+actiontest.FixDiff+"```\n", "model runner has unexpectedly stopped"))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		retry := logged(r, "attempt 1 failed")
		c.must(r, strings.Contains(retry, "unexpectedly stopped"), "no retry logged")
		c.see("exit 0 fixed; %q", retry)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: invalid JSON for a format request", "the plan is asked again with the problem; fixed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.Text(`{"files": ["calc.go"], "steps": [`))
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		plan := logged(r, "plan attempt 1")
		c.must(r, plan != "", "the bad plan was not reported")
		c.see("exit 0 fixed; %q", plan)
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: format schema rejected (HTTP 500)", "the plan is asked again with format \"json\"; fixed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Ollama.Script(actiontest.Model, ollamafake.FormatRejected())
		n, r := fixIssue(w)
		c.wantFixed(w, r, n)
		chats := w.Ollama.Chats()
		c.must(r, len(chats) >= 2 && string(chats[1].Format) == `"json"`, "the plan was not asked again with format \"json\"")
		c.see("exit 0 fixed; %q", logged(r, "refused the JSON schema"))
		c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
	}},
	{"ollama: model missing", "a configuration error naming the model, exit 2, nothing pushed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Env["INPUT_MODEL"] = "no-such-model:7b"
		n, r := fixIssue(w)
		c.wantNotFixed(w, r, n, 2, "no-such-model")
		c.see("exit %d %s; status: %q", r.Code, r.Outputs["result"], statusLine(w.status(n), "no-such-model"))
		c.settle(w, r, outcome{})
	}},
	{"ollama: server down", "a configuration error naming the host, exit 2, nothing pushed", func(t *testing.T, c *check) {
		w := newWorld(t, nil)
		w.Env["INPUT_OLLAMA_HOST"] = "http://127.0.0.1:1"
		n, r := fixIssue(w)
		c.wantNotFixed(w, r, n, 2, "127.0.0.1:1")
		c.see("exit %d %s after %s; status: %q", r.Code, r.Outputs["result"], r.Took.Round(time.Second), statusLine(w.status(n), "127.0.0.1:1"))
		c.settle(w, r, outcome{})
	}},
}

// statusLine is the first line of a status comment containing s.
func statusLine(body, s string) string {
	for _, l := range strings.Split(body, "\n") {
		if strings.Contains(l, s) {
			return oneLine(l)
		}
	}
	return ""
}
