package load

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/bench/buildbench"
	"github.com/leaper-dev/leaper/internal/cputime"
	"github.com/leaper-dev/leaper/web"
)

// BenchmarkPassageHits measures what one /retrieve query costs the
// server by itself: web.Hits at topk 3 (the search and the passage
// lookup, no HTTP), one query at a time, over a passage store that
// leaper-bench passages --keep left (LEAPER_PASSAGE_STORE=DIR) with the
// bench's queries (LEAPER_PASSAGE_ARTICLES=FILE, the articles it
// replayed, an absolute path; LEAPER_PASSAGE_QUERIES of them, default 4,000, seed 1). Each
// case opens the store afresh: "fresh" searches at once; "warmed" first
// decodes the frequent terms' lists as leaper serve's warm-up does
// (Index.WarmPostings), then searches, then searches again. Reported per
// query: process CPU (mean) and wall time (p50, p99, max); and the
// warm-up's seconds. Run it once: -benchtime 1x.
func BenchmarkPassageHits(b *testing.B) {
	dir, articles := os.Getenv("LEAPER_PASSAGE_STORE"), os.Getenv("LEAPER_PASSAGE_ARTICLES")
	if dir == "" || articles == "" {
		b.Skip("set LEAPER_PASSAGE_STORE and LEAPER_PASSAGE_ARTICLES")
	}
	n := 4000
	if s := os.Getenv("LEAPER_PASSAGE_QUERIES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
			b.Fatalf("LEAPER_PASSAGE_QUERIES=%q: a positive count", s)
		}
	}
	qs, err := buildbench.PassageQueries([]string{articles}, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	pass := func(b *testing.B, w *web.Web, label string) {
		lat := make([]time.Duration, len(qs))
		cpu0 := cputime.Process()
		for i, q := range qs {
			t0 := time.Now()
			if _, err := w.Hits(ctx, q, 3, 0); err != nil {
				b.Fatal(err)
			}
			lat[i] = time.Since(t0)
		}
		cpu := cputime.Process() - cpu0
		slices.Sort(lat)
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		b.ReportMetric(ms(cpu)/float64(len(qs)), label+"-cpu-ms/q")
		b.ReportMetric(ms(lat[len(lat)/2]), label+"-p50-ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), label+"-p99-ms")
		b.ReportMetric(ms(lat[len(lat)-1]), label+"-max-ms")
	}
	for _, warm := range []bool{false, true} {
		name := "fresh"
		if warm {
			name = "warmed"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				w, err := web.Open(dir, nil)
				if err != nil {
					b.Fatal(err)
				}
				if warm {
					t0 := time.Now()
					ix := w.Store().Index()
					if _, err := ix.WarmPostings(ctx, ix.PostingsCache()); err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(time.Since(t0).Seconds(), "warm-s")
				}
				pass(b, w, "first")
				if warm {
					pass(b, w, "second")
				}
				w.Close()
			}
		})
	}
}
