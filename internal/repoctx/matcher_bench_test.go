package repoctx

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkMatcher measures the scanner's inner loop on a large Go file of
// the standard library with a typical failing-test query.
func BenchmarkMatcher(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	q := parseQuery("--- FAIL: TestServeMux (0.00s)\n    server_test.go:42: ServeMux.Handle(\"/x\") = nil, want handler\nFAIL\tnet/http\t0.01s\n")
	m := q.matcher()
	b.SetBytes(int64(len(src)))
	n := 0
	for b.Loop() {
		m.each(src, func(pos, t int) { n++ })
	}
}
