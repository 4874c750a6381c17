// Package sum adds numbers.
package sum

// Sum returns the sum of xs.
func Sum(xs []int) int {
	t := 0
	for i := 1; i < len(xs); i++ {
		t += xs[i]
	}
	return t
}

// Mean returns the average of xs, 0 for none.
func Mean(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	return Sum(xs) / len(xs)
}
