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
)

// forkProbe starts a classic fork bomb, lets it run into the limit, and
// reports the most processes its PID namespace held. It waits for
// evidence, not for a time: until the count has stopped growing for two
// seconds once past 20 (the limit reached), however loaded the machine,
// or a minute.
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
	err := exec.Command("sh", "-c", "b() { b | b & }; b").Start()
	peak, still := 0, 0
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && still < 20; time.Sleep(100 * time.Millisecond) {
		n, _ := filepath.Glob("/proc/[0-9]*")
		switch {
		case len(n) > peak:
			peak, still = len(n), 0
		case peak > 20:
			still++
		}
	}
	os.WriteFile("{{REPORT}}", []byte(fmt.Sprintf("bomb started: %v; processes: %d\n", err, peak)), 0o644)
}
`

// nobody is the unprivileged user a root test runs agentfix as.
const nobody = 65534

// asUnprivileged makes w's binary run as nobody when the tests run as
// root: RLIMIT_NPROC does not bind root (the kernel exempts uid 0), so a
// runner started as root is not protected from a fork bomb, and neither
// would this row's machine be. The world's files become nobody's just
// before the run and root's again after it.
func asUnprivileged(t *testing.T, w *world, dirs ...string) (restore func()) {
	if os.Geteuid() != 0 {
		return func() {}
	}
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

// processesOf counts the live processes of uid.
func processesOf(uid int) int {
	n := 0
	entries, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil {
			continue
		}
		var mine, live bool
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Uid:"); ok {
				f := strings.Fields(v)
				mine = len(f) > 0 && f[0] == strconv.Itoa(uid)
			}
			if v, ok := strings.CutPrefix(l, "State:"); ok {
				live = !strings.HasPrefix(strings.TrimSpace(v), "Z")
			}
		}
		if mine && live {
			n++
		}
	}
	return n
}

func forkBombRow(t *testing.T, c *check) {
	const limit = 256
	w, report := probeWorld(t, "required", "  max_processes: "+strconv.Itoa(limit)+"\n")
	w.answerProbe(forkProbe, report)
	uid := os.Geteuid()
	if uid == 0 {
		uid = nobody
		if n := processesOf(nobody); n > 0 {
			t.Skipf("%d processes already run as nobody here: the row could not tell the bomb's from theirs", n)
		}
	}
	restore := asUnprivileged(t, w, filepath.Dir(report))
	n, r := issueRun(w)
	restore()
	c.wantFixed(w, r, n)
	got := c.readReport(r, report)
	var procs int
	if i := strings.LastIndex(got, "processes: "); i >= 0 {
		procs, _ = strconv.Atoi(strings.TrimSpace(got[i+len("processes: "):]))
	}
	c.must(r, strings.HasPrefix(got, "bomb started: <nil>") && procs > 20, "the bomb did not go off (the row proves nothing): %s", got)
	c.must(r, procs <= limit, "the bomb reached %d processes, over verify.max_processes %d", procs, limit)
	if uid == nobody {
		// Only the bomb runs as nobody: every one of its processes must
		// be gone with the run.
		left := processesOf(nobody)
		for i := 0; i < 100 && left != 0; i++ {
			time.Sleep(100 * time.Millisecond)
			left = processesOf(nobody)
		}
		c.must(r, left == 0, "%d of the bomb's processes are left after agentfix exited", left)
	}
	c.see("exit 0 fixed; the bomb (uid %d) held at most %d processes, limit %d; none left after exit", uid, procs, limit)
	c.settle(w, r, outcome{diff: true, session: "fix-issue", agentBranches: 1})
}
