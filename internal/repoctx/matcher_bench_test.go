package repoctx

import (
	"bytes"
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
