package verify

import (
	"bytes"
	"strings"
	"testing"
)

func TestCapBufferKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	var all bytes.Buffer
	b := newCapBuffer(1000)
	for i := 0; i < 5000; i++ {
		line := strings.Repeat(string(rune('a'+i%26)), i%37) + "\n"
		all.WriteString(line)
		b.Write([]byte(line))
	}
	if !b.Truncated() {
		t.Fatal("not truncated")
	}
	s := b.String()
	head, tail, ok := strings.Cut(s, "[... agentfix cut ")
	if !ok {
		t.Fatalf("no cut marker in %q", s)
	}
	if !strings.HasPrefix(all.String(), head) {
		t.Error("head is not a prefix of the output")
	}
	_, tail, _ = strings.Cut(tail, "here ...]\n")
	if !strings.HasSuffix(all.String(), tail) || len(tail) < 400 {
		t.Errorf("tail (%d bytes) is not a suffix of the output", len(tail))
	}
	if len(s) > 1100 {
		t.Errorf("kept %d bytes for a cap of 1000", len(s))
	}
}

// FuzzCapBuffer checks the buffer against the obvious implementation: the
// whole output when it fits, else its first and last bytes.
func FuzzCapBuffer(f *testing.F) {
	f.Add([]byte("hello world"), 4, 3)
	f.Fuzz(func(t *testing.T, data []byte, capacity, chunk int) {
		capacity = 2 + abs(capacity)%64
		chunk = 1 + abs(chunk)%17
		b := newCapBuffer(capacity)
		for p := data; len(p) > 0; {
			n := min(chunk, len(p))
			b.Write(p[:n])
			p = p[n:]
		}
		if len(data) <= capacity {
			if b.Truncated() || b.String() != string(data) {
				t.Fatalf("cap %d kept %q of %q", capacity, b.String(), data)
			}
			return
		}
		headLen := capacity - capacity/2
		tail := append(append([]byte(nil), b.tail[b.start:]...), b.tail[:b.start]...)
		if string(b.head) != string(data[:headLen]) || string(tail) != string(data[len(data)-capacity/2:]) {
			t.Fatalf("cap %d chunk %d: head %q tail %q of %q", capacity, chunk, b.head, tail, data)
		}
		if b.dropped != int64(len(data)-capacity) {
			t.Fatalf("dropped %d, want %d", b.dropped, len(data)-capacity)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
