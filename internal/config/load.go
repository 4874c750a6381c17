package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Flags are the command-line values that override everything else. A zero
// value means the flag was not given.
type Flags struct {
	Config     string
	Model      string
	OllamaHost string
	TestCmd    string
	MaxRounds  int
}

// LoadOptions says where to read the layers from.
type LoadOptions struct {
	// RepoDir is the repository root; the default config path and verify
	// command detection are relative to it.
	RepoDir string
	// Getenv reads the environment (variables and INPUT_* action inputs).
	Getenv func(string) string
	Flags  Flags
	// NeedVerify makes an empty verify.commands that cannot be detected
	// from the repository an error.
	NeedVerify bool
}

// Load builds the effective configuration: defaults, then the config file,
// then the environment, then action inputs, then flags. It validates the
// result and returns where every value came from.
func Load(opts LoadOptions) (*Config, Sources, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	cfg := Default()
	src := Sources{}
	for _, k := range Keys() {
		src[k] = "default"
	}

	path, explicit, how := opts.Flags.Config, true, "flag --config"
	if path == "" {
		path, how = input(getenv, "config"), "input config"
	}
	if path == "" {
		path, explicit = DefaultPath, false
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(opts.RepoDir, path)
	}
	shown, relative := path, "" // the name problems are reported under
	if !filepath.IsAbs(path) && filepath.Clean(path) != DefaultPath {
		// A relative --config is read from the repository, not the
		// current directory: say which file that was.
		shown, relative = full, fmt.Sprintf("; %s is read from the repository root (%s), not the current directory", path, opts.RepoDir)
	}
	// Every problem is reported at once: the file's, the overrides' and
	// the values'; only a file that is not YAML at all stops here.
	var probs []Problem
	data, err := os.ReadFile(full)
	switch {
	case err == nil:
		fileProbs, syntax := parse(shown, data, cfg, src)
		if syntax {
			return nil, nil, &Error{Problems: fileProbs}
		}
		probs = fileProbs
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		// No file: defaults are enough.
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, &Error{Problems: []Problem{{File: shown, Msg: fmt.Sprintf("does not exist (named by %s)%s; create it or fix the path", how, relative)}}}
	default:
		return nil, nil, &Error{Problems: []Problem{{File: shown, Msg: fmt.Sprintf("cannot be read: %v", err)}}}
	}

	set := func(key, from, value string) {
		if value == "" {
			return
		}
		if err := setKey(cfg, key, value); err != nil {
			probs = append(probs, Problem{Key: key, Msg: fmt.Sprintf("%v (set by %s)", err, from)})
			return
		}
		src[key] = from
	}
	for _, e := range envVars {
		set(e.key, "env "+e.name, getenv(e.name))
	}
	for _, in := range inputs {
		set(in.key, "input "+in.name, input(getenv, in.name))
	}
	set("model", "flag --model", opts.Flags.Model)
	set("ollama.host", "flag --ollama-host", opts.Flags.OllamaHost)
	set("verify.commands", "flag --test-cmd", opts.Flags.TestCmd)
	if opts.Flags.MaxRounds != 0 {
		set("limits.max_rounds", "flag --max-rounds", strconv.Itoa(opts.Flags.MaxRounds))
	}
	if len(cfg.Verify.Commands) == 0 {
		cmd, marker := DetectVerify(opts.RepoDir)
		switch {
		case cmd != "":
			cfg.Verify.Commands = []string{cmd}
			src["verify.commands"] = "detected from " + marker
		case opts.NeedVerify:
			probs = append(probs, Problem{Key: "verify.commands", Msg: "is empty and " + NoVerifyHint(opts.RepoDir, DefaultPath+", the test-command input, or --test-cmd")})
		}
	}
	var verr *Error
	if err := Validate(cfg, src); errors.As(err, &verr) {
		// A key already reported (not a number, say) kept its default;
		// what Validate says of that default is noise.
		for _, p := range verr.Problems {
			if !reported(probs, p.Key) {
				probs = append(probs, p)
			}
		}
	}
	if len(probs) > 0 {
		sortProblems(probs)
		return nil, nil, &Error{Problems: probs}
	}
	cfg.Ollama.Host, _ = NormalizeHost(cfg.Ollama.Host)
	return cfg, src, nil
}

// envVars are the environment variables agentfix reads, and their keys.
var envVars = []struct{ name, key string }{
	{"OLLAMA_HOST", "ollama.host"},
	{"AGENTFIX_MODEL", "model"},
	{"AGENTFIX_REVIEWER_MODEL", "reviewer.model"},
	{"AGENTFIX_TEST_COMMAND", "verify.commands"},
	{"AGENTFIX_MAX_ROUNDS", "limits.max_rounds"},
}

// inputs are the action inputs that are config values.
var inputs = []struct{ name, key string }{
	{"ollama-host", "ollama.host"},
	{"model", "model"},
	{"test-command", "verify.commands"},
	{"max-rounds", "limits.max_rounds"},
	{"trigger-label", "triggers.label"},
}

// input reads an action input. GitHub Actions passes input "foo-bar" as
// INPUT_FOO-BAR; a shell like dash drops names with hyphens, so the action
// also passes INPUT_FOO_BAR, read second.
func input(getenv func(string) string, name string) string {
	up := strings.ToUpper(name)
	if v := strings.TrimSpace(getenv("INPUT_" + up)); v != "" {
		return v
	}
	return strings.TrimSpace(getenv("INPUT_" + strings.ReplaceAll(up, "-", "_")))
}

// Input reads the action input name (see input).
func Input(getenv func(string) string, name string) string { return input(getenv, name) }

// setKey sets one key from text given outside the file.
func setKey(cfg *Config, key, value string) error {
	value = strings.TrimSpace(value)
	switch key {
	case "model":
		cfg.Model = value
	case "reviewer.model":
		cfg.Reviewer.Model = value
	case "ollama.host":
		cfg.Ollama.Host = value
	case "triggers.label":
		cfg.Triggers.Label = value
	case "verify.commands":
		// One command per line, so a multi-line input can give several.
		var cmds []string
		for _, line := range strings.Split(value, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				cmds = append(cmds, line)
			}
		}
		cfg.Verify.Commands = cmds
	case "limits.max_rounds":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a positive whole number", value)
		}
		cfg.Limits.MaxRounds = n
	default:
		return fmt.Errorf("cannot be set here")
	}
	return nil
}

// reported reports whether a problem with key is in probs.
func reported(probs []Problem, key string) bool {
	for _, p := range probs {
		if key != "" && p.Key == key {
			return true
		}
	}
	return false
}
