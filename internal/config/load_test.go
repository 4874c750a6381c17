package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/verify"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadPrecedence checks each layer overrides the one below it, with
// the environment injected (no os.Setenv), so the cases run in parallel.
func TestLoadPrecedence(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, "go.mod"), "module x\n")
	writeFile(t, filepath.Join(repo, DefaultPath), "model: from-file\nlimits:\n  max_rounds: 2\n")
	writeFile(t, filepath.Join(repo, "other.yml"), "model: from-other-file\n")

	tests := []struct {
		name     string
		env      map[string]string
		flags    Flags
		model    string
		modelSrc string
		rounds   int
		host     string
		cmds     string
		cmdsSrc  string
	}{
		{name: "file over defaults", model: "from-file", modelSrc: DefaultPath + ":1:8", rounds: 2,
			host: "http://127.0.0.1:11434", cmds: "go test ./...", cmdsSrc: "detected from go.mod"},
		{name: "env over file", env: map[string]string{"AGENTFIX_MODEL": "from-env", "OLLAMA_HOST": "gpu:1234", "AGENTFIX_MAX_ROUNDS": "7"},
			model: "from-env", modelSrc: "env AGENTFIX_MODEL", rounds: 7, host: "http://gpu:1234", cmds: "go test ./...", cmdsSrc: "detected from go.mod"},
		{name: "input over env", env: map[string]string{"AGENTFIX_MODEL": "from-env", "INPUT_MODEL": "from-input", "INPUT_MAX-ROUNDS": "3", "INPUT_TEST-COMMAND": "go vet ./...\ngo test ./pkg"},
			model: "from-input", modelSrc: "input model", rounds: 3, host: "http://127.0.0.1:11434", cmds: "go vet ./...|go test ./pkg", cmdsSrc: "input test-command"},
		{name: "hyphen-free input names", env: map[string]string{"INPUT_OLLAMA_HOST": "http://h:1"},
			model: "from-file", modelSrc: DefaultPath + ":1:8", rounds: 2, host: "http://h:1", cmds: "go test ./...", cmdsSrc: "detected from go.mod"},
		{name: "flag over input", env: map[string]string{"INPUT_MODEL": "from-input"}, flags: Flags{Model: "from-flag", MaxRounds: 9, TestCmd: "go test -run TestX ./..."},
			model: "from-flag", modelSrc: "flag --model", rounds: 9, host: "http://127.0.0.1:11434", cmds: "go test -run TestX ./...", cmdsSrc: "flag --test-cmd"},
		{name: "config input picks the file", env: map[string]string{"INPUT_CONFIG": "other.yml"},
			model: "from-other-file", modelSrc: filepath.Join(repo, "other.yml") + ":1:8", rounds: 5, host: "http://127.0.0.1:11434", cmds: "go test ./...", cmdsSrc: "detected from go.mod"},
		{name: "config flag over config input", env: map[string]string{"INPUT_CONFIG": "missing.yml"}, flags: Flags{Config: "other.yml"},
			model: "from-other-file", modelSrc: filepath.Join(repo, "other.yml") + ":1:8", rounds: 5, host: "http://127.0.0.1:11434", cmds: "go test ./...", cmdsSrc: "detected from go.mod"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, src, err := Load(LoadOptions{RepoDir: repo, Getenv: func(k string) string { return tt.env[k] }, Flags: tt.flags, NeedVerify: true})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Model != tt.model || src["model"] != tt.modelSrc {
				t.Errorf("model = %q from %q, want %q from %q", cfg.Model, src["model"], tt.model, tt.modelSrc)
			}
			if cfg.Limits.MaxRounds != tt.rounds {
				t.Errorf("max_rounds = %d, want %d", cfg.Limits.MaxRounds, tt.rounds)
			}
			if cfg.Ollama.Host != tt.host {
				t.Errorf("ollama.host = %q, want %q", cfg.Ollama.Host, tt.host)
			}
			if got := strings.Join(cfg.Verify.Commands, "|"); got != tt.cmds || src["verify.commands"] != tt.cmdsSrc {
				t.Errorf("verify.commands = %q from %q, want %q from %q", got, src["verify.commands"], tt.cmds, tt.cmdsSrc)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	noMarkers := t.TempDir()
	badFile := t.TempDir()
	writeFile(t, filepath.Join(badFile, DefaultPath), "model: x\nlimits: {max_roundz: 3}\n")
	tests := []struct {
		name  string
		repo  string
		env   map[string]string
		flags Flags
		want  string
	}{
		{"explicit file missing", noMarkers, nil, Flags{Config: "nope.yml", TestCmd: "go test ./..."}, "nope.yml: does not exist (named by flag --config)"},
		{"input file missing", noMarkers, map[string]string{"INPUT_CONFIG": "nope.yml"}, Flags{TestCmd: "go test ./..."}, "named by input config"},
		{"no verify command detectable", noMarkers, nil, Flags{}, "no test command could be detected"},
		{"bad file located", badFile, nil, Flags{TestCmd: "go test ./..."}, DefaultPath + `:2:10: unknown key "limits.max_roundz" (did you mean "limits.max_rounds"?)`},
		{"bad env value", noMarkers, map[string]string{"AGENTFIX_MAX_ROUNDS": "lots"}, Flags{TestCmd: "go test ./..."}, `"lots" is not a positive whole number (set by env AGENTFIX_MAX_ROUNDS)`},
		{"refused flag command", noMarkers, nil, Flags{TestCmd: "go test ./... && curl x"}, `verify.commands[0]: command "go test ./... && curl x" refused: shell operator "&"`},
		{"bad host from env", noMarkers, map[string]string{"OLLAMA_HOST": "ftp://x"}, Flags{TestCmd: "go test ./..."}, "(set by env OLLAMA_HOST)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Load(LoadOptions{RepoDir: tt.repo, Getenv: func(k string) string { return tt.env[k] }, Flags: tt.flags, NeedVerify: true})
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("err = %v, want *config.Error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err =\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

func TestDetectVerify(t *testing.T) {
	tests := []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"go.mod": "module x"}, "go test ./..."},
		{map[string]string{"package.json": `{"scripts":{"test":"node --test"}}`}, "npm test"},
		{map[string]string{"package.json": `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`}, ""},
		{map[string]string{"Cargo.toml": "[package]"}, "cargo test"},
		{map[string]string{"pyproject.toml": ""}, "pytest"},
		{map[string]string{"setup.cfg": ""}, "pytest"},
		{map[string]string{"README.md": ""}, ""},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		for name, content := range tt.files {
			writeFile(t, filepath.Join(dir, name), content)
		}
		if got, _ := DetectVerify(dir); got != tt.want {
			t.Errorf("DetectVerify(%v) = %q, want %q", tt.files, got, tt.want)
		}
	}
}

// TestNoVerifyHintNamesAProjectOneDirectoryDown: a repository whose Go
// module is in go/ (with a pytest project in py/ and an npm one in web/)
// detects no command at its root; the message names each, with the
// command that tests it from the root where one can, and leaves out
// what the go command leaves out (testdata, dot directories).
func TestNoVerifyHintNamesAProjectOneDirectoryDown(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, "go", "go.mod"), "module example.com/x\n")
	writeFile(t, filepath.Join(repo, "py", "pytest.ini"), "")
	writeFile(t, filepath.Join(repo, "web", "package.json"), `{"scripts":{"test":"node --test"}}`)
	writeFile(t, filepath.Join(repo, "testdata", "go.mod"), "module example.com/fixture\n")
	writeFile(t, filepath.Join(repo, ".tools", "go.mod"), "module example.com/tools\n")
	writeFile(t, filepath.Join(repo, "README.md"), "")
	_, _, err := Load(LoadOptions{RepoDir: repo, NeedVerify: true})
	if err == nil {
		t.Fatal("Load detected a test command at the root")
	}
	for _, want := range []string{
		`go/go.mod, which "go -C go test ./..." tests from the root (allow it with verify.allow: ["go -C go test"])`,
		`py/pytest.ini, which "pytest py" tests from the root`,
		`web/package.json (npm test there)`,
		"set verify.commands in " + DefaultPath,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err =\n%v\nwant it to contain\n%s", err, want)
		}
	}
	for _, not := range []string{"testdata/", ".tools/"} {
		if strings.Contains(err.Error(), not) {
			t.Errorf("err names %s, which the go command leaves out:\n%v", not, err)
		}
	}
	// The advice passes the allowlist: the go command once allowed as it
	// says, pytest as it is.
	for _, c := range []struct {
		cmd   string
		allow []string
	}{{"go -C go test ./...", []string{"go -C go test"}}, {"pytest py", nil}} {
		if _, err := verify.ParseCommand(c.cmd, c.allow); err != nil {
			t.Errorf("the advised %q with verify.allow %q: %v", c.cmd, c.allow, err)
		}
	}
	if hint := NoVerifyHint(t.TempDir(), DefaultPath); strings.Contains(hint, "one directory down") {
		t.Errorf("an empty repository: %s", hint)
	}
}

