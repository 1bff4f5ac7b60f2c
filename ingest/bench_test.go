package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/internal/procmem"
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
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ingest.HeapLimit(4 << 30)))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		start := time.Now()
		rep, err := ingest.Run(context.Background(), dir, []string{corpus}, nil)
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
		rep, err := ingest.Run(context.Background(), b.TempDir(), []string{graphtest.Corpus()}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Tables+rep.Duplicates), "tables")
	}
}

// BenchmarkBuildSTS builds ../shared/corpus/sts-csv (100,000 CSV tables of
// a wikitext export) as leaper build does, and reports the rate, each
// stage's time, the process's peak resident memory and the store's size.
// Run alone, with -run '^$' -bench BuildSTS -benchtime=1x: the peak is
// the test process's.
func BenchmarkBuildSTS(b *testing.B) {
	corpus := graphtest.SharedCorpus()
	if corpus == "" {
		b.Skip("../shared/corpus not found")
	}
	sts := filepath.Join(corpus, "sts-csv")
	if _, err := os.Stat(sts); err != nil {
		b.Skip("../shared/corpus/sts-csv not found")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ingest.HeapLimit(4 << 30)))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		start := time.Now()
		rep, err := ingest.Run(context.Background(), dir, []string{sts}, &ingest.Options{OnSkip: func(*table.ParseError) {}})
		if err != nil {
			b.Fatal(err)
		}
		s := time.Since(start).Seconds()
		b.ReportMetric(float64(rep.Tables+rep.Duplicates)/s, "tables/s")
		b.ReportMetric(rep.Read.Seconds(), "s-read")
		b.ReportMetric(rep.Finalize.Seconds(), "s-finalize")
		b.ReportMetric(rep.Index.Seconds(), "s-index")
		b.ReportMetric(float64(peakRSS())/(1<<20), "MiB-peak-rss")
		b.ReportMetric(float64(dirSize(dir))/(1<<20), "MiB-store")
		b.ReportMetric(float64(rep.Counts.Pages), "pages")
		os.RemoveAll(dir)
	}
}

// peakRSS is the process's peak resident memory (VmHWM), 0 when unknown.
func peakRSS() int64 { return procmem.Read().Peak }

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
