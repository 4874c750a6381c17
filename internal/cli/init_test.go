package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/doctor"
)

// initRepo is a directory with the given files (no git needed: init only
// writes files).
func initRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, s := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readRel(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInitWritesTheWorkflowAndTheConfig: in a Go repository, init writes a
// workflow with every safeguard and the Go setup, and a config that loads
// with the detected command.
func TestInitWritesTheWorkflowAndTheConfig(t *testing.T) {
	t.Parallel()
	dir := initRepo(t, map[string]string{"go.mod": "module x\n\ngo 1.22\n"})
	code, out, errOut := runCLI(t, nil, "init", "--repo", dir)
	if code != 0 || out != "" {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	wf := readRel(t, dir, WorkflowPath)
	for _, want := range []string{
		"issues:\n    types: [labeled]", "issue_comment:\n    types: [created]",
		"pull_request_review:\n    types: [submitted]", "pull_request_review_comment:\n    types: [created]",
		"schedule:", "workflow_dispatch:",
		"permissions:\n  contents: write\n  pull-requests: write\n  issues: write\n",
		"concurrency:\n  group: agent-fix-${{ github.event.issue.number || github.event.pull_request.number",
		"persist-credentials: false", "runs-on: [self-hosted, ollama]",
		"uses: " + setupGoAction + "\n        with:\n          go-version-file: go.mod",
		"github.event.label.name == 'agent-fix'", "model: qwen2.5-coder:14b",
	} {
		if !strings.Contains(wf, want) {
			t.Errorf("workflow lacks %q:\n%s", want, wf)
		}
	}
	if !strings.Contains(errOut, "REPLACE_WITH_RELEASE_COMMIT_SHA") || !strings.Contains(wf, "agentfix/agentfix@REPLACE_WITH_RELEASE_COMMIT_SHA") {
		t.Errorf("a build without a release commit must leave a placeholder and say so:\n%s", errOut)
	}
	cfg, src, err := config.Load(config.LoadOptions{RepoDir: dir, NeedVerify: true})
	if err != nil {
		t.Fatalf("the generated config does not load: %v", err)
	}
	if got := strings.Join(cfg.Verify.Commands, ";"); got != "go test ./..." || !strings.HasPrefix(src["verify.commands"], config.DefaultPath) {
		t.Errorf("verify.commands = %q from %q, want go test ./... from the file", got, src["verify.commands"])
	}
	if r := doctorWorkflow(t, dir); !strings.Contains(r, "REPLACE_WITH_RELEASE_COMMIT_SHA") {
		t.Errorf("doctor does not flag the placeholder: %s", r)
	}
}

// TestInitForAModuleInADirectory: a repository whose one Go module is in
// go/ gets the command that tests it from the root, the verify.allow entry
// it needs, and the Go setup from go/go.mod; the config loads, so the
// command passes the allowlist.
func TestInitForAModuleInADirectory(t *testing.T) {
	t.Parallel()
	dir := initRepo(t, map[string]string{"go/go.mod": "module x\n\ngo 1.22\n", "README.md": "x\n"})
	code, _, errOut := runCLI(t, nil, "init", "--repo", dir)
	if code != 0 || !strings.Contains(errOut, `test command "go -C go test ./..." (detected from go/go.mod), allowed with verify.allow: ["go -C go test"]`) {
		t.Fatalf("exit %d\nstderr %s", code, errOut)
	}
	if wf := readRel(t, dir, WorkflowPath); !strings.Contains(wf, "go-version-file: go/go.mod") {
		t.Errorf("workflow lacks the Go setup from go/go.mod:\n%s", wf)
	}
	cfg, _, err := config.Load(config.LoadOptions{RepoDir: dir, NeedVerify: true})
	if err != nil {
		t.Fatalf("the generated config does not load: %v", err)
	}
	if got := strings.Join(cfg.Verify.Commands, ";"); got != "go -C go test ./..." || strings.Join(cfg.Verify.Allow, ";") != "go -C go test" {
		t.Errorf("verify = %q allowed by %q, want go -C go test ./... allowed by go -C go test", got, cfg.Verify.Allow)
	}
	// Two projects down: nothing is chosen, and the message names both.
	two := initRepo(t, map[string]string{"go/go.mod": "module x\n", "py/pytest.ini": ""})
	if code, _, errOut := runCLI(t, nil, "init", "--repo", two); code != 0 || !strings.Contains(errOut, "go/go.mod, which") || !strings.Contains(errOut, "py/pytest.ini, which") {
		t.Errorf("two projects: exit %d\nstderr %s", code, errOut)
	}
}

// TestInitPinsTheActionToTheReleaseCommit: a release build pins the action
// by commit SHA with the tag beside it, which doctor accepts. Not parallel:
// it sets the package's Version and Commit, which every run of Main reads
// (a data race with the parallel tests, seen under -race).
func TestInitPinsTheActionToTheReleaseCommit(t *testing.T) {
	defer func(v, c string) { Version, Commit = v, c }(Version, Commit)
	Version, Commit = "v1.4.0", strings.Repeat("ab", 20)
	dir := initRepo(t, map[string]string{"package.json": `{"scripts":{"test":"jest"}}`})
	if code, _, errOut := runCLI(t, nil, "init", "--repo", dir); code != 0 || strings.Contains(errOut, "REPLACE") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wf := readRel(t, dir, WorkflowPath)
	if !strings.Contains(wf, "uses: agentfix/agentfix@"+Commit+" # v1.4.0") || !strings.Contains(wf, "uses: "+setupNodeAction) {
		t.Errorf("workflow:\n%s", wf)
	}
	if !strings.Contains(readRel(t, dir, config.DefaultPath), `commands: ["npm test"]`) {
		t.Errorf("config:\n%s", readRel(t, dir, config.DefaultPath))
	}
	if r := doctorWorkflow(t, dir); r != "" {
		t.Errorf("doctor finds fault with init's own workflow: %s", r)
	}
}

// TestInitNeverOverwritesWithoutForce: a second init changes nothing; a
// file the user edited is shown as a diff and kept, unless --force.
func TestInitNeverOverwritesWithoutForce(t *testing.T) {
	t.Parallel()
	dir := initRepo(t, map[string]string{"go.mod": "module x\n"})
	if code, _, errOut := runCLI(t, nil, "init", "--repo", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, nil, "init", "--repo", dir)
	if code != 0 || out != "" || strings.Count(errOut, "is up to date") != 2 {
		t.Fatalf("second init: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	edited := strings.Replace(readRel(t, dir, WorkflowPath), "timeout-minutes: 60", "timeout-minutes: 90", 1)
	os.WriteFile(filepath.Join(dir, WorkflowPath), []byte(edited), 0o644)
	code, out, errOut = runCLI(t, nil, "init", "--repo", dir)
	if code != 1 || !strings.Contains(out, "-    timeout-minutes: 90\n+    timeout-minutes: 60\n") || !strings.Contains(errOut, "--force") {
		t.Fatalf("edited workflow: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if readRel(t, dir, WorkflowPath) != edited {
		t.Fatal("init overwrote an edited workflow without --force")
	}
	if code, _, errOut := runCLI(t, nil, "init", "--repo", dir, "--force"); code != 0 || !strings.Contains(errOut, "overwrote "+WorkflowPath) {
		t.Fatalf("--force: exit %d: %s", code, errOut)
	}
	if strings.Contains(readRel(t, dir, WorkflowPath), "timeout-minutes: 90") {
		t.Error("--force did not overwrite")
	}
}

// TestInitDryRunWritesNothing prints both files and leaves the repository
// as it was.
func TestInitDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	dir := initRepo(t, map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n"})
	code, out, errOut := runCLI(t, nil, "init", "--repo", dir, "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# " + WorkflowPath + " (would be created)", "# " + config.DefaultPath + " (would be created)", `commands: ["cargo test"]`, "rustup"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".github")); err == nil {
		t.Error("--dry-run wrote .github")
	}
}

// TestInitWorkflowPassesActionlint lints each language's generated workflow
// (and its run: scripts, with shellcheck) with actionlint, the linter CI
// runs on agentfix's own workflows.
func TestInitWorkflowPassesActionlint(t *testing.T) {
	t.Parallel()
	lint := actionlintPath()
	if lint == "" {
		t.Skip("actionlint not found (on PATH or where .ci/actionlint.sh installs it); run .ci/actionlint.sh once to install it")
	}
	for name, marker := range map[string]string{"go": "go.mod", "go in a directory": "go/go.mod", "node": "package.json", "rust": "Cargo.toml", "python": "pyproject.toml", "none": ""} {
		t.Run(name, func(t *testing.T) {
			dir := initRepo(t, map[string]string{".github/actionlint.yaml": "self-hosted-runner:\n  labels: [ollama]\n"})
			cfg := config.Default()
			os.WriteFile(filepath.Join(dir, "agent-fix.yml"), []byte(workflowFile(cfg, marker, "v1.4.0", strings.Repeat("ab", 20))), 0o644)
			cmd := exec.Command(lint, "-color=false", "-config-file", filepath.Join(dir, ".github/actionlint.yaml"), "agent-fix.yml")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("actionlint: %v\n%s", err, out)
			}
		})
	}
}

// actionlintPath finds actionlint on PATH or in the cache .ci/actionlint.sh
// installs it into.
func actionlintPath() string {
	if p, err := exec.LookPath("actionlint"); err == nil {
		return p
	}
	cache := os.Getenv("AGENTFIX_CACHE")
	if cache == "" {
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "agentfix")
		}
	}
	matches, _ := filepath.Glob(filepath.Join(cache, "actionlint-*", "actionlint"))
	if len(matches) == 0 {
		return ""
	}
	return matches[len(matches)-1]
}

// doctorWorkflow is what doctor says of the generated workflow: "" when it
// finds nothing wrong.
func doctorWorkflow(t *testing.T, dir string) string {
	t.Helper()
	probs, uses, err := doctor.WorkflowProblems([]byte(readRel(t, dir, WorkflowPath)))
	if err != nil || !uses {
		t.Fatalf("doctor does not see agentfix in the workflow (%v)", err)
	}
	return strings.Join(probs, "; ")
}
