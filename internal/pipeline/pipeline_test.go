package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/agent"
	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/llm"
	"github.com/agentfix/agentfix/internal/session"
	"github.com/agentfix/agentfix/internal/testing/fixtures"
	"github.com/agentfix/agentfix/internal/testing/ollamafake"
	"github.com/agentfix/agentfix/internal/workspace"
)

const testModel = "qwen2.5-coder:14b"

const planReply = `{"files": ["sum.go"], "steps": ["Start the loop in Sum at index 0 so the first element is added."]}`

// world is one pipeline under test: a real git repository with the sum
// project (Sum skips the first element), the fake Ollama server behind the
// real client, and a deliverer that records what it was told.
type world struct {
	t    testing.TB
	repo string
	srv  *ollamafake.Server
	cfg  *config.Config
	log  bytes.Buffer
	d    *recorder
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldOn(t, "sum")
}

// newWorldOn is a world on another sample project of testdata/projects.
func newWorldOn(t testing.TB, project string) *world {
	t.Helper()
	w := &world{t: t, repo: fixtures.Repo(t, project), d: &recorder{}}
	w.srv = ollamafake.New(t, ollamafake.Model{Name: testModel, ContextLength: 32768})
	w.cfg = config.Default()
	w.cfg.Model = testModel
	w.cfg.Ollama.Host = w.srv.URL
	w.cfg.Verify.Commands = []string{"go test ./..."}
	w.cfg.Verify.FlakyReruns = 0
	w.cfg.Limits.MaxRounds = 3
	return w
}

// deps are the pipeline's dependencies: the real Ollama client, retrying
// without waiting.
func (w *world) deps() Deps {
	return Deps{
		Environ: fixtures.Environ(), Log: &w.log, Version: "test",
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}

func (w *world) run(job Job) (*Outcome, error) {
	w.t.Helper()
	job.Repo, job.Config = w.repo, w.cfg
	if job.Deliver == nil {
		job.Deliver = w.d
	}
	if job.Name == "" {
		job.Name = "test"
	}
	return Run(context.Background(), job, w.deps())
}

func (w *world) reply(name string) string {
	w.t.Helper()
	b, err := os.ReadFile(fixtures.Path("replies", name))
	if err != nil {
		w.t.Fatal(err)
	}
	return "```diff\n" + string(b) + "```\n"
}

func (w *world) git(args ...string) string {
	w.t.Helper()
	return gitOut(w.t, w.repo, args...)
}

// recorder is a deliverer that keeps what it was told.
type recorder struct {
	mu        sync.Mutex
	progress  []Progress
	delivered []*Outcome
}

func (r *recorder) Progress(p Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.progress = append(r.progress, p)
}

func (r *recorder) Deliver(_ context.Context, o *Outcome) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.delivered = append(r.delivered, o)
	return nil
}

func TestFailingChecksFixedAndDelivered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("wrong.diff")), ollamafake.Text(w.reply("fix.diff")))
	out, err := w.run(Job{FromFailures: true})
	if err != nil || out.Result != Fixed || out.Loop.Rounds != 2 {
		t.Fatalf("err %v, outcome %+v\n%s", err, out, w.log.String())
	}
	if len(w.d.delivered) != 1 || w.d.delivered[0] != out {
		t.Fatalf("delivered %d outcomes, want the one Run returned", len(w.d.delivered))
	}
	if out.Before == nil || out.Before.Passed || out.Loop.Before != out.Before {
		t.Errorf("the before check is not the loop's starting point: %+v", out.Before)
	}
	var stages []string
	for _, p := range w.d.progress {
		s := string(p.Stage)
		if p.Stage == StageRound {
			s += " " + string(rune('0'+p.Round))
		}
		stages = append(stages, s)
	}
	if got := strings.Join(stages, ", "); got != "checking, working, round 1, round 2" {
		t.Errorf("progress = %s", got)
	}
	// The record starts with the job, then the before check, then the loop.
	events, err := session.ReadFile(out.Session)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) < 3 || events[0].Kind != "job" || events[1].Kind != "check" || events[2].Kind != "start" {
		t.Errorf("record starts %v", kinds(events))
	}
	if dir := filepath.Join(w.repo, ".git", "agentfix", "sessions"); !strings.HasPrefix(out.Session, dir) {
		t.Errorf("session record %s is not under %s", out.Session, dir)
	}
}

