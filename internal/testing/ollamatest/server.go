// Package ollamatest runs a real Ollama server in tests, with tiny scripted
// models generated in Go, so that the Ollama client and the fix loop are
// tested against the server users run, not only against a fake:
//
//	s := ollamatest.Start(t) // skips when there is no server binary
//	s.MustCreate(t, "coder", ollamatest.Model{Replies: []ollamatest.Reply{
//		{When: ollamatest.LastContains("plan the fix"), Text: `{"files":["calc.go"],"steps":["…"]}`},
//		{Text: "--- a/calc.go\n+++ b/calc.go\n…"},
//	}})
//	// point the code under test at s.URL, model "coder"
//
// The server binary is built by .ci/build-ollama.sh; tests find it through
// AGENTFIX_OLLAMA_BIN or the build script's cache, and skip when it is absent.
//
// Use ollamatest to check behaviour against the server users run (model
// info, num_ctx, streaming, cancellation); use
// internal/testing/ollamafake, an in-process fake, for fast tests that
// script faults (statuses, hangs, cut streams) and assert what was sent.
package ollamatest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// BinEnv names the environment variable holding the server binary's path.
const BinEnv = "AGENTFIX_OLLAMA_BIN"

// Server is a running Ollama server, private to one test.
type Server struct {
	// Host is host:port, the value for OLLAMA_HOST.
	Host string
	// URL is the server's base URL.
	URL *url.URL
	// Client talks to the server.
	Client *api.Client

	cmd      *exec.Cmd
	log      *syncBuffer
	done     chan struct{}
	stopOnce sync.Once
}

// Binary returns the path of the Ollama server binary: $AGENTFIX_OLLAMA_BIN,
// else where .ci/build-ollama.sh caches the version go.mod pins. It returns
// an error saying how to get one when there is none.
func Binary() (string, error) {
	if p := os.Getenv(BinEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", BinEnv, p, err)
		}
		return p, nil
	}
	cache := os.Getenv("AGENTFIX_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no Ollama server: %s unset and no cache directory: %w", BinEnv, err)
		}
		cache = filepath.Join(dir, "agentfix")
	}
	p := filepath.Join(cache, "ollama-"+pinnedVersion(), "ollama")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no Ollama server at %s and %s unset: run .ci/build-ollama.sh (or .ci/run) to build it", p, BinEnv)
	}
	return p, nil
}

// pinnedVersion is the version of github.com/ollama/ollama that go.mod
// pins: from the build information when the binary has it (test binaries
// do not), else from the go.mod above the working directory.
func pinnedVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == ollamaModule {
				return d.Version
			}
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return "unknown"
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for line := range strings.Lines(string(data)) {
				// "github.com/ollama/ollama v0.24.0", in a require block or not.
				f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
				if len(f) >= 2 && f[0] == ollamaModule {
					return f[1]
				}
			}
			return "unknown"
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "unknown"
		}
		dir = parent
	}
}

const ollamaModule = "github.com/ollama/ollama"

// Start runs an Ollama server on a free local port, with its models and
// home in a temporary directory and the cloud off, and stops it (and its
// model runners) when the test ends. It skips the test when there is no
// server binary.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Skipf("real Ollama server tests skipped: %v", err)
	}
	dir := t.TempDir()
	// A free port can be taken by another test process between finding it
	// and the server binding it; the server then exits, and a new port is
	// tried.
	for attempt := 1; ; attempt++ {
		s, err := launch(bin, dir)
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		if !errors.Is(err, errPortTaken) || attempt == 5 {
			t.Fatalf("ollamatest: %v", err)
		}
	}
}

var errPortTaken = errors.New("port taken")

// launch starts the server and waits until it listens on its own port and
// answers there.
func launch(bin, dir string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	host := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &Server{
		Host: host,
		URL:  &url.URL{Scheme: "http", Host: host},
		log:  &syncBuffer{},
		done: make(chan struct{}),
	}
	s.Client = api.NewClient(s.URL, http.DefaultClient)

	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"OLLAMA_HOST=" + host,
		"OLLAMA_MODELS=" + filepath.Join(dir, "models"),
		"OLLAMA_NO_CLOUD=1",
		"OLLAMA_NUM_PARALLEL=1",
		"OLLAMA_DEBUG=1",
	}
	s.cmd.Dir = dir
	s.cmd.Stdout = s.log
	s.cmd.Stderr = s.log
	ownProcessGroup(s.cmd)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()

	// "Listening on 127.0.0.1:PORT (version …)" (server/routes.go) says the
	// port is this server's; only then is an answer there its answer.
	listening := "Listening on " + host
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		if strings.Contains(s.Log(), listening) {
			if _, err := s.Client.Version(ctx); err == nil {
				return s, nil
			}
		}
		select {
		case <-s.done:
			if strings.Contains(s.Log(), "address already in use") {
				return nil, fmt.Errorf("%w: %s", errPortTaken, host)
			}
			return nil, fmt.Errorf("server exited before answering:\n%s", s.Log())
		case <-ctx.Done():
			s.stop()
			return nil, fmt.Errorf("server not up after 30s:\n%s", s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stop ends the server and the model runners it started: SIGTERM to the
// process group, SIGKILL if it has not exited within 5 seconds.
func (s *Server) stop() {
	s.stopOnce.Do(func() {
		signalGroup(s.cmd, false)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
		}
		// The runners live in the same group; make sure none outlives the test.
		signalGroup(s.cmd, true)
		<-s.done
	})
}

// Log returns what the server has written so far (debug level).
func (s *Server) Log() string { return s.log.String() }

// Create creates model name from m through the API, as a user would with a
// GGUF file and a Modelfile: the file is uploaded as a blob, then the model
// is created from it with m's template and temperature 0.
func (s *Server) Create(ctx context.Context, name string, m Model) error {
	gguf, err := m.GGUF()
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	digest := fmt.Sprintf("sha256:%x", sha256.Sum256(gguf))
	if err := s.Client.CreateBlob(ctx, digest, bytes.NewReader(gguf)); err != nil {
		return fmt.Errorf("create %s: upload blob: %w", name, err)
	}
	stream := false
	err = s.Client.Create(ctx, &api.CreateRequest{
		Model:      name,
		Stream:     &stream,
		Files:      map[string]string{"model.gguf": digest},
		Template:   m.Template(),
		Parameters: map[string]any{"temperature": 0, "num_thread": 1},
	}, func(api.ProgressResponse) error { return nil })
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}

// MustCreate is Create that fails the test on error.
func (s *Server) MustCreate(t testing.TB, name string, m Model) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Create(ctx, name, m); err != nil {
		t.Fatalf("ollamatest: %v\nserver log:\n%s", err, s.Log())
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("find a free port: not a TCP address")
	}
	return addr.Port, nil
}

// syncBuffer is a bytes.Buffer the server's stdout and stderr can share
// with the test reading it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
