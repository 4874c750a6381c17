package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sandbox modes (verify.sandbox).
const (
	// SandboxAuto sandboxes every command where bubblewrap works and says
	// plainly when it does not.
	SandboxAuto = "auto"
	// SandboxRequired refuses to run a command unsandboxed.
	SandboxRequired = "required"
	// SandboxOff runs commands directly, with the environment allow-list,
	// process group, timeout and output cap only.
	SandboxOff = "off"
)

// Default limits of a sandboxed command.
const (
	DefaultMaxMemoryMB  = 4096
	DefaultMaxProcesses = 1024
)

// Limit mechanisms, as SandboxInfo.LimitsBy names them.
const (
	LimitsCgroupV2 = "cgroup v2"
	LimitsCgroupV1 = "cgroup v1"
	LimitsRlimits  = "rlimits"
)

// Sandbox says how verify commands are contained (verify.sandbox and its
// neighbours in the config).
type Sandbox struct {
	// Mode is SandboxAuto (the zero value), SandboxRequired or SandboxOff.
	Mode string
	// Network keeps the host's network; by default a command gets a network
	// namespace of its own, with nothing in it but loopback.
	Network bool
	// Readable and Writable are extra host paths the command may read, or
	// read and write (absolute, or ~/ for the home directory).
	Readable, Writable []string
	// MaxMemoryMB bounds the memory of the whole command (a cgroup), or
	// else each process's data (RLIMIT_DATA); MaxProcesses bounds the
	// processes and threads of the command (a cgroup), or else those it
	// may add (RLIMIT_NPROC, which does not bind root).
	MaxMemoryMB, MaxProcesses int
	// Bwrap is the bubblewrap program; "" looks bwrap up on the PATH of
	// Options.Environ.
	Bwrap string
}

// SandboxInfo says, in the report, how the commands were contained.
type SandboxInfo struct {
	// Enabled is true when the commands ran under bubblewrap.
	Enabled bool `json:"enabled"`
	// Network is true when the commands could reach the network.
	Network bool `json:"network"`
	// Limits says which resource limits applied ("" when none).
	Limits string `json:"limits,omitempty"`
	// LimitsBy is how they were applied: "cgroup v2", "cgroup v1" or
	// "rlimits" ("" when none).
	LimitsBy string `json:"limits_by,omitempty"`
	// Reason says why the commands were not sandboxed.
	Reason string `json:"reason,omitempty"`
}

// Describe is one line for a log, a step summary or a PR body.
func (s *SandboxInfo) Describe() string {
	switch {
	case s == nil:
		return ""
	case !s.Enabled:
		return "the verify commands ran WITHOUT a sandbox: " + s.Reason
	}
	limits := ""
	if s.Limits != "" {
		limits = "; " + s.Limits
	}
	if s.Network {
		return "the verify commands ran in a bubblewrap sandbox WITH network access (verify.network: true" + limits + ")"
	}
	return "the verify commands ran in a bubblewrap sandbox (no network, read-only system and .git, throwaway home and /tmp" + limits + ")"
}

// UnavailableError says why bubblewrap cannot sandbox commands here, and
// what to do about it.
type UnavailableError struct {
	Reason string
	Fix    string
}

func (e *UnavailableError) Error() string {
	if e.Fix == "" {
		return "the sandbox is unavailable: " + e.Reason
	}
	return "the sandbox is unavailable: " + e.Reason + "; " + e.Fix
}

// mounts are the bubblewrap arguments that lay out a command's view of the
// file system. Order matters: bubblewrap applies them in turn, so the
// hidden places come before what is put back inside them.
type mounts struct {
	root    string // the work tree
	home    string // the real home directory ("" when none)
	hide    []string
	ro, rw  []string
	gitconf string // the credential-free copy of .git/config, "" when none
}

// layout decides the file system of a command run in dir: the whole system
// read-only; /tmp, /run, the home directory, RUNNER_TEMP and a self-hosted
// runner's own directory replaced by empty ones; the toolchains and
// caches put back; the work tree writable; its .git read-only, with a
// configuration that shows no credentials.
func layout(dir string, env map[string]string, sb Sandbox) *mounts {
	m := &mounts{root: workTree(dir)}
	m.hide = []string{"/tmp", "/run"}
	if h := env["HOME"]; h != "" && h != "/" && isDir(h) {
		m.home = filepath.Clean(h)
		m.hide = append(m.hide, m.home)
	}
	if t := env["RUNNER_TEMP"]; t != "" && isDir(t) {
		m.hide = append(m.hide, filepath.Clean(t))
	}
	if r := runnerRoot(m.root); r != "" {
		m.hide = append(m.hide, r)
	}
	if sb.Network && isDir("/run/systemd/resolve") {
		m.ro = append(m.ro, "/run/systemd/resolve")
	}
	ro, rw := toolchainPaths(env, m.home)
	m.ro = append(append(m.ro, ro...), expandAll(sb.Readable, m.home)...)
	m.rw = append(append(rw, expandAll(sb.Writable, m.home)...), m.root)
	return m
}

