package llm

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNumCtx(t *testing.T) {
	tests := []struct {
		prompt, reply, model, want int
	}{
		{0, 0, 0, 2048},
		{100, 500, 32768, 2048},
		{1000, 1000, 32768, 2048}, // the count is high already: no margin
		{1500, 1000, 32768, 4096},
		{3000, 4096, 32768, 8192},
		{8192, 0, 32768, 8192},
		{8193, 0, 32768, 16384},
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
	for _, r := range countedPacks(t) {
		msgs := []Message{{Role: "system", Content: "Fix the failing test."}, {Role: "user", Content: r.text}}
		est := EstimateTokens(msgs)
		for who, real := range r.Counts {
			if est < real+2*5 {
				t.Errorf("%s as a prompt: estimated %d tokens, %s counts %d and two templates of 5", r.Path, est, who, real)
			}
		}
	}
}

// countedPack is a pack of ../tokens/testdata and the real tokenizers'
// counts of it.
type countedPack struct {
	Path   string         `json:"path"`
	Counts map[string]int `json:"counts"`
	text   string
}

// countedPacks reads the three packs of ../tokens/testdata/tokens, which
// bench/tokens/count.mjs counted.
func countedPacks(t *testing.T) []countedPack {
	t.Helper()
	dir := filepath.Join("..", "tokens", "testdata", "tokens")
	f, err := os.Open(filepath.Join(dir, "counts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []countedPack
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r countedPack
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		pack, err := os.ReadFile(filepath.Join(dir, r.Path))
		if err != nil {
			t.Fatal(err)
		}
		r.text = string(pack)
		out = append(out, r)
	}
	if len(out) < 3 {
		t.Fatalf("%d packs counted in %s, want 3", len(out), dir)
	}
	return out
}

// A model whose tokenizer was measured gets the count divided by what it
// was measured to need at least; any other, the count as it is.
func TestWindowTokens(t *testing.T) {
	msgs := []Message{{Role: "user", Content: strings.Repeat("return nil\n", 3500)}} // 14000 + 8
	for pre, want := range map[string]int{
		"":          14008,
		"default":   14008,
		"qwen2":     11207, // 14008 / 1.25, rounded up
		"llama-bpe": 9661,
	} {
		if got := WindowTokens(msgs, pre); got != want {
			t.Errorf("WindowTokens(_, %q) = %d, want %d", pre, got, want)
		}
	}
}

// The division keeps the window above what the tokenizer counts: each
// counted pack, as a prompt for a model of that tokenizer, is estimated
// above the tokenizer's count.
func TestWindowTokensHoldsWhatTheTokenizerCounts(t *testing.T) {
	pres := map[string]string{"qwen2_5": "qwen2", "qwen3": "qwen2", "llama3": "llama-bpe", "deepseek_v3": "deepseek-v3", "mistral_nemo": "tekken"}
	for _, r := range countedPacks(t) {
		for who, pre := range pres {
			msgs := []Message{{Role: "user", Content: r.text}}
			if got, real := WindowTokens(msgs, pre), r.Counts[who]+5; got < real {
				t.Errorf("%s for a %s model: %d tokens, %s counts %d with a template", r.Path, pre, got, who, real)
			}
		}
	}
}
