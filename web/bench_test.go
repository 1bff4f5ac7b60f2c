package web_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/webtest"
)

// benchWeb opens $LEAPER_BENCH_STORE (a store of the full corpus, built
// with leaper build) or else the sample store.
func benchWeb(b *testing.B) *web.Web {
	if dir := os.Getenv("LEAPER_BENCH_STORE"); dir != "" {
		w, err := web.Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { w.Close() })
		return w
	}
	return webtest.OpenWeb(b)
}

// sample draws n trees' pages and key entities, seeded.
func sample(b *testing.B, g *graph.Store, n int) (urls []string, keys []uint32, goals []string) {
	var trees []*graph.Tree
	if err := g.EachTree(context.Background(), func(t *graph.Tree) error { trees = append(trees, t); return nil }); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		t := trees[r.IntN(len(trees))]
		urls = append(urls, t.PageURL)
		keys = append(keys, t.Rows[r.IntN(len(t.Rows))].Key)
		goals = append(goals, t.KeyHeader+" and "+t.Columns[0].Header+" of "+t.PageTitle)
	}
	return
}

func reportQuantiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-p50")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
}

// BenchmarkEntityLookup measures looking an entity up by key (as leaper
// entity and the scorer do) and by name.
func BenchmarkEntityLookup(b *testing.B) {
	w := benchWeb(b)
	_, keys, _ := sample(b, w.Store().Graph(), 1000)
	ents, err := w.Store().Graph().Entities(keys)
	if err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := ents[i%len(ents)]
		t := time.Now()
		if _, err := w.Store().Graph().EntityByKey(e.Key); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Store().Graph().FindEntities(e.Name, 10); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	reportQuantiles(b, lat)
}

// BenchmarkVisit measures a visit of a table page with a goal.
func BenchmarkVisit(b *testing.B) {
	w := benchWeb(b)
	urls, _, goals := sample(b, w.Store().Graph(), 1000)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if _, err := w.Visit(ctx, []string{urls[i%len(urls)]}, goals[i%len(goals)]); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	reportQuantiles(b, lat)
}
