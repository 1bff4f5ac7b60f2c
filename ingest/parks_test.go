package ingest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest/table"
)

// TestUnlinkedNotes: the national parks of France write each park with
// its French name in parentheses; ten link their articles and are named
// without it, so the eleventh, unlinked, is named without it too (rounds
// 171 and 173; testdata/synth/parks).
func TestUnlinkedNotes(t *testing.T) {
	f, err := os.Open(filepath.Join(graphtest.RepoRoot(), "testdata", "synth", "parks", "ottqa", "tables.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	line, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := table.ParseWikiTablesLine(line)
	if err != nil {
		t.Fatal(err)
	}
	g, tr := buildOne(t, tb)
	ids := make([]uint32, len(tr.Rows))
	for i, r := range tr.Rows {
		ids[i] = r.Key
	}
	es, err := g.Entities(ids)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	if !slices.Contains(names, "Forêts National Park") || !slices.Contains(names, "Vanoise National Park") {
		t.Errorf("parks named %q, want Forêts National Park beside Vanoise National Park", names)
	}
}
