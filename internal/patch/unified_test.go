package patch

import (
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	if d := Unified("a.yml", []byte("x\ny\n"), []byte("x\ny\n")); d != "" {
		t.Errorf("same content: %q", d)
	}
	if d := Unified("a.yml", nil, []byte("x\n")); !strings.Contains(d, "--- /dev/null\n+++ b/a.yml\n@@ -0,0 +1,1 @@\n+x\n") {
		t.Errorf("new file:\n%s", d)
	}
	if d := Unified("a.yml", []byte("x\ny\n"), []byte("x\nz\n")); !strings.Contains(d, "--- a/a.yml\n+++ b/a.yml\n") || !strings.Contains(d, "-y\n+z\n") {
		t.Errorf("changed file:\n%s", d)
	}
}
