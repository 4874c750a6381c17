package b

import (
	"testing"

	"example.com/gocross/a"
)

func TestFirstOfNothing(t *testing.T) {
	if a.First(nil) != 0 {
		t.Fatal("want 0")
	}
}
