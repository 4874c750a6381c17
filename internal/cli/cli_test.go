package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runCLI runs agentfix with args and an injected environment, returning the
// exit code and what it printed.
func runCLI(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, MapEnv(env, nil, &out, &errb))
	return code, out.String(), errb.String()
}

func TestUsageAndExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "no command prints usage", args: nil, code: 2, stderr: "Usage: agentfix <command> [flags]"},
		{name: "help", args: []string{"--help"}, code: 0, stdout: "Commands:"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "version", args: []string{"version"}, code: 0, stdout: "agentfix dev (" + runtime.Version()},
		{name: "bad flag", args: []string{"version", "--nope"}, code: 2, stderr: "flag provided but not defined: -nope"},
		{name: "config without subcommand", args: []string{"config"}, code: 2, stderr: "validate"},
		{name: "config unknown subcommand", args: []string{"config", "frob"}, code: 2, stderr: `unknown subcommand "frob"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, tt.env, tt.args...)
			if code != tt.code {
				t.Errorf("exit code = %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout = %q, want it to contain %q", out, tt.stdout)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", errOut, tt.stderr)
			}
		})
	}
}

// TestEveryCommandHasHelp checks that --help works for every command and
// says how to call it.
func TestEveryCommandHasHelp(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, nil, c.name, "--help")
			if code != 0 {
				t.Fatalf("exit code = %d, want 0; stderr: %s", code, errOut)
			}
			if !strings.Contains(out, "Usage: agentfix "+c.name) {
				t.Errorf("--help output lacks the usage line:\n%s", out)
			}
			if strings.Count(out+errOut, "Usage: agentfix") != 1 {
				t.Errorf("--help printed the usage more than once:\nstdout: %s\nstderr: %s", out, errOut)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	good := t.TempDir()
	if err := os.WriteFile(filepath.Join(good, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	badYAML := "model: qwen\nlimits:\n  max_iteration: 3\n  max_files: -1\nverify:\n  commands: [\"go test ./... | tee log\"]\n"
	if err := os.WriteFile(filepath.Join(bad, ".github", "agent-fix.yml"), []byte(badYAML), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runCLI(t, map[string]string{"AGENTFIX_MODEL": "llama3.1:8b"}, "config", "validate", "--repo", good, "--show")
	if code != 0 {
		t.Fatalf("valid config: exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"model: llama3.1:8b", "env AGENTFIX_MODEL", "detected from go.mod", "limits.max_rounds"} {
		if !strings.Contains(out, want) {
			t.Errorf("--show output lacks %q:\n%s", want, out)
		}
	}

	code, _, errOut = runCLI(t, nil, "config", "validate", "--repo", bad)
	if code != 2 {
		t.Fatalf("bad config: exit %d, want 2", code)
	}
	for _, want := range []string{
		`.github/agent-fix.yml:3:3: unknown key "limits.max_iteration"`,
		`.github/agent-fix.yml:4:14: limits.max_files: must not be negative`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(errOut, "problems:\n  .github/agent-fix.yml:3:3:") {
		t.Errorf("the problems are not one per line:\n%s", errOut)
	}
	// Value problems are reported once the file parses.
	if err := os.WriteFile(filepath.Join(bad, ".github", "agent-fix.yml"), []byte("verify:\n  commands: [\"go test ./... | tee log\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, nil, "config", "validate", "--repo", bad)
	if code != 2 || !strings.Contains(errOut, `.github/agent-fix.yml:2:14: verify.commands[0]: command "go test ./... | tee log" refused`) {
		t.Errorf("refused command: exit %d, stderr:\n%s", code, errOut)
	}

	code, _, errOut = runCLI(t, nil, "config", "validate", "--repo", filepath.Join(good, "missing"))
	if code != 2 || !strings.Contains(errOut, "not a directory") {
		t.Errorf("missing repo: exit %d, stderr %s", code, errOut)
	}
}
