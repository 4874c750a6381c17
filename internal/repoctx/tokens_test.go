package repoctx

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	for s, want := range map[string]int{
		"":                  0,
		"func":              2, // 4 letters: ceil(4/3)
		"x := 42\n":         1 + 1 + 2 + 1 + 2 + 1,
		"\t\treturn nil\n":  1 + 2 + 1 + 1 + 1,
		"héllo":             1 + 2 + 1, // h, two bytes of é, llo
		"ParseDate(s)":      3 + 1 + 1 + 1,
		"   \t  ":           1,
		"12345678901234567": 17,
	} {
		if got := EstimateTokens(s); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", s, got, want)
		}
	}
}

// The packer sums estimates of pieces; that is only safe if the estimate of
// a concatenation never exceeds the sum.
func TestEstimateTokensSubadditive(t *testing.T) {
	src := bytes.Join(ownSources(t), nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 2000; k++ {
		i := rng.IntN(len(src))
		j := i + rng.IntN(len(src)-i)
		m := i + rng.IntN(j-i+1)
		a, b := string(src[i:m]), string(src[m:j])
		if EstimateTokens(a+b) > EstimateTokens(a)+EstimateTokens(b) {
			t.Fatalf("estimate of %q+%q above the sum of estimates", a, b)
		}
	}
}

// A real tokenizer needs at least one token per 4-5 bytes of Go; the
// estimate must not be below that, or packs would overflow the window.
func TestEstimateTokensIsHigh(t *testing.T) {
	src := bytes.Join(ownSources(t), nil)
	if n := EstimateTokens(string(src)); n < len(src)/4 {
		t.Errorf("EstimateTokens = %d for %d bytes of Go: below one token per 4 bytes", n, len(src))
	}
}

// ownSources is this package's Go files: real Go that is in the
// repository, so that every machine tests the same bytes (the files of
// GOROOT change with the Go version).
func ownSources(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil || len(paths) < 5 {
		t.Fatalf("this package's Go files: %v %v", paths, err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
