package repoctx

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: the target is raised unless the user set GOGC. Not
// parallel: the target is the process's.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		gogc string
		want int
	}{
		{"", packGCPercent},
		{"50", 100}, // left as the runtime set it (here: 100, set above)
		{"off", 100},
	} {
		debug.SetGCPercent(100)
		t.Setenv("GOGC", c.gogc)
		TuneGC()
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q: target %d, want %d", c.gogc, got, c.want)
		}
	}
}
