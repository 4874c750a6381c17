package packaging

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// These tests run action.yml's steps the way the Actions runner runs a
// composite action: each run: step as its own `bash -eo pipefail` process
// with the job's environment, the step's env and fresh GITHUB_OUTPUT,
// GITHUB_PATH and GITHUB_ENV files; a step's GITHUB_PATH and GITHUB_ENV
// lines change the environment of every later step of the job; `if:`
// implies success() unless it says always(). The nested actions the action
// may use are emulated by what they do to the job: actions/setup-go puts
// the Go of go-version-file first on PATH, actions/upload-artifact takes a
// name and a path.

// compositeStep is a step of a composite action.
type compositeStep struct {
	ID    string
	If    string
	Uses  string
	Shell string
	Run   string
	Env   map[string]string
	With  map[string]string
	Dir   string `yaml:"working-directory"`
}

// jobRunner runs the steps of one job.
type jobRunner struct {
	t   *testing.T
	env map[string]string // the job's environment
	// github is the github context; inputs the action's inputs.
	github, inputs map[string]string
	temp           string
	outputs        map[string]map[string]string
	failed         bool
	// after is called after each step that ran, with its id.
	after func(id string)
	// uploads are the artifacts actions/upload-artifact was given.
	uploads []map[string]string
	// logs are each run: step's combined output, by id.
	logs map[string]string
}

func newJobRunner(t *testing.T, env map[string]string) *jobRunner {
	t.Helper()
	temp := t.TempDir()
	env["RUNNER_TEMP"] = temp
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	return &jobRunner{
		t: t, env: env, temp: temp,
		github:  map[string]string{"action_path": abs, "action_ref": "", "action_repository": "agentfix/agentfix", "server_url": "https://github.com", "token": "t0ken", "run_id": "42", "run_attempt": "1", "job": "agent-fix"},
		inputs:  map[string]string{},
		outputs: map[string]map[string]string{},
		logs:    map[string]string{},
	}
}

// runAction runs the steps of action.yml.
func (r *jobRunner) runAction() {
	r.t.Helper()
	var a struct {
		Inputs map[string]struct{ Default string }
		Runs   struct{ Steps []compositeStep }
	}
	if err := yaml.Unmarshal([]byte(read(r.t, "action.yml")), &a); err != nil {
		r.t.Fatal(err)
	}
	for name, in := range a.Inputs {
		if _, ok := r.inputs[name]; !ok {
			r.inputs[name] = r.expand(in.Default)
		}
	}
	for _, s := range a.Runs.Steps {
		r.step(s)
	}
}

// runStep runs one step of the job outside the action (a later step of
// the user's workflow) and returns its output.
func (r *jobRunner) runStep(script string) (string, error) {
	return r.bash(compositeStep{Run: script}, r.env)
}

func (r *jobRunner) step(s compositeStep) {
	r.t.Helper()
	cond := s.If
	if cond == "" {
		cond = "success()"
	}
	if !strings.Contains(cond, "always()") && !strings.Contains(cond, "success()") {
		cond = "success() && (" + cond + ")"
	}
	if r.eval(cond) == "" {
		return
	}
	switch {
	case strings.HasPrefix(s.Uses, "actions/setup-go@"):
		r.setupGo(r.expand(s.With["go-version-file"]))
	case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
		with := map[string]string{}
		for k, v := range s.With {
			with[k] = r.expand(v)
		}
		r.uploads = append(r.uploads, with)
	case s.Uses != "":
		r.t.Fatalf("step %q uses %s: the runner emulation does not know what it does to the job", s.ID, s.Uses)
	default:
		if s.Shell != "bash" {
			r.t.Fatalf("step %q: shell %q, want bash", s.ID, s.Shell)
		}
		env := map[string]string{}
		for k, v := range r.env {
			env[k] = v
		}
		for k, v := range s.Env {
			env[k] = r.expand(v)
		}
		out, err := r.bash(s, env)
		r.logs[s.ID] = out
		if err != nil {
			r.failed = true
		}
	}
	if r.after != nil {
		r.after(s.ID)
	}
}

