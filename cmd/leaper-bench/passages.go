package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/bench/buildbench"
	"github.com/leaper-dev/leaper/bench/load"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/web/serve"
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
	// Reuse loads the store of each size kept in Work by an earlier
	// --keep run, without replaying or building it.
	Reuse bool
	// URL loads a running server (leaper serve of any build, over the
	// store of the one size given) instead of serving in-process; no
	// replay or build.
	URL string
	// CPUProfile, when set, is where the CPU profile of the load runs
	// (the in-process server and the load generator) is written.
	CPUProfile string
	// Evaluations is the in-process server's serve.Options.Evaluations
	// (0: its default).
	Evaluations int
}

// PassageResult is one size: the replay, the build and the load runs.
type PassageResult struct {
	Passages int                       `json:"passages"`
	Replay   *buildbench.PassageReport `json:"replay"`
	Build    *buildbench.Result        `json:"build"`
	Runs     []load.PassageRun         `json:"runs"`
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
			if opts.Evaluations < 0 {
				return usageErrorf("--evaluations must not be negative")
			}
			if opts.Clients < 1 || opts.Clients > load.MaxClients || opts.Queries < 1 {
				return usageErrorf("--clients must be within 1..%d and --queries positive", load.MaxClients)
			}
			if opts.Reuse && opts.Work == "" {
				return usageErrorf("--reuse needs the --work of the --keep run")
			}
			if opts.URL != "" && (len(opts.Passages) != 1 || opts.Lucene) {
				return usageErrorf("--url loads one server: one --passages size, no --lucene")
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
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 0, "pass --max-memory to leaper build (0: its default)")
	c.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the queries")
	c.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Minute, "stop a load run that takes longer than this")
	c.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "hide the build's progress lines")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print results as JSON")
	c.Flags().BoolVar(&opts.Lucene, "lucene", false, "also load Lucene 8 over the same pages and queries (top 10, one query a call), alternating with leaper's /retrieve at topk 10")
	c.Flags().IntVar(&opts.Rounds, "rounds", 2, "rounds of the --lucene comparison")
	c.Flags().BoolVar(&opts.Reuse, "reuse", false, "load the stores an earlier --keep run left in --work; no replay or build")
	c.Flags().StringVar(&opts.URL, "url", "", "load this running server (leaper serve over the store of the one --passages size) instead of serving in-process; no replay or build")
	c.Flags().IntVar(&opts.Evaluations, "evaluations", 0, "the in-process server's search queries evaluated at once, as leaper serve --evaluations (0: its default, the CPUs)")
	c.Flags().StringVar(&opts.CPUProfile, "cpuprofile", "", "write the CPU profile of the load runs (in-process server and load generator) to this file")
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
	var work string
	var cleanup func()
	var err error
	if o.Reuse || o.URL != "" {
		// Nothing is built: no leaper binary is needed.
		work, cleanup = o.Work, func() {}
	} else if o.Leaper, work, cleanup, err = benchSetup(o.Leaper, o.Work, "passages", o.Keep); err != nil {
		return err
	}
	defer cleanup()
	mo := buildbench.MeasureOptions{Leaper: o.Leaper, Args: []string{"--format", "flashrag"}}
	if !o.Quiet {
		mo.Stderr = o.IO.ErrOut
	}
	if o.MaxMemory > 0 {
		mo.Args = append(mo.Args, "--max-memory", strconv.FormatInt(o.MaxMemory, 10))
	}
	qs, err := buildbench.PassageQueries(o.Inputs, o.Queries, o.Seed)
	if err != nil {
		return err
	}
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var res []PassageResult
	for _, n := range o.Passages {
		r, err := benchPassageSize(ctx, o, work, n, qs, &mo)
		if err != nil {
			if len(r.Runs) == 0 {
				return err
			}
			// Report what was measured (the build, the runs before the
			// failure), then the failure.
			res = append(res, r)
			if o.JSON {
				writeJSON(o.IO.Out, res)
			} else {
				printPassages(o.IO.Out, res)
			}
			return fmt.Errorf("passages %d: %w (the figures above were measured before it)", n, err)
		}
		res = append(res, r)
	}
	if o.JSON {
		return writeJSON(o.IO.Out, res)
	}
	printPassages(o.IO.Out, res)
	return nil
}

