package llm

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestNumCtx(t *testing.T) {
	tests := []struct {
		prompt, reply, model, want int
	}{
		{0, 0, 0, 2048},
		{100, 500, 32768, 2048},
		{1000, 1000, 32768, 4096}, // 2250 with the margin
		{3000, 4096, 32768, 8192},
		{7000, 0, 32768, 8192},
		{7300, 0, 32768, 16384}, // 8212 with the margin
		{20000, 4096, 0, 32768}, // unknown model length: no cap
		{20000, 4096, 16384, 16384},
		{100, 100, 1024, 1024}, // never more than the model has
	}
	for _, tt := range tests {
		if got := NumCtx(tt.prompt, tt.reply, tt.model); got != tt.want {
			t.Errorf("NumCtx(%d, %d, %d) = %d, want %d", tt.prompt, tt.reply, tt.model, got, tt.want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	msgs := []Message{{Role: "system", Content: "12345678"}, {Role: "user", Content: "return nil"}}
	if got, want := EstimateTokens(msgs), 8+templateTokens+3+templateTokens; got != want {
		t.Errorf("EstimateTokens = %d, want %d (8 digits, two words, two templates)", got, want)
	}
}

// A prompt that holds a context pack must be estimated above what the
// model's tokenizer counts, or the window Chat asks for is too small and
// the server refuses the prompt. The three packs of ../tokens/testdata were
// counted by eight real tokenizers (bench/tokens/count.mjs): Qwen 2.5 and
// 3, Llama 2 and 3, DeepSeek V3, Gemma 2 and 3, Mistral Nemo.
func TestEstimateTokensHoldsWhatTokenizersCount(t *testing.T) {
	dir := filepath.Join("..", "tokens", "testdata", "tokens")
	f, err := os.Open(filepath.Join(dir, "counts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var r struct {
			Path   string         `json:"path"`
			Counts map[string]int `json:"counts"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		pack, err := os.ReadFile(filepath.Join(dir, r.Path))
		if err != nil {
			t.Fatal(err)
		}
		msgs := []Message{{Role: "system", Content: "Fix the failing test."}, {Role: "user", Content: string(pack)}}
		est := EstimateTokens(msgs)
		for who, real := range r.Counts {
			if est < real+2*5 {
				t.Errorf("%s as a prompt: estimated %d tokens, %s counts %d and two templates of 5", r.Path, est, who, real)
			}
		}
	}
	if n < 3 {
		t.Fatalf("%d packs counted in %s, want 3", n, dir)
	}
}
