package llm

import "testing"

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
	msgs := []Message{{Role: "system", Content: "12345678"}, {Role: "user", Content: "123"}}
	if got := EstimateTokens(msgs); got != 2+4+1+4 {
		t.Errorf("EstimateTokens = %d, want 11", got)
	}
}