// bash runs s's script with env, as the runner does, and applies what it
// wrote to GITHUB_OUTPUT, GITHUB_PATH and GITHUB_ENV.
func (r *jobRunner) bash(s compositeStep, env map[string]string) (string, error) {
	r.t.Helper()
	dir := r.t.TempDir()
	files := map[string]string{}
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV"} {
		files[k] = filepath.Join(dir, k)
		if err := os.WriteFile(files[k], nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	script := filepath.Join(dir, "step.sh")
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		r.t.Fatal(err)
	}
	c := exec.Command("/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	c.Dir = r.expand(s.Dir)
	if c.Dir == "" {
		c.Dir = r.temp
	}
	for k, v := range env {
		c.Env = append(c.Env, k+"="+v)
	}
	for k, v := range files {
		c.Env = append(c.Env, k+"="+v)
	}
	out, err := c.CombinedOutput()
	outs := parseKV(r.t, files["GITHUB_OUTPUT"])
	if s.ID != "" {
		r.outputs[s.ID] = outs
	}
	for k, v := range parseKV(r.t, files["GITHUB_ENV"]) {
		r.env[k] = v
	}
	b, _ := os.ReadFile(files["GITHUB_PATH"])
	for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if p != "" {
			r.env["PATH"] = p + ":" + r.env["PATH"]
		}
	}
	return string(out), err
}

// setupGo does what actions/setup-go does to the job: the Go that
// go-version-file names goes first on PATH (through GITHUB_PATH).
func (r *jobRunner) setupGo(goMod string) {
	r.t.Helper()
	b, err := os.ReadFile(goMod)
	if err != nil {
		r.t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(b)
	if m == nil {
		r.t.Fatalf("%s has no go line", goMod)
	}
	dir := filepath.Join(r.temp, "setup-go", "bin")
	writeGoShim(r.t, dir, string(m[1]))
	r.env["PATH"] = dir + ":" + r.env["PATH"]
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces every ${{ expression }} in s.
func (r *jobRunner) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(e string) string {
		return r.eval(exprRE.FindStringSubmatch(e)[1])
	})
}

// eval evaluates the expressions action.yml uses: context references,
// string literals, ==, !=, &&, ||, always() and success(). A false
// condition is "".
func (r *jobRunner) eval(e string) string {
	r.t.Helper()
	e = strings.TrimSpace(e)
	if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") {
		return r.eval(e[1 : len(e)-1])
	}
	for _, op := range []string{"||", "&&"} {
		if parts := strings.Split(e, op); len(parts) > 1 {
			v := ""
			for _, p := range parts {
				v = r.eval(p)
				if (op == "||") == (v != "") {
					return v
				}
			}
			return v
		}
	}
	for _, op := range []string{"!=", "=="} {
		if a, b, ok := strings.Cut(e, op); ok {
			if (r.eval(a) == r.eval(b)) == (op == "==") {
				return "true"
			}
			return ""
		}
	}
	switch {
	case e == "always()":
		return "true"
	case e == "success()":
		if r.failed {
			return ""
		}
		return "true"
	case strings.HasPrefix(e, "'") && strings.HasSuffix(e, "'"):
		return e[1 : len(e)-1]
	case strings.HasPrefix(e, "github."):
		return r.github[strings.TrimPrefix(e, "github.")]
	case strings.HasPrefix(e, "inputs."):
		return r.inputs[strings.TrimPrefix(e, "inputs.")]
	case e == "runner.temp":
		return r.temp
	case strings.HasPrefix(e, "steps."):
		parts := strings.Split(e, ".")
		if len(parts) != 4 || parts[2] != "outputs" {
			r.t.Fatalf("expression %q", e)
		}
		return r.outputs[parts[1]][parts[3]]
	}
	r.t.Fatalf("the runner emulation cannot evaluate %q", e)
	return ""
}

// parseKV reads a GITHUB_OUTPUT-style file: name=value lines and
// name<<delimiter blocks.
func parseKV(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			m[name] = strings.Join(val, "\n")
		} else if k, v, ok := strings.Cut(lines[i], "="); ok {
			m[k] = v
		}
	}
	return m
}

