package config

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/agentfix/agentfix/internal/verify"
)

// Validate checks the values of cfg, reporting every problem at once. Values
// that came from a file are located with src.
func Validate(cfg *Config, src Sources) error {
	var probs []Problem
	bad := func(key, format string, args ...any) {
		p := Problem{Key: key, Msg: fmt.Sprintf(format, args...)}
		locate(&p, src)
		probs = append(probs, p)
	}

	if strings.TrimSpace(cfg.Model) == "" {
		bad("model", "must name an Ollama model, e.g. qwen2.5-coder:14b")
	}
	if _, err := NormalizeHost(cfg.Ollama.Host); err != nil {
		bad("ollama.host", "%v", err)
	}
	positive := func(key string, v int64, what string) {
		if v <= 0 {
			bad(key, "must be greater than zero (%s)", what)
		}
	}
	positive("ollama.timeout", int64(cfg.Ollama.Timeout), "how long one model request may take")
	positive("verify.timeout", int64(cfg.Verify.Timeout), "how long one verify command may run")
	positive("limits.max_rounds", int64(cfg.Limits.MaxRounds), "rounds of patch and verify")
	positive("limits.max_files", int64(cfg.Limits.MaxFiles), "files one patch may touch")
	positive("limits.max_changed_lines", int64(cfg.Limits.MaxChangedLines), "lines one patch may change")
	positive("limits.wall_time", int64(cfg.Limits.WallTime), "time for the whole run")
	positive("limits.max_revisions", int64(cfg.Limits.MaxRevisions), "revisions of one pull request")

	for i, a := range cfg.Verify.Allow {
		if _, err := verify.Split(a); err != nil {
			bad(fmt.Sprintf("verify.allow[%d]", i), "%v", err)
		}
	}
	for i, c := range cfg.Verify.Commands {
		if _, err := verify.ParseCommand(c, cfg.Verify.Allow); err != nil {
			bad(fmt.Sprintf("verify.commands[%d]", i), "%v", err)
		}
	}
	for i, name := range cfg.Verify.EnvPassthrough {
		if !envName.MatchString(name) {
			bad(fmt.Sprintf("verify.env_passthrough[%d]", i), "%q is not an environment variable name", name)
		} else if p := verify.CheckEnvEntry(name); p != "" {
			bad(fmt.Sprintf("verify.env_passthrough[%d]", i), "%s", p)
		}
	}
	switch cfg.Verify.Proof {
	case ProofTest, ProofChecks:
	default:
		bad("verify.proof", "%q must be test (a failing test reproduces the issue first) or checks (the commands passing is enough)", cfg.Verify.Proof)
	}
	for i, e := range cfg.Verify.Env {
		if p := verify.CheckEnvEntry(e); p != "" {
			bad(fmt.Sprintf("verify.env[%d]", i), "%s", p)
		}
	}
	switch cfg.Verify.Sandbox {
	case SandboxAuto, SandboxRequired, SandboxOff:
	default:
		bad("verify.sandbox", "%q must be one of auto, required, off", cfg.Verify.Sandbox)
	}
	for _, g := range []struct {
		key   string
		paths []string
	}{{"verify.readable", cfg.Verify.Readable}, {"verify.writable", cfg.Verify.Writable}} {
		for i, p := range g.paths {
			if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") {
				bad(fmt.Sprintf("%s[%d]", g.key, i), "%q must be an absolute path or start with ~/ (the home directory)", p)
			}
		}
	}
	positive("verify.max_memory_mb", int64(cfg.Verify.MaxMemoryMB), "MiB of memory a verify command may use")
	positive("verify.max_processes", int64(cfg.Verify.MaxProcesses), "processes a verify command may run")
	for _, g := range []struct {
		key   string
		globs []string
	}{{"paths.allow", cfg.Paths.Allow}, {"paths.deny", cfg.Paths.Deny}, {"verify.test_paths", cfg.Verify.TestPaths}} {
		for i, pat := range g.globs {
			if !doublestar.ValidatePattern(pat) || strings.HasPrefix(pat, "/") {
				bad(fmt.Sprintf("%s[%d]", g.key, i), "%q is not a valid glob relative to the repository root (e.g. src/**/*.go)", pat)
			}
		}
	}

	if strings.TrimSpace(cfg.Triggers.Label) == "" {
		bad("triggers.label", "must not be empty")
	}
	if !command.MatchString(cfg.Triggers.Command) {
		bad("triggers.command", "%q must be a slash and a word, like /agent", cfg.Triggers.Command)
	}
	for i, b := range cfg.Triggers.AllowBots {
		if strings.TrimSpace(b) == "" {
			bad(fmt.Sprintf("triggers.allow_bots[%d]", i), "must be a bot's exact login, e.g. dependabot[bot]")
		}
	}
	if cfg.Task.MaxBytes < 500 {
		bad("task.max_bytes", "%d is too small to hold an issue; use at least 500", cfg.Task.MaxBytes)
	}
	for i, a := range cfg.Task.CommentAuthors {
		if strings.TrimSpace(a) == "" || strings.ContainsAny(a, " @/") {
			bad(fmt.Sprintf("task.comment_authors[%d]", i), "%q must be a login as GitHub shows it, without @, e.g. ci-helper[bot]", a)
		}
	}
	if !branchPrefix.MatchString(cfg.PR.BranchPrefix) || strings.Contains(cfg.PR.BranchPrefix, "..") {
		bad("pr.branch_prefix", "%q is not usable as the start of a git branch name (e.g. agent-fix/)", cfg.PR.BranchPrefix)
	}
	for _, o := range [][2]string{{"pr.on_unverified", cfg.PR.OnUnverified}, {"pr.on_unproven", cfg.PR.OnUnproven}} {
		switch o[1] {
		case OnUnverifiedComment, OnUnverifiedDraft, OnUnverifiedNone:
		default:
			bad(o[0], "%q must be one of comment, draft, none", o[1])
		}
	}
	for i, l := range cfg.PR.Labels {
		if strings.TrimSpace(l) == "" {
			bad(fmt.Sprintf("pr.labels[%d]", i), "must not be empty")
		}
	}

	if len(probs) > 0 {
		sortProblems(probs)
		return &Error{Problems: probs}
	}
	return nil
}

