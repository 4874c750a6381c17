package patch

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestLineDiff checks that applying the edit script to a gives b, for
// random pairs and for pairs too different for the bounded search.
func TestLineDiff(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	gen := func(n, alphabet int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(rng.Intn(alphabet))
		}
		return s
	}
	for i := 0; i < 300; i++ {
		a, b := gen(rng.Intn(40), 5), gen(rng.Intn(40), 5)
		if i%50 == 0 {
			a, b = gen(3000, 1000), gen(3000, 1000) // beyond maxEdits
		}
		var got, from []string
		for _, o := range lineDiff(a, b) {
			switch o.kind {
			case opEqual:
				if a[o.ai] != b[o.bi] {
					t.Fatalf("equal op on different lines")
				}
				got, from = append(got, a[o.ai]), append(from, a[o.ai])
			case opDelete:
				from = append(from, a[o.ai])
			case opInsert:
				got = append(got, b[o.bi])
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(b) || fmt.Sprint(from) != fmt.Sprint(a) {
			t.Fatalf("case %d: script does not turn a into b", i)
		}
	}
}
