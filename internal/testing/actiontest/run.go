package actiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/cli"
)

// Result is one run of the binary.
type Result struct {
	Code    int
	Stdout  string
	Stderr  string
	Outputs map[string]string
	Summary string
	Took    time.Duration
	// Waits are the backoff waits an in-process run asked for, in order
	// (Run's sleeps return at once).
	Waits []time.Duration
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

// Run runs agentfix for event with payload (nil: no payload file) the way
// the action does (no arguments, the Actions environment), in-process
// through the command entry point: the retry backoffs of the Ollama and
// GitHub clients return at once instead of sleeping. Rows where a real
// process matters (signals, /proc, memory) use RunBinary or Start.
func (w *World) Run(event string, payload any) *Result {
	w.T.Helper()
	env, out, sum := w.actionsEnv(event, payload)
	var stdout, stderr lockedBuilder
	var (
		mu    sync.Mutex
		waits []time.Duration
	)
	e := &cli.Env{
		Getenv:  func(k string) string { return env[k] },
		Environ: func() []string { return environ(env) },
		Stdin:   strings.NewReader(""),
		Stdout:  &stdout,
		Stderr:  &stderr,
		Now:     time.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			waits = append(waits, d)
			mu.Unlock()
			return ctx.Err()
		},
	}
	start := time.Now()
	code := cli.Main(context.Background(), nil, e)
	res := &Result{Code: code, Stdout: stdout.String(), Stderr: stderr.String(), Took: time.Since(start), Outputs: readOutputs(out)}
	mu.Lock()
	res.Waits = waits
	mu.Unlock()
	if b, err := os.ReadFile(sum); err == nil {
		res.Summary = string(b)
	}
	return res
}

// RunBinary runs the built binary (see Main) as Run does, and waits for it.
func (w *World) RunBinary(event string, payload any) *Result {
	w.T.Helper()
	return w.Start(event, payload).Wait()
}

// Start starts the built binary for event with payload.
func (w *World) Start(event string, payload any) *Running {
	w.T.Helper()
	if bin == "" {
		w.T.Fatal("actiontest: no binary: run the package's tests through actiontest.Main in TestMain")
	}
	env, out, sum := w.actionsEnv(event, payload)
	cmd := exec.Command(bin)
	cmd.Dir = w.Workspace
	cmd.Env = environ(env)
	r := &Running{w: w, Cmd: cmd, stdout: &strings.Builder{}, stderr: &strings.Builder{}, out: out, sum: sum, start: time.Now(), hwmDone: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
	if w.BeforeStart != nil {
		w.BeforeStart(cmd)
	}
	if err := cmd.Start(); err != nil {
		w.T.Fatalf("start agentfix: %v", err)
	}
	go r.sampleHWM()
	return r
}

// actionsEnv is what GitHub Actions sets for a run of event: the variables,
// the inputs and the payload file. It also returns the GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files, emptied.
func (w *World) actionsEnv(event string, payload any) (env map[string]string, out, sum string) {
	w.T.Helper()
	out = filepath.Join(w.Dir, "github_output")
	sum = filepath.Join(w.Dir, "step_summary")
	os.Remove(out)
	os.Remove(sum)
	os.MkdirAll(w.RunnerTemp(), 0o755)
	env = map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_REPOSITORY":   Repo,
		"GITHUB_API_URL":      w.GH.APIURL(),
		"GITHUB_SERVER_URL":   w.GH.URL(),
		"GITHUB_WORKSPACE":    w.Workspace,
		"GITHUB_RUN_ID":       RunID,
		"GITHUB_RUN_ATTEMPT":  "1",
		"GITHUB_JOB":          "agent-fix",
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
	return env, out, sum
}

// environ is BaseEnv with env on top, as a process environment.
func environ(env map[string]string) []string {
	out := BaseEnv()
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// lockedBuilder is a strings.Builder safe for the run's goroutines.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
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
