package verify

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cgroupHost is where this process's cgroups are: the cgroup file system
// root, whether it is cgroup2 (a unified hierarchy) and /proc/self/cgroup. Detection reads these only, so a test can point it at a fake
// cgroupfs in a temporary directory.
type cgroupHost struct {
	root    string
	unified bool
	self    string
	// startIn starts a process in the cgroup open as fd (nil: not tried).
	startIn func(fd int) error
}

// cgroupsHere is this machine's cgroupHost (a test may point it at a fake).
var cgroupsHere = hostCgroups

// hostCgroups is this machine's cgroupHost.
func hostCgroups() cgroupHost {
	const root = "/sys/fs/cgroup"
	var st syscall.Statfs_t
	self, _ := os.ReadFile("/proc/self/cgroup")
	return cgroupHost{
		root:    root,
		unified: syscall.Statfs(root, &st) == nil && st.Type == 0x63677270, // CGROUP2_SUPER_MAGIC
		self:    string(self),
		startIn: probeCgroupFD,
	}
}

// limiter makes a cgroup of its own for each sandboxed command, with
// verify.max_processes as its pids limit and verify.max_memory_mb as the
// memory of the whole command (swap off where the controller has it).
type limiter struct {
	kind string // LimitsCgroupV2 or LimitsCgroupV1
	// parents are the directories the commands' cgroups are made in: one
	// for v2; one per hierarchy for v1, pids first.
	parents []string
	memory  bool // the memory controller is there
	// noSwap is true once a command's cgroup had a swap limit to set
	// (v2 memory.swap.max, v1 memory.memsw.limit_in_bytes: swap
	// accounting on).
	noSwap bool
	sb     Sandbox
}

// leafName is the v2 cgroup agentfix moves its cgroup's processes into, so
// that the cgroup may enable controllers for its children (v2 lets only a
// cgroup without processes of its own do so).
const leafName = "agentfix-init"

// limiter finds a writable cgroup to limit the commands with: v2 when
// the root is cgroup2, else the v1 pids and memory hierarchies. The error
// says why there is none.
func (h cgroupHost) limiter(sb Sandbox) (*limiter, error) {
	var l *limiter
	var err error
	if h.unified {
		l, err = h.v2()
	} else {
		l, err = h.v1()
	}
	if err != nil {
		return nil, err
	}
	l.sb = sb
	// A trial cgroup proves the parents writable before a command needs it.
	c, err := l.start()
	if err != nil {
		return nil, err
	}
	defer c.remove()
	if c.fd >= 0 && h.startIn != nil {
		if err := h.startIn(c.fd); err != nil {
			return nil, fmt.Errorf("cannot start a process in a cgroup (clone3 CLONE_INTO_CGROUP needs Linux 5.7): %w", err)
		}
	}
	return l, nil
}

// ownCgroup is this process's path in the hierarchy of controller ("" is
// the v2 hierarchy) according to /proc/self/cgroup, or "".
func (h cgroupHost) ownCgroup(controller string) string {
	for _, line := range strings.Split(h.self, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if controller == "" && parts[0] == "0" && parts[1] == "" {
			return parts[2]
		}
		for _, c := range strings.Split(parts[1], ",") {
			if controller != "" && c == controller {
				return parts[2]
			}
		}
	}
	return ""
}

// v2 is a limiter in agentfix's own v2 cgroup, made to delegate pids and
// memory to its children if it does not already: its processes (agentfix
// and, on a runner service, the runner's) move into a leaf of their own.
// A cgroup already named leafName whose parent delegates both is the leaf
// an earlier run made, and the commands' cgroups go beside it.
func (h cgroupHost) v2() (*limiter, error) {
	own := h.ownCgroup("")
	if own == "" {
		return nil, errors.New("/proc/self/cgroup names no cgroup v2 path")
	}
	dir := filepath.Join(h.root, own)
	if parent := filepath.Dir(dir); filepath.Base(own) == leafName && delegates(parent, "pids") {
		return &limiter{kind: LimitsCgroupV2, parents: []string{parent}, memory: delegates(parent, "memory")}, nil
	}
	if delegates(dir, "pids") {
		return &limiter{kind: LimitsCgroupV2, parents: []string{dir}, memory: delegates(dir, "memory")}, nil
	}
	avail := fields(dir, "cgroup.controllers")
	if !avail["pids"] {
		return nil, fmt.Errorf("the pids controller is not available in agentfix's cgroup %s (its cgroup.controllers: %q)", own, strings.Join(keys(avail), " "))
	}
	if own != "/" {
		if err := moveAll(dir, filepath.Join(dir, leafName)); err != nil {
			return nil, fmt.Errorf("cgroup %s holds processes, and moving them into %s failed: %w", own, leafName, err)
		}
	}
	enable := "+pids"
	if avail["memory"] {
		enable += " +memory"
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(enable), 0o644); err != nil {
		return nil, fmt.Errorf("cannot enable %s for the children of cgroup %s: %w", enable, own, err)
	}
	return &limiter{kind: LimitsCgroupV2, parents: []string{dir}, memory: avail["memory"]}, nil
}