func TestNothingToDoNeedsNoModelServer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cfg.Verify.Commands = []string{"go vet ./..."}
	w.cfg.Ollama.Host = "http://127.0.0.1:1" // nothing listens: the model is never reached
	out, err := w.run(Job{FromFailures: true})
	if err != nil || out.Result != NothingToDo || out.Loop != nil {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if len(w.d.delivered) != 1 || w.d.delivered[0].Result != NothingToDo {
		t.Errorf("delivered %+v", w.d.delivered)
	}
}

func TestTextTaskStartsFromTheFailingChecksToo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("fix.diff")))
	out, err := w.run(Job{Task: agent.Task{Title: "Sum drops the first element"}})
	if err != nil || out.Result != Fixed {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if out.Before == nil || out.Before.Passed {
		t.Fatalf("no before check for a text task: %+v", out.Before)
	}
	if task := w.srv.Chats()[0].Messages[1].Content; !strings.Contains(task, "TestSum") || !strings.Contains(task, "Sum drops the first element") {
		t.Errorf("the task lacks the issue or the failing test:\n%s", task)
	}
}

func TestDirtyTreeIsRefusedAndStillDelivered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.git("rm", "--quiet", "--cached", "sum_test.go")
	out, err := w.run(Job{FromFailures: true})
	var dirty *workspace.DirtyError
	if !errors.As(err, &dirty) || !strings.HasPrefix(err.Error(), "workspace: ") {
		t.Fatalf("err = %v, want a *workspace.DirtyError from the workspace stage", err)
	}
	if len(w.d.delivered) != 1 || w.d.delivered[0].Err == nil || out.Result != NotFixed {
		t.Errorf("the failed stage was not delivered: %+v", w.d.delivered)
	}
	if len(w.srv.Chats()) != 0 {
		t.Error("the model was asked although the tree is dirty")
	}
	// A run that stops before recording anything leaves no (empty) record.
	if files, _ := filepath.Glob(filepath.Join(w.repo, ".git", "agentfix", "sessions", "*")); out.Session != "" || len(files) != 0 {
		t.Errorf("session %q, files %v: a run that recorded nothing left a record", out.Session, files)
	}
}

func TestMissingModelIsAConfigurationErrorOfTheLoop(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cfg.Model = "llama3:70b"
	_, err := w.run(Job{FromFailures: true})
	if !llm.IsConfig(err) || !strings.HasPrefix(err.Error(), "loop: ") || !strings.Contains(err.Error(), "ollama pull llama3:70b") {
		t.Fatalf("err = %v", err)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("tree changed:\n%s", st)
	}
}

func TestNoVerifyCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cfg.Verify.Commands = nil
	_, err := w.run(Job{FromFailures: true})
	if !errors.Is(err, ErrNoVerifyCommand) {
		t.Fatalf("err = %v", err)
	}
}

func TestRefusedJobCommandEndsRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	canary := filepath.Join(t.TempDir(), "pwned")
	out, err := w.run(Job{FromFailures: true, Commands: []string{"go test ./... ; touch " + canary}})
	if err != nil || out.Result != Refused || !strings.Contains(out.Reason, "shell operator") {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Error("the refused command ran")
	}
}

func TestLocalDeliveryCommitsOnABranch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("fix.diff")))
	local := &Local{OutDiff: filepath.Join(t.TempDir(), "fix.diff")}
	out, err := w.run(Job{Name: "local", FromFailures: true, Deliver: local})
	if err != nil || out.Result != Fixed {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if local.Branch != "agent-fix/local-fix-testsum" || local.DiffWritten == "" {
		t.Errorf("branch %q, diff %q", local.Branch, local.DiffWritten)
	}
	msg := w.git("log", "-1", "--format=%B", local.Branch)
	for _, want := range []string{"agentfix: fix TestSum\n", "- Start the loop in Sum at index 0", "Verified with: go test ./...", "Model: " + testModel, "Generated-by: agentfix"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
}

func TestNotFixedStillWritesTheDiff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cfg.Limits.MaxRounds = 1
	w.srv.Script(testModel, ollamafake.Text(planReply), ollamafake.Text(w.reply("wrong.diff")))
	local := &Local{OutDiff: filepath.Join(t.TempDir(), "attempt.diff")}
	out, err := w.run(Job{FromFailures: true, Deliver: local})
	var nf *NotFixedError
	if !errors.As(err, &nf) || out.Result != NotFixed {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	if b, err := os.ReadFile(local.OutDiff); err != nil || !strings.Contains(string(b), "+++ b/sum.go") {
		t.Errorf("best attempt not written: %v\n%s", err, b)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("tree not restored:\n%s", st)
	}
}

func kinds(events []session.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Kind)
	}
	return out
}

func gitOut(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return fixtures.Git(t, dir, args...)
}