// benchPassageSize replays and builds a corpus of n passages in work
// (unless --reuse or --url) and loads it.
func benchPassageSize(ctx context.Context, o *BenchPassagesOptions, work string, n int, qs []string, mo *buildbench.MeasureOptions) (PassageResult, error) {
	errOut := o.IO.ErrOut
	r := PassageResult{Passages: n}
	corpus := filepath.Join(work, fmt.Sprintf("passages-%d", n))
	storeDir := filepath.Join(work, fmt.Sprintf("store-%d", n))
	var err error
	switch {
	case o.URL != "":
		fmt.Fprintf(errOut, "load: %s (a store of %d passages)\n", o.URL, n)
	case o.Reuse:
		if _, err := os.Stat(storeDir); err != nil {
			return r, fmt.Errorf("--reuse: %w", err)
		}
		fmt.Fprintf(errOut, "load: the kept store %s\n", storeDir)
	default:
		fmt.Fprintf(errOut, "replay: %d passages into %s\n", n, corpus)
		if r.Replay, err = buildbench.ReplayPassages(ctx, o.Inputs, n, 0, corpus); err != nil {
			return r, err
		}
		fmt.Fprintf(errOut, "replay: %d passages of %d articles, %d MiB gzipped, in %.1fs\n", r.Replay.Passages, r.Replay.Articles, r.Replay.Bytes>>20, r.Replay.Took.Seconds())
		r.LoadBuild = loadAvg()
		if r.Build, err = buildbench.Measure(ctx, storeDir, r.Replay.Files, mo); err != nil {
			return r, err
		}
		r.Build.Label = fmt.Sprintf("passages-%d", n)
		if !o.Keep {
			os.RemoveAll(corpus)
		}
	}
	r.LoadServe = loadAvg()
	// The server's collector paced as leaper serve paces it.
	restore := cmdutil.CollectNear(1<<30, -1)
	r.Runs, r.ServeRSS, err = load.Passages(ctx, load.PassageOptions{Log: errOut, Clients: o.Clients,
		Batches: o.Batches, Timeout: o.Timeout, Lucene: o.Lucene, Rounds: o.Rounds, URL: o.URL, Evaluations: o.Evaluations}, storeDir, qs)
	restore()
	if err == nil && !o.Keep && !o.Reuse && o.URL == "" {
		os.RemoveAll(storeDir)
	}
	return r, err
}

// printPassages writes the results as text, a size a block.
func printPassages(out io.Writer, res []PassageResult) {
	fmt.Fprintf(out, "%d CPUs\n", runtime.NumCPU())
	for _, r := range res {
		b := r.Build
		if b == nil || r.Replay == nil {
			fmt.Fprintf(out, "passages %d (a kept store, not built)\n", r.Passages)
		} else {
			fmt.Fprintf(out, "passages %d (%d articles): build %.1fs (read %.1f, finalize %.1f, index %.1f), CPU %.1fs, peak RSS %.0f MiB, store %.0f MiB, %d pages; load %s\n",
				r.Passages, r.Replay.Articles, b.Wall.Seconds(), b.Read.Seconds(), b.Finalize.Seconds(), b.Index.Seconds(), b.CPU.Seconds(),
				float64(b.PeakRSS)/(1<<20), float64(b.StoreSize)/(1<<20), b.Counts.Pages, r.LoadBuild)
		}
		for _, run := range r.Runs {
			fmt.Fprintf(out, "  %-16s batch %4d, %d clients: %8.0f q/s  p50 %8.2f ms  p99 %8.2f ms  (%d calls, errors %d)\n",
				run.Target, run.Batch, run.Clients, run.QPS, run.P50ms, run.P99ms, run.Requests, run.Errors)
		}
		fmt.Fprintf(out, "  serving RSS %.0f MiB; load before the runs %s\n", float64(r.ServeRSS)/(1<<20), r.LoadServe)
	}
}
