// Package config is agentfix's one configuration type and how it is filled:
// built-in defaults, the repository file (.github/agent-fix.yml), the
// environment, action inputs (INPUT_*), then command-line flags, each layer
// overriding the one before. Parse is strict: unknown keys, wrong types and
// invalid values are all reported together with file, line and column.
package config

import (
	"fmt"
	"time"
)

// DefaultPath is where the repository's config file lives unless --config or
// the action input `config` names another.
const DefaultPath = ".github/agent-fix.yml"

// Config is the effective configuration of one run.
type Config struct {
	// Model is the Ollama model that plans and writes patches.
	Model    string   `yaml:"model"`
	Ollama   Ollama   `yaml:"ollama"`
	Verify   Verify   `yaml:"verify"`
	Limits   Limits   `yaml:"limits"`
	Paths    Paths    `yaml:"paths"`
	Triggers Triggers `yaml:"triggers"`
	Task     Task     `yaml:"task"`
	PR       PR       `yaml:"pr"`
	Reviewer Reviewer `yaml:"reviewer"`
}

// Ollama is how to reach the model server.
type Ollama struct {
	// Host is the server URL; OLLAMA_HOST's short forms (host:port) are accepted.
	Host string `yaml:"host"`
	// Timeout bounds one model request.
	Timeout Duration `yaml:"timeout"`
	// NumCtx is the context window to ask for; 0 chooses it from the packed
	// prompt and the model's context length.
	NumCtx int `yaml:"num_ctx"`
}

// Verify is what proves a fix.
type Verify struct {
	// Commands run in order; all must pass. Empty: detected from the repo.
	Commands []string `yaml:"commands"`
	// Allow extends the built-in allowlist with command prefixes.
	Allow []string `yaml:"allow"`
	// Timeout bounds each command; the whole process group is killed after it.
	Timeout Duration `yaml:"timeout"`
	// FlakyReruns is how many times a failure is re-run to tell flaky from broken.
	FlakyReruns int `yaml:"flaky_reruns"`
	// EnvPassthrough names variables passed to the commands, like NAME
	// entries of Env (the older key, kept).
	EnvPassthrough []string `yaml:"env_passthrough"`
	// Proof is what proves a fix of a task given as text when the
	// commands pass before any change: "test" (a test that fails on the
	// unfixed code and passes with the fix) or "checks" (the commands
	// passing is enough).
	Proof string `yaml:"proof"`
	// TestPaths are the globs of test files; empty: detected from the
	// commands' test runners.
	TestPaths []string `yaml:"test_paths"`
	// Env adds to the commands' allow-listed environment: NAME passes the
	// variable from agentfix's environment, NAME=value sets it.
	Env []string `yaml:"env"`
	// Sandbox is auto (bubblewrap where it works), required or off.
	Sandbox string `yaml:"sandbox"`
	// Network lets the commands reach the network (off by default).
	Network bool `yaml:"network"`
	// Readable and Writable are extra host paths for the commands
	// (absolute, or ~/ for the home directory).
	Readable []string `yaml:"readable"`
	Writable []string `yaml:"writable"`
	// MaxMemoryMB bounds a command's memory and MaxProcesses its
	// processes and threads: the whole command's in its cgroup, else each
	// process's data and the user's processes (rlimits).
	MaxMemoryMB  int `yaml:"max_memory_mb"`
	MaxProcesses int `yaml:"max_processes"`
}

// Sandbox modes of verify.sandbox.
const (
	SandboxAuto     = "auto"
	SandboxRequired = "required"
	SandboxOff      = "off"
)

// Limits are the budgets of one run and one patch.
type Limits struct {
	MaxRounds       int      `yaml:"max_rounds"`
	MaxFiles        int      `yaml:"max_files"`
	MaxChangedLines int      `yaml:"max_changed_lines"`
	WallTime        Duration `yaml:"wall_time"`
	// MaxRevisions bounds the revisions agentfix makes to one pull request
	// in answer to reviews, so that a bot reviewer and agentfix cannot
	// ping-pong forever.
	MaxRevisions int `yaml:"max_revisions"`
}

