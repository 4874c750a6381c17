//go:build !unix

package repoctx

import (
	"io"
	"os"
)

// readFile reads the regular file name into buf, grown if it is short, and
// returns buf and the length read, or why the file is skipped. It reads
// what Stat said, with no second read to see EOF: a file that grows
// meanwhile is cut at its old size.
func readFile(name string, buf []byte) ([]byte, int, skipReason) {
	f, err := os.Open(name)
	if err != nil {
		return buf, 0, skipUnreadable
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return buf, 0, skipUnreadable
	}
	if st.Size() > maxFileBytes {
		return buf, 0, skipHuge
	}
	n := int(st.Size())
	if cap(buf) < n {
		buf = make([]byte, n, n+n/2)
	}
	k, err := io.ReadFull(f, buf[:n])
	if err != nil && err != io.ErrUnexpectedEOF {
		return buf, 0, skipUnreadable
	}
	return buf, k, indexed
}
