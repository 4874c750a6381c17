package abs

import "testing"

func TestAbsPositive(t *testing.T) {
	if got := Abs(3); got != 3 {
		t.Fatalf("Abs(3) = %d, want 3", got)
	}
}

func TestMax(t *testing.T) {
	if got := Max(2, 5); got != 5 {
		t.Fatalf("Max(2, 5) = %d, want 5", got)
	}
}
