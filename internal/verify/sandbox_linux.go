package verify

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sandboxed is how one verify.Run contains its commands.
type sandboxed struct {
	info   *SandboxInfo
	prefix []string // prlimit and bwrap with their arguments, up to "--"
	// limits makes each command's cgroup; nil when no cgroup is writable.
	limits *limiter
	// cleanup removes the credential-free .git/config copy.
	cleanup func()
}

// prepareSandbox decides how the commands of one Run are contained. It
// fails only when the sandbox is required and unavailable.
func prepareSandbox(opts Options, env map[string]string) (*sandboxed, error) {
	sb := opts.Sandbox.withDefaults()
	s := &sandboxed{info: &SandboxInfo{Network: true}, cleanup: func() {}}
	if sb.Mode == SandboxOff {
		s.info.Reason = "verify.sandbox is off"
		return s, nil
	}
	bwrap, err := findBwrap(sb.Bwrap, env["PATH"])
	if err == nil {
		err = probe(bwrap)
	}
	if err != nil {
		if sb.Mode == SandboxRequired {
			return nil, err
		}
		s.info.Reason = err.Error() + " (verify.sandbox: required refuses to run without it)"
		return s, nil
	}
	m := layout(opts.Dir, env, sb)
	if conf, err := os.ReadFile(filepath.Join(m.root, ".git", "config")); err == nil {
		f, err := os.CreateTemp("", "agentfix-gitconfig-")
		if err != nil {
			return nil, err
		}
		f.WriteString(cleanGitConfig(string(conf)))
		f.Close()
		m.gitconf = f.Name()
		s.cleanup = func() { os.Remove(f.Name()) }
	}
	args := []string{bwrap, "--unshare-all", "--die-with-parent", "--new-session"}
	if sb.Network {
		args = append(args, "--share-net")
	}
	args = append(args, m.args()...)
	args = append(args, "--chdir", opts.Dir, "--")
	s.info = &SandboxInfo{Enabled: true, Network: sb.Network}
	lim, why := cgroupsHere().limiter(sb)
	s.limits = lim
	prlimit, _ := exec.LookPath("prlimit")
	if prlimit != "" {
		// The cgroup's memory limit replaces RLIMIT_DATA, which counts
		// address space a process reserves rather than memory it uses.
		rl := []string{prlimit}
		if lim == nil || !lim.memory {
			rl = append(rl, "--data="+strconv.Itoa(sb.MaxMemoryMB<<20))
		}
		args = append(append(rl, "--nproc="+strconv.Itoa(ownTasks()+sb.MaxProcesses), "--"), args...)
	}
	s.prefix = args
	s.info.LimitsBy, s.info.Limits = describeLimits(sb, lim.in(why, prlimit != ""))
	return s, nil
}

// in is what describeLimits needs to know of l (nil: no cgroup, for the
// reason why).
func (l *limiter) in(why error, rlimits bool) limitsIn {
	in := limitsIn{why: why, rlimits: rlimits, root: os.Geteuid() == 0}
	if l != nil {
		in.cgroup, in.memory, in.noSwap = l.kind, l.memory, l.noSwap
	}
	return in
}

// contain puts one command in a cgroup of its own when the Run has a
// limiter: the argv prefix that joins it (v1) or the open cgroup to start
// the command in (v2), and what removes it, saying what the limits
// stopped.
func (s *sandboxed) contain() (join []string, cgroupFD int, done func() string, err error) {
	if s.limits == nil {
		return nil, 0, func() string { return "" }, nil
	}
	c, err := s.limits.start()
	if err != nil {
		return nil, 0, nil, err
	}
	fd := 0
	if c.fd > 0 {
		fd = c.fd
	}
	return c.joinArgv(), fd, func() string {
		v := c.verdict()
		c.remove()
		return v
	}, nil
}

