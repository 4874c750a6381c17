package sum

import "testing"

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 6 {
		t.Errorf("Sum(1, 2, 3) = %d, want 6", got)
	}
}

func TestSumEmpty(t *testing.T) {
	if got := Sum(nil); got != 0 {
		t.Errorf("Sum() = %d, want 0", got)
	}
}

func TestMean(t *testing.T) {
	if got := Mean([]int{2, 4}); got != 3 {
		t.Errorf("Mean(2, 4) = %d, want 3", got)
	}
}
