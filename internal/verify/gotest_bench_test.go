package verify

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkGoJSON measures decoding a go test -json stream: 10,000 output
// events of 100 bytes, the bulk of a chatty suite.
func BenchmarkGoJSON(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&sb, `{"Time":"2026-11-21T15:03:50.294080725Z","Action":"output","Package":"example.com/m/p","Test":"TestA","Output":"    p_test.go:3: line %05d \"quoted\" \\u00e9 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"}`+"\n", i)
	}
	stream := []byte(sb.String())
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		g := newGoJSON(io.Discard)
		for p := stream; len(p) > 0; {
			n := min(32<<10, len(p))
			g.Write(p[:n])
			p = p[n:]
		}
		g.failures(&goLocator{root: "/"}, false)
	}
}
