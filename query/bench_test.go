package query_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaper-dev/leaper/store"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/graphtest"
	"github.com/leaper-dev/leaper/query"
)

// benchStore is the full store: LEAPER_BENCH_STORE, default /tmp/full
// (leaper build --store /tmp/full ../shared/corpus).
func benchStore(b *testing.B) *graph.Store {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		dir = "/tmp/full"
	}
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		b.Skipf("no full store: %v", err)
	}
	b.Cleanup(func() { g.Close() })
	return g
}

func benchQueries(b *testing.B) []*query.Query {
	f, err := os.Open(filepath.Join(graphtest.RepoRoot(), "testdata", "query", "bench.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var qs []*query.Query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		q, err := query.Parse(l)
		if err != nil {
			b.Fatalf("%s: %v", l, err)
		}
		qs = append(qs, q)
	}
	return qs
}

// BenchmarkEval reports the median and p99 latency of the bench queries
// with Eval, and with the nested-loop oracle (trees preloaded) for scale.
func BenchmarkEval(b *testing.B) {
	g := benchStore(b)
	qs := benchQueries(b)
	ctx := context.Background()
	run := func(b *testing.B, eval func(*query.Query) (*query.Result, error)) {
		var lat []time.Duration
		rows := 0
		for i := 0; i < b.N; i++ {
			for _, q := range qs {
				t0 := time.Now()
				res, err := eval(q)
				if err != nil {
					b.Fatalf("%s: %v", q, err)
				}
				lat = append(lat, time.Since(t0))
				rows += len(res.Rows)
			}
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(rows)/float64(b.N*len(qs)), "rows/query")
	}
	b.Run("bitmap", func(b *testing.B) {
		run(b, func(q *query.Query) (*query.Result, error) { return query.Eval(ctx, g, q) })
	})
	b.Run("naive", func(b *testing.B) {
		o, err := query.NewNestedLoops(ctx, g)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		run(b, func(q *query.Query) (*query.Result, error) { return o.Eval(ctx, q) })
	})
}
