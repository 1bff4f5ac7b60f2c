package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/agent/serve"
	"github.com/leaper-dev/leaper/bench/buildbench"
	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/cmd"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/web"
)

// BenchPassagesOptions are the flags of leaper-bench passages.
type BenchPassagesOptions struct {
	IO        IO
	Inputs    []string
	Passages  []int
	Leaper    string
	Work      string
	Keep      bool
	MaxMemory int64
	Clients   int
	Batches   []int
	// Queries is how many queries each run sends (in batches of its
	// size).
	Queries int
	Seed    uint64
	Timeout time.Duration
	Quiet   bool
	JSON    bool
	// Lucene also loads Lucene 8 over the same pages and queries, top 10
	// with snippets, alternating with leaper's /retrieve at topk 10.
	Lucene bool
	Rounds int
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

// PassageResult is one size: the replay, the build and the load runs.
type PassageResult struct {
	Passages int                       `json:"passages"`
	Replay   *buildbench.PassageReport `json:"replay"`
	Build    *buildbench.Result        `json:"build"`
	Runs     []PassageRun              `json:"runs"`
	// ServeRSS is the bench process's resident memory after the runs
	// (the in-process server and the load generator), in bytes.
	ServeRSS int64 `json:"serve_rss_bytes"`
	// Load is the machine's 1-minute load average before the build and
	// before the runs: other work on the machine shows in the figures.
	LoadBuild string `json:"load_build,omitempty"`
	LoadServe string `json:"load_serve,omitempty"`
}

func newBenchPassagesCmd(f *Factory, runF func(context.Context, *BenchPassagesOptions) error) *cobra.Command {
	opts := &BenchPassagesOptions{}
	var sizes, batches string
	c := &cobra.Command{
		Use:   "passages [flags] ARTICLES...",
		Short: "Measure a wiki-18-shaped passage corpus: build time, peak RSS, store size, /retrieve p99 and q/s",
		Long: `passages replays the articles of ARTICLES (OTT-QA's {"url","text"} passages,
as ../shared/corpus/ottqa/passages.jsonl.gz) into a corpus of N passages
in Search-R1/FlashRAG's wiki-18 format (100-word passages, ids from 0;
replica r renames every article "Title (rR)"; deterministic), builds it
with leaper build --format flashrag in a child process (wall time, stage
times, CPU, peak RSS, store size), then serves the store in-process and
sends /retrieve in Search-R1's shape from --clients concurrent clients,
one run per --batches size (queries per call), reporting p50 and p99
latency per call and queries/s. Queries are four to seven words of the
articles (half after the title), drawn by --seed. Sizes are built one
after the other. The machine's load average is reported beside them.`,
		Example: `  go build -o /tmp/leaper ./cmd/leaper
  leaper-bench passages --leaper /tmp/leaper --passages 1000000 ../shared/corpus/ottqa/passages.jsonl.gz
  leaper-bench passages --leaper /tmp/leaper --passages 100000,1000000 --clients 64 --batches 1,512 --json ../shared/corpus/ottqa/passages.jsonl.gz`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Inputs = f.IO, args
			var err error
			if opts.Passages, err = counts(sizes, "--passages", 1, 100_000_000); err != nil {
				return err
			}
			if opts.Batches, err = counts(batches, "--batches", 1, serve.DefaultMaxBatch); err != nil {
				return err
			}
			if opts.Clients < 1 || opts.Clients > maxBenchClients || opts.Queries < 1 {
				return usageErrorf("--clients must be within 1..%d and --queries positive", maxBenchClients)
			}
			for _, in := range args {
				if _, err := os.Stat(in); err != nil {
					return usageErrorf("articles %s: %v", in, err)
				}
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBenchPassages(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&sizes, "passages", "1000000", "corpus sizes in passages, comma-separated")
	c.Flags().StringVar(&batches, "batches", "1,512", "queries per /retrieve call, one run each, comma-separated")
	c.Flags().IntVar(&opts.Clients, "clients", 64, "concurrent clients")
	c.Flags().IntVar(&opts.Queries, "queries", 20000, "queries each run sends")
	c.Flags().StringVar(&opts.Leaper, "leaper", "", "the leaper binary that builds (default: leaper next to this binary, else on $PATH)")
	c.Flags().StringVar(&opts.Work, "work", "", "scratch directory for the corpora and stores (default: a new one under $TMPDIR)")
	c.Flags().BoolVar(&opts.Keep, "keep", false, "keep the corpora and stores in --work")
	cmd.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 0, "pass --max-memory to leaper build (0: its default)")
	c.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the queries")
	c.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Minute, "stop a load run that takes longer than this")
	c.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "hide the build's progress lines")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print results as JSON")
	c.Flags().BoolVar(&opts.Lucene, "lucene", false, "also load Lucene 8 over the same pages and queries (top 10, one query a call), alternating with leaper's /retrieve at topk 10")
	c.Flags().IntVar(&opts.Rounds, "rounds", 2, "rounds of the --lucene comparison")
	return c
}

// counts parses a comma-separated list of counts within lo..hi.
func counts(s, flag string, lo, hi int) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < lo || n > hi {
			return nil, usageErrorf("%s: %q is not a count in %d..%d", flag, p, lo, hi)
		}
		out = append(out, n)
	}
	return out, nil
}

