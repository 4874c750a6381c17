// Package a has a bug that panics.
package a

// First returns the first element of s.
func First(s []int) int {
	return s[0]
}
