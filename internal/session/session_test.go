package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecordThenRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(f)
	if err := rec.Record("start", map[string]string{"model": "m"}); err != nil {
		t.Fatal(err)
	}
	// What is recorded is on disk at once, before the file is closed.
	events, err := ReadFile(path)
	if err != nil || len(events) != 1 || events[0].Kind != "start" || events[0].Seq != 1 {
		t.Fatalf("after one event: %v %+v", err, events)
	}
	if err := rec.Record("chat", struct{ Reply string }{"```diff\n+x\n```"}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	events, err = ReadFile(path)
	if err != nil || len(events) != 2 {
		t.Fatalf("%v %+v", err, events)
	}
	var chat struct{ Reply string }
	if err := events[1].Decode(&chat); err != nil || chat.Reply != "```diff\n+x\n```" {
		t.Errorf("chat = %+v, %v", chat, err)
	}
}

func TestReadDropsATruncatedLastLine(t *testing.T) {
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	rec.Record("start", map[string]int{"a": 1})
	rec.Record("transition", map[string]string{"to": "plan"})
	cut := buf.String()[:buf.Len()-10]
	events, err := Read(strings.NewReader(cut))
	if err != nil || len(events) != 1 {
		t.Fatalf("Read(cut) = %v, %d events; want the 1 whole event", err, len(events))
	}
	_, err = Read(strings.NewReader("{bad\n" + buf.String()))
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad first line: err = %v", err)
	}
}

func TestRangeHashes(t *testing.T) {
	diff := `diff --git a/sum.go b/sum.go
--- a/sum.go
+++ b/sum.go
@@ -3,3 +3,3 @@ func Sum(xs []int) int {
 	t := 0
-	for i := 1; i < len(xs); i++ {
+	for i := 0; i < len(xs); i++ {
 		t += xs[i]
@@ -10 +10,2 @@
 x
+y
diff --git a/new.go b/new.go
--- /dev/null
+++ b/new.go
@@ -0,0 +1 @@
+package new
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1 +0,0 @@
-package old
`
	got := RangeHashes(diff)
	if len(got) != 4 || got[3].File != "old.go" || got[3].Lines != 0 {
		t.Fatalf("got %d ranges: %v", len(got), got)
	}
	want := []struct {
		file         string
		start, lines int
	}{{"sum.go", 3, 3}, {"sum.go", 10, 2}, {"new.go", 1, 1}}
	for i, w := range want {
		if got[i].File != w.file || got[i].Start != w.start || got[i].Lines != w.lines || len(got[i].SHA256) != 64 {
			t.Errorf("range %d = %v, want %v", i, got[i], w)
		}
	}
	// sha256("package new\n")
	if got[2].SHA256 != "9aa2a5429d52a7a95cb3a251ec76ea471e944ed7b25cccf08f5f3f405c0b16c8" {
		t.Errorf("new.go hash = %s", got[2].SHA256)
	}
	if a, b := RangeHashes(diff), RangeHashes(diff); a[0] != b[0] {
		t.Error("not deterministic")
	}
}