// sortProblems puts problems in file order, which reads best; problems not
// from the file come last.
func sortProblems(probs []Problem) {
	sort.SliceStable(probs, func(i, j int) bool {
		a, b := probs[i], probs[j]
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line == 0
		}
		return a.Line < b.Line
	})
}

var (
	envName      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	command      = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_-]*$`)
	branchPrefix = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*$`)
)

// locate fills the file and line of p from where its key was set. A key
// like verify.commands[2] is located by its list.
func locate(p *Problem, src Sources) {
	where, ok := src[p.Key]
	if !ok {
		key, _, _ := strings.Cut(p.Key, "[")
		if where, ok = src[key]; !ok {
			return
		}
	}
	// A file location is FILE:LINE:COL.
	parts := strings.Split(where, ":")
	if n := len(parts); n >= 3 {
		line, err1 := strconv.Atoi(parts[n-2])
		col, err2 := strconv.Atoi(parts[n-1])
		if err1 == nil && err2 == nil {
			p.File, p.Line, p.Col = strings.Join(parts[:n-2], ":"), line, col
			return
		}
	}
	if where != "default" {
		p.Msg += " (set by " + where + ")"
	}
}

// NormalizeHost turns an Ollama host as users write it (OLLAMA_HOST accepts
// "host", "host:port" and full URLs) into a base URL with scheme and port.
func NormalizeHost(host string) (string, error) {
	h := strings.TrimSpace(host)
	if h == "" {
		return "", fmt.Errorf("is empty; set it to the Ollama server, e.g. http://127.0.0.1:11434")
	}
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	u, err := url.Parse(h)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) URL of an Ollama server, e.g. http://127.0.0.1:11434", host)
	}
	if u.Port() == "" {
		port := "11434"
		if strings.Contains(host, "://") {
			port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
		u.Host = u.Hostname() + ":" + port
		if strings.Contains(u.Hostname(), ":") {
			u.Host = "[" + u.Hostname() + "]:" + port
		}
	}
	return strings.TrimRight(u.String(), "/"), nil
}
