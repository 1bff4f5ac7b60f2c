package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/procmem"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/mcpserve"
	"github.com/leaper-dev/leaper/web/serve"
)

// Options are the settings of a load test; Run reads them. Web is the
// store's offline web: the workload's source, and what the in-process
// server serves unless URL is set. Zero Clients, Requests, Rounds and
// Timeout take defaults (1, 8 and 64 clients; 2000 requests a run; 3
// rounds of the drop-in runs; 10 minutes a run).
type Options struct {
	IO        IO
	Web       func() (*web.Web, error)
	Clients   []int
	Requests  int
	Tasks     string
	URL       string
	TokenFile string
	FTS5      bool
	FTS5DB    string
	Lucene    bool
	LuceneIdx string
	Cache     int
	Workers   int
	Soak      time.Duration
	Seed      uint64
	Timeout   time.Duration
	Dropin    bool
	Rounds    int
	JSON      bool
}

// IO are a load test's streams: the results (a table, or JSON) go to Out,
// the progress to ErrOut; nil discards.
type IO struct {
	Out    io.Writer
	ErrOut io.Writer
}

// Bounds that keep a load run finite whatever the options say.
const (
	MaxClients  = 1024
	MaxRequests = 10_000_000
	MaxSoak     = 24 * time.Hour
)

// benchReq is one request of the load: an endpoint and its JSON body.
type benchReq struct {
	Endpoint string
	Body     []byte
	Query    string // for search: the query, for the FTS5 peer
	Method   string // default POST
	Tool     string // for MCP: the tool Body is the arguments of
}

// BenchRun is one measured run.
type BenchRun struct {
	Target   string  `json:"target"` // leaper-mix, leaper-search, fts5-search, lucene-search, soak
	Clients  int     `json:"clients"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	RPS      float64 `json:"rps"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	Ratio    float64 `json:"ratio_to_fts5,omitempty"`
	// RatioLucene is leaper's search req/s over Lucene's, both over HTTP.
	RatioLucene float64 `json:"ratio_to_lucene,omitempty"`
	// Versus and P99Ratio: a drop-in shape's p99 over its native
	// endpoint's, on the same requests (--dropin).
	Versus   string  `json:"versus,omitempty"`
	P99Ratio float64 `json:"p99_ratio,omitempty"`
	Rounds   int     `json:"rounds,omitempty"`
	// OpenP50ms and OpenMaxms: how long the clients took to open (dial;
	// for MCP also initialize), all at once before the clock started.
	OpenP50ms float64 `json:"open_p50_ms,omitempty"`
	OpenMaxms float64 `json:"open_max_ms,omitempty"`
	RSSStart  int64   `json:"rss_start_kb,omitempty"`
	RSSEnd    int64   `json:"rss_end_kb,omitempty"`
}

