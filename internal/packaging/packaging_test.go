package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const root = "../.."

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// goBuild finds the `go build` command line in text (after joining
// backslash-continued lines) and returns its flags, normalised so that
// different output paths and version variables compare equal.
func goBuild(t *testing.T, name, text string) string {
	t.Helper()
	text = strings.ReplaceAll(text, "\\\n", " ")
	line := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "go build") || strings.Contains(l, `"$go" build`) {
			line = l
			break
		}
	}
	if line == "" {
		t.Fatalf("%s has no go build command", name)
	}
	var parts []string
	if strings.Contains(line, "CGO_ENABLED=0") {
		parts = append(parts, "CGO_ENABLED=0")
	}
	for _, f := range []string{"-trimpath", "-s -w", "./cmd/agentfix"} {
		if strings.Contains(line, f) {
			parts = append(parts, f)
		}
	}
	if m := regexp.MustCompile(`-X ([^=]+)=`).FindStringSubmatch(line); m != nil {
		parts = append(parts, "-X "+m[1])
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// TestBuildCommandsAgree checks that the Dockerfile builds agentfix exactly
// as the release workflow and the action do.
func TestBuildCommandsAgree(t *testing.T) {
	want := "-X github.com/agentfix/agentfix/internal/cli.Version -s -w -trimpath ./cmd/agentfix CGO_ENABLED=0"
	for _, name := range []string{"Dockerfile", ".github/workflows/release.yml", "action.yml"} {
		if got := goBuild(t, name, read(t, name)); got != want {
			t.Errorf("%s builds with\n  %s\nwant\n  %s", name, got, want)
		}
	}
}

// TestDockerfileBuildCommandRuns runs the Dockerfile's own go build line on
// this machine and checks the binary reports the version it was given.
func TestDockerfileBuildCommandRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	df := read(t, "Dockerfile")
	var cmd string
	for _, l := range strings.Split(strings.ReplaceAll(df, "\\\n", " "), "\n") {
		if strings.HasPrefix(l, "RUN ") && strings.Contains(l, "go build") {
			cmd = strings.TrimPrefix(l, "RUN ")
		}
	}
	out := t.TempDir()
	cmd = strings.ReplaceAll(cmd, "/out/", out+"/")
	c := exec.Command("bash", "-c", cmd)
	c.Dir = root
	c.Env = append(os.Environ(), "VERSION=v9.8.7-test")
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, b)
	}
	b, err := exec.Command(filepath.Join(out, "agentfix"), "version").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "agentfix v9.8.7-test") {
		t.Fatalf("built binary says %q (%v), want its version v9.8.7-test", b, err)
	}
}

func TestDockerfileShape(t *testing.T) {
	df := read(t, "Dockerfile")
	for _, want := range []string{
		"FROM golang:1.26 AS build",
		"ARG VERSION",
		"git", "ca-certificates",
		"USER agentfix",
		`ENTRYPOINT ["agentfix"]`,
		"COPY --from=build",
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if len(regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)) < 2 {
		t.Error("Dockerfile must be multi-stage: a build stage and a small runtime stage")
	}
}

type action struct {
	Inputs  map[string]struct{ Description, Default string }
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []struct {
			ID    string
			Shell string
			Run   string
			Env   map[string]string
		}
	}
}

func loadAction(t *testing.T) action {
	t.Helper()
	var a action
	if err := yaml.Unmarshal([]byte(read(t, "action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestActionInterface pins the public inputs and outputs.
func TestActionInterface(t *testing.T) {
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	var inputs, outputs []string
	for k, v := range a.Inputs {
		inputs = append(inputs, k)
		if !strings.Contains(v.Description, "Default") {
			t.Errorf("input %s does not document its default", k)
		}
	}
	for k := range a.Outputs {
		outputs = append(outputs, k)
	}
	sort.Strings(inputs)
	sort.Strings(outputs)
	if got, want := strings.Join(inputs, " "), "config dry-run github-token max-rounds model ollama-host test-command trigger-label"; got != want {
		t.Errorf("inputs = %s, want %s", got, want)
	}
	if got, want := strings.Join(outputs, " "), "branch pr-number pr-url result rounds session"; got != want {
		t.Errorf("outputs = %s, want %s", got, want)
	}
	if a.Inputs["github-token"].Default != "${{ github.token }}" {
		t.Errorf("github-token default = %q", a.Inputs["github-token"].Default)
	}
}

// TestActionRunStepPassesEveryInput runs the action's final step exactly as
// written, with bash and with a stand-in binary that prints its
// environment, and checks every input arrives under a name agentfix reads.
func TestActionRunStepPassesEveryInput(t *testing.T) {
	a := loadAction(t)
	var run string
	var env map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "run" {
			run, env = s.Run, s.Env
			if s.Shell != "bash" {
				t.Errorf("run step uses shell %q; dash drops INPUT_ names with hyphens, use bash", s.Shell)
			}
		}
	}
	if run == "" {
		t.Fatal("action.yml has no step with id run")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "agentfix")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"args: $*\"\nenv\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	inputExpr := regexp.MustCompile(`^\$\{\{ inputs\.([a-z-]+) \}\}$`)
	cmdEnv := []string{"PATH=" + os.Getenv("PATH"), "AGENTFIX_BIN=" + fake}
	for k, v := range env {
		if m := inputExpr.FindStringSubmatch(v); m != nil {
			cmdEnv = append(cmdEnv, k+"=value-of-"+m[1])
		}
	}
	c := exec.Command("bash", "-c", run)
	c.Env = cmdEnv
	out, err := c.Output()
	if err != nil {
		t.Fatalf("run step failed: %v", err)
	}
	got := string(out)
	if !strings.Contains(got, "args: action") {
		t.Errorf("run step does not call `agentfix action`:\n%s", got)
	}
	for name := range a.Inputs {
		want := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "=value-of-" + name
		if !strings.Contains(got, want+"\n") {
			t.Errorf("input %s does not reach agentfix as %s", name, want)
		}
	}
}
