package hardening

// The glue below is copied, trimmed, from internal/e2e (its helpers are
// unexported): a bare origin seeded with a small Go project whose Add
// subtracts, a depth-1 workspace cloned from it, the two fakes, and the
// binary run with the Actions environment.

import (
	"bufio"
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

	"github.com/agentfix/agentfix/internal/githubfake"
	"github.com/agentfix/agentfix/internal/ollamafake"
)

const (
	repoName = "octo/calc"
	model    = "qwen2.5-coder:14b"
	// token is the workflow token every run gets: a value recognisable
	// anywhere it might leak.
	token = "ghs_CANARYhardening0TOKEN0x7f3a9c0123456"
	runID = "4242"
)

// project is the buggy project: Add subtracts, and its test says so.
var project = map[string]string{
	"go.mod":       "module example.com/calc\n\ngo 1.21\n",
	"calc.go":      "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

const fixDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -3,4 +3,4 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n"

const fixedCalc = "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

const planJSON = `{"files":["calc.go"],"steps":["Add subtracts b; make it add b"]}`

// fixedProject is the project with Add right: its checks pass.
var fixedProject = map[string]string{"go.mod": project["go.mod"], "calc.go": fixedCalc, "calc_test.go": project["calc_test.go"]}

// world is one row's GitHub, Ollama, origin and workspace.
type world struct {
	t      *testing.T
	gh     *githubfake.Server
	ollama *ollamafake.Server
	bare   string
	ws     string
	tmp    string
	// env adds to or overrides the Actions environment of a run.
	env map[string]string
	// apiURL, when set, replaces the fake's API URL (a proxy in front).
	apiURL string
	// humanPRs is how many PRs people opened (addPR).
	humanPRs int
}

// result is one run of the binary.
type result struct {
	code    int
	stdout  string
	stderr  string
	outputs map[string]string
	summary string
	took    time.Duration
	// maxRSS is the peak resident memory of agentfix or of the largest
	// process it waited for, in bytes; ownRSS is agentfix's own peak
	// (VmHWM), as last sampled before it exited.
	maxRSS, ownRSS int64
}

func gitT(t *testing.T, dir string, extraEnv []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"), extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

var humanID = []string{"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com"}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newWorld seeds origin with files (the buggy project when nil), clones
// the workspace and starts the fakes. alice may write; the model answers
// every plan with planJSON and every patch request with fixDiff.
func newWorld(t *testing.T, files map[string]string) *world {
	t.Helper()
	if files == nil {
		files = project
	}
	tmp := t.TempDir()
	w := &world{t: t, tmp: tmp, bare: filepath.Join(tmp, "origin.git"), ws: filepath.Join(tmp, "workspace"), env: map[string]string{}}
	seed := filepath.Join(tmp, "seed")
	gitT(t, tmp, nil, "init", "-q", "--bare", "-b", "main", w.bare)
	gitT(t, tmp, nil, "init", "-q", "-b", "main", seed)
	writeFiles(t, seed, files)
	gitT(t, seed, nil, "add", ".")
	gitT(t, seed, humanID, "commit", "-q", "-m", "initial")
	gitT(t, seed, nil, "push", "-q", w.bare, "main")
	w.clone("main")

	w.gh = githubfake.New(t)
	w.gh.AddRepo(repoName, "main")
	w.gh.SetGitDir(repoName, w.bare)
	w.gh.RequireToken(token)
	w.gh.SetPermission(repoName, "alice", "write")

	w.ollama = ollamafake.New(t, ollamafake.Model{Name: model, ContextLength: 32768})
	w.answerWith(fixDiff)
	return w
}

// answerWith makes the model answer every plan with planJSON and every
// patch request with diff.
func (w *world) answerWith(diff string) {
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + diff + "```\n")
	})
}

// clone replaces the workspace with a depth-1 clone of branch, as
// actions/checkout with persist-credentials: false leaves it.
func (w *world) clone(branch string) {
	w.t.Helper()
	os.RemoveAll(w.ws)
	gitT(w.t, w.tmp, nil, "clone", "-q", "--depth=1", "-b", branch, "file://"+w.bare, w.ws)
}

// pushMain commits files onto origin's main as a person and refreshes the
// workspace.
func (w *world) pushMain(files map[string]string) {
	w.t.Helper()
	w.pushTo("main", "", files)
	w.clone("main")
}

// pushBranch commits files onto a new branch of origin (from main), as a
// person would, and returns the commit.
func (w *world) pushBranch(branch string, files map[string]string) string {
	w.t.Helper()
	return w.pushTo(branch, "-b", files)
}

func (w *world) pushTo(branch, newFlag string, files map[string]string) string {
	dir := w.t.TempDir()
	gitT(w.t, dir, nil, "clone", "-q", "file://"+w.bare, "c")
	c := filepath.Join(dir, "c")
	if newFlag != "" {
		gitT(w.t, c, nil, "checkout", "-q", "-b", branch)
	}
	writeFiles(w.t, c, files)
	gitT(w.t, c, nil, "add", ".")
	gitT(w.t, c, humanID, "commit", "-q", "-m", "change on "+branch)
	gitT(w.t, c, nil, "push", "-q", "origin", branch)
	return gitT(w.t, c, nil, "rev-parse", "HEAD")
}

// config pushes .github/agent-fix.yml onto main.
func (w *world) config(yml string) {
	w.t.Helper()
	w.pushMain(map[string]string{".github/agent-fix.yml": yml})
}

func (w *world) addIssue() int {
	return w.gh.AddIssue(repoName, githubfake.Issue{Title: "Add returns the wrong sum", Body: "Add(2, 3) gives -1.", User: "alice"})
}

