package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfix/agentfix/internal/testing/actiontest"
)

// kvModule is a module whose package kv has a passing test, TestOK, and
// a failing one, TestGet.
func kvModule(t *testing.T) string {
	root := t.TempDir()
	actiontest.WriteFiles(t, root, map[string]string{
		"go.mod":        "module example.com/kv\n\ngo 1.22\n",
		"kv/kv.go":      "package kv\n\nfunc Get() bool { return true }\n",
		"kv/kv_test.go": "package kv\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) { t.Log(\"fine\") }\n\nfunc TestGet(t *testing.T) {\n\tif Get() {\n\t\tt.Error(\"Get found a missing key\")\n\t}\n}\n",
	})
	return root
}

// TestPackageOutput runs go test -v on a package with a passing and a
// failing test: the failure is the output, not an error; the cache then
// answers without running the tests again.
func TestPackageOutput(t *testing.T) {
	root := kvModule(t)
	cache := t.TempDir()
	goTestMode, goTestCache = "v", cache
	t.Cleanup(func() { goTestMode, goTestCache = "", "" })
	c := Case{ID: "kv@v1.0.1", Package: "kv"}
	out, err := packageOutput(root, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"=== RUN   TestOK", "--- PASS: TestOK", "kv_test.go:9: Get found a missing key", "--- FAIL: TestGet"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	cached := filepath.Join(cache, "kv@v1.0.1-v.txt")
	if err := os.WriteFile(cached, []byte("from the cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := packageOutput(root, c); err != nil || out != "from the cache" {
		t.Errorf("second run: %q, %v; want the cached output", out, err)
	}
	if _, err := packageOutput(filepath.Join(root, "missing"), Case{ID: "none", Package: "kv"}); err == nil || errors.Is(err, errTooLong) {
		t.Errorf("a tree that does not exist: %v, want an error that is not errTooLong", err)
	}
	goTestTimeout = time.Millisecond
	t.Cleanup(func() { goTestTimeout = testTimeout })
	if _, err := packageOutput(root, Case{ID: "slow", Package: "kv"}); !errors.Is(err, errTooLong) {
		t.Errorf("a run past the timeout: %v, want errTooLong", err)
	}
}

// TestPackageOutputOfGinkgoMode: -gotest ginkgo runs a package without
// Ginkgo specs as -gotest v does; usesGinkgo tells the packages whose
// tests import Ginkgo, which it runs with -ginkgo.v.
func TestPackageOutputOfGinkgoMode(t *testing.T) {
	root := t.TempDir()
	actiontest.WriteFiles(t, root, map[string]string{
		"go.mod":              "module example.com/kv\n\ngo 1.22\n",
		"kv/kv.go":            "package kv\n\nfunc Get() bool { return true }\n",
		"kv/kv_test.go":       "package kv\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tif Get() {\n\t\tt.Error(\"Get found a missing key\")\n\t}\n}\n",
		"specs/suite_test.go": "package specs\n\nimport (\n\t\"testing\"\n\n\t. \"github.com/onsi/ginkgo/v2\"\n)\n\nfunc TestSpecs(t *testing.T) { RunSpecs(t, \"Specs\") }\n",
	})
	goTestMode = "ginkgo"
	t.Cleanup(func() { goTestMode = "" })
	out, err := packageOutput(root, Case{ID: "kv@v1.0.1", Package: "kv"})
	if err != nil || !strings.Contains(out, "=== RUN   TestGet") || !strings.Contains(out, "Get found a missing key") {
		t.Errorf("go test of a package without specs: %v\n%s", err, out)
	}
	if usesGinkgo(filepath.Join(root, "kv")) || !usesGinkgo(filepath.Join(root, "specs")) {
		t.Errorf("usesGinkgo: kv %v, specs %v; want false, true", usesGinkgo(filepath.Join(root, "kv")), usesGinkgo(filepath.Join(root, "specs")))
	}
}
