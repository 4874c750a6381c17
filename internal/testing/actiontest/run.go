package actiontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Result is one run of the binary.
type Result struct {
	Code    int
	Stdout  string
	Stderr  string
	Outputs map[string]string
	Summary string
	Took    time.Duration
	// MaxRSS is the peak resident memory of agentfix or of the largest
	// process it waited for, in bytes; OwnRSS is agentfix's own peak
	// (VmHWM), as last sampled before it exited.
	MaxRSS, OwnRSS int64
}

// Must fails the test with the run's output when cond is false.
func (r *Result) Must(t testing.TB, cond bool, format string, args ...any) {
	t.Helper()
	if !cond {
		t.Fatalf(format+"\nexit %d\noutputs %v\n--- stderr ---\n%s\n--- stdout ---\n%s", append(args, r.Code, r.Outputs, r.Stderr, r.Stdout)...)
	}
}

// WantResult checks the exit code and the result output.
func (r *Result) WantResult(t testing.TB, code int, res string) {
	t.Helper()
	r.Must(t, r.Code == code && r.Outputs["result"] == res, "want exit %d and result %q", code, res)
}

// Running is a started run.
type Running struct {
	// Cmd is the agentfix process, for tests that signal it.
	Cmd            *exec.Cmd
	w              *World
	stdout, stderr *strings.Builder
	out, sum       string
	start          time.Time
	hwm            atomic.Int64
	hwmDone        chan struct{}
}

// RunnerTemp is RUNNER_TEMP of every run.
func (w *World) RunnerTemp() string { return filepath.Join(w.Dir, "runner_temp") }

// Run runs `agentfix` (no arguments, as the action does) for event with
// payload (nil: no payload file) and waits for it.
func (w *World) Run(event string, payload any) *Result {
	w.T.Helper()
	return w.Start(event, payload).Wait()
}

// Start starts `agentfix` for event with payload, as Run does.
func (w *World) Start(event string, payload any) *Running {
	w.T.Helper()
	out := filepath.Join(w.Dir, "github_output")
	sum := filepath.Join(w.Dir, "step_summary")
	os.Remove(out)
	os.Remove(sum)
	os.MkdirAll(w.RunnerTemp(), 0o755)
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_REPOSITORY":   Repo,
		"GITHUB_API_URL":      w.GH.APIURL(),
		"GITHUB_SERVER_URL":   w.GH.URL(),
		"GITHUB_WORKSPACE":    w.Workspace,
		"GITHUB_RUN_ID":       RunID,
		"GITHUB_OUTPUT":       out,
		"GITHUB_STEP_SUMMARY": sum,
		"RUNNER_TEMP":         w.RunnerTemp(),
		"INPUT_GITHUB_TOKEN":  w.Token,
		"INPUT_OLLAMA_HOST":   w.Ollama.URL,
		"INPUT_MODEL":         Model,
		"INPUT_DRY_RUN":       "false",
	}
	if payload != nil {
		env["GITHUB_EVENT_PATH"] = w.eventFile(payload)
	}
	for k, v := range w.Env {
		env[k] = v
	}
	cmd := exec.Command(bin)
	cmd.Dir = w.Workspace
	cmd.Env = BaseEnv()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	r := &Running{w: w, Cmd: cmd, stdout: &strings.Builder{}, stderr: &strings.Builder{}, out: out, sum: sum, start: time.Now(), hwmDone: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
	if err := cmd.Start(); err != nil {
		w.T.Fatalf("start agentfix: %v", err)
	}
	go r.sampleHWM()
	return r
}

// eventFile writes an event payload and returns its path.
func (w *World) eventFile(v any) string {
	w.T.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		w.T.Fatal(err)
	}
	f, err := os.CreateTemp(w.Dir, "event-*.json")
	if err != nil {
		w.T.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		w.T.Fatal(err)
	}
	return f.Name()
}

// sampleHWM reads agentfix's VmHWM from /proc until it exits.
func (r *Running) sampleHWM() {
	defer close(r.hwmDone)
	path := fmt.Sprintf("/proc/%d/status", r.Cmd.Process.Pid)
	for {
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				var kb int64
				fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
				if kb == 0 {
					return // a zombie: the process has exited
				}
				r.hwm.Store(kb * 1024)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Wait waits for the run to end.
func (r *Running) Wait() *Result {
	err := r.Cmd.Wait()
	<-r.hwmDone
	res := &Result{OwnRSS: r.hwm.Load(), Stdout: r.stdout.String(), Stderr: r.stderr.String(), Took: time.Since(r.start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.Code = ee.ExitCode()
	default:
		r.w.T.Fatalf("run agentfix: %v", err)
	}
	if ru, ok := r.Cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.MaxRSS = int64(ru.Maxrss) * 1024
	}
	res.Outputs = readOutputs(r.out)
	if b, err := os.ReadFile(r.sum); err == nil {
		res.Summary = string(b)
	}
	return res
}
