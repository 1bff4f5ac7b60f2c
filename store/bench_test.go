package store_test

import (
	"context"
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/store"
)

// BenchmarkBuildCorpus builds the whole shared corpus (wtq fragments and
// article pages, ottqa tables and passages) from scratch, as leaper build
// does. Run with -benchtime=1x: one build is the measurement.
func BenchmarkBuildCorpus(b *testing.B) {
	corpus := graphtest.SharedCorpus()
	if corpus == "" {
		b.Skip("../shared/corpus not found")
	}
	// As leaper build does by default (--max-memory 4GiB).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(4 << 30))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		start := time.Now()
		rep, err := store.Build(context.Background(), dir, []string{corpus}, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := time.Since(start).Seconds()
		b.ReportMetric(float64(rep.Tables+rep.Duplicates)/s, "tables/s")
		b.ReportMetric(float64(rep.Counts.Pages)/s, "pages/s")
		b.ReportMetric(s, "s/build")
		b.ReportMetric(rep.Read.Seconds(), "s-read")
		b.ReportMetric(rep.Finalize.Seconds(), "s-finalize")
		b.ReportMetric(rep.Index.Seconds(), "s-index")
		os.RemoveAll(dir)
	}
}

// BenchmarkBuildSample builds the bundled sample corpus.
func BenchmarkBuildSample(b *testing.B) {
	for i := 0; i < b.N; i++ {
		rep, err := store.Build(context.Background(), b.TempDir(), []string{graphtest.Corpus()}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Tables+rep.Duplicates), "tables")
	}
}
