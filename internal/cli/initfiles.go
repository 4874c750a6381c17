package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentfix/agentfix/internal/config"
)

// Commit is the commit agentfix was built from, set with -ldflags
// "-X github.com/agentfix/agentfix/internal/cli.Commit=SHA" by the release
// build; init pins the action to it.
var Commit = ""

// The actions the generated workflow uses, pinned by commit SHA (the tag in
// the comment is for people and for update tools).
const (
	checkoutAction = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
	setupGoAction  = "actions/setup-go@d35c59abb061a4a6fb18e82ac0862c26744d6ab5 # v5.5.0"
	// These two are not used by agentfix's own workflows; check them
	// against the actions' release pages when updating.
	setupNodeAction   = "actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4.4.0"
	setupPythonAction = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065 # v5.6.0"
)

var fullSHA = regexp.MustCompile(`^[0-9a-f]{40}$`)

// actionRef is how the generated workflow names agentfix's action: pinned to
// the commit this binary was released from, or, for a build from source,
// a placeholder that says what to put there (doctor flags it until then).
func actionRef(version, commit string) (ref, note string) {
	if fullSHA.MatchString(commit) && strings.HasPrefix(version, "v") {
		return fmt.Sprintf("agentfix/agentfix@%s # %s", commit, version), ""
	}
	return "agentfix/agentfix@REPLACE_WITH_RELEASE_COMMIT_SHA # vX.Y.Z",
		fmt.Sprintf("this agentfix (%s) was built from source without a release commit: replace REPLACE_WITH_RELEASE_COMMIT_SHA in the workflow with the commit SHA of an agentfix release tag", version)
}

// toolchainSteps are the workflow steps that set up the project's own
// toolchain before agentfix runs its checks, by the file that named the
// test command.
func toolchainSteps(marker string) string {
	if marker == "go.mod" || strings.HasSuffix(marker, "/go.mod") { // go/go.mod: a module in go/
		return "      - uses: " + setupGoAction + "\n        with:\n          go-version-file: " + marker + "\n"
	}
	switch marker {
	case "package.json":
		return "      - uses: " + setupNodeAction + "\n        with:\n          node-version: lts/*\n      - run: npm ci\n"
	case "Cargo.toml":
		// rustup reads rust-toolchain.toml when there is one.
		return "      - run: rustup show active-toolchain || rustup toolchain install stable --profile minimal\n"
	case "pyproject.toml", "pytest.ini", "setup.cfg":
		return "      - uses: " + setupPythonAction + "\n        with:\n          python-version: \"3.x\"\n      - run: python -m pip install -e . pytest\n"
	}
	return "      # Set up your project's toolchain here: the checks run on the runner with it.\n"
}

// workflowFile is the generated .github/workflows/agent-fix.yml.
func workflowFile(cfg *config.Config, marker, version, commit string) string {
	ref, _ := actionRef(version, commit)
	r := strings.NewReplacer(
		"{{version}}", version,
		"{{label}}", cfg.Triggers.Label,
		"{{command}}", cfg.Triggers.Command,
		"{{branch_prefix}}", cfg.PR.BranchPrefix,
		"{{checkout}}", checkoutAction,
		"{{toolchain}}", toolchainSteps(marker),
		"{{agentfix}}", ref,
		"{{model}}", cfg.Model,
	)
	return r.Replace(workflowTemplate)
}