// Run loads the server at o.URL, or one it starts in-process on
// 127.0.0.1 over o.Web, with the mix and search alone for each client
// count, and the peers and drop-in shapes o asks for, in the same run. It
// returns an error wrapping [ErrFailed] when any request failed.
func Run(ctx context.Context, o *Options) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	w, err := o.Web()
	if err != nil {
		return err
	}
	mix, err := benchWorkload(ctx, w.Store().Graph(), o.Tasks, max(2000, o.Requests), o.Seed)
	if err != nil {
		return err
	}
	var searches []benchReq
	for _, r := range mix {
		if r.Endpoint == "search" {
			searches = append(searches, r)
		}
	}
	errOut := o.IO.ErrOut
	fmt.Fprintf(errOut, "workload: %d requests (%d search, %d visit), seed %d\n", len(mix), len(searches), len(mix)-len(searches), o.Seed)

	base, token := o.URL, ""
	if o.TokenFile != "" {
		if token, err = serve.ReadToken(o.TokenFile); err != nil {
			return err
		}
	}
	workers := o.Workers
	if base == "" {
		var stop func()
		if base, workers, stop, err = startServer(w, o); err != nil {
			return err
		}
		defer stop()
	}
	var lucenePost newClient
	var luceneReqs []benchReq
	if o.Lucene {
		var stop func()
		if lucenePost, luceneReqs, stop, err = startLucene(ctx, o, w, searches, workers); err != nil {
			return err
		}
		defer stop()
	}
	var ft *fts5
	if o.FTS5 {
		t0 := time.Now()
		fmt.Fprintf(errOut, "fts5: opening or building %s\n", cmpOr(o.FTS5DB, "a temporary database"))
		ft, err = openFTS5(ctx, w.Store().Graph(), o.FTS5DB, slices.Max(o.Clients), func(n int) { fmt.Fprintf(errOut, "fts5: %d pages\n", n) })
		if err != nil {
			return err
		}
		defer ft.Close()
		fmt.Fprintf(errOut, "fts5: ready in %.1fs\n", time.Since(t0).Seconds())
	}

	maxC := slices.Max(o.Clients)
	post, err := httpDoer(base, token, maxC)
	if err != nil {
		return err
	}
	ftsDo := func() loadClient {
		return loadClient{do: func(ctx context.Context, r benchReq) error {
			_, err := ft.search(ctx, r.Query)
			return err
		}, release: func() {}}
	}

	var dl dropinLoad
	mcpc := mcpDoer(base, token)
	if o.Dropin {
		dl.visits, dl.serper, dl.jina, dl.mcpSearch, dl.mcpVisit = dropinWorkloads(mix)
		dl.searches = searches
	}

	// Warm the OS page cache and both engines once, unmeasured.
	warm := min(len(mix), 300)
	loadRun(ctx, "warm", 8, warm, mix, post, o.Timeout)
	if o.Dropin {
		loadRun(ctx, "warm", 8, min(warm, len(dl.mcpSearch)), dl.mcpSearch, mcpc, o.Timeout)
	}
	if ft != nil {
		loadRun(ctx, "warm", 8, min(warm, len(searches)), searches, ftsDo, o.Timeout)
	}
	if lucenePost != nil {
		// The JVM compiles hot code after some thousand calls.
		for range 3 {
			loadRun(ctx, "warm", 2, len(luceneReqs), luceneReqs, lucenePost, o.Timeout)
		}
	}

	var runs []BenchRun
	var firstErr error
	for _, n := range o.Clients {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := loadRun(ctx, "leaper-mix", n, o.Requests, mix, post, o.Timeout)
		runs = append(runs, r)
		firstErr = cmpOr(firstErr, err)
		rs, err := loadRun(ctx, "leaper-search", n, o.Requests, searches, post, o.Timeout)
		firstErr = cmpOr(firstErr, err)
		runs = append(runs, rs)
		ri := len(runs) - 1
		if ft != nil {
			rf, err := loadRun(ctx, "fts5-search", n, o.Requests, searches, ftsDo, o.Timeout)
			firstErr = cmpOr(firstErr, err)
			if rf.RPS > 0 {
				runs[ri].Ratio = rs.RPS / rf.RPS
			}
			runs = append(runs, rf)
		}
		if lucenePost != nil {
			rl, err := loadRun(ctx, "lucene-search", n, o.Requests, luceneReqs, lucenePost, o.Timeout)
			firstErr = cmpOr(firstErr, err)
			if rl.RPS > 0 {
				runs[ri].RatioLucene = rs.RPS / rl.RPS
			}
			runs = append(runs, rl)
		}
		if !o.JSON {
			for _, r := range runs[len(runs)-2-b2i(ft != nil)-b2i(lucenePost != nil):] {
				printRun(errOut, r)
			}
		}
		if o.Dropin {
			dr, err := dropinRuns(ctx, n, o.Requests, o.Rounds, dl, post, mcpc, o.Timeout)
			firstErr = cmpOr(firstErr, err)
			runs = append(runs, dr...)
			if !o.JSON {
				for _, r := range dr {
					printRun(errOut, r)
				}
			}
		}
	}
	if o.Soak > 0 {
		r, err := soakRun(ctx, maxC, o.Soak, mix, post, errOut)
		runs = append(runs, r)
		firstErr = cmpOr(firstErr, err)
	}
	return report(o, runs, firstErr)
}

// report prints the runs, as a table or JSON, and returns an error
// wrapping ErrFailed, with the first failure, when requests failed.
func report(o *Options, runs []BenchRun, firstErr error) error {
	if o.JSON {
		if err := writeJSON(o.IO.Out, runs); err != nil {
			return err
		}
	} else {
		printRuns(o.IO.Out, runs, o.Cache)
		printDropin(o.IO.Out, runs)
	}
	errs := 0
	for _, r := range runs {
		errs += r.Errors
	}
	if errs > 0 {
		return fmt.Errorf("%w: %d requests; first: %v", ErrFailed, errs, firstErr)
	}
	return nil
}

