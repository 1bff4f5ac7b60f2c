package table

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRead reads the shared corpus (or the bundled sample when it is
// absent) and reports tables and passages per second.
func BenchmarkRead(b *testing.B) {
	paths := []string{filepath.Join(sharedCorpus, "wtq/csv"), filepath.Join(sharedCorpus, "wtq/pages-html.tar.gz"), filepath.Join(sharedCorpus, "ottqa")}
	if p := os.Getenv("LEAPER_BENCH_PATH"); p != "" {
		paths = filepath.SplitList(p)
	} else if _, err := os.Stat(sharedCorpus); err != nil {
		paths = []string{"../../testdata/corpus"}
	}
	var tables, passages int
	for b.Loop() {
		err := Read(context.Background(), paths, nil, func(it Item) error {
			if it.Table != nil {
				tables++
			}
			if it.Passage != nil {
				passages++
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(tables)/s, "tables/s")
	b.ReportMetric(float64(passages)/s, "passages/s")
}
