package repoctx

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCutGivesSeparateSlices(t *testing.T) {
	var slab []termCount
	var cuts [][]termCount
	for n := 1; n < 3000; n += 7 {
		c := cut(&slab, n)
		if len(c) != n || cap(c) != n {
			t.Fatalf("cut(%d): len %d cap %d, want both %d (an append must not write into the next cut)", n, len(c), cap(c), n)
		}
		for k := range c {
			c[k] = termCount{term: uint8(n), n: uint16(k)}
		}
		cuts = append(cuts, c)
	}
	for _, c := range cuts {
		for k, tc := range c {
			if int(tc.term) != len(c)&0xff || int(tc.n) != k {
				t.Fatalf("a later cut overwrote cut of %d at %d: %+v", len(c), k, tc)
			}
		}
	}
}

func TestReadFileSkips(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("package x\n"); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	huge := write("huge.go", maxFileBytes+1)
	limit := write("limit.go", maxFileBytes)
	empty := write("empty.go", 0)
	small := write("small.go", 10)
	for _, c := range []struct {
		name string
		path string
		want skipReason
		n    int
	}{
		{"small", small, indexed, 10},
		{"empty", empty, indexed, 0},
		{"at the limit", limit, indexed, maxFileBytes},
		{"over the limit", huge, skipHuge, 0},
		{"missing", filepath.Join(dir, "none.go"), skipUnreadable, 0},
		{"a directory", dir, skipUnreadable, 0},
		{"a device", os.DevNull, skipUnreadable, 0},
	} {
		buf, n, skip := readFile(c.path, make([]byte, 0, 4))
		if skip != c.want || n != c.n {
			t.Errorf("%s: skip %d, %d bytes; want skip %d, %d bytes", c.name, skip, n, c.want, c.n)
		}
		if c.n == 10 && string(buf[:n]) != "package x\n" {
			t.Errorf("%s: read %q", c.name, buf[:n])
		}
	}
}