// addPR opens a PR by alice from a new branch holding files.
func (w *world) addPR(branch string, files map[string]string) int {
	head := w.pushBranch(branch, files)
	w.humanPRs++
	return w.gh.AddPR(repoName, githubfake.Issue{Title: "Change " + branch, User: "alice", PR: &githubfake.PullRequest{Head: branch, HeadSHA: head}})
}

func (w *world) payload(v any) string {
	w.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		w.t.Fatal(err)
	}
	f, err := os.CreateTemp(w.tmp, "event-*.json")
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		w.t.Fatal(err)
	}
	return f.Name()
}

func (w *world) runnerTemp() string { return filepath.Join(w.tmp, "runner_temp") }

// sessionPaths are the session records the action wrote for a job kind
// (agentfix-session-<run>-<kind>[-<n>].jsonl under RUNNER_TEMP).
func (w *world) sessionPaths(kind string) []string {
	ps, _ := filepath.Glob(filepath.Join(w.runnerTemp(), fmt.Sprintf("agentfix-session-%s-%s*.jsonl", runID, kind)))
	return ps
}

// running is a started run.
type running struct {
	w              *world
	cmd            *exec.Cmd
	stdout, stderr *strings.Builder
	out, sum       string
	start          time.Time
	hwm            atomic.Int64
	hwmDone        chan struct{}
}

// start starts `agentfix` (no arguments, as the action does) for event
// with payload.
func (w *world) start(event string, payload any) *running {
	w.t.Helper()
	out := filepath.Join(w.tmp, "github_output")
	sum := filepath.Join(w.tmp, "step_summary")
	os.Remove(out)
	os.Remove(sum)
	os.MkdirAll(w.runnerTemp(), 0o755)
	api := w.gh.APIURL()
	if w.apiURL != "" {
		api = w.apiURL
	}
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_REPOSITORY":   repoName,
		"GITHUB_API_URL":      api,
		"GITHUB_SERVER_URL":   w.gh.URL(),
		"GITHUB_WORKSPACE":    w.ws,
		"GITHUB_RUN_ID":       runID,
		"GITHUB_OUTPUT":       out,
		"GITHUB_STEP_SUMMARY": sum,
		"RUNNER_TEMP":         w.runnerTemp(),
		"INPUT_GITHUB_TOKEN":  token,
		"GITHUB_TOKEN":        token,
		"INPUT_OLLAMA_HOST":   w.ollama.URL,
		"INPUT_MODEL":         model,
		"INPUT_DRY_RUN":       "false",
	}
	if payload != nil {
		env["GITHUB_EVENT_PATH"] = w.payload(payload)
	}
	for k, v := range w.env {
		env[k] = v
	}
	cmd := exec.Command(bin)
	cmd.Dir = w.ws
	cmd.Env = baseEnv()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	r := &running{w: w, cmd: cmd, stdout: &strings.Builder{}, stderr: &strings.Builder{}, out: out, sum: sum, start: time.Now(), hwmDone: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatalf("start agentfix: %v", err)
	}
	go r.sampleHWM()
	return r
}

// sampleHWM reads agentfix's VmHWM from /proc until it exits.
func (r *running) sampleHWM() {
	defer close(r.hwmDone)
	path := fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid)
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

// wait waits for the run to end.
func (r *running) wait() *result {
	err := r.cmd.Wait()
	<-r.hwmDone
	res := &result{ownRSS: r.hwm.Load(), stdout: r.stdout.String(), stderr: r.stderr.String(), took: time.Since(r.start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	default:
		r.w.t.Fatalf("run agentfix: %v", err)
	}
	if ru, ok := r.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.maxRSS = int64(ru.Maxrss) * 1024
	}
	res.outputs = readOutputs(r.out)
	if b, err := os.ReadFile(r.sum); err == nil {
		res.summary = string(b)
	}
	return res
}

// run runs agentfix for event with payload and waits for it.
func (w *world) run(event string, payload any) *result {
	w.t.Helper()
	return w.start(event, payload).wait()
}

// baseEnv is what a runner has besides the Actions variables: PATH and the
// Go caches (the project's tests run with go), and no git identity.
func baseEnv() []string {
	env := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local"}
	for _, k := range []string{"PATH", "HOME", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("GOCACHE"); !ok {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			env = append(env, "GOCACHE="+strings.TrimSpace(string(out)))
		}
	}
	return env
}

// readOutputs parses GITHUB_OUTPUT's name<<delimiter blocks.
func readOutputs(path string) map[string]string {
	m := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		name, delim, ok := strings.Cut(line, "<<")
		if !ok {
			if k, v, ok := strings.Cut(line, "="); ok {
				m[k] = v
			}
			continue
		}
		var val []string
		for sc.Scan() && sc.Text() != delim {
			val = append(val, sc.Text())
		}
		m[name] = strings.Join(val, "\n")
	}
	return m
}

// statusComments are agentfix's status comments on number.
func (w *world) statusComments(number int) []githubfake.Comment {
	var out []githubfake.Comment
	for _, c := range w.gh.Comments(repoName, number) {
		if strings.Contains(c.Body, "<!-- agentfix:status") {
			out = append(out, c)
		}
	}
	return out
}

// status is the body of the one status comment on number, or "".
func (w *world) status(number int) string {
	st := w.statusComments(number)
	if len(st) != 1 {
		return ""
	}
	return st[0].Body
}

// branchTip is the commit of an origin branch, "" when it does not exist.
func (w *world) branchTip(branch string) string {
	cmd := exec.Command("git", "-C", w.bare, "rev-parse", "--verify", "-q", "refs/heads/"+branch)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// show is a file at a commit of origin, "" when absent.
func (w *world) show(rev, path string) string {
	out, err := exec.Command("git", "-C", w.bare, "show", rev+":"+path).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