// args are the bubblewrap arguments of m.
func (m *mounts) args() []string {
	a := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	for _, p := range byDepth(m.hide) {
		a = append(a, "--tmpfs", p)
	}
	for _, p := range byDepth(m.ro) {
		a = append(a, "--ro-bind-try", p, p)
	}
	for _, p := range byDepth(m.rw) {
		a = append(a, "--bind-try", p, p)
	}
	git := filepath.Join(m.root, ".git")
	if _, err := os.Lstat(git); err == nil {
		a = append(a, "--ro-bind", git, git)
	}
	if m.gitconf != "" {
		a = append(a, "--ro-bind", m.gitconf, filepath.Join(git, "config"))
	}
	return a
}

// workTree is the top of the git work tree holding dir, or dir itself.
func workTree(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// runnerRoot is the directory of a self-hosted Actions runner that holds
// the work tree (it has the runner's .credentials and .runner files), or "".
func runnerRoot(root string) string {
	for d := filepath.Dir(root); filepath.Dir(d) != d; d = filepath.Dir(d) {
		for _, f := range []string{".runner", ".credentials"} {
			if _, err := os.Lstat(filepath.Join(d, f)); err == nil {
				return d
			}
		}
	}
	return ""
}

// toolchainPaths are what the toolchains need of the home directory and
// elsewhere: read-only, the PATH entries under home (each top directory:
// ~/go, ~/.cargo, ~/.pyenv, ...), the Go module cache, the pip cache and
// rustup; writable, the Go build cache and the npm cache, which the tools
// write as they run.
func toolchainPaths(env map[string]string, home string) (ro, rw []string) {
	under := func(p string) bool { return home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) }
	for _, p := range filepath.SplitList(env["PATH"]) {
		if !filepath.IsAbs(p) || !under(p) {
			continue
		}
		rel, _ := filepath.Rel(home, p)
		top, _, _ := strings.Cut(rel, string(filepath.Separator))
		if top == ".local" {
			ro = append(ro, filepath.Join(home, ".local", "bin"), filepath.Join(home, ".local", "lib"))
			continue
		}
		ro = append(ro, filepath.Join(home, top))
	}
	pick := func(name, fallback string) string {
		if v := env[name]; filepath.IsAbs(v) {
			return v
		}
		if home == "" || fallback == "" {
			return ""
		}
		return filepath.Join(home, fallback)
	}
	cache := pick("XDG_CACHE_HOME", ".cache")
	gopath := ""
	if gp := filepath.SplitList(env["GOPATH"]); len(gp) > 0 && filepath.IsAbs(gp[0]) {
		gopath = gp[0]
	} else if home != "" {
		gopath = filepath.Join(home, "go")
	}
	if v := pick("GOMODCACHE", ""); v != "" {
		ro = append(ro, v)
	} else if gopath != "" {
		ro = append(ro, filepath.Join(gopath, "pkg", "mod"))
	}
	if v := pick("GOCACHE", ""); v != "" {
		rw = append(rw, v)
	} else if cache != "" {
		rw = append(rw, filepath.Join(cache, "go-build"))
	}
	ro = append(ro, pick("PIP_CACHE_DIR", ""), pick("RUSTUP_HOME", ".rustup"), pick("CARGO_HOME", ".cargo"), pick("PYENV_ROOT", ".pyenv"), pick("NVM_DIR", ".nvm"))
	if cache != "" && env["PIP_CACHE_DIR"] == "" {
		ro = append(ro, filepath.Join(cache, "pip"))
	}
	rw = append(rw, pick("npm_config_cache", ".npm"))
	return nonEmpty(ro), nonEmpty(rw)
}

