package goflaky

import (
	"os"
	"testing"
)

func TestSteady(t *testing.T) {}

// TestFlaky fails the first time it runs and passes after: it leaves a
// marker file behind.
func TestFlaky(t *testing.T) {
	marker := os.Getenv("FLAKY_MARKER")
	if _, err := os.Stat(marker); err != nil {
		os.WriteFile(marker, nil, 0o644)
		t.Fatal("failed on the first run")
	}
}