// writeGoShim writes dir/go: Go `version` as far as anyone asking can tell.
// It builds with this machine's Go, and behaves as a real Go of that
// version does when go.mod asks for a newer one: with GOTOOLCHAIN=local it
// refuses; otherwise (the default, auto) it switches. Every build it does
// is logged to dir/../builds.
func writeGoShim(t *testing.T, dir, version string) {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	script := fmt.Sprintf(`#!/bin/bash
v=%[1]s
case "$1 $2" in
"env GOVERSION") echo "go$v"; exit 0 ;;
"version "*) echo "go version go$v %[3]s/%[4]s"; exit 0 ;;
esac
if [[ -f go.mod ]]; then
  need=$(awk '$1 == "go" { print $2; exit }' go.mod)
  if [[ "$(printf '%%s\n%%s\n' "$need" "$v" | sort -V | tail -n1)" != "$v" && "${GOTOOLCHAIN:-auto}" == local ]]; then
    echo "go: go.mod requires go >= $need (running go $v; GOTOOLCHAIN=local)" >&2
    exit 1
  fi
fi
echo "go$v $*" >> %[5]q
exec env -u GOROOT GOTOOLCHAIN=local %[2]q "$@"
`, version, real, runtime.GOOS, runtime.GOARCH, filepath.Join(filepath.Dir(dir), "builds"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// jobEnv is a job's environment with PATH: the system's tools, and the go
// caches of this machine so that building needs no network.
func jobEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	env := map[string]string{"PATH": path, "HOME": os.Getenv("HOME"), "GOPROXY": "off"}
	for _, k := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Skip("no go on PATH")
		}
		env[k] = strings.TrimSpace(string(out))
	}
	return env
}

// goModVersion is the go line of agentfix's go.mod.
func goModVersion(t *testing.T) string {
	m := regexp.MustCompile(`(?m)^go (\S+)`).FindStringSubmatch(read(t, "go.mod"))
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return m[1]
}

// standIn replaces the built agentfix with a script that reports the Go
// its child processes (the verify commands) would run, and records the
// session outputs the real one writes; it first checks the real binary
// runs.
func standIn(t *testing.T, r *jobRunner) func(string) {
	return func(id string) {
		if id != "build" {
			return
		}
		bin := r.outputs["build"]["bin"]
		if bin == "" {
			t.Fatalf("the build step gave no binary:\n%s", r.logs["build"])
		}
		out, err := exec.Command(bin, "version").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "agentfix dev") {
			t.Fatalf("the built binary says %q (%v)", out, err)
		}
		session := filepath.Join(r.temp, "agentfix", "sessions", "s.jsonl")
		script := fmt.Sprintf("#!/bin/bash\necho \"agentfix sees: $(go version 2>&1)\"\necho session=%s >> \"$GITHUB_OUTPUT\"\necho session-artifact=agentfix-session-42-1-agent-fix >> \"$GITHUB_OUTPUT\"\n", session)
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionBuildKeepsTheJobsGo runs the action's steps with a job that
// set up Go 1.25.0, older than agentfix's go.mod asks for, and no release
// to download: agentfix is built, and its verify commands and the
// workflow's later steps still run the job's Go 1.25.0.
func TestActionBuildKeepsTheJobsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	jobGo := filepath.Join(t.TempDir(), "hostedtoolcache", "go", "bin")
	writeGoShim(t, jobGo, "1.25.0")
	r := newJobRunner(t, jobEnv(t, jobGo+":/usr/local/bin:/usr/bin:/bin"))
	r.after = standIn(t, r)
	r.runAction()
	if r.failed {
		t.Fatalf("the action failed:\n%v", r.logs)
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(jobGo), "builds")); !strings.Contains(string(b), "go1.25.0 build") {
		t.Errorf("agentfix was not built by the job's go (under GOTOOLCHAIN=auto): builds %q", b)
	}
	if got := r.logs["run"]; !strings.Contains(got, "agentfix sees: go version go1.25.0") {
		t.Errorf("agentfix's verify commands run another Go than the job's 1.25.0:\n%s", got)
	}
	out, err := r.runStep("go version")
	if err != nil || !strings.Contains(out, "go1.25.0") {
		t.Errorf("the workflow's next step runs %q (%v), want the job's go1.25.0", out, err)
	}
	if len(r.uploads) != 1 || r.uploads[0]["name"] != "agentfix-session-42-1-agent-fix" || !strings.HasSuffix(r.uploads[0]["path"], "/agentfix/sessions/s.jsonl") {
		t.Errorf("session record uploads: %v, want one artifact agentfix-session-42-1-agent-fix of the session output", r.uploads)
	}
}

