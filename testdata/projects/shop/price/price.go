// Package price computes prices in cents.
package price

import "fmt"

// Discount returns cents less percent per cent of it, rounded down to a
// whole cent.
func Discount(cents, percent int) int {
	return cents - cents*percent/10
}

// Format writes cents as euros, e.g. 12.50 EUR.
func Format(cents int) string {
	return fmt.Sprintf("%d.%02d EUR", cents/100, cents%100)
}
