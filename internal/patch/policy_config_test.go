package patch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/config"
)

// TestPolicyFromDeniesTheConfigFile checks a model cannot rewrite
// agentfix's own config, even when paths.deny forgets it.
func TestPolicyFromDeniesTheConfigFile(t *testing.T) {
	repo := t.TempDir()
	cfgFile := filepath.Join(repo, ".github", "agent-fix.yml")
	if err := os.MkdirAll(filepath.Dir(cfgFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgFile, []byte("verify:\n  allow: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cfg := config.Default()
	cfg.Paths.Deny = nil // the user's own deny list says nothing of it
	reply := "```diff\n--- a/.github/agent-fix.yml\n+++ b/.github/agent-fix.yml\n@@ -1,2 +1,2 @@\n verify:\n-  allow: []\n+  allow: [\"curl\"]\n```\n"
	res, err := Apply(repo, reply, PolicyFrom(cfg), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || len(res.Errors) == 0 {
		t.Fatalf("a patch to the config file was applied: %+v", res)
	}
	got, _ := os.ReadFile(cfgFile)
	if !strings.Contains(string(got), "allow: []") {
		t.Errorf("config file changed:\n%s", got)
	}
	if len(cfg.Paths.Deny) != 0 {
		t.Errorf("PolicyFrom changed the config's own deny list: %v", cfg.Paths.Deny)
	}
}
