// Package e2e runs the built agentfix binary the way GitHub Actions does:
// the Actions environment, an event payload file, the fake GitHub API, the
// fake Ollama server, and a workspace cloned (depth 1, no credentials, no
// git identity) from a local bare origin that holds a small Go project with
// a failing test.
package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/githubfake"
	"github.com/agentfix/agentfix/internal/ollamafake"
)

// bin is the agentfix binary built once for this test binary.
var bin string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "agentfix-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "agentfix")
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/agentfix")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build agentfix: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

const (
	repoName = "octo/calc"
	token    = "ghs_e2eTOKEN"
	model    = "qwen2.5-coder:14b"
)

// The project: Add subtracts, and its test says so.
var project = map[string]string{
	"go.mod":       "module example.com/calc\n\ngo 1.21\n",
	"calc.go":      "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
	"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

// fixDiff is the model's fix.
const fixDiff = "--- a/calc.go\n+++ b/calc.go\n@@ -3,4 +3,4 @@\n // Add returns the sum of a and b.\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n"

const fixedCalc = "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"

const planJSON = `{"files":["calc.go"],"steps":["Add subtracts b; make it add b"]}`

// world is one test's GitHub, Ollama, origin and workspace.
type world struct {
	t      *testing.T
	gh     *githubfake.Server
	ollama *ollamafake.Server
	bare   string
	ws     string
	tmp    string
	// inputs are extra INPUT_* and environment variables.
	env map[string]string
}

// result is one run of the binary.
type result struct {
	code    int
	stdout  string
	stderr  string
	outputs map[string]string
	summary string
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

// newWorld seeds origin with files on main (the buggy project when nil),
// clones the workspace from it, and starts the fakes. alice has write
// permission; the fake model answers every plan with planJSON and every
// patch request with fixDiff.
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
	w.ollama.Respond("", func(r ollamafake.Request) ollamafake.Reply {
		if len(r.Format) > 0 {
			return ollamafake.Text(planJSON)
		}
		return ollamafake.Text("```diff\n" + fixDiff + "```\n")
	})
	return w
}

// clone replaces the workspace with a depth-1 clone of branch, as
// actions/checkout with persist-credentials: false leaves it.
func (w *world) clone(branch string) {
	w.t.Helper()
	os.RemoveAll(w.ws)
	gitT(w.t, w.tmp, nil, "clone", "-q", "--depth=1", "-b", branch, "file://"+w.bare, w.ws)
}

// payload writes an event payload and returns its path.
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

// run runs `agentfix` (no arguments, as the action does) for event with
// payload (nil: no payload file).
func (w *world) run(event string, payload any) *result {
	w.t.Helper()
	out := filepath.Join(w.tmp, "github_output")
	sum := filepath.Join(w.tmp, "step_summary")
	os.Remove(out)
	os.Remove(sum)
	runnerTemp := filepath.Join(w.tmp, "runner_temp")
	os.MkdirAll(runnerTemp, 0o755)
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_REPOSITORY":   repoName,
		"GITHUB_API_URL":      w.gh.APIURL(),
		"GITHUB_SERVER_URL":   w.gh.URL(),
		"GITHUB_WORKSPACE":    w.ws,
		"GITHUB_RUN_ID":       "4242",
		"GITHUB_OUTPUT":       out,
		"GITHUB_STEP_SUMMARY": sum,
		"RUNNER_TEMP":         runnerTemp,
		"INPUT_GITHUB_TOKEN":  token,
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
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := &result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		w.t.Fatalf("run agentfix: %v", err)
	}
	r.outputs = readOutputs(w.t, out)
	if b, err := os.ReadFile(sum); err == nil {
		r.summary = string(b)
	}
	return r
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
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
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

// must fails the test with the run's output when cond is false.
func (r *result) must(t *testing.T, cond bool, format string, args ...any) {
	t.Helper()
	if !cond {
		t.Fatalf(format+"\nexit %d\noutputs %v\n--- stderr ---\n%s\n--- stdout ---\n%s", append(args, r.code, r.outputs, r.stderr, r.stdout)...)
	}
}

// wantResult checks the exit code and the result output.
func (r *result) wantResult(t *testing.T, code int, res string) {
	t.Helper()
	r.must(t, r.code == code && r.outputs["result"] == res, "want exit %d and result %q", code, res)
}

// Payload builders: the fields agentfix reads, shaped like GitHub's.

func user(login string) map[string]any {
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ, "id": 1}
}

func repoJSON() map[string]any {
	return map[string]any{"full_name": repoName, "name": "calc", "owner": user("octo"), "default_branch": "main"}
}

func issueJSON(number int, title, body string, isPR bool) map[string]any {
	is := map[string]any{"number": number, "title": title, "body": body, "state": "open", "user": user("alice"), "labels": []any{}}
	if isPR {
		is["pull_request"] = map[string]any{"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", repoName, number)}
	}
	return is
}

func labeledPayload(number int, label, sender string) map[string]any {
	return map[string]any{"action": "labeled", "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", false),
		"label": map[string]any{"name": label}, "repository": repoJSON(), "sender": user(sender)}
}

func commentPayload(action string, number int, isPR bool, author, body string) map[string]any {
	return map[string]any{"action": action, "issue": issueJSON(number, "Add returns the wrong sum", "Add(2, 3) gives -1.", isPR),
		"comment":    map[string]any{"id": 777, "body": body, "user": user(author), "html_url": "https://example/c"},
		"repository": repoJSON(), "sender": user(author)}
}
