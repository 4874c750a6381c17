package trust_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/trust"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCheckNoPersistedToken(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()

	clean := t.TempDir()
	git(t, clean, "init", "-q")
	if err := trust.CheckNoPersistedToken(ctx, clean); err != nil {
		t.Errorf("clean checkout: %v", err)
	}

	// What actions/checkout writes with persist-credentials: true.
	persisted := t.TempDir()
	git(t, persisted, "init", "-q")
	git(t, persisted, "config", "--local", "http.https://github.com/.extraheader", "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==")
	err := trust.CheckNoPersistedToken(ctx, persisted)
	if err == nil || !strings.Contains(err.Error(), "persist-credentials: false") || !strings.Contains(err.Error(), "extraheader") {
		t.Errorf("persisted token: %v, want a refusal telling to set persist-credentials: false", err)
	}
	if err != nil && (strings.Contains(err.Error(), "ghs_secret") || strings.Contains(err.Error(), "eC1hY2Nlc3M")) {
		t.Errorf("the refusal leaks the header value: %v", err)
	}

	// Newer actions/checkout keeps it in a file included from .git/config.
	included := t.TempDir()
	git(t, included, "init", "-q")
	inc := filepath.Join(t.TempDir(), "credentials.config")
	if err := os.WriteFile(inc, []byte("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eA==\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git(t, included, "config", "--local", "include.path", inc)
	if err := trust.CheckNoPersistedToken(ctx, included); err == nil {
		t.Error("token in an included config file was not found")
	}

	if err := trust.CheckNoPersistedToken(ctx, t.TempDir()); err == nil {
		t.Error("a directory that is not a git checkout passed the check")
	}
}
