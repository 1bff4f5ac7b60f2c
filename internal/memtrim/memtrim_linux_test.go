package memtrim

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leaper-dev/leaper/internal/procmem"
)

func TestParseMapping(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
		path string
	}{
		{"7f2c4a000000-7f2c8a000000 rw-s 00000000 fe:00 1234                       /st ore/000001.vlog", true, "/st ore/000001.vlog"},
		{"7f2c4a000000-7f2c4a001000 r--s 00000000 fe:00 99 /s/000002.sst (deleted)", true, "/s/000002.sst"},
		{"7f2c4a000000-7f2c4a001000 r--p 00000000 fe:00 99 /usr/lib/x.so", false, ""},
		{"7f2c4a000000-7f2c4a001000 rw-s 00000000 00:01 99 /dev/zero (deleted)", true, "/dev/zero"},
		{"7f2c4a000000-7f2c4a001000 rw-s 00000000 00:00 0 ", false, ""},
		{"c000000000-c004000000 rw-p 00000000 00:00 0", false, ""},
	} {
		m, ok := parseMapping(c.line)
		if ok != c.ok || ok && m.path != c.path {
			t.Errorf("parseMapping(%q) = %+v, %v; want path %q, %v", c.line, m, ok, c.path, c.ok)
		}
	}
	if !under("/a/b/c.sst", []string{"/x", "/a/b"}) || under("/a/bc/d.sst", []string{"/a/b"}) {
		t.Error("under")
	}
}

// TestTrim maps a file, touches every page, and checks that Trim releases
// them and that the mapping still reads what was written.
func TestTrim(t *testing.T) {
	dir := t.TempDir()
	const size = 64 << 20
	data := mapFile(t, dir, size)
	for i := 0; i < size; i += 4096 {
		data[i] = byte(i >> 12)
	}
	before := procmem.Read().File
	// Dirty pages are written back first, then reclaimed: the first
	// Trim starts the write-back.
	var after int64
	for try := 0; try < 50; try++ {
		if err := Trim(dir); err != nil {
			t.Fatal(err)
		}
		if after = procmem.Read().File; before-after >= size/2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if before-after < size/2 {
		t.Fatalf("RssFile %d MiB before Trim, %d MiB after: want at least %d MiB released", before>>20, after>>20, size>>21)
	}
	for i := 0; i < size; i += 4096 {
		if data[i] != byte(i>>12) {
			t.Fatalf("byte %d is %d after Trim, want %d", i, data[i], byte(i>>12))
		}
	}
	// Another directory's mappings are left alone.
	for i := 0; i < size; i += 4096 {
		_ = data[i]
	}
	before = procmem.Read().File
	if err := Trim(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if after = procmem.Read().File; before-after > size/4 {
		t.Fatalf("Trim of another directory released %d MiB", (before-after)>>20)
	}
}

func TestTrimmer(t *testing.T) {
	dir := t.TempDir()
	const size = 32 << 20
	data := mapFile(t, dir, size)
	for i := 0; i < size; i += 4096 {
		data[i] = 1
	}
	tr := Start(1, 10*time.Millisecond, dir)
	deadline := time.Now().Add(10 * time.Second)
	for tr.Stats().Released < size/2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	st := tr.Stop()
	if st.Trims == 0 || st.Released < size/2 || st.Err != "" {
		t.Fatalf("Stats = %+v, want trims releasing at least %d MiB", st, size>>21)
	}
	if st.PeakFile < size {
		t.Errorf("PeakFile = %d MiB, want at least %d MiB", st.PeakFile>>20, size>>20)
	}
	tr.Stop() // twice is fine
}

// mapFile makes a file of size bytes in dir and maps it shared, read and
// write, until the test ends.
func mapFile(t *testing.T, dir string, size int) []byte {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(int64(size)); err != nil {
		t.Fatal(err)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Munmap(data) })
	return data
}
