package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite checks that a file is replaced only by a write that
// succeeded, and that a failed one leaves neither a change nor a
// temporary file behind.
func TestWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.jsonl")
	os.WriteFile(p, []byte("old\n"), 0o644)
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("a failed write returned %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Errorf("a failed write changed the file: %q", b)
	}
	if _, err := os.Stat(p + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("a failed write left its temporary file: %v", err)
	}
	if err := Write(p, func(w io.Writer) error { _, err := w.Write([]byte("new\n")); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("file after a write: %q", b)
	}
	if err := Write(filepath.Join(t.TempDir(), "no", "dir", "f"), func(io.Writer) error { return nil }); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
