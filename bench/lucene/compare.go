package lucene

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// SearchFunc is leaper's side of the comparison: one query, top 10 with
// snippets, returning the hits' URLs best first.
type SearchFunc func(ctx context.Context, q string) ([]string, error)

// CompareOptions shape a comparison.
type CompareOptions struct {
	// Threads are the concurrency levels. Default 1, 2, 8.
	Threads []int
	// Rounds is how many times each (engine, threads) pass runs; the
	// engines alternate within a round and swap order between rounds.
	// Default 3.
	Rounds int
	// Log receives progress. Default: discarded.
	Log io.Writer
}

// Row is one engine at one concurrency level, over all rounds.
type Row struct {
	Engine  string  `json:"engine"` // leaper, lucene, lucene-nosnippets
	Threads int     `json:"threads"`
	Queries int     `json:"queries"`
	Seconds float64 `json:"seconds"`
	QPS     float64 `json:"qps"`
	P50ms   float64 `json:"p50_ms"`
	P99ms   float64 `json:"p99_ms"`
	// Ratio is leaper's queries/s over Lucene's (with snippets) at these
	// threads (leaper rows, when the peer ran).
	Ratio float64 `json:"ratio_to_lucene,omitempty"`
}

// Report is the comparison's result.
type Report struct {
	Queries int   `json:"queries"`
	Rounds  int   `json:"rounds"`
	Rows    []Row `json:"rows"`
	// Overlap is the mean, over queries where either engine has a hit, of
	// |leaper's top 10 ∩ Lucene's top 10| / max(their lengths).
	Overlap float64 `json:"overlap_at_10,omitempty"`
	// Compared is the number of queries Overlap averages over.
	Compared int `json:"overlap_queries,omitempty"`
}

// Compare measures leaper's search and, when peer is not nil, Lucene's on
// the same queries (the peer must have been started on them), in the same
// run, alternating. Both engines first answer every query once, unmeasured
// (warm-up; these answers give the overlap).
func Compare(ctx context.Context, peer *Peer, search SearchFunc, queries []string, opts *CompareOptions) (*Report, error) {
	o := CompareOptions{}
	if opts != nil {
		o = *opts
	}
	if len(o.Threads) == 0 {
		o.Threads = []int{1, 2, 8}
	}
	if o.Rounds <= 0 {
		o.Rounds = 3
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if len(queries) == 0 {
		return nil, fmt.Errorf("lucene: compare: no queries")
	}
	rep := &Report{Queries: len(queries), Rounds: o.Rounds}

	mine := make([][]string, len(queries))
	for i, q := range queries {
		hs, err := search(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("leaper: search %q: %w", q, err)
		}
		mine[i] = hs
	}
	if peer != nil {
		theirs, err := peer.Hits()
		if err != nil {
			return nil, err
		}
		var sum float64
		for i := range queries {
			a, b := mine[i], theirs[i]
			if len(a) == 0 && len(b) == 0 {
				continue
			}
			common := 0
			for _, u := range a {
				if slices.Contains(b, u) {
					common++
				}
			}
			sum += float64(common) / float64(max(len(a), len(b)))
			rep.Compared++
		}
		if rep.Compared > 0 {
			rep.Overlap = sum / float64(rep.Compared)
		}
		// The JVM compiles hot code after some thousand calls and takes
		// a few passes to settle: more unmeasured passes, concurrent.
		for _, snip := range []bool{true, false, true, false} {
			if _, err := peer.Run(2, snip); err != nil {
				return nil, err
			}
		}
		if _, err := runLeaper(ctx, search, queries, 2); err != nil {
			return nil, err
		}
	}

	type acc struct {
		wall time.Duration
		lat  []time.Duration
	}
	// Lucene runs with snippets (the comparison) and without (its search
	// alone, to show what the highlighter costs).
	engines := []string{"leaper", "lucene", "lucene-nosnippets"}
	if peer == nil {
		engines = engines[:1]
	}
	accs := make([][]acc, len(engines))
	for e := range accs {
		accs[e] = make([]acc, len(o.Threads))
	}
	for round := range o.Rounds {
		for ti, t := range o.Threads {
			for step := range engines {
				e := (step + round) % len(engines)
				var r Run
				var err error
				if e == 0 {
					r, err = runLeaper(ctx, search, queries, t)
				} else {
					r, err = peer.Run(t, e == 1)
				}
				if err != nil {
					return nil, err
				}
				a := &accs[e][ti]
				a.wall += r.Wall
				a.lat = append(a.lat, r.Latencies...)
				fmt.Fprintf(o.Log, "round %d: %s, %d threads: %.0f q/s\n", round+1, engines[e], t, float64(len(queries))/r.Wall.Seconds())
			}
		}
	}
	row := func(engine string, t int, a acc) Row {
		slices.Sort(a.lat)
		n := len(a.lat)
		return Row{
			Engine: engine, Threads: t, Queries: n, Seconds: a.wall.Seconds(),
			QPS:   float64(n) / a.wall.Seconds(),
			P50ms: ms(a.lat[n/2]), P99ms: ms(a.lat[min(n-1, n*99/100)]),
		}
	}
	for ti, t := range o.Threads {
		rows := make([]Row, len(engines))
		for e := range engines {
			rows[e] = row(engines[e], t, accs[e][ti])
		}
		if len(rows) > 1 {
			rows[0].Ratio = rows[0].QPS / rows[1].QPS
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	return rep, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runLeaper answers every query once, threads at a time.
func runLeaper(ctx context.Context, search SearchFunc, queries []string, threads int) (Run, error) {
	r := Run{Latencies: make([]time.Duration, len(queries))}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, threads)
	start := time.Now()
	for t := range threads {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(queries) {
					return
				}
				t0 := time.Now()
				if _, err := search(ctx, queries[i]); err != nil {
					errs[t] = fmt.Errorf("leaper: search %q: %w", queries[i], err)
					return
				}
				r.Latencies[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	r.Wall = time.Since(start)
	for _, err := range errs {
		if err != nil {
			return Run{}, err
		}
	}
	return r, ctx.Err()
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%d queries x %d rounds, top 10 with snippets, in-process\n", r.Queries, r.Rounds)
	fmt.Fprintf(w, "%-17s %7s %10s %8s %8s %7s\n", "engine", "threads", "q/s", "p50 ms", "p99 ms", "ratio")
	for _, row := range r.Rows {
		ratio := ""
		if row.Ratio != 0 {
			ratio = fmt.Sprintf("%.2fx", row.Ratio)
		}
		fmt.Fprintf(w, "%-17s %7d %10.0f %8.2f %8.2f %7s\n", row.Engine, row.Threads, row.QPS, row.P50ms, row.P99ms, ratio)
	}
	if r.Compared > 0 {
		fmt.Fprintf(w, "overlap@10 of the hit lists: %.3f over %d queries (ratio = leaper q/s / Lucene q/s, both with snippets)\n", r.Overlap, r.Compared)
	}
}