// Paths says which files a patch may touch (doublestar globs, relative to
// the repository root).
type Paths struct {
	Allow []string `yaml:"allow"`
	Deny  []string `yaml:"deny"`
	// AllowDelete lets a patch delete files.
	AllowDelete bool `yaml:"allow_delete"`
	// AllowRename lets a patch rename files.
	AllowRename bool `yaml:"allow_rename"`
}

// Triggers says who and what may start agentfix in GitHub Actions.
type Triggers struct {
	Label      string   `yaml:"label"`
	Command    string   `yaml:"command"`
	AllowForks bool     `yaml:"allow_forks"`
	AllowBots  []string `yaml:"allow_bots"`
}

// Task says what of an issue becomes the model's task: its title and
// body, and the comments of people with write permission (and of
// CommentAuthors) written before the trigger.
type Task struct {
	// MaxBytes caps the task text; longer text is cut, and the status
	// comment says so.
	MaxBytes int `yaml:"max_bytes"`
	// CommentAuthors are logins whose comments count although they lack
	// write permission (a bot that posts reproductions, say).
	CommentAuthors []string `yaml:"comment_authors"`
}

// PR shapes the pull requests agentfix opens.
type PR struct {
	BranchPrefix string   `yaml:"branch_prefix"`
	Draft        bool     `yaml:"draft"`
	Labels       []string `yaml:"labels"`
	// OnUnverified is what happens to a fix that did not pass verification:
	// comment (the diff goes into the status comment), draft (a draft PR), none.
	OnUnverified string `yaml:"on_unverified"`
	// OnUnproven is what happens to a change that passes the verify
	// commands when no test proves it: comment, draft (a draft PR that
	// does not close the issue) or none.
	OnUnproven string `yaml:"on_unproven"`
}

// Reviewer is an optional second model that reads the final diff.
type Reviewer struct {
	Model string `yaml:"model"`
}

// OnUnverified values.
const (
	OnUnverifiedComment = "comment"
	OnUnverifiedDraft   = "draft"
	OnUnverifiedNone    = "none"
)

// Proof values.
const (
	ProofTest   = "test"
	ProofChecks = "checks"
)

// Default returns the built-in configuration.
func Default() *Config {
	return &Config{
		Model:  "qwen2.5-coder:14b",
		Ollama: Ollama{Host: "http://127.0.0.1:11434", Timeout: Duration(10 * time.Minute)},
		Verify: Verify{
			Timeout:      Duration(15 * time.Minute),
			FlakyReruns:  1,
			Proof:        ProofTest,
			Sandbox:      SandboxAuto,
			MaxMemoryMB:  4096,
			MaxProcesses: 1024,
		},
		Limits: Limits{MaxRounds: 5, MaxFiles: 10, MaxChangedLines: 400, WallTime: Duration(45 * time.Minute), MaxRevisions: 5},
		Paths: Paths{
			Allow: []string{"**"},
			Deny:  []string{".github/workflows/**", "**/*.pem", "**/.env*"},
		},
		Triggers: Triggers{Label: "agent-fix", Command: "/agent"},
		Task:     Task{MaxBytes: 8000},
		PR:       PR{BranchPrefix: "agent-fix/", Labels: []string{"agent-fix"}, OnUnverified: OnUnverifiedComment, OnUnproven: OnUnverifiedComment},
	}
}

// Duration is a time.Duration written as Go duration text ("10m", "1h30m").
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats d the way it would be written in the file.
func (d Duration) String() string {
	s := time.Duration(d).String()
	// time.Duration prints 10m0s; the file reads better as 10m.
	if len(s) > 2 && s[len(s)-2:] == "0s" && s != "0s" {
		s = s[:len(s)-2]
	}
	if len(s) > 2 && s[len(s)-2:] == "h0m" {
		s = s[:len(s)-2]
	}
	return s
}

// MarshalYAML writes d as text.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// MarshalText writes d as text (for JSON).
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// ParseDuration parses s as a non-negative Go duration.
func ParseDuration(s string) (Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (write it like 90s, 10m or 1h30m)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return Duration(d), nil
}
