package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/fixtures"
)

// needSandbox skips where bubblewrap cannot work; CI installs it, so there
// the sandbox tests always run.
func needSandbox(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("bubblewrap is Linux's")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bubblewrap is not installed (apt-get install bubblewrap)")
	}
	if err := probe(bwrap); err != nil {
		t.Skipf("bubblewrap does not work here: %v", err)
	}
	return bwrap
}

// hostile is a work tree holding the probe, with a checkout's persisted
// token in .git/config, and the world around it the probe attacks.
type hostile struct {
	dir, home, githubEnv, outside, sleep string
	environ                              []string
	accepted                             *atomic.Int32
}

const persistedToken = "ghs_PERSISTEDcheckoutTOKEN0123456789"

func newHostile(t *testing.T) *hostile {
	t.Helper()
	h := &hostile{dir: filepath.Join(t.TempDir(), "repo"), home: t.TempDir(), accepted: &atomic.Int32{}}
	if err := os.CopyFS(h.dir, os.DirFS(fixtures.Path("projects", "sandboxprobe"))); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", h.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	conf := filepath.Join(h.dir, ".git", "config")
	b, _ := os.ReadFile(conf)
	b = append(b, "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic "+persistedToken+"\n"...)
	if err := os.WriteFile(conf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(h.home, "secret"), []byte("home-secret-value"), 0o600)
	runner := t.TempDir()
	h.githubEnv = filepath.Join(runner, "github_env")
	h.outside = filepath.Join(runner, "outside")
	os.WriteFile(h.githubEnv, nil, 0o644)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			h.accepted.Add(1)
			c.Close()
		}
	}()
	h.sleep = fmt.Sprintf("303.%d", time.Now().UnixNano()%1000000)
	secrets := []string{"GITHUB_TOKEN", "INPUT_GITHUB_TOKEN", "GITHUB_ENV", "GITHUB_PATH", "RUNNER_TEMP", "ACTIONS_RUNTIME_TOKEN",
		"GH_PAT", "NPM_AUTH", "OPENAI_KEY", "DEPLOY_KEY", "DATABASE_URL", "GPG_PASSPHRASE", "DOCKER_AUTH_CONFIG", "PYPI_PASS", "SENTRY_DSN"}
	cfg, _ := json.Marshal(map[string]any{
		"port": ln.Addr().(*net.TCPAddr).Port, "home_secret": filepath.Join(h.home, "secret"),
		"github_env": h.githubEnv, "outside": h.outside, "sleep": h.sleep, "secret_names": secrets,
	})
	os.WriteFile(filepath.Join(h.dir, "probe.json"), cfg, 0o644)
	h.environ = append(os.Environ(), "HOME="+h.home, "GITHUB_ENV="+h.githubEnv, "RUNNER_TEMP="+runner)
	for _, name := range secrets {
		if name != "GITHUB_ENV" && name != "RUNNER_TEMP" {
			h.environ = append(h.environ, name+"=postgres://u:pw@db/"+strings.ToLower(name))
		}
	}
	return h
}

