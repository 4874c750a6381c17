package repoctx

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkMatcher measures the scanner's inner loop on this package's own
// Go (the same bytes on every machine) with a typical failing-test query.
func BenchmarkMatcher(b *testing.B) {
	src := bytes.Join(ownSources(b), nil)
	q := parseQuery("--- FAIL: TestServeMux (0.00s)\n    server_test.go:42: ServeMux.Handle(\"/x\") = nil, want handler\nFAIL\tnet/http\t0.01s\n")
	m := q.matcher()
	b.SetBytes(int64(len(src)))
	n := 0
	for b.Loop() {
		m.each(src, func(pos, t int) { n++ })
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
