// Package golden compares what a test produced with a golden file kept
// under testdata, the text a reviewer reads to see what users will see.
// `go test ./pkg -update` rewrites the files instead of comparing.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Updating reports whether the test run was given -update.
func Updating() bool { return *update }

// Assert fails t unless got equals the file at path; with -update it writes
// got to path (creating its directory) instead.
func Assert(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it; review the diff)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
