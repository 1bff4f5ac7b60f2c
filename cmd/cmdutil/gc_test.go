package cmdutil

import (
	"runtime/debug"
	"testing"

	"github.com/leaper-dev/leaper/ingest"
)

// TestCollectNear checks the collector settings a build or a server runs
// with, that they are put back, and that GOGC in the environment wins.
func TestCollectNear(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := CollectNear(1<<30, -1)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent %d under a server's memory budget, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != ingest.HeapLimit(1<<30) {
		t.Errorf("memory limit %d, want %d", l, ingest.HeapLimit(1<<30))
	}
	restore()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent %d after restore, want 100", p)
	}
	restore = CollectNear(1<<30, 100)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent %d under a build's memory budget, want %d", p, 100)
	}
	if l := debug.SetMemoryLimit(-1); l != ingest.HeapLimit(1<<30) {
		t.Errorf("build: memory limit %d, want %d", l, ingest.HeapLimit(1<<30))
	}
	restore()
	restore = CollectNear(0, -1)
	if p := debug.SetGCPercent(400); p != 400 {
		t.Errorf("GC percent %d with no budget, want 400", p)
	}
	restore()
	t.Setenv("GOGC", "50")
	restore = CollectNear(1<<30, 100)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC=50 in the environment: GC percent changed to %d", p)
	}
	restore()
}
