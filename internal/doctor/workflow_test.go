package doctor

import (
	"strings"
	"testing"
)

// goodWorkflow has every safeguard init writes.
const goodWorkflow = `on: {issues: {types: [labeled]}}
permissions:
  contents: write
  pull-requests: write
  issues: write
concurrency:
  group: agent-fix-${{ github.event.issue.number || 'nightly' }}
jobs:
  fix:
    runs-on: [self-hosted, ollama]
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - uses: agentfix/agentfix@abababababababababababababababababababab # v1.4.0
`

// TestWorkflowProblems breaks one safeguard per case and checks doctor
// names it; a workflow that does not run agentfix is not agentfix's to judge.
func TestWorkflowProblems(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"all good", "", "", ""},
		{"no permissions", "permissions:\n  contents: write\n  pull-requests: write\n  issues: write\n", "", "no permissions"},
		{"write-all", "permissions:\n  contents: write\n  pull-requests: write\n  issues: write\n", "permissions: write-all\n", "write-all"},
		{"persisted credentials", "persist-credentials: false", "fetch-depth: 0", "persist-credentials: false"},
		{"no concurrency", "concurrency:\n  group: agent-fix-${{ github.event.issue.number || 'nightly' }}\n", "", "no concurrency"},
		{"tag only", "@abababababababababababababababababababab # v1.4.0", "@v1.4.0", "agentfix/agentfix@v1.4.0, not pinned by commit SHA"},
		{"branch", "@abababababababababababababababababababab # v1.4.0", "@main", "not pinned by commit SHA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wf := goodWorkflow
			if tt.old != "" {
				if !strings.Contains(wf, tt.old) {
					t.Fatalf("case does not apply: %q", tt.old)
				}
				wf = strings.Replace(wf, tt.old, tt.new, 1)
			}
			probs, uses, err := WorkflowProblems([]byte(wf))
			if err != nil || !uses {
				t.Fatalf("uses %v, err %v", uses, err)
			}
			got := strings.Join(probs, "; ")
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("problems %q, want %q", got, tt.want)
			}
			if tt.want != "" && len(probs) != 1 {
				t.Errorf("%d problems, want 1: %q", len(probs), got)
			}
		})
	}
	other := strings.Replace(strings.Replace(goodWorkflow, "agentfix/agentfix@abababababababababababababababababababab", "someone/else@v1", 1), "permissions:", "x-permissions:", 1)
	if probs, uses, _ := WorkflowProblems([]byte(other)); uses || len(probs) != 0 {
		t.Errorf("a workflow without agentfix: uses %v, problems %q", uses, probs)
	}
}
