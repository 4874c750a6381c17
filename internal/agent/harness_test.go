package agent

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/fixtures"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/workspace"
)

const testModel = "qwen2.5-coder:14b"

// harness is one loop under test: a real git repository copied from
// testdata, the fake Ollama server behind the real client, and the real
// patch engine and verifier.
type harness struct {
	t       testing.TB
	repo    string
	srv     *ollamafake.Server
	cfg     *config.Config
	record  bytes.Buffer
	log     bytes.Buffer
	timeout time.Duration
}

func newHarness(t testing.TB, project string) *harness {
	t.Helper()
	h := &harness{t: t, repo: fixtures.Repo(t, project), timeout: 30 * time.Second}
	h.srv = ollamafake.New(t, ollamafake.Model{Name: testModel, ContextLength: 32768})
	h.cfg = config.Default()
	h.cfg.Model = testModel
	h.cfg.Verify.Commands = []string{"go test ./..."}
	h.cfg.Verify.FlakyReruns = 0
	h.cfg.Limits.MaxRounds = 3
	return h
}

// newClient is the real Ollama client pointed at the fake, retrying
// without waiting.
func (h *harness) newClient() *llm.Client {
	c, err := llm.New(h.srv.URL, llm.Options{
		Timeout: h.timeout,
		Sleep:   func(ctx context.Context, d time.Duration) error { return ctx.Err() },
		Seed:    Seed,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// job is a loop job on the harness's work tree, recording into h.record.
// A task with no text and no failing report starts, as the pipeline's do,
// from the failing checks: they run first.
func (h *harness) job(task Task) Job {
	h.t.Helper()
	ctx := context.Background()
	repo, err := workspace.Open(ctx, h.repo)
	if err != nil {
		h.t.Fatal(err)
	}
	cp, err := repo.Checkpoint(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	rec := session.NewRecorder(&h.record)
	if task.Title == "" && task.Body == "" && task.Failing == nil {
		before, err := CheckBefore(ctx, Before{Repo: repo.Root, Config: h.cfg, Record: rec, Log: &h.log, Environ: fixtures.Environ()})
		if err != nil {
			h.t.Fatalf("before check: %v", err)
		}
		if before.Passed {
			h.t.Fatal("harness: the checks pass before any change; the loop has nothing to fix")
		}
		task.Failing = before
	}
	return Job{Repo: repo, Checkpoint: cp, Config: h.cfg, Task: task, Model: h.newClient(), Record: rec, Log: &h.log, Environ: fixtures.Environ(), Version: "test"}
}

// run runs the loop and fails the test on an error.
func (h *harness) run(ctx context.Context, task Task) *Result {
	h.t.Helper()
	res, err := Run(ctx, h.job(task))
	if err != nil {
		h.t.Fatalf("Run: %v\nlog:\n%s", err, h.log.String())
	}
	return res
}

// stages are the stages of the checks recorded so far, in order.
func (h *harness) stages() string {
	var stages []string
	for _, e := range h.events() {
		var c Check
		if e.Kind == "check" && e.Decode(&c) == nil {
			stages = append(stages, c.Stage)
		}
	}
	return strings.Join(stages, " ")
}

// events returns the session record written so far.
func (h *harness) events() []session.Event {
	h.t.Helper()
	ev, err := session.Read(bytes.NewReader(h.record.Bytes()))
	if err != nil {
		h.t.Fatal(err)
	}
	return ev
}

// file returns a file of the work tree.
func (h *harness) file(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.repo, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// assertPristine fails unless the work tree is exactly as committed.
func (h *harness) assertPristine() {
	h.t.Helper()
	if st := gitOut(h.t, h.repo, "status", "--porcelain", "--untracked-files=all"); st != "" {
		h.t.Errorf("work tree not back where it started:\n%s", st)
	}
}

func gitOut(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return fixtures.Git(t, dir, args...)
}

// reply reads a scripted reply from the shared testdata/replies, fenced
// the way models usually answer.
func reply(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(fixtures.Path("replies", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".diff") {
		return "Here is the fix:\n\n```diff\n" + string(b) + "```\n"
	}
	return string(b)
}

const planReply = `{"files": ["sum.go"], "steps": ["Start the loop in Sum at index 0 so the first element is added."]}`

var _ = io.Discard
