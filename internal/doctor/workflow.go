package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// workflowDoc is the part of a workflow file the checks read.
type workflowDoc struct {
	Permissions any `yaml:"permissions"`
	Concurrency any `yaml:"concurrency"`
	Jobs        map[string]struct {
		Permissions any `yaml:"permissions"`
		Concurrency any `yaml:"concurrency"`
		Steps       []struct {
			Uses string         `yaml:"uses"`
			With map[string]any `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

var (
	agentfixUses = regexp.MustCompile(`^agentfix/agentfix@(.*)$`)
	commitSHA    = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// WorkflowProblems checks a workflow that runs agentfix for the mistakes
// agentfix init avoids: no permissions (the token gets the repository's
// default, often write to everything), a checkout that keeps the token in
// .git/config, no concurrency (two runs for one issue race), and agentfix
// not pinned by commit SHA (a moved tag runs other code with the token).
// It reports whether the file runs agentfix at all.
func WorkflowProblems(data []byte) (problems []string, usesAgentfix bool, err error) {
	var wf workflowDoc
	if err := yaml.Unmarshal(data, &wf); err != nil {
		return nil, false, fmt.Errorf("not valid YAML: %v", err)
	}
	names := make([]string, 0, len(wf.Jobs))
	for name := range wf.Jobs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		job := wf.Jobs[name]
		runs := false
		for _, s := range job.Steps {
			if m := agentfixUses.FindStringSubmatch(s.Uses); m != nil {
				runs = true
				if !commitSHA.MatchString(m[1]) {
					problems = append(problems, fmt.Sprintf("job %s: uses agentfix/agentfix@%s, not pinned by commit SHA (a moved tag would run other code with the token): write agentfix/agentfix@<40-hex commit> # <tag>", name, m[1]))
				}
			}
			if s.Uses == "./" {
				runs = true // agentfix's own repository
			}
		}
		if !runs {
			continue
		}
		usesAgentfix = true
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/checkout@") && fmt.Sprint(s.With["persist-credentials"]) != "false" {
				problems = append(problems, fmt.Sprintf("job %s: actions/checkout keeps the token in .git/config, where the code the model wrote could read it: add `persist-credentials: false` under its with:", name))
			}
		}
		if wf.Permissions == nil && job.Permissions == nil {
			problems = append(problems, fmt.Sprintf("job %s: no permissions, so the token gets the repository's default: add `permissions: {contents: write, pull-requests: write, issues: write}`", name))
		} else if wf.Permissions == "write-all" || job.Permissions == "write-all" {
			problems = append(problems, fmt.Sprintf("job %s: permissions write-all: grant only contents, pull-requests and issues write", name))
		}
		if wf.Concurrency == nil && job.Concurrency == nil {
			problems = append(problems, fmt.Sprintf("job %s: no concurrency, so two runs for one issue can race: add `concurrency: {group: agent-fix-${{ github.event.issue.number || github.event.pull_request.number || inputs.number || 'nightly' }}, cancel-in-progress: false}`", name))
		}
	}
	return problems, usesAgentfix, nil
}

// workflow checks the repository's workflows that run agentfix.
func (d *doctor) workflow() {
	if d.root == "" {
		d.r.skip("workflow", "no git checkout")
		return
	}
	files, _ := filepath.Glob(filepath.Join(d.root, ".github", "workflows", "*.y*ml"))
	var checked, problems []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(d.root, f)
		probs, uses, err := WorkflowProblems(data)
		if err != nil {
			if strings.Contains(string(data), "agentfix") {
				problems = append(problems, rel+": "+err.Error())
			}
			continue
		}
		if !uses {
			continue
		}
		checked = append(checked, rel)
		for _, p := range probs {
			problems = append(problems, rel+": "+p)
		}
	}
	switch {
	case len(problems) > 0:
		d.r.fail("workflow", strings.Join(problems, "; "), "fix the workflow as said, or rewrite it with `agentfix init --force` (it shows the diff first without --force)")
	case len(checked) == 0:
		d.r.skip("workflow", "no workflow in .github/workflows runs agentfix/agentfix; `agentfix init` writes one")
	default:
		d.r.pass("workflow", "%s: permissions, concurrency, persist-credentials: false, agentfix pinned by commit", strings.Join(checked, ", "))
	}
}
