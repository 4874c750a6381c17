package verify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeCgroupfs is a temporary directory laid out as a cgroup file system:
// each directory holding files is a cgroup.
var fakeCgroupfs = tree

func readTrim(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

var testLimits = Sandbox{MaxMemoryMB: 512, MaxProcesses: 64}

// svc is the cgroup of a runner service.
const svc = "system.slice/runner.service"

// inService is a fake v2 cgroupfs in which agentfix runs in svc, with
// the controllers available, those enabled for its children, and the
// processes in it.
func inService(t *testing.T, controllers, subtree, procs string) cgroupHost {
	root := fakeCgroupfs(t, map[string]string{
		svc + "/cgroup.controllers":     controllers,
		svc + "/cgroup.subtree_control": subtree,
		svc + "/cgroup.procs":           procs,
	})
	return cgroupHost{root: root, unified: true, self: "0::/" + svc + "\n"}
}

func TestCgroupV2MovesTheServiceIntoALeafAndDelegatesPidsAndMemory(t *testing.T) {
	t.Parallel()
	h := inService(t, "cpu io memory pids\n", "", "4242\n4343\n")
	root := h.root
	l, err := h.limiter(testLimits)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, svc)
	if l.kind != LimitsCgroupV2 || !l.memory || !slices.Equal(l.parents, []string{dir}) {
		t.Fatalf("limiter = %+v, want cgroup v2 with memory in %s", l, dir)
	}
	if got := strings.Fields(readTrim(t, filepath.Join(dir, leafName, "cgroup.procs"))); !slices.Equal(got, []string{"4242", "4343"}) {
		t.Errorf("the leaf holds %q, want the service's processes 4242 and 4343", got)
	}
	if got := readTrim(t, filepath.Join(dir, "cgroup.subtree_control")); got != "+pids +memory" {
		t.Errorf("subtree_control = %q, want +pids +memory", got)
	}

	c, err := l.start()
	if err != nil {
		t.Fatal(err)
	}
	cg := c.dirs[0]
	if filepath.Dir(cg) != dir || !strings.HasPrefix(filepath.Base(cg), "agentfix-run-") {
		t.Errorf("the command's cgroup is %s, want agentfix-run-* in %s", cg, dir)
	}
	if got := readTrim(t, filepath.Join(cg, "pids.max")); got != "64" {
		t.Errorf("pids.max = %q", got)
	}
	if got := readTrim(t, filepath.Join(cg, "memory.max")); got != strconv.Itoa(512<<20) {
		t.Errorf("memory.max = %q", got)
	}
	if c.fd <= 0 || c.joinArgv() != nil {
		t.Errorf("a v2 command starts in its cgroup through an open fd (got %d) and no argv prefix (got %q)", c.fd, c.joinArgv())
	}
	if c.verdict() != "" {
		t.Errorf("verdict before anything happened: %q", c.verdict())
	}
	// What the kernel writes when the limits bite.
	os.WriteFile(filepath.Join(cg, "memory.events"), []byte("low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n"), 0o644)
	os.WriteFile(filepath.Join(cg, "pids.events"), []byte("max 7\n"), 0o644)
	v := c.verdict()
	for _, want := range []string{"killed out of memory", "verify.max_memory_mb (512 MiB)", "memory.events oom_kill 1", "7 fork(s) refused", "verify.max_processes (64"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict %q does not say %q", v, want)
		}
	}
	os.WriteFile(filepath.Join(cg, "cgroup.kill"), nil, 0o644)
	c.remove()
	if got := readTrim(t, filepath.Join(cg, "cgroup.kill")); got != "1" {
		t.Errorf("cgroup.kill = %q after remove, want 1 (kill what is left)", got)
	}
	if c.fd != -1 {
		t.Error("remove left the cgroup's fd open")
	}
}

func TestCgroupV2LaterRunsUseTheLeafsParent(t *testing.T) {
	t.Parallel()
	root := fakeCgroupfs(t, map[string]string{
		svc + "/cgroup.controllers":                  "memory pids\n",
		svc + "/cgroup.subtree_control":              "memory pids\n",
		svc + "/" + leafName + "/cgroup.procs":       "4242\n",
		svc + "/" + leafName + "/cgroup.controllers": "memory pids\n",
	})
	h := cgroupHost{root: root, unified: true, self: "0::/" + svc + "/" + leafName + "\n"}
	l, err := h.limiter(testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, svc); !slices.Equal(l.parents, []string{want}) || !l.memory {
		t.Errorf("parents = %q (memory %v), want %s beside the leaf, not a cgroup nested in it", l.parents, l.memory, want)
	}
}