// expandAll makes paths absolute: ~/ is the home directory.
func expandAll(paths []string, home string) []string {
	var out []string
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home == "" {
				continue
			}
			p = filepath.Join(home, rest)
		}
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// byDepth sorts paths parents first, so a mount inside another comes after
// it, and drops duplicates.
func byDepth(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	depth := func(p string) int { return strings.Count(p, string(filepath.Separator)) }
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && depth(out[j]) < depth(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// cleanGitConfig is .git/config without what could authenticate: any
// extraheader (actions/checkout persists the token as one), the
// [credential] sections, and [include]/[includeIf] sections, which may
// point at a file holding either.
func cleanGitConfig(conf string) string {
	var b strings.Builder
	skip := false
	for _, line := range strings.SplitAfter(conf, "\n") {
		t := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(t, "[") {
			name := strings.TrimLeft(t, "[ \t")
			skip = strings.HasPrefix(name, "credential") || strings.HasPrefix(name, "include")
		}
		if skip || strings.Contains(t, "extraheader") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// lookPathIn is the executable file name in the directories of path, or "".
func lookPathIn(name, path string) string {
	if strings.Contains(name, "/") {
		if st, err := os.Stat(name); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return name
		}
		return ""
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// withDefaults fills the zero values.
func (sb Sandbox) withDefaults() Sandbox {
	if sb.Mode == "" {
		sb.Mode = SandboxAuto
	}
	if sb.MaxMemoryMB <= 0 {
		sb.MaxMemoryMB = DefaultMaxMemoryMB
	}
	if sb.MaxProcesses <= 0 {
		sb.MaxProcesses = DefaultMaxProcesses
	}
	return sb
}

// Limits is how a sandboxed verify command would be limited here.
type Limits struct {
	// By is LimitsCgroupV2, LimitsCgroupV1, LimitsRlimits, or "" for none.
	By string
	// Line is what a run reports (SandboxInfo.Limits).
	Line string
	// Unbound says why no process limit binds the command ("" when one
	// does), and Fix what gives it one.
	Unbound, Fix string
}

// limitsIn is how a command is limited here, for describeLimits.
type limitsIn struct {
	cgroup  string // LimitsCgroupV2, LimitsCgroupV1, or "" when none
	memory  bool   // the cgroup limits memory too
	noSwap  bool   // and swap
	why     error  // why there is no cgroup
	rlimits bool   // prlimit sets the rlimits
	root    bool   // agentfix runs as root
}

// delegateFix is how a runner gets a cgroup agentfix can limit commands in.
const delegateFix = "run the runner as an unprivileged user (RLIMIT_NPROC binds it), or give agentfix a writable cgroup: run the runner as root on cgroup v1, or delegate a cgroup v2 subtree with the pids and memory controllers to the runner's user (systemd: Delegate=yes on the runner service)"

// describeLimits is the mechanism and the limits line of SandboxInfo. A
// cgroup limits the whole command; rlimits each process. RLIMIT_NPROC does
// not bind root (the kernel exempts uid 0 whatever the namespace), so a
// root runner without a cgroup is told it has no process limit rather
// than a limit it lacks.
func describeLimits(sb Sandbox, in limitsIn) (by, line string) {
	why := ""
	if in.why != nil {
		why = " (no cgroup: " + in.why.Error() + ")"
	}
	switch {
	case in.cgroup != "" && in.memory:
		swap := ""
		if in.noSwap {
			swap = ", without swap,"
		}
		return in.cgroup, fmt.Sprintf("at most %d MiB of memory%s and %d processes and threads for the whole command (%s)", sb.MaxMemoryMB, swap, sb.MaxProcesses, in.cgroup)
	case in.cgroup != "" && in.rlimits:
		return in.cgroup, fmt.Sprintf("at most %d processes and threads for the whole command (%s, which has no memory controller here) and %d MiB of data per process (rlimits)", sb.MaxProcesses, in.cgroup, sb.MaxMemoryMB)
	case in.cgroup != "":
		return in.cgroup, fmt.Sprintf("at most %d processes and threads for the whole command (%s); NO memory limit: the cgroup has no memory controller and prlimit (util-linux) is not installed", sb.MaxProcesses, in.cgroup)
	case !in.rlimits:
		return "", "NO memory or process limit: prlimit (util-linux) is not installed" + why + "; install util-linux, and " + delegateFix
	case in.root:
		return LimitsRlimits, fmt.Sprintf("at most %d MiB of data per process (rlimits); NO process limit: RLIMIT_NPROC does not bind root%s; %s", sb.MaxMemoryMB, why, delegateFix)
	}
	return LimitsRlimits, fmt.Sprintf("at most %d MiB of data per process and %d more processes (rlimits)%s", sb.MaxMemoryMB, sb.MaxProcesses, why)
}