// TestLoadReportsEveryProblemAtOnce: problems the decoder finds (an
// unknown key, a value that is not a number) and problems of the values
// (a bad on_unverified, an invalid glob, a bad command) come in one error,
// so a user fixes them in one go instead of one set per attempt.
func TestLoadReportsEveryProblemAtOnce(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, DefaultPath), "modle: x\npr:\n  on_unverified: maybe\npaths:\n  deny: [\"[abc\"]\ntriggers:\n  command: agent\nlimits:\n  max_files: many\n")
	_, _, err := Load(LoadOptions{RepoDir: repo, Flags: Flags{TestCmd: "go test ./...", MaxRounds: -2}, NeedVerify: true})
	var cerr *Error
	if !errors.As(err, &cerr) {
		t.Fatalf("err = %v, want *config.Error", err)
	}
	for _, want := range []string{
		`:1:1: unknown key "modle"`,
		`:3:18: pr.on_unverified: "maybe" must be one of`,
		`:5:10: paths.deny[0]: "[abc" is not a valid glob`,
		`:7:12: triggers.command: "agent" must be a slash and a word`,
		`:9:14: limits.max_files: "many" is not a whole number`,
		`limits.max_rounds: "-2" is not a positive whole number (set by flag --max-rounds)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err lacks %q:\n%v", want, err)
		}
	}
	if len(cerr.Problems) != 6 {
		t.Errorf("%d problems, want 6 (max_files once, not again for its default):\n%v", len(cerr.Problems), err)
	}
}

// TestRelativeConfigIsShownResolved: a relative --config is read from the
// repository root; the error names the file it read and says so.
func TestRelativeConfigIsShownResolved(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, "ci", "fix.yml"), "modle: x\n")
	_, _, err := Load(LoadOptions{RepoDir: repo, Flags: Flags{Config: "ci/fix.yml", TestCmd: "go test ./..."}})
	if want := filepath.Join(repo, "ci", "fix.yml") + ":1:1: unknown key"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to contain %q", err, want)
	}
	_, _, err = Load(LoadOptions{RepoDir: repo, Flags: Flags{Config: "ci/none.yml", TestCmd: "go test ./..."}})
	if want := filepath.Join(repo, "ci", "none.yml") + ": does not exist (named by flag --config); ci/none.yml is read from the repository root"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to contain %q", err, want)
	}
}
