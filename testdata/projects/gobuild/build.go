// Package gobuild does not compile.
package gobuild

// Twice doubles n.
func Twice(n int) int {
	return n * tw
}
