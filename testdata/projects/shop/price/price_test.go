package price

import "testing"

func TestDiscount(t *testing.T) {
	for _, tc := range []struct{ cents, percent, want int }{
		{1000, 10, 900},
		{2000, 25, 1500},
		{1000, 0, 1000},
	} {
		if got := Discount(tc.cents, tc.percent); got != tc.want {
			t.Errorf("Discount(%d, %d) = %d, want %d", tc.cents, tc.percent, got, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	if got := Format(1250); got != "12.50 EUR" {
		t.Errorf("Format(1250) = %q", got)
	}
}