// startServer starts leaper's HTTP server, with MCP at /mcp, in-process
// on 127.0.0.1 over w, and returns its base URL, its worker slots and
// what stops it.
func startServer(w *web.Web, o *Options) (base string, workers int, stop func(), err error) {
	srv := serve.NewServer(w, &serve.Options{Workers: o.Workers, Cache: o.Cache})
	srv.Mount("/mcp", mcpserve.NewServer(w, &mcpserve.Options{Workers: o.Workers}).Handler())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", 0, nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	base = "http://" + ln.Addr().String()
	st := srv.Stats()
	fmt.Fprintf(o.IO.ErrOut, "server: %s in-process, workers %d, cache %d\n", base, st.Workers, st.CacheCapacity)
	return base, st.Workers, func() { cancel(); <-done }, nil
}

// startLucene starts the Lucene peer over w's pages behind its HTTP server
// with as many workers as leaper's, and returns its clients, the search
// requests in its shape and what stops it. Without java or the jars it
// says so and returns no clients.
func startLucene(ctx context.Context, o *Options, w *web.Web, searches []benchReq, workers int) (post newClient, reqs []benchReq, stop func(), err error) {
	errOut := o.IO.ErrOut
	lo := &lucene.Options{IndexDir: o.LuceneIdx, Log: errOut}
	if err := lucene.Check(lo); err != nil {
		fmt.Fprintf(errOut, "%v; no Lucene peer\n", err)
		return nil, nil, func() {}, nil
	}
	st := w.Store()
	pages := func(yield func(lucene.Page) error) error {
		return st.Graph().EachPage(ctx, func(p *graph.Page) error {
			return yield(lucene.Page{URL: p.URL, Title: p.Title, Text: graph.PageText(p)})
		})
	}
	var qs []string
	for _, r := range searches {
		qs = append(qs, r.Query)
		reqs = append(reqs, benchReq{Endpoint: "search", Body: []byte(r.Query), Query: r.Query})
	}
	peer, err := lucene.Start(ctx, lo, pages, lucene.StopWords(), qs)
	if err != nil {
		return nil, nil, nil, err
	}
	addr, err := peer.Listen(max(workers, 1))
	if err == nil {
		post, err = httpDoer("http://"+addr, "", slices.Max(o.Clients))
	}
	if err != nil {
		peer.Close()
		return nil, nil, nil, err
	}
	fmt.Fprintf(errOut, "lucene: http://%s, %d workers\n", addr, max(workers, 1))
	return post, reqs, func() { peer.Close() }, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// doer sends one request.
type doer func(context.Context, benchReq) error

// loadClient is one client of a run.
type loadClient struct {
	// open readies the client before the run's clock starts: it dials
	// its connection and, for MCP, opens its session. nil: nothing to
	// open.
	open    func(context.Context) error
	do      doer
	release func()
}

// newClient gives each client of a run its own loadClient (one
// connection each for HTTP, one session each for MCP).
type newClient func() loadClient

// openAll opens the clients at once and waits for all of them, so that
// no run times a connection or session being set up: a plain endpoint's
// first request would pay a TCP dial, an MCP tool's first call an
// initialize and an initialized notification. It returns how long each
// open took, how many failed and the first failure; a client that failed
// to open is released and nil'd.
func openAll(ctx context.Context, cls []*loadClient) ([]time.Duration, int, error) {
	took := make([]time.Duration, len(cls))
	errs := make([]error, len(cls))
	var wg sync.WaitGroup
	for i, cl := range cls {
		if cl.open == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := time.Now()
			errs[i] = cl.open(ctx)
			took[i] = time.Since(s)
		}()
	}
	wg.Wait()
	failed := 0
	var first error
	for i, err := range errs {
		if err != nil {
			cls[i].release()
			cls[i] = nil
			failed++
			first = cmpOr(first, err)
		}
	}
	if failed > 0 {
		return took, failed, fmt.Errorf("%d of %d clients failed to open; first: %w", failed, len(cls), first)
	}
	return took, 0, nil
}

