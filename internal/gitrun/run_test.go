package gitrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newRepo makes an empty git repository and returns its real path.
func newRepo(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Runner{Dir: dir}).Run(context.Background(), "init", "--quiet"); err != nil {
		t.Fatal(err)
	}
	return dir
}

func testPath() string { return os.Getenv("PATH") }

func TestExecStdinAndExtraEnv(t *testing.T) {
	ctx := context.Background()
	r := Runner{Dir: newRepo(t)}
	// The id git gives the blob "hello\n".
	out, err := r.Exec(ctx, Cmd{Args: []string{"hash-object", "--stdin"}, Stdin: []byte("hello\n")})
	if err != nil || strings.TrimSpace(out) != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Fatalf("hash-object = %q, %v", out, err)
	}
	index := filepath.Join(t.TempDir(), "index")
	if _, err := r.Exec(ctx, Cmd{Args: []string{"read-tree", "--empty"}, Env: []string{"GIT_INDEX_FILE=" + index}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(index); err != nil {
		t.Errorf("GIT_INDEX_FILE was not used: %v", err)
	}
}

func TestErrorExitCode(t *testing.T) {
	ctx := context.Background()
	r := Runner{Dir: newRepo(t)}
	_, err := r.Run(ctx, "config", "--local", "--get", "no.such-key")
	var ge *Error
	if !errors.As(err, &ge) || ge.ExitCode != 1 || ge.Stderr != "" {
		t.Fatalf("missing key: err = %#v, want exit 1 and no stderr", err)
	}
	_, err = r.Run(ctx, "rev-parse", "--verify", "no-such-rev")
	if !errors.As(err, &ge) || ge.ExitCode != 128 || !strings.Contains(ge.Error(), "git rev-parse --verify no-such-rev: fatal:") {
		t.Fatalf("bad revision: err = %v, want exit 128 and git's message", err)
	}
	_, err = Runner{Dir: filepath.Join(t.TempDir(), "missing")}.Run(ctx, "status")
	if !errors.As(err, &ge) || ge.ExitCode != -1 {
		t.Fatalf("missing directory: err = %v, want exit code -1", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err = r.Run(cancelled, "status"); !errors.Is(err, context.Canceled) || !errors.As(err, &ge) {
		t.Fatalf("cancelled: err = %v, want an *Error wrapping context.Canceled", err)
	}
}

// TestErrorMasksToken names a remote after the token so git prints it,
// as a misconfigured remote URL would.
func TestErrorMasksToken(t *testing.T) {
	r := Runner{Dir: newRepo(t), Token: token}
	_, err := r.Exec(context.Background(), Cmd{Args: []string{"push", "--porcelain", token, "HEAD:refs/heads/x"}, Auth: true})
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("push to a remote named by the token: err = %v, want *Error", err)
	}
	if !strings.Contains(ge.Stderr, "***") {
		t.Errorf("stderr = %q, want the token masked as ***", ge.Stderr)
	}
	for _, s := range append([]string{ge.Error(), ge.Stderr}, ge.Args...) {
		if strings.Contains(s, token) {
			t.Errorf("the error shows the token: %q", s)
		}
	}
}

func TestShort(t *testing.T) {
	if got := Short("0123456789abcdef0123"); got != "0123456789ab" {
		t.Errorf("Short = %q", got)
	}
	if got := Short("abc"); got != "abc" {
		t.Errorf("Short(abc) = %q", got)
	}
}
