package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFrameFileWithAndWithoutTrimpath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
	l := newGoLocator(root)
	for _, c := range []struct {
		frame, want string
		inside      bool
	}{
		{filepath.Join(root, "pkg", "f.go"), "pkg/f.go", true},
		{"example.com/m/pkg/f.go", "pkg/f.go", true}, // -trimpath
		{"example.com/m/f.go", "f.go", true},
		{"runtime/panic.go", "", false}, // the standard library, trimmed
		{"testing/testing.go", "", false},
		{"example.com/mother/f.go", "", false}, // another module sharing the prefix
		{"github.com/x/y@v1.2.3/z.go", "", false},
		{"/usr/local/go/src/runtime/panic.go", "", false},
	} {
		got, ok := l.frameFile(c.frame)
		if got != c.want || ok != c.inside {
			t.Errorf("frameFile(%q) = %q, %v; want %q, %v", c.frame, got, ok, c.want, c.inside)
		}
	}
}

func TestTrimTraceKeepsTrimmedFramesOfTheModule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n"), 0o644)
	out := "panic: boom\n\ngoroutine 7 [running]:\n" +
		"testing.tRunner.func1.2({0x1, 0x2})\n\ttesting/testing.go:1974 +0x232\n" +
		"example.com/m/pkg.Lookup(...)\n\texample.com/m/pkg/f.go:12\n" +
		"example.com/m/pkg.TestLookup(0xc0)\n\texample.com/m/pkg/f_test.go:9 +0x1d\n"
	got := newGoLocator(root).trimTrace(out)
	for _, want := range []string{"\tpkg/f.go:12\n", "\tpkg/f_test.go:9 +0x1d\n", "1 stack frames outside the repository left out"} {
		if !strings.Contains(got, want) {
			t.Errorf("trimmed trace lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "testing/testing.go") {
		t.Errorf("the standard library's trimmed frame is kept:\n%s", got)
	}
	if loc, line := newGoLocator(root).testLocation("example.com/m/pkg", out); loc != "pkg/f.go" || line != 12 {
		t.Errorf("testLocation = %s:%d, want pkg/f.go:12", loc, line)
	}
}