// loadRun sends n requests from c concurrent clients, cycling through
// reqs, and measures each. The clients are opened first, off the clock
// (their open times are reported apart). It stops by itself after n
// requests or timeout.
func loadRun(ctx context.Context, target string, c, n int, reqs []benchReq, newC newClient, timeout time.Duration) (BenchRun, error) {
	r := BenchRun{Target: target, Clients: c, Requests: n}
	if len(reqs) == 0 {
		return r, nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cls := make([]*loadClient, c)
	for i := range cls {
		cl := newC()
		cls[i] = &cl
	}
	took, failed, openErr := openAll(ctx, cls)
	if slices.Max(took) > 0 {
		slices.Sort(took)
		r.OpenP50ms, r.OpenMaxms = ms(took[(len(took)-1)/2]), ms(took[len(took)-1])
	}
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var errs atomic.Int64
	var first atomic.Value
	if openErr != nil {
		errs.Add(int64(failed))
		first.Store(openErr)
	}
	var wg sync.WaitGroup
	t0 := time.Now()
	for _, cl := range cls {
		if cl == nil {
			continue
		}
		wg.Add(1)
		do, release := cl.do, cl.release
		go func() {
			defer wg.Done()
			defer release()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				s := time.Now()
				err := do(ctx, reqs[i%len(reqs)])
				lat[i] = time.Since(s)
				if err != nil {
					errs.Add(1)
					first.CompareAndSwap(nil, err)
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	done := min(int(next.Load()), n)
	r.Requests, r.Errors, r.Seconds = done, int(errs.Load()), el.Seconds()
	r.RPS = float64(done) / el.Seconds()
	lat = lat[:done]
	slices.Sort(lat)
	if done > 0 {
		r.P50ms = ms(lat[(done-1)*50/100])
		r.P99ms = ms(lat[(done-1)*99/100])
	}
	var err error
	if e, ok := first.Load().(error); ok {
		err = e
	}
	if done < n && err == nil {
		err = fmt.Errorf("%s: stopped after %d of %d requests: %w", target, done, n, cmpOr(ctx.Err(), errors.New("stopped")))
		r.Errors += n - done
	}
	return r, err
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// soakRun runs the mix from c clients for d and reports the resident
// memory of this process (and so of the in-process server) at start and end.
func soakRun(ctx context.Context, c int, d time.Duration, reqs []benchReq, newC newClient, errOut io.Writer) (BenchRun, error) {
	r := BenchRun{Target: "soak", Clients: c, RSSStart: rssKB()}
	fmt.Fprintf(errOut, "soak: %v with %d clients, RSS %d kB\n", d, c, r.RSSStart)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var h serve.LatencyRecorder
	var next, errs atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	cls := make([]*loadClient, c)
	for i := range cls {
		cl := newC()
		cls[i] = &cl
	}
	if _, failed, err := openAll(ctx, cls); err != nil {
		errs.Add(int64(failed))
		first.Store(err)
	}
	t0 := time.Now()
	for _, cl := range cls {
		if cl == nil {
			continue
		}
		wg.Add(1)
		do, release := cl.do, cl.release
		go func() {
			defer wg.Done()
			defer release()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				s := time.Now()
				err := do(ctx, reqs[i%len(reqs)])
				if ctx.Err() != nil {
					return // cut off by the end of the soak, not a failure
				}
				h.Record(time.Since(s))
				if err != nil {
					errs.Add(1)
					first.CompareAndSwap(nil, err)
				}
			}
		}()
	}
	tick := time.NewTicker(max(d/10, time.Second))
	defer tick.Stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				fmt.Fprintf(errOut, "soak: %.0fs, %d requests, RSS %d kB\n", time.Since(t0).Seconds(), h.Count(), rssKB())
			}
		}
	}()
	wg.Wait()
	el := time.Since(t0)
	q := h.Quantiles(0.5, 0.99)
	r.Requests, r.Errors, r.Seconds = int(h.Count()), int(errs.Load()), el.Seconds()
	r.RPS, r.P50ms, r.P99ms = float64(r.Requests)/el.Seconds(), ms(q[0]), ms(q[1])
	r.RSSEnd = rssKB()
	var err error
	if e, ok := first.Load().(error); ok {
		err = e
	}
	return r, err
}

// rssKB is VmRSS in KiB, or 0 where there is none.
func rssKB() int64 { return procmem.Read().RSS >> 10 }

func printRun(w io.Writer, r BenchRun) {
	opened := ""
	if r.OpenMaxms > 0 {
		opened = fmt.Sprintf("  (opened in %.2f ms, slowest %.2f ms)", r.OpenP50ms, r.OpenMaxms)
	}
	fmt.Fprintf(w, "  %-14s clients %3d: %7.0f req/s  p50 %6.2f ms  p99 %7.2f ms  errors %d%s\n",
		r.Target, r.Clients, r.RPS, r.P50ms, r.P99ms, r.Errors, opened)
}

func printRuns(w io.Writer, runs []BenchRun, cache int) {
	fmt.Fprintf(w, "%-14s %7s %9s %9s %9s %8s %7s %7s\n", "target", "clients", "req/s", "p50 ms", "p99 ms", "errors", "/fts5", "/lucene")
	for _, r := range runs {
		ratio := func(x float64) string {
			if x > 0 {
				return fmt.Sprintf("%.2fx", x)
			}
			return ""
		}
		fmt.Fprintf(w, "%-14s %7d %9.0f %9.2f %9.2f %8d %7s %7s\n", r.Target, r.Clients, r.RPS, r.P50ms, r.P99ms, r.Errors, ratio(r.Ratio), ratio(r.RatioLucene))
		if r.Target == "soak" {
			fmt.Fprintf(w, "soak: %d requests in %.0fs; RSS %d kB at start, %d kB at end\n", r.Requests, r.Seconds, r.RSSStart, r.RSSEnd)
		}
	}
	fmt.Fprintf(w, "(cache %d; /fts5 = leaper search req/s over HTTP / FTS5 queries/s in-process; /lucene = leaper / Lucene search req/s, both over HTTP)\n", cache)
}

// benchWorkload draws n requests, about 70% search and 30% visit, from the
// tasks in path, or else from the store's trees: titles, key entities and
// column headers for queries, page and entity URLs for visits.
func benchWorkload(ctx context.Context, g *graph.Store, tasksPath string, n int, seed uint64) ([]benchReq, error) {
	var queries, urls, goals []string
	if tasksPath != "" {
		ts, err := task.ReadFile(tasksPath)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			queries = append(queries, t.Question)
			goals = append(goals, t.Question)
			for i, tg := range t.Targets {
				if i < 5 {
					queries = append(queries, tg.Name)
				}
			}
			for _, id := range t.Trees {
				if tr, err := g.Tree(id); err == nil {
					urls = append(urls, tr.PageURL)
					queries = append(queries, tr.Title())
				}
			}
		}
	} else {
		var keys []uint32
		var keyHeader []string
		err := g.EachTree(ctx, func(t *graph.Tree) error {
			queries = append(queries, t.Title())
			urls = append(urls, t.PageURL)
			for i, c := range t.Columns {
				if i < 2 {
					queries = append(queries, t.PageTitle+" "+c.Header)
					goals = append(goals, t.KeyHeader+" and "+c.Header)
				}
			}
			for i, r := range t.Rows {
				if i < 2 {
					keys = append(keys, r.Key)
					if len(t.Columns) > 0 {
						keyHeader = append(keyHeader, t.Columns[0].Header)
					} else {
						keyHeader = append(keyHeader, "")
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		ents, err := g.Entities(keys)
		if err != nil {
			return nil, err
		}
		for i, e := range ents {
			queries = append(queries, strings.TrimSpace(e.Name+" "+keyHeader[i]))
			if e.URL != "" {
				urls = append(urls, e.URL)
			}
		}
	}
	// A blank query (a tree without page title and header) is a client
	// error the server rightly refuses, not load.
	queries = slices.DeleteFunc(queries, func(q string) bool { return strings.TrimSpace(q) == "" })
	if len(queries) == 0 || len(urls) == 0 {
		return nil, errors.New("bench: no queries or pages to draw from")
	}
	if len(goals) == 0 {
		goals = queries
	}
	rng := rand.New(rand.NewPCG(seed, 0x1eaf))
	out := make([]benchReq, n)
	for i := range out {
		if rng.IntN(10) < 7 {
			q := queries[rng.IntN(len(queries))]
			b, _ := json.Marshal(map[string]any{"query": q})
			out[i] = benchReq{Endpoint: "search", Body: b, Query: q}
		} else {
			b, _ := json.Marshal(map[string]any{"url": urls[rng.IntN(len(urls))], "goal": goals[rng.IntN(len(goals))]})
			out[i] = benchReq{Endpoint: "visit", Body: b}
		}
	}
	return out, nil
}

// httpDoer returns the load generator's HTTP clients. For an http://
// server each client keeps one connection and speaks HTTP/1.1 on it
// directly, reading each answer before sending the next request, as wrk
// does: net/http's client adds two goroutines per connection, and in one
// process with the server on two cores those goroutines compete with the
// server's and blur its latency. Other URLs go through net/http.
func httpDoer(base, token string, clients int) (newClient, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("bench: --url %q: %w", base, err)
	}
	if u.Scheme != "http" {
		hc := &http.Client{Transport: &http.Transport{
			MaxIdleConns: clients * 2, MaxIdleConnsPerHost: clients * 2, IdleConnTimeout: time.Minute,
			DisableCompression: true,
		}, Timeout: requestDeadline}
		do := func(ctx context.Context, r benchReq) error {
			req, err := http.NewRequestWithContext(ctx, cmpOr(r.Method, http.MethodPost), base+"/"+r.Endpoint, bytes.NewReader(r.Body))
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("%s: HTTP %d", r.Endpoint, resp.StatusCode)
			}
			return err
		}
		return func() loadClient { return loadClient{do: do, release: func() {}} }, nil
	}
	prefix := strings.TrimSuffix(u.Path, "/")
	return func() loadClient {
		c := &rawClient{addr: u.Host, prefix: prefix, token: token}
		return loadClient{open: c.dial, do: c.do, release: c.close}
	}, nil
}

// rawClient is one keep-alive HTTP/1.1 connection of the load generator.
type rawClient struct {
	addr, prefix, token string
	conn                net.Conn
	br                  *bufio.Reader
	buf                 []byte
}

func (c *rawClient) do(ctx context.Context, r benchReq) error {
	resp, err := c.exchange(ctx, r, nil, nil)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d", r.Endpoint, resp.StatusCode)
	}
	return nil
}

// exchange sends one request with extra header lines ("Name: value") and
// reads the answer; the body goes to keep when it is not nil, else it is
// discarded.
func (c *rawClient) exchange(ctx context.Context, r benchReq, hdr []string, keep *[]byte) (*http.Response, error) {
	if err := c.dial(ctx); err != nil {
		return nil, err
	}
	// A request in flight when a run ends finishes; a stuck one fails.
	c.conn.SetDeadline(time.Now().Add(requestDeadline))
	b := c.buf[:0]
	method := cmpOr(r.Method, http.MethodPost)
	b = append(b, method+" "+c.prefix+"/"+r.Endpoint+" HTTP/1.1\r\nHost: "+c.addr+"\r\n"...)
	if c.token != "" {
		b = append(b, "Authorization: Bearer "+c.token+"\r\n"...)
	}
	for _, h := range hdr {
		b = append(b, h+"\r\n"...)
	}
	if method == http.MethodPost {
		b = append(b, "Content-Type: application/json\r\nContent-Length: "...)
		b = strconv.AppendInt(b, int64(len(r.Body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, r.Body...)
	c.buf = b
	resp, err := func() (*http.Response, error) {
		if _, err := c.conn.Write(b); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(c.br, nil)
		if err != nil {
			return nil, err
		}
		if keep != nil {
			*keep, err = io.ReadAll(resp.Body)
		} else {
			_, err = io.Copy(io.Discard, resp.Body)
		}
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.Close {
			c.close()
		}
		return resp, nil
	}()
	if err != nil && c.conn != nil {
		c.close() // a connection in an unknown state is not reused
	}
	return resp, err
}

// dial connects the client unless it is connected.
func (c *rawClient) dial(ctx context.Context) error {
	if c.conn != nil {
		return nil
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	c.conn, c.br = conn, bufio.NewReaderSize(conn, 64<<10)
	return nil
}

func (c *rawClient) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// requestDeadline is how long one request may take before it counts as
// failed: past leaper serve's own --batch-timeout (90 s), so that a batch
// of /retrieve queries queued behind others gets the server's answer (an
// answer, or its 503) rather than the client's cut.
const requestDeadline = 2 * time.Minute

// Request is one request of a workload: the endpoint (search, visit, ...)
// and its JSON body.
type Request struct {
	Endpoint string
	Body     []byte
}

// Workload draws n requests of the rollout mix (70/30 search/visit) from
// the store g, or from the tasks of tasksPath when it is set, with seed:
// the requests Run sends, for a driver of its own (the replicas bench).
func Workload(ctx context.Context, g *graph.Store, tasksPath string, n int, seed uint64) ([]Request, error) {
	rs, err := benchWorkload(ctx, g, tasksPath, n, seed)
	if err != nil {
		return nil, err
	}
	out := make([]Request, len(rs))
	for i, r := range rs {
		out[i] = Request{Endpoint: r.Endpoint, Body: r.Body}
	}
	return out, nil
}