func TestCgroupV2SaysWhyItCannotLimit(t *testing.T) {
	t.Parallel()
	h := inService(t, "cpu io\n", "", "4242\n")
	_, err := h.limiter(testLimits)
	if err == nil || !strings.Contains(err.Error(), "pids controller is not available in agentfix's cgroup /"+svc) {
		t.Errorf("no pids controller: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.root, svc, leafName)); err == nil {
		t.Error("processes were moved although no controller could be enabled")
	}

	old := errors.New("clone3: function not implemented")
	h = inService(t, "memory pids\n", "memory pids\n", "")
	h.startIn = func(int) error { return old }
	if _, err := h.limiter(testLimits); err == nil || !strings.Contains(err.Error(), "Linux 5.7") || !errors.Is(err, old) {
		t.Errorf("no CLONE_INTO_CGROUP: err = %v", err)
	}
}

func TestCgroupV1InAFakeCgroupfsAndTheFallback(t *testing.T) {
	t.Parallel()
	root := fakeCgroupfs(t, map[string]string{
		"pids/cgroup.procs":                "",
		"memory/job/cgroup.procs":          "",
		"memory/job/memory.limit_in_bytes": "9223372036854771712\n",
	})
	self := "12:pids:/\n4:memory:/job\n0::/\n"
	l, err := cgroupHost{root: root, self: self}.limiter(testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if l.kind != LimitsCgroupV1 || !l.memory {
		t.Fatalf("limiter = %+v, want cgroup v1 with memory", l)
	}
	c, err := l.start()
	if err != nil {
		t.Fatal(err)
	}
	defer c.remove()
	pids, mem := c.dirs[0], c.dirs[1]
	if filepath.Dir(pids) != filepath.Join(root, "pids") || filepath.Dir(mem) != filepath.Join(root, "memory", "job") {
		t.Errorf("cgroups %s and %s, want them in agentfix's own pids and memory cgroups", pids, mem)
	}
	if got := readTrim(t, filepath.Join(pids, "pids.max")); got != "64" {
		t.Errorf("pids.max = %q", got)
	}
	if got := readTrim(t, filepath.Join(mem, "memory.limit_in_bytes")); got != strconv.Itoa(512<<20) {
		t.Errorf("memory.limit_in_bytes = %q", got)
	}
	join := c.joinArgv()
	if len(join) < 3 || join[0] != "/bin/sh" || !slices.Contains(join, filepath.Join(pids, "cgroup.procs")) || !slices.Contains(join, filepath.Join(mem, "cgroup.procs")) || join[len(join)-1] != "--" {
		t.Errorf("join argv %q does not enter both cgroups before the command", join)
	}
	os.WriteFile(filepath.Join(mem, "memory.oom_control"), []byte("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"), 0o644)
	if v := c.verdict(); !strings.Contains(v, "killed out of memory") || !strings.Contains(v, "killed 2 of them (cgroup v1 memory.oom_control oom_kill 2)") {
		t.Errorf("verdict = %q", v)
	}

	// No pids hierarchy (and no v2): rlimits, saying why.
	_, err = cgroupHost{root: t.TempDir(), self: self}.limiter(testLimits)
	if err == nil || !strings.Contains(err.Error(), "no cgroup v1 pids hierarchy") {
		t.Errorf("no hierarchy: err = %v", err)
	}
}

// realV1 is a limiter in this machine's cgroup v1 hierarchies, or skips.
func realV1(t *testing.T, sb Sandbox) *limiter {
	t.Helper()
	h := hostCgroups()
	if h.unified {
		t.Skip("cgroup v2 here: the fake cgroupfs tests cover v2's decisions; the hardening matrix runs it for real")
	}
	l, err := h.limiter(sb)
	if err != nil {
		t.Skipf("no writable cgroup v1 here: %v", err)
	}
	if !l.memory {
		t.Skip("no writable cgroup v1 memory hierarchy here")
	}
	return l
}

// runLimited runs sh -c script in a fresh cgroup of l and returns its
// verdict, after checking that the cgroup is gone with everything in it.
func runLimited(t *testing.T, l *limiter, script string) (procResult, string) {
	t.Helper()
	c, err := l.start()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := &proc{argv: append(c.joinArgv(), "sh", "-c", script), env: []string{"PATH=/usr/bin:/bin"}, out: &out,
		timeout: time.Minute, grace: time.Second, marker: "AGENTFIX_TEST=" + randomHex()}
	res, err := p.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v := c.verdict()
	c.remove()
	for _, d := range c.dirs {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("cgroup %s is left after the command", d)
		}
	}
	t.Logf("exit %d, output %q, verdict %q", res.exitCode, out.String(), v)
	return res, v
}

func TestCgroupV1StopsAForkBombAndAMemoryHog(t *testing.T) {
	l := realV1(t, Sandbox{MaxMemoryMB: 64, MaxProcesses: 16}.withDefaults())
	// Thirty sleeps in the background: the pids limit refuses the
	// sixteenth and later; the count of those that started says so.
	res, v := runLimited(t, l, `n=0; for i in $(seq 30); do sleep 30 2>/dev/null & n=$((n+1)); done; echo $n; wait`)
	if !strings.Contains(v, "fork(s) refused") || !strings.Contains(v, "verify.max_processes (16") {
		t.Errorf("the fork limit was not told: verdict %q (exit %d)", v, res.exitCode)
	}
	// tail keeps a line without newlines whole: 256 MiB of zeros.
	res, v = runLimited(t, l, `head -c 268435456 /dev/zero | tail -n 1 >/dev/null`)
	if res.exitCode == 0 || !strings.Contains(v, "killed out of memory") || !strings.Contains(v, "verify.max_memory_mb (64 MiB)") {
		t.Errorf("the hog was not stopped for memory: exit %d, verdict %q", res.exitCode, v)
	}
}

// TestSandboxLimitsByCgroupElseRlimits is not parallel: it points
// cgroupsHere at a cgroup file system without hierarchies.
func TestSandboxLimitsByCgroupElseRlimits(t *testing.T) {
	needSandbox(t)
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	opts := Options{Dir: t.TempDir(), Sandbox: Sandbox{MaxMemoryMB: 512, MaxProcesses: 64}}
	env := map[string]string{"PATH": os.Getenv("PATH")}

	if _, err := hostCgroups().limiter(opts.Sandbox.withDefaults()); err == nil {
		s, err := prepareSandbox(opts, env)
		if err != nil {
			t.Fatal(err)
		}
		s.cleanup()
		if s.limits == nil || !strings.HasPrefix(s.info.LimitsBy, "cgroup v") || !strings.Contains(s.info.Limits, "512 MiB of memory") {
			t.Errorf("a writable cgroup is here, yet the sandbox says %q: %q", s.info.LimitsBy, s.info.Limits)
		}
		if slices.ContainsFunc(s.prefix, func(a string) bool { return strings.HasPrefix(a, "--data=") }) {
			t.Errorf("RLIMIT_DATA is set beside the cgroup's memory limit: %q", s.prefix)
		}
	} else {
		t.Logf("no writable cgroup here (%v): only the fallback is checked", err)
	}

	fake := t.TempDir()
	cgroupsHere = func() cgroupHost { return cgroupHost{root: fake, self: "12:pids:/\n"} }
	defer func() { cgroupsHere = hostCgroups }()
	s, err := prepareSandbox(opts, env)
	if err != nil {
		t.Fatal(err)
	}
	s.cleanup()
	if s.limits != nil || s.info.LimitsBy != LimitsRlimits || !strings.Contains(s.info.Limits, "no cgroup v1 pids hierarchy") {
		t.Errorf("without a cgroup: %q: %q", s.info.LimitsBy, s.info.Limits)
	}
	for _, want := range []string{"--data=" + strconv.Itoa(512<<20), "--nproc="} {
		if !slices.ContainsFunc(s.prefix, func(a string) bool { return strings.HasPrefix(a, want) }) {
			t.Errorf("the rlimits fallback lacks %s: %q", want, s.prefix)
		}
	}
	if join, fd, done, err := s.contain(); err != nil || join != nil || fd != 0 || done() != "" {
		t.Errorf("contain without a cgroup = %q, %d, %v", join, fd, err)
	}
}

// In the root cgroup (a host's, or a container's own cgroup namespace)
// agentfix enables the controllers without moving anything: the host's
// root may hold processes, and kernel threads could not move anyway.
func TestCgroupV2AtTheRootMovesNothing(t *testing.T) {
	t.Parallel()
	root := fakeCgroupfs(t, map[string]string{
		"cgroup.controllers":     "cpu memory pids\n",
		"cgroup.subtree_control": "",
		"cgroup.procs":           "1\n2\n",
	})
	l, err := cgroupHost{root: root, unified: true, self: "0::/\n"}.limiter(testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.parents, []string{root}) || !l.memory {
		t.Errorf("limiter = %+v, want cgroup v2 in the root", l)
	}
	if _, err := os.Stat(filepath.Join(root, leafName)); err == nil {
		t.Error("processes of the root cgroup were moved")
	}
	if got := readTrim(t, filepath.Join(root, "cgroup.subtree_control")); got != "+pids +memory" {
		t.Errorf("subtree_control = %q", got)
	}
}
