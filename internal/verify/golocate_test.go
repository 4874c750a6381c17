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

// TestLocatorFindsModulesBelowTheRoot: the commands run from the
// repository's root; go -C go test ./... tests a module in go/, and go -C
// server test ./... one nested in server/ whose path is not its
// directory's. A failure's file, a trimmed frame and a package resolve
// through the module that holds them, the innermost first; a module under
// testdata, which the go command never tests, resolves nothing.
func TestLocatorFindsModulesBelowTheRoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, body := range map[string]string{
		"go/go.mod":                       "module example.com/calc\n",
		"go/calc/sum_test.go":             "package calc\n",
		"go/calc/sum.go":                  "package calc\n",
		"go/server/go.mod":                "module go.etcd.io/etcd/server/v3\n",
		"go/server/raft/node_test.go":     "package raft\n",
		"go/testdata/mod/go.mod":          "module example.com/fixture\n",
		"go/testdata/mod/fixture_test.go": "package fixture\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := newGoLocator(root)
	for _, c := range []struct{ pkg, name, want string }{
		{"example.com/calc/calc", "sum_test.go", "go/calc/sum_test.go"},
		{"go.etcd.io/etcd/server/v3/raft", "node_test.go", "go/server/raft/node_test.go"},
		{"example.com/fixture", "fixture_test.go", "fixture_test.go"},
	} {
		if got := l.pkgFile(c.pkg, c.name); got != c.want {
			t.Errorf("pkgFile(%q, %q) = %q, want %q", c.pkg, c.name, got, c.want)
		}
	}
	if got, ok := l.frameFile("example.com/calc/calc/sum.go"); !ok || got != "go/calc/sum.go" {
		t.Errorf("frameFile of a trimmed frame = %q, %v; want go/calc/sum.go", got, ok)
	}
	// A module at the root, and one nested in server/ (etcd's layout):
	// the root's packages resolve through it, the nested one's through
	// its own.
	etcd := t.TempDir()
	if err := os.WriteFile(filepath.Join(etcd, "go.mod"), []byte("module go.etcd.io/etcd/v3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"raft", "server"} {
		if err := os.MkdirAll(filepath.Join(etcd, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(etcd, "raft", "raft_test.go"), []byte("package raft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(etcd, "server", "go.mod"), []byte("module go.etcd.io/etcd/server/v3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(etcd, "server", "s_test.go"), []byte("package server\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newGoLocator(etcd)
	if got := e.pkgFile("go.etcd.io/etcd/v3/raft", "raft_test.go"); got != "raft/raft_test.go" {
		t.Errorf("the root module's package: %q, want raft/raft_test.go", got)
	}
	if got := e.pkgFile("go.etcd.io/etcd/server/v3", "s_test.go"); got != "server/s_test.go" {
		t.Errorf("the nested module's package: %q, want server/s_test.go", got)
	}
	out := "    sum_test.go:7: Sum(1, 2) = -1, want 3\n"
	if loc, line := l.testLocation("example.com/calc/calc", out); loc != "go/calc/sum_test.go" || line != 7 {
		t.Errorf("testLocation = %s:%d, want go/calc/sum_test.go:7", loc, line)
	}
}