// delegates reports whether dir's cgroup.subtree_control enables controller.
func delegates(dir, controller string) bool {
	return fields(dir, "cgroup.subtree_control")[controller]
}

// fields are the controller names in dir's file name ("+pids" counts as
// pids, as a file we wrote ourselves reads back).
func fields(dir, name string) map[string]bool {
	b, _ := os.ReadFile(filepath.Join(dir, name))
	set := map[string]bool{}
	for _, f := range strings.Fields(string(b)) {
		set[strings.TrimPrefix(f, "+")] = true
	}
	return set
}

func keys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	return out
}

// moveAll moves every process of cgroup dir into the leaf cgroup, until a
// round finds none it has not moved (a process forked meanwhile is born
// in dir, and moved in the next round).
func moveAll(dir, leaf string) error {
	if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	moved := map[string]bool{}
	for round := 0; round < 20; round++ {
		pids := strings.Fields(readFile(filepath.Join(dir, "cgroup.procs")))
		fresh := false
		for _, pid := range pids {
			if moved[pid] {
				continue
			}
			moved[pid], fresh = true, true
			if err := appendFile(filepath.Join(leaf, "cgroup.procs"), pid); err != nil && !errors.Is(err, syscall.ESRCH) {
				return fmt.Errorf("move process %s: %w", pid, err)
			}
		}
		if !fresh {
			return nil
		}
	}
	return errors.New("processes kept appearing")
}

// v1 is a limiter in agentfix's own cgroups of the v1 pids and memory
// hierarchies (memory optional).
func (h cgroupHost) v1() (*limiter, error) {
	pids := h.ownCgroup("pids")
	if pids == "" || !isDir(filepath.Join(h.root, "pids")) {
		return nil, errors.New("no cgroup v2 here, and no cgroup v1 pids hierarchy at " + filepath.Join(h.root, "pids"))
	}
	l := &limiter{kind: LimitsCgroupV1, parents: []string{filepath.Join(h.root, "pids", pids)}}
	if mem := h.ownCgroup("memory"); mem != "" && isDir(filepath.Join(h.root, "memory")) {
		l.parents = append(l.parents, filepath.Join(h.root, "memory", mem))
		l.memory = true
	}
	return l, nil
}

// commandCgroup is the cgroup of one command (one directory per v1
// hierarchy).
type commandCgroup struct {
	l    *limiter
	dirs []string // pids first, then memory, as the limiter's parents
	fd   int      // v2: the open directory, for CLONE_INTO_CGROUP; else -1
}

