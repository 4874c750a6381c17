package repoctx

import (
	"os"
	"runtime/debug"
)

// packGCPercent is the garbage collector's target (GOGC) for a process
// that packs context: the scan and the outlines make short-lived garbage
// of every file they read, and at Go's default of 100 the collector runs
// every few megabytes of it. At 400, bench/context/ab.sh on a 20k-file
// corpus: median CPU 1.87x -> 1.71x git grep's, wall 1.92x -> 1.77x; peak
// RSS 27-40 -> 39-58 MiB (the goal is 256 MB).
const packGCPercent = 400

// TuneGC sets the garbage collector's target to packGCPercent, unless
// GOGC says otherwise: a user's setting stands. Commands that pack
// context call it once, at start; it is the process's setting, not one a
// library call should change behind its caller.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(packGCPercent)
	}
}
