// Command shop prints a discounted price.
package main

import (
	"fmt"

	"example.com/shop/price"
)

func main() {
	fmt.Println(price.Format(price.Discount(1000, 10)))
}
