package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAgainst(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "r.json")
	os.WriteFile(good, []byte(`[{"label": "replay-5", "wall_ns": 7000000000, "counts": {"trees": 3, "pages": 9}}]`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("build 10s: read ..."), 0o644)

	got, err := readAgainst(good, []int{5})
	if err != nil || got[5].Counts.Pages != 9 || got[5].Wall.Seconds() != 7 {
		t.Fatalf("readAgainst: %+v, %v", got, err)
	}
	for _, c := range []struct {
		path  string
		sizes []int
		want  string
	}{
		{good, []int{5, 6}, "no build of 6 tables (label replay-6)"},
		{bad, []int{5}, "not the output of leaper-bench build --json"},
		{filepath.Join(dir, "none.json"), []int{5}, "none.json"},
	} {
		if _, err := readAgainst(c.path, c.sizes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("readAgainst(%s, %v) = %v, want an error with %q", filepath.Base(c.path), c.sizes, err, c.want)
		}
	}
}
