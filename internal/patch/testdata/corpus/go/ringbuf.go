// Package ringbuf is a fixed-size byte ring used by the corpus test of
// the patch package. It is test input, not code that is built.
package ringbuf

import (
	"errors"
	"io"
	"sync"
)

// ErrFull is returned when a write does not fit.
var ErrFull = errors.New("ringbuf: full")

// ErrEmpty is returned when there is nothing to read.
var ErrEmpty = errors.New("ringbuf: empty")

// Ring is a byte ring buffer. The zero value is not usable; call New.
type Ring struct {
	mu   sync.Mutex
	buf  []byte
	r, w int
	n    int
}

// New returns a ring holding up to size bytes.
func New(size int) *Ring {
	return &Ring{buf: make([]byte, size)}
}

// Len is the number of unread bytes.
func (b *Ring) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// Free is the number of bytes that can be written.
func (b *Ring) Free() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.buf) - b.n
}

// Read reads up to len(p) bytes.
func (b *Ring) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		return 0, ErrEmpty
	}
	n := 0
	for n < len(p) && b.n > 0 {
		p[n] = b.buf[b.r]
		b.r = (b.r + 1) % len(b.buf)
		b.n--
		n++
	}
	return n, nil
}

// Write writes all of p or nothing.
func (b *Ring) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(p) > len(b.buf)-b.n {
		return 0, ErrFull
	}
	n := 0
	for n < len(p) {
		b.buf[b.w] = p[n]
		b.w = (b.w + 1) % len(b.buf)
		b.n++
		n++
	}
	return n, nil
}

// ReadFrom fills the ring from r until it is full or r ends.
func (b *Ring) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	chunk := make([]byte, 512)
	for {
		free := b.Free()
		if free == 0 {
			return total, nil
		}
		n, err := r.Read(chunk[:min(free, len(chunk))])
		if n > 0 {
			if _, werr := b.Write(chunk[:n]); werr != nil {
				return total, werr
			}
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// WriteTo drains the ring into w.
func (b *Ring) WriteTo(w io.Writer) (int64, error) {
	var total int64
	chunk := make([]byte, 512)
	for {
		n, err := b.Read(chunk)
		if err == ErrEmpty {
			return total, nil
		}
		if n > 0 {
			m, werr := w.Write(chunk[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err != nil {
			return total, err
		}
	}
}

// Reset empties the ring.
func (b *Ring) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.r, b.w, b.n = 0, 0, 0
}
