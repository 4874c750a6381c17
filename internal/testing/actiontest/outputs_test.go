package actiontest

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestReadOutputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "github_output")
	body := "result=fixed\nbody<<ghadelimiter_1\nline one\nline two\nghadelimiter_1\nempty<<EOF\nEOF\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got := readOutputs(path)
	want := map[string]string{"result": "fixed", "body": "line one\nline two", "empty": ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readOutputs = %q, want %q", got, want)
	}
	if got := readOutputs(filepath.Join(t.TempDir(), "missing")); len(got) != 0 {
		t.Errorf("a missing file has outputs %q", got)
	}
}
