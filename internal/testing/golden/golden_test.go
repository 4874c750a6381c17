package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestAssert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, got string
		fail      bool
	}{
		{path, "same\n", false},
		{path, "different\n", true},
		{path + ".missing", "same\n", true},
	} {
		r := &recorder{TB: t}
		Assert(r, tc.path, tc.got)
		if r.failed != tc.fail {
			t.Errorf("Assert(%s, %q) failed = %v, want %v", filepath.Base(tc.path), tc.got, r.failed, tc.fail)
		}
	}
}