// loadAvg is the first three fields of /proc/loadavg, or "".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func runBenchPassages(ctx context.Context, o *BenchPassagesOptions) error {
	if o.Leaper == "" {
		p, err := findLeaper()
		if err != nil {
			return err
		}
		o.Leaper = p
	}
	work := o.Work
	if work == "" {
		d, err := os.MkdirTemp("", "leaper-bench-passages-")
		if err != nil {
			return err
		}
		work = d
		if !o.Keep {
			defer os.RemoveAll(work)
		}
	}
	errOut := o.IO.ErrOut
	mo := buildbench.MeasureOptions{Leaper: o.Leaper, Args: []string{"--format", "flashrag"}}
	if !o.Quiet {
		mo.Stderr = errOut
	}
	if o.MaxMemory > 0 {
		mo.Args = append(mo.Args, "--max-memory", strconv.FormatInt(o.MaxMemory, 10))
	}
	qs, err := buildbench.PassageQueries(o.Inputs, o.Queries, o.Seed)
	if err != nil {
		return err
	}
	var res []PassageResult
	for _, n := range o.Passages {
		r := PassageResult{Passages: n}
		corpus := filepath.Join(work, fmt.Sprintf("passages-%d", n))
		fmt.Fprintf(errOut, "replay: %d passages into %s\n", n, corpus)
		if r.Replay, err = buildbench.ReplayPassages(ctx, o.Inputs, n, 0, corpus); err != nil {
			return err
		}
		fmt.Fprintf(errOut, "replay: %d passages of %d articles, %d MiB gzipped, in %.1fs\n", r.Replay.Passages, r.Replay.Articles, r.Replay.Bytes>>20, r.Replay.Took.Seconds())
		storeDir := filepath.Join(work, fmt.Sprintf("store-%d", n))
		r.LoadBuild = loadAvg()
		if r.Build, err = buildbench.Measure(ctx, storeDir, r.Replay.Files, &mo); err != nil {
			return err
		}
		r.Build.Label = fmt.Sprintf("passages-%d", n)
		if !o.Keep {
			os.RemoveAll(corpus)
		}
		r.LoadServe = loadAvg()
		if r.Runs, r.ServeRSS, err = passageLoad(ctx, o, storeDir, qs); err != nil {
			return err
		}
		if !o.Keep {
			os.RemoveAll(storeDir)
		}
		res = append(res, r)
	}
	if o.JSON {
		return writeJSON(o.IO.Out, res)
	}
	out := o.IO.Out
	fmt.Fprintf(out, "%d CPUs\n", runtime.NumCPU())
	for _, r := range res {
		b := r.Build
		fmt.Fprintf(out, "passages %d (%d articles): build %.1fs (read %.1f, finalize %.1f, index %.1f), CPU %.1fs, peak RSS %.0f MiB, store %.0f MiB, %d pages; load %s\n",
			r.Passages, r.Replay.Articles, b.Wall.Seconds(), b.Read.Seconds(), b.Finalize.Seconds(), b.Index.Seconds(), b.CPU.Seconds(),
			float64(b.PeakRSS)/(1<<20), float64(b.StoreSize)/(1<<20), b.Counts.Pages, r.LoadBuild)
		for _, run := range r.Runs {
			fmt.Fprintf(out, "  %-16s batch %4d, %d clients: %8.0f q/s  p50 %8.2f ms  p99 %8.2f ms  (%d calls, errors %d)\n",
				run.Target, run.Batch, run.Clients, run.QPS, run.P50ms, run.P99ms, run.Requests, run.Errors)
		}
		fmt.Fprintf(out, "  serving RSS %.0f MiB; load before the runs %s\n", float64(r.ServeRSS)/(1<<20), r.LoadServe)
	}
	return nil
}

// passageLoad serves storeDir in-process and runs /retrieve at each batch
// size.
func passageLoad(ctx context.Context, o *BenchPassagesOptions, storeDir string, qs []string) ([]PassageRun, int64, error) {
	w, err := web.Open(storeDir, nil)
	if err != nil {
		return nil, 0, err
	}
	defer w.Close()
	defer cmd.CollectNear(1 << 30)()
	srv := serve.NewServer(w, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, 0, err
	}
	sctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	defer func() { stop(); <-done }()
	post, err := httpDoer("http://"+ln.Addr().String(), "", o.Clients)
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
			return nil, 0, usageErrorf("--queries %d is less than a batch of %d", len(qs), batch)
		}
		fmt.Fprintf(o.IO.ErrOut, "load: /retrieve, batches of %d, %d clients, %d calls\n", batch, o.Clients, len(rs))
		r, err := loadRun(ctx, fmt.Sprintf("retrieve-%d", batch), o.Clients, len(rs), rs, post, o.Timeout)
		if err != nil {
			return nil, 0, err
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

func passageRun(target string, batch, clients int, r BenchRun) PassageRun {
	return PassageRun{Target: target, Batch: batch, Clients: clients, Requests: r.Requests, Errors: r.Errors,
		Seconds: r.Seconds, QPS: r.RPS * float64(batch), P50ms: r.P50ms, P99ms: r.P99ms}
}

// luceneRuns loads Lucene 8 over the store's pages with the same queries,
// one a call, top 10 with snippets, alternating with leaper's /retrieve at
// topk 10, --rounds times each. Without java, javac or the jars it says
// so and returns no runs.
func luceneRuns(ctx context.Context, o *BenchPassagesOptions, w *web.Web, qs []string, post newClient) ([]PassageRun, error) {
	errOut := o.IO.ErrOut
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