const workflowTemplate = `# Written by ` + "`agentfix init`" + ` (agentfix {{version}}). agentfix answers issues labelled
# {{label}}, {{command}} comments and reviews of its pull requests, and runs the checks
# nightly. It needs a self-hosted runner labelled ` + "`ollama`" + ` that reaches an Ollama
# server; ` + "`agentfix doctor`" + ` on the runner checks the setup.
name: agent-fix
on:
  issues:
    types: [labeled]
  issue_comment:
    types: [created]
  pull_request_review:
    types: [submitted]
  pull_request_review_comment:
    types: [created]
  schedule:
    - cron: "17 3 * * *"   # nightly: run the checks on the default branch
  workflow_dispatch:
    inputs:
      mode:
        description: fix-issue, check-pr or nightly
        type: choice
        options: [fix-issue, check-pr, nightly]
        default: nightly
      number:
        description: Issue or pull request number (fix-issue, check-pr)
        required: false
      task:
        description: "fix-issue: extra instructions for the model; check-pr: the check command"
        required: false

# Only what agentfix needs: push its branch, open the PR, comment.
permissions:
  contents: write
  pull-requests: write
  issues: write

# Two runs for the same issue or PR never race; nightly runs have their own group.
concurrency:
  group: agent-fix-${{ github.event.issue.number || github.event.pull_request.number || inputs.number || 'nightly' }}
  cancel-in-progress: false

jobs:
  agent-fix:
    # Skip, before a runner is taken, every event that cannot be for agentfix.
    if: >-
      github.event_name == 'schedule' ||
      github.event_name == 'workflow_dispatch' ||
      (github.event_name == 'issues' && github.event.label.name == '{{label}}') ||
      (github.event_name == 'issue_comment' &&
        contains(github.event.comment.body, '{{command}}') &&
        !contains(github.event.comment.body, '<!-- agentfix')) ||
      (github.event_name == 'pull_request_review' &&
        github.event.pull_request.state == 'open' &&
        startsWith(github.event.pull_request.head.ref, '{{branch_prefix}}') &&
        github.event.pull_request.head.repo.full_name == github.repository &&
        !contains(github.event.review.body, '<!-- agentfix')) ||
      (github.event_name == 'pull_request_review_comment' &&
        contains(github.event.comment.body, '{{command}}') &&
        !contains(github.event.comment.body, '<!-- agentfix'))
    runs-on: [self-hosted, ollama]
    timeout-minutes: 60
    steps:
      - uses: {{checkout}}
        with:
          # agentfix hands the token to git itself, only to fetch and push.
          persist-credentials: false
          fetch-depth: 0
          # On review events, run agentfix's setup from the default branch.
          ref: ${{ startsWith(github.event_name, 'pull_request_review') && github.event.repository.default_branch || '' }}
{{toolchain}}      - id: agentfix
        uses: {{agentfix}}
        with:
          ollama-host: http://127.0.0.1:11434
          model: {{model}}
`

// configFile is the generated, commented .github/agent-fix.yml.
func configFile(cfg *config.Config, cmd, marker, allow string) string {
	var b strings.Builder
	b.WriteString(`# agentfix configuration, written by ` + "`agentfix init`" + `. Every key is optional.
# ` + "`agentfix config validate --show`" + ` prints the effective values and where each came
# from; ` + "`agentfix config schema`" + ` prints the JSON Schema for editors.

# The coding model on your Ollama server (the workflow's model input overrides it).
model: ` + cfg.Model + `

`)
	if cmd != "" {
		fmt.Fprintf(&b, "verify:\n  # The checks that prove a fix (detected from %s). Each must start with an\n  # allowlisted prefix (verify.allow); they run in a sandbox without network.\n  commands: [%q]\n", marker, cmd)
		if allow != "" {
			b.WriteString("  # The commands run from the repository's root: go -C tests the module there.\n")
			fmt.Fprintf(&b, "  allow: [%q]\n", allow)
		}
	} else {
		b.WriteString("# No test command could be detected: name the checks that prove a fix.\n# Each must start with an allowlisted prefix (verify.allow).\n# verify:\n#   commands: [\"make test\"]\n")
	}
	b.WriteString(`
# limits:
#   max_rounds: 3          # rounds of patch and verify per run
# paths:
#   deny: ["vendor/**"]    # files the model may never change
# pr:
#   on_unverified: comment # comment, draft or none when the checks do not pass
`)
	return b.String()
}
