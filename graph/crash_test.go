package graph_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leaper-dev/leaper/graph"
)

// TestOpenAfterCrashLeftEmptyFiles: a build killed between Badger creating
// a memtable or value-log file and its first write leaves a 0-byte file,
// which Badger's Open refuses (badger #2207); the next build must reopen
// the store and carry on.
func TestOpenAfterCrashLeftEmptyFiles(t *testing.T) {
	for _, name := range []string{"00042.mem", "000042.vlog"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := graph.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err = graph.Open(dir, nil)
			if err != nil {
				t.Fatalf("reopen with an empty %s: %v", name, err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
