package doctor

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/llm"
)

// TestSkippedChecksNeedNoAttention: a check that did not run (the sandbox
// is off, or an earlier check failed and is counted there) is shown with
// "-" and is not counted as a problem.
func TestSkippedChecksNeedNoAttention(t *testing.T) {
	r := &Report{}
	r.pass("git", "git version 2.47")
	r.skip("sandbox", "verify.sandbox is off")
	var out bytes.Buffer
	r.Print(&out)
	if !r.OK() || !strings.Contains(out.String(), "all good") || !strings.Contains(out.String(), "- sandbox") {
		t.Errorf("OK %v:\n%s", r.OK(), out.String())
	}
	r.fail("ollama", "cannot reach Ollama", "start it")
	r.skip("model", "no Ollama server")
	out.Reset()
	r.Print(&out)
	if r.OK() || !strings.Contains(out.String(), "1 of 4 checks need attention") {
		t.Errorf("OK %v:\n%s", r.OK(), out.String())
	}
}

// lockedBuffer is written by the doctor and read by the fake model server.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDoctorPrintsEachCheckAsItIsMade: the model server answers only once
// the checks before it (git, repository, config) are on the screen, so a
// doctor that prints everything at the end fails here instead of leaving
// the user looking at nothing while a cold server answers.
func TestDoctorPrintsEachCheckAsItIsMade(t *testing.T) {
	var out lockedBuffer
	seen := make(chan bool, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deadline := time.Now().Add(3 * time.Second)
		for !strings.Contains(out.String(), "✓ config") && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case seen <- strings.Contains(out.String(), "✓ config"):
		default:
		}
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	env := map[string]string{"OLLAMA_HOST": srv.URL, "PATH": os.Getenv("PATH")}
	r := Run(context.Background(), Options{
		Repo: goRepo(t), Getenv: func(k string) string { return env[k] }, Out: &out,
		LookPath: func(f string) (string, error) { return "/usr/bin/" + f, nil },
		Ollama:   llm.Options{Sleep: instant},
	})
	if ok := <-seen; !ok {
		t.Fatalf("the checks before the model server were not printed while it was asked:\n%s", out.String())
	}
	for _, c := range r.Checks {
		if !strings.Contains(out.String(), " "+c.Name) {
			t.Errorf("check %s was not printed:\n%s", c.Name, out.String())
		}
	}
}