// CheckLimits says how a sandboxed verify command would be limited here
// with sb.
func CheckLimits(sb Sandbox) Limits {
	sb = sb.withDefaults()
	lim, why := cgroupsHere().limiter(sb)
	_, err := exec.LookPath("prlimit")
	in := lim.in(why, err == nil)
	l := Limits{}
	l.By, l.Line = describeLimits(sb, in)
	switch {
	case in.cgroup != "":
	case !in.rlimits:
		l.Unbound, l.Fix = "prlimit (util-linux) is not installed, and no cgroup is writable ("+why.Error()+")", "install util-linux, and "+delegateFix
	case in.root:
		l.Unbound, l.Fix = "agentfix runs as root, which RLIMIT_NPROC does not bind, and no cgroup is writable ("+why.Error()+")", delegateFix
	}
	return l
}

// CheckSandbox says whether bubblewrap, found on path, can sandbox
// commands here: nil, or an *UnavailableError with the reason and the fix.
func CheckSandbox(path string) error {
	bwrap, err := findBwrap("", path)
	if err != nil {
		return err
	}
	return probe(bwrap)
}

// findBwrap is the bubblewrap program: given, or bwrap on path.
func findBwrap(given, path string) (string, error) {
	if given != "" {
		if _, err := os.Stat(given); err != nil {
			return "", &UnavailableError{Reason: "bubblewrap is not installed (" + given + " does not exist)", Fix: bwrapInstall}
		}
		return given, nil
	}
	if p := lookPathIn("bwrap", path); p != "" {
		return p, nil
	}
	return "", &UnavailableError{Reason: "bubblewrap (bwrap) is not installed or not on PATH", Fix: bwrapInstall}
}

const bwrapInstall = "install it: sudo apt-get install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora)"

var probes sync.Map // bwrap path -> error (nil when it works)

// probe runs true in a sandbox like the real ones once per bwrap, and
// explains a failure.
func probe(bwrap string) error {
	if v, ok := probes.Load(bwrap); ok {
		err, _ := v.(error)
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bwrap, "--unshare-all", "--die-with-parent", "--new-session",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--", "true")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var err error
	if runErr := cmd.Run(); runErr != nil {
		err = diagnose(strings.TrimSpace(stderr.String()), runErr)
	}
	probes.Store(bwrap, err)
	return err
}

// diagnose turns a failed probe into a reason and a fix.
func diagnose(stderr string, runErr error) error {
	said := stderr
	if said == "" {
		said = runErr.Error()
	}
	if readSysctl("kernel/apparmor_restrict_unprivileged_userns") == "1" {
		return &UnavailableError{
			Reason: "AppArmor restricts unprivileged user namespaces here (Ubuntu 23.10 and later): bwrap said " + strconvQuote(said),
			Fix:    "allow bwrap with an AppArmor profile (/etc/apparmor.d/bwrap: `abi <abi/4.0>, include <tunables/global>, profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then sudo systemctl reload apparmor) or sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0",
		}
	}
	if readSysctl("kernel/unprivileged_userns_clone") == "0" || readSysctl("user/max_user_namespaces") == "0" {
		return &UnavailableError{
			Reason: "unprivileged user namespaces are disabled: bwrap said " + strconvQuote(said),
			Fix:    "enable them: sudo sysctl kernel.unprivileged_userns_clone=1 user.max_user_namespaces=15000 (and in /etc/sysctl.d to keep it)",
		}
	}
	var ee *exec.ExitError
	if !errors.As(runErr, &ee) {
		return &UnavailableError{Reason: "bwrap could not be started: " + said, Fix: bwrapInstall}
	}
	return &UnavailableError{Reason: "bwrap cannot create a sandbox here: " + strconvQuote(said), Fix: "run agentfix doctor on the runner; inside a container, allow user namespaces (e.g. --security-opt seccomp=unconfined) or set verify.sandbox: off knowingly"}
}

func readSysctl(name string) string {
	b, err := os.ReadFile("/proc/sys/" + name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// ownTasks counts the processes and threads of this user: RLIMIT_NPROC
// counts them all, so the limit is what already runs plus the budget.
func ownTasks() int {
	uid := strconv.Itoa(os.Getuid())
	n := 0
	entries, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil {
			continue
		}
		var owner bool
		threads := 0
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Uid:"); ok {
				f := strings.Fields(v)
				owner = len(f) > 0 && f[0] == uid
			}
			if v, ok := strings.CutPrefix(l, "Threads:"); ok {
				threads, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if owner {
			n += threads
		}
	}
	return n
}
