package gobig

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestBig prints 50 MB, in 51200 lines of 1 KiB, then fails.
func TestBig(t *testing.T) {
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	pad := strings.Repeat("x", 1024-len("line 00000 \n"))
	for i := 0; i < 51200; i++ {
		fmt.Fprintf(w, "line %05d %s\n", i, pad)
	}
	w.Flush()
	t.Fatal("printed 50 MB")
}