// goDownloads serves a go.dev/dl of one archive holding a Go shim of
// version, listed with checksum sum ("" for the archive's own).
func goDownloads(t *testing.T, version, sum string) *httptest.Server {
	t.Helper()
	dir := t.TempDir()
	writeGoShim(t, filepath.Join(dir, "go", "bin"), version)
	shim, err := os.ReadFile(filepath.Join(dir, "go", "bin", "go"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "go/bin/go", Mode: 0o755, Size: int64(len(shim))})
	tw.Write(shim)
	tw.Close()
	gz.Close()
	archive := buf.Bytes()
	if sum == "" {
		h := sha256.Sum256(archive)
		sum = hex.EncodeToString(h[:])
	}
	file := fmt.Sprintf("go%s.%s-%s.tar.gz", version, runtime.GOOS, runtime.GOARCH)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.URL.Path == "/dl/" && req.URL.Query().Get("mode") == "json":
			fmt.Fprintf(w, `[{"version": "go%s", "stable": true, "files": [{"filename": "go1.1.src.tar.gz", "sha256": "00"}, {"filename": %q, "os": %q, "arch": %q, "sha256": %q, "kind": "archive"}]}]`, version, file, runtime.GOOS, runtime.GOARCH, sum)
		case req.URL.Path == "/dl/"+file:
			w.Write(archive)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestActionBuildWithoutGo runs the action's steps in a job without Go:
// agentfix's Go is downloaded, checked and used for the build only; the
// job still has no go.
func TestActionBuildWithoutGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	srv := goDownloads(t, goModVersion(t), "")
	env := jobEnv(t, "/usr/bin:/bin")
	env["AGENTFIX_GO_DOWNLOAD"] = srv.URL + "/dl"
	r := newJobRunner(t, env)
	r.after = standIn(t, r)
	r.runAction()
	if r.failed {
		t.Fatalf("the action failed:\n%v", r.logs)
	}
	if got := r.logs["run"]; !strings.Contains(got, "agentfix sees: ") || strings.Contains(got, "go version go") {
		t.Errorf("agentfix's verify commands find a go the job never set up:\n%s", got)
	}
	if out, err := r.runStep("command -v go"); err == nil {
		t.Errorf("the workflow's next step finds go at %s; the job has none", out)
	}
}

// TestActionBuildRefusesABadGoDownload: a Go archive that does not match
// go.dev's checksum is never run.
func TestActionBuildRefusesABadGoDownload(t *testing.T) {
	srv := goDownloads(t, goModVersion(t), strings.Repeat("ab", 32))
	env := jobEnv(t, "/usr/bin:/bin")
	env["AGENTFIX_GO_DOWNLOAD"] = srv.URL + "/dl"
	r := newJobRunner(t, env)
	r.runAction()
	if !r.failed || !strings.Contains(r.logs["build"], "does not match its checksum") {
		t.Fatalf("a Go archive with the wrong checksum was not refused:\n%s", r.logs["build"])
	}
	if _, err := os.Stat(filepath.Join(r.temp, "agentfix-go", "go", "bin", "go")); err == nil {
		t.Error("the unchecked archive was unpacked")
	}
	if len(r.uploads) != 0 {
		t.Errorf("uploaded %v although agentfix never ran", r.uploads)
	}
}