// run runs the probe and returns its report and its lines by name.
func (h *hostile) run(t *testing.T, sb Sandbox) (*Report, map[string]string) {
	t.Helper()
	rep, err := Run(context.Background(), []string{"python3 probe.py"}, Options{
		Dir: h.dir, Environ: h.environ, Allow: []string{"python3 probe.py"}, Sandbox: sb, Timeout: time.Minute,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(rep.Commands[0].Output, "\n") {
		if k, v, ok := strings.Cut(l, " "); ok {
			lines[k] = v
		}
	}
	if !rep.Passed || lines["env"] == "" {
		t.Fatalf("the probe did not run to its end:\n%s", rep.Commands[0].Output)
	}
	return rep, lines
}

// sleeping are the host pids of processes running sleep with arg.
func sleeping(arg string) []string {
	var pids []string
	entries, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, e := range entries {
		b, _ := os.ReadFile(e)
		if bytes.Equal(b, []byte("sleep\x00"+arg+"\x00")) {
			pids = append(pids, filepath.Base(filepath.Dir(e)))
		}
	}
	return pids
}

func TestSandboxContainsAHostileTest(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	h := newHostile(t)
	rep, got := h.run(t, Sandbox{Mode: SandboxRequired})
	if rep.Sandbox == nil || !rep.Sandbox.Enabled || rep.Sandbox.Network {
		t.Fatalf("report sandbox = %+v, want enabled without network", rep.Sandbox)
	}
	for name, want := range map[string]string{
		"network": "blocked(", "home": "blocked(", "hook": "blocked(", "gitconfig": "clean", "escape": "started", "env": "clean", "home_var": h.home,
	} {
		if !strings.HasPrefix(got[name], want) {
			t.Errorf("%s: the probe says %q, want %q", name, got[name], want)
		}
	}
	if n := h.accepted.Load(); n != 0 {
		t.Errorf("the listener on 127.0.0.1 accepted %d connection(s) from the tests", n)
	}
	// Writes outside the work tree land in throwaway directories, or fail.
	if b, _ := os.ReadFile(h.githubEnv); len(b) != 0 {
		t.Errorf("GITHUB_ENV was written: %q", b)
	}
	if _, err := os.Stat(h.outside); err == nil {
		t.Errorf("a file was written outside the work tree: %s", h.outside)
	}
	if _, err := os.Stat(filepath.Join(h.dir, ".git", "hooks", "post-index-change")); err == nil {
		t.Error("a hook was planted in .git/hooks")
	}
	if conf, _ := os.ReadFile(filepath.Join(h.dir, ".git", "config")); !strings.Contains(string(conf), persistedToken) {
		t.Error("the real .git/config lost its extraheader: the sandbox must hide it, not edit it")
	}
	if pids := sleeping(h.sleep); len(pids) > 0 {
		t.Errorf("the escaped sleep %s outlived the run: pids %v", h.sleep, pids)
	}
}

// TestProbeEscapesWithoutTheSandbox shows that the probe is capable: with
// the sandbox off, what TestSandboxContainsAHostileTest refuses happens,
// except what the environment allow-list stops on its own.
func TestProbeEscapesWithoutTheSandbox(t *testing.T) {
	t.Parallel()
	h := newHostile(t)
	rep, got := h.run(t, Sandbox{Mode: SandboxOff})
	t.Cleanup(func() {
		for _, pid := range sleeping(h.sleep) {
			var p int
			fmt.Sscan(pid, &p)
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	if rep.Sandbox == nil || rep.Sandbox.Enabled || !strings.Contains(rep.Sandbox.Reason, "off") {
		t.Errorf("report sandbox = %+v, want disabled, saying it is off", rep.Sandbox)
	}
	for name, want := range map[string]string{
		"network": "connected", "home": "read:home-secret-value", "github_env": "written", "outside": "written",
		"hook": "written", "gitconfig": "extraheader-visible", "env": "clean",
	} {
		if got[name] != want {
			t.Errorf("%s: the probe says %q, want %q", name, got[name], want)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(sleeping(h.sleep)) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if len(sleeping(h.sleep)) == 0 {
		t.Error("without the sandbox the escaped sleep is gone too: the sandbox test proves nothing about it")
	}
}

func TestSandboxMissingBubblewrap(t *testing.T) {
	t.Parallel()
	dir := project(t, "gopass")
	environ := append(os.Environ(), "PATH=/usr/local/go/bin:"+filepath.Dir(goTool(t)))
	opts := Options{Dir: dir, Environ: environ, Timeout: 3 * time.Minute}

	opts.Sandbox = Sandbox{Mode: SandboxRequired}
	_, err := Run(context.Background(), []string{"go test ./..."}, opts)
	var unavailable *UnavailableError
	if !errors.As(err, &unavailable) || !strings.Contains(err.Error(), "apt-get install bubblewrap") {
		t.Fatalf("required without bwrap: err = %v, want an UnavailableError saying how to install it", err)
	}

	opts.Sandbox = Sandbox{}
	rep, err := Run(context.Background(), []string{"go test ./..."}, opts)
	if err != nil || !rep.Passed {
		t.Fatalf("auto without bwrap: %v, %+v; want the command run unsandboxed", err, rep)
	}
	if rep.Sandbox.Enabled || !strings.Contains(rep.Sandbox.Describe(), "WITHOUT a sandbox: the sandbox is unavailable: bubblewrap (bwrap) is not installed") {
		t.Errorf("auto without bwrap says %q", rep.Sandbox.Describe())
	}
}

// goTool is the go command the tests use.
func goTool(t *testing.T) string {
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	return p
}

func TestCleanGitConfig(t *testing.T) {
	t.Parallel()
	in := "[core]\n\tbare = false\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic x\n[credential]\n\thelper = store\n" +
		"[includeIf \"gitdir:/w/\"]\n\tpath = /runner/temp/creds.config\n[remote \"origin\"]\n\turl = https://github.com/o/r\n[http] extraHeader = y\n"
	want := "[core]\n\tbare = false\n[http \"https://github.com/\"]\n[remote \"origin\"]\n\turl = https://github.com/o/r\n"
	if got := cleanGitConfig(in); got != want {
		t.Errorf("cleanGitConfig =\n%s\nwant\n%s", got, want)
	}
}

func TestDescribeLimitsSaysWhichMechanismAndWhenRootHasNoProcessLimit(t *testing.T) {
	sb := Sandbox{}.withDefaults()
	noCgroup := errors.New("cgroup /sys/fs/cgroup/pids/x: permission denied")
	for _, tt := range []struct {
		name    string
		in      limitsIn
		by      string
		want    []string
		mustNot string
	}{
		{"v2", limitsIn{cgroup: LimitsCgroupV2, memory: true, noSwap: true, rlimits: true, root: true}, LimitsCgroupV2,
			[]string{"4096 MiB of memory, without swap, and 1024 processes and threads for the whole command", "(cgroup v2)"}, "NO"},
		{"v1 without swap accounting", limitsIn{cgroup: LimitsCgroupV1, memory: true, rlimits: true}, LimitsCgroupV1,
			[]string{"4096 MiB of memory and 1024 processes and threads for the whole command (cgroup v1)"}, "swap"},
		{"v1 without memory controller", limitsIn{cgroup: LimitsCgroupV1, rlimits: true}, LimitsCgroupV1,
			[]string{"1024 processes and threads for the whole command (cgroup v1", "4096 MiB of data per process (rlimits)"}, "NO"},
		{"unprivileged, rlimits", limitsIn{why: noCgroup, rlimits: true}, LimitsRlimits,
			[]string{"1024 more processes (rlimits)", "permission denied"}, "NO"},
		{"root, rlimits", limitsIn{why: noCgroup, rlimits: true, root: true}, LimitsRlimits,
			[]string{"NO process limit: RLIMIT_NPROC does not bind root", "permission denied", "Delegate=yes", "unprivileged user"}, "more processes"},
		{"nothing", limitsIn{why: noCgroup}, "",
			[]string{"NO memory or process limit", "prlimit"}, "(rlimits)"},
	} {
		by, got := describeLimits(sb, tt.in)
		if by != tt.by {
			t.Errorf("%s: mechanism %q, want %q", tt.name, by, tt.by)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", tt.name, got, w)
			}
		}
		if strings.Contains(got, tt.mustNot) {
			t.Errorf("%s: %q says %q", tt.name, got, tt.mustNot)
		}
	}
}

func TestDescribeNamesTheLimitsWithOrWithoutNetwork(t *testing.T) {
	t.Parallel()
	const limits = "at most 4096 MiB of memory and 1024 processes and threads for the whole command (cgroup v1)"
	for _, network := range []bool{false, true} {
		got := (&SandboxInfo{Enabled: true, Network: network, Limits: limits, LimitsBy: LimitsCgroupV1}).Describe()
		if !strings.Contains(got, limits) {
			t.Errorf("network %v: %q does not say the limits", network, got)
		}
	}
}
