package other

import "testing"

func TestFine(t *testing.T) {}
