package table

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const sharedCorpus = "../../../shared/corpus"

// TestSharedCorpus reads the whole shared corpus and checks the counts the
// corpus README states.
func TestSharedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skip("shared corpus absent")
	}
	type counts struct{ tables, passages, skips int }
	cases := []struct {
		path string
		want counts
	}{
		{"wtq/csv", counts{tables: 2116}},               // 2,108 files; 5 hold two tables or more under headers of their own
		{"wtq/pages-html.tar.gz", counts{tables: 2108}}, // at least
		{"ottqa/tables.jsonl.gz", counts{tables: 8891}},
		{"ottqa/passages.jsonl.gz", counts{passages: 178775}},
	}
	var total counts
	start := time.Now()
	for _, c := range cases {
		var got counts
		reasons := map[string]int{}
		t0 := time.Now()
		err := Read(context.Background(), []string{filepath.Join(sharedCorpus, c.path)}, nil, func(it Item) error {
			switch {
			case it.Table != nil:
				got.tables++
			case it.Passage != nil:
				got.passages++
			case it.Skip != nil:
				got.skips++
				reasons[it.Skip.Reason]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d tables, %d passages, %d skips %v in %v", c.path, got.tables, got.passages, got.skips, reasons, time.Since(t0))
		switch {
		case c.want.passages > 0 && got.passages != c.want.passages:
			t.Errorf("%s: %d passages, want %d", c.path, got.passages, c.want.passages)
		case c.path == "wtq/pages-html.tar.gz" && got.tables < c.want.tables:
			t.Errorf("%s: %d tables, want at least %d", c.path, got.tables, c.want.tables)
		case c.path != "wtq/pages-html.tar.gz" && got.tables != c.want.tables:
			t.Errorf("%s: %d tables, want %d", c.path, got.tables, c.want.tables)
		}
		total.tables += got.tables
		total.passages += got.passages
	}
	t.Logf("whole corpus: %d tables, %d passages in %v", total.tables, total.passages, time.Since(start))
}

// TestDropMarks: footnote marks the WikiTables/OTT-QA releases keep in a
// cell are dropped, brackets that are text are kept.
func TestDropMarks(t *testing.T) {
	for in, want := range map[string]string{
		"Bill Harris [ 18 ]": "Bill Harris",
		"Votes [ a ]":        "Votes",
		"Smith [1] [2]":      "Smith",
		"Jones [note 3]":     "Jones",
		"[ABC] Records":      "[ABC] Records",
		"Plain":              "Plain",
	} {
		if got := dropMarks(Detokenize(in)); got != want {
			t.Errorf("dropMarks(%q) = %q, want %q", in, got, want)
		}
	}
}
