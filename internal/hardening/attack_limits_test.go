package hardening

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
	"github.com/agentfix/agentfix/internal/verify"
)

// forkProbe starts a classic fork bomb, lets it run into the limit, and
// reports the most processes its PID namespace held at once. A listing of
// /proc is not a snapshot: while the bomb churns, it lists processes that
// exit before it ends and processes born after it began (seen: 282 listed
// under a limit of 256 on a loaded machine), so a sample counts only the
// listed processes still there once the listing has ended, which were all
// alive together at that moment (a zombie too: it still holds its pid).
// It waits for evidence, not for a time: until the count has stopped
// growing for two seconds once past 20 (the limit reached), however
// loaded the machine, or a minute. It samples every 2 ms: under its limit
// the bomb can grow into it, fail to fork and die out between two samples
// 100 ms apart (seen: a peak of 4 and of 11, one run in four). On a
// machine loaded enough that the loop does not run for as long, it can
// die out unseen even so (seen: a peak of 10 in a minute, beside two
// benchmarks): when it has, and none was seen past 20, it is started
// again.
const forkProbe = `package calc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	count := func() int {
		listed, _ := filepath.Glob("/proc/[0-9]*")
		n := 0
		for _, p := range listed {
			if _, err := os.Stat(p); err == nil {
				n++
			}
		}
		return n
	}
	base := count()
	bomb := func() error { return exec.Command("sh", "-c", "b() { b | b & }; b # {{TOKEN}}").Start() }
	err, started, bombs := bomb(), time.Now(), 1
	peak, grew := 0, time.Now()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && (peak <= 20 || time.Since(grew) < 2*time.Second); time.Sleep(2 * time.Millisecond) {
		n := count()
		if n > peak {
			peak, grew = n, time.Now()
		}
		// Gone but for each start's zombie shell, never seen past 20.
		if err == nil && peak <= 20 && n <= base+bombs && time.Since(started) > 100*time.Millisecond {
			err, started, bombs = bomb(), time.Now(), bombs+1
		}
	}
	os.WriteFile("{{REPORT}}", []byte(fmt.Sprintf("bomb started: %v; bombs: %d; processes: %d\n", err, bombs, peak)), 0o644)
}
`

// nobody is the unprivileged user a root test runs agentfix as when no
// cgroup is writable here.
const nobody = 65534

// asUnprivileged makes w's binary run as nobody: without a cgroup only
// RLIMIT_NPROC limits processes, and it does not bind root (the kernel
// exempts uid 0), so a root runner without a writable cgroup is not
// protected from a fork bomb, and neither would this row's machine be.
// The world's files become nobody's just before the run and root's again
// after it.
func asUnprivileged(t *testing.T, w *world, dirs ...string) (restore func()) {
	home, cache := filepath.Join(w.Dir, "home"), filepath.Join(w.Dir, "gocache")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(cache, 0o755)
	w.Env["HOME"], w.Env["GOCACHE"] = home, cache
	w.BeforeStart = func(cmd *exec.Cmd) {
		for _, d := range append([]string{w.Dir}, dirs...) {
			chownAll(t, d, nobody)
		}
		// Every directory above the world, the binary and dirs must be
		// traversable by nobody.
		for _, p := range append([]string{w.Dir, actiontest.Bin()}, dirs...) {
			for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
				if st, err := os.Stat(d); err == nil && st.Mode().Perm()&0o001 == 0 {
					os.Chmod(d, st.Mode().Perm()|0o005)
				}
			}
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	return func() {
		for _, d := range append([]string{w.Dir}, dirs...) {
			chownAll(t, d, 0)
		}
	}
}

func chownAll(t *testing.T, dir string, uid int) {
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatalf("chown %s: %v", dir, err)
	}
}

// running counts the live processes whose command line holds token.
func running(token string) int {
	n := 0
	entries, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil || !strings.Contains(string(b), token) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(e), "stat")); err == nil {
			if i := strings.LastIndexByte(string(st), ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		n++
	}
	return n
}

// forkBombRow runs the bomb as the tests' own user: as root, a cgroup's
// pids limit must stop it (RLIMIT_NPROC does not bind root); where no
// cgroup is writable, root runs agentfix as nobody, whom RLIMIT_NPROC
// binds.
func forkBombRow(t *testing.T, c *check) {
	const limit = 256
	w, report := probeWorld(t, "required", "  max_processes: "+strconv.Itoa(limit)+"\n")
	token := "agentfix-bomb-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	w.answerProbe(forkProbe, report, "{{TOKEN}}", token)
	lim := verify.CheckLimits(verify.Sandbox{MaxProcesses: limit})
	uid, restore := os.Geteuid(), func() {}
	if uid == 0 && lim.Unbound != "" {
		t.Logf("no writable cgroup here (%s): agentfix runs as nobody", lim.Unbound)
		uid, lim.By = nobody, verify.LimitsRlimits
		restore = asUnprivileged(t, w, filepath.Dir(report))
	}
	n, r := issueRun(w)
	restore()
	c.wantFixed(w, r, n)
	got := c.readReport(r, report)
	var procs int
	if i := strings.LastIndex(got, "processes: "); i >= 0 {
		procs, _ = strconv.Atoi(strings.TrimSpace(got[i+len("processes: "):]))
	}
	starts := "1"
	if _, rest, ok := strings.Cut(got, "bombs: "); ok {
		starts, _, _ = strings.Cut(rest, ";")
	}
	c.must(r, strings.HasPrefix(got, "bomb started: <nil>") && procs > 20, "the bomb did not go off (the row proves nothing): %s", got)
	c.must(r, procs <= limit, "the bomb (uid %d, limited by %s) reached %d processes, over verify.max_processes %d", uid, lim.By, procs, limit)
	c.must(r, strings.Contains(r.Summary, "processes and threads for the whole command ("+lim.By) || lim.By == verify.LimitsRlimits,
		"the step summary does not say %s limits the commands:\n%s", lim.By, r.Summary)
	left := running(token)
	for i := 0; i < 100 && left != 0; i++ {
		time.Sleep(100 * time.Millisecond)
		left = running(token)
	}
	c.must(r, left == 0, "%d of the bomb's processes are left after agentfix exited", left)
	c.see("exit 0 fixed; the bomb (uid %d, limited by %s, started %s time(s)) held at most %d processes, limit %d; none left after exit", uid, lim.By, starts, procs, limit)
	c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
}
