package verify

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// capBuffer keeps the first and the last bytes written to it, up to a
// total of cap, and counts what it dropped in between. Test output is most
// useful at both ends: the first failure near the head, the summary at the
// tail.
type capBuffer struct {
	cap     int
	head    []byte
	tail    []byte // ring buffer of the last cap/2 bytes once head is full
	start   int    // index of the oldest byte in tail, once it is full
	dropped int64
}

func newCapBuffer(cap int) *capBuffer {
	if cap < 2 {
		cap = 2
	}
	return &capBuffer{cap: cap}
}

// Write never fails: what does not fit is counted, not kept.
func (b *capBuffer) Write(p []byte) (int, error) {
	n := len(p)
	headCap := b.cap - b.cap/2
	if room := headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	tailCap := b.cap / 2
	for len(p) > 0 {
		if len(b.tail) < tailCap {
			k := min(tailCap-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		// Full: overwrite the oldest bytes.
		if len(p) >= tailCap {
			b.dropped += int64(len(b.tail)) + int64(len(p)-tailCap)
			copy(b.tail, p[len(p)-tailCap:])
			b.start = 0
			break
		}
		k := min(tailCap-b.start, len(p))
		copy(b.tail[b.start:], p[:k])
		b.dropped += int64(k)
		b.start = (b.start + k) % tailCap
		p = p[k:]
	}
	return n, nil
}

// Truncated reports whether anything was dropped.
func (b *capBuffer) Truncated() bool { return b.dropped > 0 }

// String is the head, a line marking the cut, and the tail.
func (b *capBuffer) String() string {
	tail := append(append([]byte(nil), b.tail[b.start:]...), b.tail[:b.start]...)
	if b.dropped == 0 {
		return string(b.head) + string(tail)
	}
	return cutString(string(b.head), string(tail), b.dropped)
}

// cutString joins head and tail around a marker, trimming both to whole
// lines (and whole UTF-8 characters) where that loses little.
func cutString(head, tail string, dropped int64) string {
	if i := strings.LastIndexByte(head, '\n'); i >= 0 && len(head)-i < 512 {
		dropped += int64(len(head) - i - 1)
		head = head[:i+1]
	}
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < 512 {
		dropped += int64(i + 1)
		tail = tail[i+1:]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
		dropped++
	}
	if head != "" && head[len(head)-1] != '\n' {
		head += "\n"
	}
	return fmt.Sprintf("%s[... agentfix cut %d bytes of output here ...]\n%s", head, dropped, tail)
}

// TrimMiddle returns s unchanged if it fits in max bytes, else its head and
// tail around a cut marker.
func TrimMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	b := newCapBuffer(max)
	b.Write([]byte(s))
	return b.String()
}
