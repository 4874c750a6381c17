package repoctx

import "testing"

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
