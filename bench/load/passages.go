package load

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/serve"
)

// PassageOptions are the settings of Passages: the clients and batch
// sizes of /retrieve, the time a request may take, and whether Lucene 8
// runs beside it (Rounds times, alternating); progress goes to Log.
type PassageOptions struct {
	Log     io.Writer
	Clients int
	Batches []int
	Timeout time.Duration
	Lucene  bool
	Rounds  int
	// URL, when set, is a running server (leaper serve of any build)
	// that the runs load instead of one served in-process; storeDir is
	// then not opened and Lucene cannot run.
	URL string
	// Evaluations is the in-process server's serve.Options.Evaluations
	// (0: its default).
	Evaluations int
}

// PassageRun is one /retrieve load run on a passage store.
type PassageRun struct {
	// Target is leaper-retrieve (topk 3) or, with --lucene, leaper-top10
	// (topk 10) and lucene-top10 (Lucene 8's search, top 10 with
	// snippets), alternating.
	Target   string  `json:"target"`
	Batch    int     `json:"batch"`
	Clients  int     `json:"clients"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	QPS      float64 `json:"queries_per_s"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
}

// Passages serves storeDir in-process (or loads o.URL) and runs
// /retrieve at each batch size.
func Passages(ctx context.Context, o PassageOptions, storeDir string, qs []string) ([]PassageRun, int64, error) {
	base := o.URL
	var w *web.Web
	if base == "" {
		var err error
		if w, err = web.Open(storeDir, nil); err != nil {
			return nil, 0, err
		}
		defer w.Close()
		srv := serve.NewServer(w, &serve.Options{Evaluations: o.Evaluations})
		fmt.Fprintf(o.Log, "server: in-process, workers %d, evaluations %d\n", srv.Stats().Workers, srv.Stats().Evaluations)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, 0, err
		}
		sctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(sctx, ln) }()
		defer func() { stop(); <-done }()
		base = "http://" + ln.Addr().String()
	} else if o.Lucene {
		return nil, 0, fmt.Errorf("load: Lucene runs need the store served in-process, not --url")
	}
	took, err := waitReady(ctx, base, o.Timeout)
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(o.Log, "server: ready after %.1fs\n", took.Seconds())
	post, err := httpDoer(base, "", o.Clients)
	if err != nil {
		return nil, 0, err
	}
	reqs := func(batch int) []benchReq {
		var out []benchReq
		for i := 0; i+batch <= len(qs); i += batch {
			b, _ := json.Marshal(map[string]any{"queries": qs[i : i+batch], "topk": 3, "return_scores": true})
			out = append(out, benchReq{Endpoint: "retrieve", Body: b})
		}
		return out
	}
	// Warm the page cache and the index once, unmeasured.
	loadRun(ctx, "warm", 8, min(2000, len(qs)), reqs(1), post, o.Timeout)
	var runs []PassageRun
	for _, batch := range o.Batches {
		rs := reqs(batch)
		if len(rs) == 0 {
			return nil, 0, fmt.Errorf("load: %d queries are less than a batch of %d", len(qs), batch)
		}
		fmt.Fprintf(o.Log, "load: /retrieve, batches of %d, %d clients, %d calls\n", batch, o.Clients, len(rs))
		r, err := loadRun(ctx, fmt.Sprintf("retrieve-%d", batch), o.Clients, len(rs), rs, post, o.Timeout)
		if err != nil {
			// The runs done so far are kept: a long build is not lost to
			// the last run's failure.
			return runs, rssKB() << 10, err
		}
		runs = append(runs, passageRun("leaper-retrieve", batch, o.Clients, r))
	}
	if o.Lucene {
		lr, err := luceneRuns(ctx, o, w, qs, post)
		if err != nil {
			return nil, 0, err
		}
		runs = append(runs, lr...)
	}
	return runs, rssKB() << 10, nil
}

// waitReady polls GET /readyz until the server says it is ready (its
// warm-up done), as a balancer would before sending it work; a server
// without /readyz is taken as ready.
func waitReady(ctx context.Context, base string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	hc := &http.Client{Timeout: 10 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/readyz", nil)
		if err != nil {
			return 0, err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNotFound {
				return time.Since(start), nil
			}
		}
		if time.Since(start) > timeout {
			return 0, fmt.Errorf("load: %s not ready within %s (%v)", base, timeout, err)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func passageRun(target string, batch, clients int, r BenchRun) PassageRun {
	return PassageRun{Target: target, Batch: batch, Clients: clients, Requests: r.Requests, Errors: r.Errors,
		Seconds: r.Seconds, QPS: r.RPS * float64(batch), P50ms: r.P50ms, P99ms: r.P99ms}
}

// luceneRuns loads Lucene 8 over the store's pages with the same queries,
// one a call, top 10 with snippets, alternating with leaper's /retrieve at
// topk 10, --rounds times each. Without java, javac or the jars it says
// so and returns no runs.
func luceneRuns(ctx context.Context, o PassageOptions, w *web.Web, qs []string, post newClient) ([]PassageRun, error) {
	errOut := o.Log
	lo := &lucene.Options{Log: errOut}
	if err := lucene.Check(lo); err != nil {
		fmt.Fprintf(errOut, "%v; no Lucene peer\n", err)
		return nil, nil
	}
	g := w.Store().Graph()
	pages := func(yield func(lucene.Page) error) error {
		return g.EachPage(ctx, func(p *graph.Page) error {
			return yield(lucene.Page{URL: p.URL, Title: p.Title, Text: graph.PageText(p)})
		})
	}
	t0 := time.Now()
	peer, err := lucene.Start(ctx, lo, pages, lucene.StopWords(), qs)
	if err != nil {
		return nil, err
	}
	defer peer.Close()
	workers := 2 * runtime.GOMAXPROCS(0) // leaper serve's default
	addr, err := peer.Listen(workers)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(errOut, "lucene: http://%s, %d workers, ready in %.0fs\n", addr, workers, time.Since(t0).Seconds())
	lpost, err := httpDoer("http://"+addr, "", o.Clients)
	if err != nil {
		return nil, err
	}
	lreqs := make([]benchReq, len(qs))
	k10 := make([]benchReq, len(qs))
	for i, q := range qs {
		lreqs[i] = benchReq{Endpoint: "search", Body: []byte(q), Query: q}
		b, _ := json.Marshal(map[string]any{"queries": []string{q}, "topk": 10, "return_scores": true})
		k10[i] = benchReq{Endpoint: "retrieve", Body: b}
	}
	// The JVM compiles hot code after some thousand calls.
	loadRun(ctx, "warm", 8, min(len(lreqs), 4000), lreqs, lpost, o.Timeout)
	var runs []PassageRun
	for range max(o.Rounds, 1) {
		r, err := loadRun(ctx, "leaper-top10", o.Clients, len(k10), k10, post, o.Timeout)
		if err != nil {
			return nil, err
		}
		runs = append(runs, passageRun("leaper-top10", 1, o.Clients, r))
		r, err = loadRun(ctx, "lucene-top10", o.Clients, len(lreqs), lreqs, lpost, o.Timeout)
		if err != nil {
			return nil, err
		}
		runs = append(runs, passageRun("lucene-top10", 1, o.Clients, r))
	}
	return runs, nil
}
