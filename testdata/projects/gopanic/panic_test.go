package gopanic

import "testing"

func lookup(m map[string]int, k string) int {
	var p *int
	if v, ok := m[k]; ok {
		p = &v
	}
	return *p
}

func TestLookup(t *testing.T) {
	if lookup(map[string]int{}, "missing") != 0 {
		t.Fatal("unreachable")
	}
}
