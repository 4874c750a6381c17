package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/workspace"
)

func TestPlanFilesShowsWhatThePackLeftOut(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("package pkg\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "shown.go"), []byte("package x\n"), 0o644)
	os.WriteFile(filepath.Join(root, "big.go"), []byte(strings.Repeat("// x\n", planFileMaxBytes)), 0o644)
	r := &run{repo: &workspace.Repo{Root: root}, packed: map[string]bool{"shown.go": true}}
	got := r.planFiles(&Plan{Files: []string{"shown.go", "pkg/a.go", "pkg/new.go", "big.go"}})
	want := "Files your plan names that were not shown above:\n\n## pkg/a.go (lines 1-3 of 3)\n1\tpackage pkg\n2\t\n3\tfunc A() {}\n\n## big.go (not shown: too large; quote its lines exactly in your edit)\n\n"
	if got != want {
		t.Errorf("planFiles =\n%q\nwant\n%q", got, want)
	}
	if r.planFiles(&Plan{Files: []string{"shown.go"}}) != "" {
		t.Error("a packed file is shown again")
	}
}
