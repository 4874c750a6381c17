package llm

import (
	"context"
	"errors"
	"testing"

	"github.com/agentfix/agentfix/internal/testing/ollamafake"
)

func TestModelInfo(t *testing.T) {
	srv := ollamafake.New(t,
		ollamafake.Model{Name: "qwen2.5-coder:14b", Digest: "abc123", Family: "qwen2", ContextLength: 32768},
		ollamafake.Model{Name: "gemma3", Family: "gemma3", ContextLength: 131072},
		ollamafake.Model{Name: "odd:1b", Family: "llama", Arch: "mistral3", ContextLength: 4096},
	)
	c, err := New(srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		model string
		want  ModelInfo
	}{
		{"qwen2.5-coder:14b", ModelInfo{Name: "qwen2.5-coder:14b", Digest: "abc123", Family: "qwen2", ContextLength: 32768}},
		{"gemma3", ModelInfo{Name: "gemma3:latest", Family: "gemma3", ContextLength: 131072}},
		// The context length is keyed by architecture, not family.
		{"odd:1b", ModelInfo{Name: "odd:1b", Family: "llama", ContextLength: 4096}},
	}
	for _, tt := range tests {
		got, err := c.ModelInfo(context.Background(), tt.model)
		if err != nil {
			t.Fatalf("ModelInfo(%s): %v", tt.model, err)
		}
		if tt.want.Digest == "" {
			tt.want.Digest = got.Digest // derived by the fake
			if len(got.Digest) != 64 {
				t.Errorf("ModelInfo(%s).Digest = %q, want a sha256", tt.model, got.Digest)
			}
		}
		if *got != tt.want {
			t.Errorf("ModelInfo(%s) = %+v, want %+v", tt.model, *got, tt.want)
		}
	}
}

func TestModelInfoMissingModel(t *testing.T) {
	srv := ollamafake.New(t)
	c, err := New(srv.URL, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ModelInfo(context.Background(), "qwen2.5-coder:14b")
	var me *ModelMissingError
	if !errors.As(err, &me) || !IsConfig(err) {
		t.Fatalf("want *ModelMissingError with exit 2, got %v", err)
	}
	if want := "Ollama at " + srv.URL + ": model qwen2.5-coder:14b is not available on that server (ollama pull qwen2.5-coder:14b)"; err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
}
