package ollamatest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfix/agentfix/internal/config"
	"github.com/agentfix/agentfix/internal/doctor"
)

// TestRealServerDoctor runs agentfix doctor's checks against a real server:
// the server's version, a model that is there (with its context length), a
// model that is not, and a model whose context is too small.
func TestRealServerDoctor(t *testing.T) {
	s := Start(t)
	s.MustCreate(t, "coder", Model{ContextLength: 32768})
	s.MustCreate(t, "tiny", Model{ContextLength: 4096})
	repo := gitRepo(t, filepath.Join("testdata", "calc"))

	cases := []struct {
		model  string
		ok     bool
		detail string
	}{
		{"coder", true, "context length 32768"},
		{"absent", false, "not available on that server"},
		{"tiny", false, "context length 4096 is below"},
	}
	version := strings.TrimPrefix(pinnedVersion(), "v")
	for _, c := range cases {
		r := doctor.Run(context.Background(), doctor.Options{
			Repo:   repo,
			Getenv: func(string) string { return "" },
			Flags:  config.Flags{OllamaHost: s.URL.String(), Model: c.model},
		})
		server := r.Find("ollama")
		if server == nil || !server.OK || !strings.Contains(server.Detail, version) {
			t.Errorf("%s: ollama check = %+v, want the server's version", c.model, server)
		}
		m := r.Find("model")
		if m == nil || m.OK != c.ok || !strings.Contains(m.Detail, c.detail) {
			t.Errorf("%s: model check = %+v, want ok=%v and %q", c.model, m, c.ok, c.detail)
		}
	}
}