// start makes a command's cgroup and sets its limits.
func (l *limiter) start() (*commandCgroup, error) {
	name := "agentfix-run-" + randomHex()[:12]
	c := &commandCgroup{l: l, fd: -1}
	for _, p := range l.parents {
		d := filepath.Join(p, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			c.remove()
			return nil, fmt.Errorf("make cgroup %s: %w", d, err)
		}
		c.dirs = append(c.dirs, d)
	}
	mem := strconv.Itoa(l.sb.MaxMemoryMB << 20)
	var limits [][2]string // file, value; files not there are optional
	if l.kind == LimitsCgroupV2 {
		limits = append(limits, [2]string{"pids.max", strconv.Itoa(l.sb.MaxProcesses)})
		if l.memory {
			limits = append(limits, [2]string{"memory.max", mem}, [2]string{"?memory.swap.max", "0"})
		}
	} else {
		limits = append(limits, [2]string{"pids.max", strconv.Itoa(l.sb.MaxProcesses)})
		if l.memory {
			// memsw (memory and swap) no higher than memory: no swap.
			limits = append(limits, [2]string{"memory.limit_in_bytes", mem}, [2]string{"?memory.memsw.limit_in_bytes", mem}, [2]string{"?memory.swappiness", "0"})
		}
	}
	for _, lim := range limits {
		file, optional := strings.CutPrefix(lim[0], "?")
		d := c.dirs[0]
		if strings.HasPrefix(file, "memory.") {
			d = c.dirs[len(c.dirs)-1]
		}
		p := filepath.Join(d, file)
		if _, err := os.Stat(p); optional && err != nil {
			continue
		}
		if strings.Contains(file, "swap.max") || strings.Contains(file, "memsw") {
			l.noSwap = true
		}
		if err := os.WriteFile(p, []byte(lim[1]), 0o644); err != nil {
			c.remove()
			return nil, fmt.Errorf("set %s: %w", p, err)
		}
	}
	if l.kind == LimitsCgroupV2 {
		fd, err := syscall.Open(c.dirs[0], syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			c.remove()
			return nil, fmt.Errorf("open cgroup %s: %w", c.dirs[0], err)
		}
		c.fd = fd
	}
	return c, nil
}

// joinArgv is the argv prefix that puts a v1 command in its cgroups
// before it can fork: the shell writes its own pid into each cgroup.procs,
// then becomes the command. (v2 needs none: clone3 starts the process in
// its cgroup.)
func (c *commandCgroup) joinArgv() []string {
	if c.l.kind != LimitsCgroupV1 {
		return nil
	}
	a := []string{"/bin/sh", "-c", `while [ "$1" != -- ]; do echo $$ >"$1" || exit 125; shift; done; shift; exec "$@"`, "agentfix-cgroup"}
	for _, d := range c.dirs {
		a = append(a, filepath.Join(d, "cgroup.procs"))
	}
	return append(a, "--")
}

// verdict says what the limits stopped, read from the cgroup's counters:
// processes the OOM killer killed, forks the pids limit refused. "" when
// neither happened.
func (c *commandCgroup) verdict() string {
	var said []string
	if c.l.memory {
		mem := c.dirs[len(c.dirs)-1]
		file, key := "memory.events", "oom_kill"
		if c.l.kind == LimitsCgroupV1 {
			file = "memory.oom_control"
		}
		if n := counter(filepath.Join(mem, file), key); n > 0 {
			said = append(said, fmt.Sprintf("killed out of memory: the command's processes together reached verify.max_memory_mb (%d MiB), and the kernel killed %d of them (%s %s %s %d)", c.l.sb.MaxMemoryMB, n, c.l.kind, file, key, n))
		}
	}
	if n := counter(filepath.Join(c.dirs[0], "pids.events"), "max"); n > 0 {
		said = append(said, fmt.Sprintf("%d fork(s) refused: the command reached verify.max_processes (%d processes and threads; %s pids.events max %d)", n, c.l.sb.MaxProcesses, c.l.kind, n))
	}
	return strings.Join(said, "; ")
}

// counter is the value of key in a flat-keyed cgroup file, 0 when absent.
func counter(path, key string) int {
	for _, line := range strings.Split(readFile(path), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// remove kills whatever is left in the command's cgroup (v2: cgroup.kill;
// else every process listed, until none is) and removes it.
func (c *commandCgroup) remove() {
	if c.fd >= 0 {
		syscall.Close(c.fd)
		c.fd = -1
	}
	for _, d := range c.dirs {
		if kill := filepath.Join(d, "cgroup.kill"); c.l.kind == LimitsCgroupV2 && fileExists(d, "cgroup.kill") {
			os.WriteFile(kill, []byte("1"), 0o644)
		}
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			pids := strings.Fields(readFile(filepath.Join(d, "cgroup.procs")))
			if len(pids) == 0 {
				break
			}
			for _, p := range pids {
				if pid, err := strconv.Atoi(p); err == nil && pid > 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
		os.Remove(d)
	}
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// appendFile writes s to path in one write, without truncating it (a
// cgroup.procs write moves one process; a plain file collects them).
func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// probeCgroupFD starts true in the trial cgroup through clone3's
// CLONE_INTO_CGROUP, which needs Linux 5.7.
func probeCgroupFD(fd int) error {
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	return cmd.Run()
}
