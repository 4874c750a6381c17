package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Fatalf("Add(1, 2) = %d, want 3", got)
	}
}

func TestSub(t *testing.T) {
	t.Log("checking Sub")
	if got := Sub(3, 1); got != 2 {
		t.Errorf("Sub(3, 1) = %d, want 2", got)
	}
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name       string
		a, b, want int
	}{{"zero", 0, 0, 0}, {"one", 2, 1, 1}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Sub(c.a, c.b); got != c.want {
				t.Errorf("Sub(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
			}
		})
	}
}
