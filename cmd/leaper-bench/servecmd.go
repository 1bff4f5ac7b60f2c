package main

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/bench/load"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
)

// BenchServeOptions are the flags of leaper-bench serve.
type BenchServeOptions struct {
	load.Options
	MaxMemory int64
}

func newBenchServeCmd(f *Factory, runF func(context.Context, *BenchServeOptions) error) *cobra.Command {
	opts := &BenchServeOptions{}
	var clients string
	c := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Load-test leaper serve (and SQLite FTS5 with --fts5, Lucene with --lucene) on the loopback",
		Long: `serve starts leaper serve in-process on 127.0.0.1 (or targets --url)
and runs, for each client count, a fixed number of requests from that many
concurrent clients: a deterministic mix of about 70% search and 30% visit
drawn from the tasks (--tasks) or from the store's tree titles, key
entities and column headers. It reports requests/s, p50 and p99 latency
and errors, for the mix and for search alone. --fts5 measures SQLite FTS5
over the same pages with the same queries and as many connections, in the
same run, and prints leaper's ratio to it. --lucene runs Lucene 8 over the
same pages (see leaper-bench search) behind a small Java HTTP server on
127.0.0.1 with as many workers as leaper's server, and loads it with the
same search requests and clients, in the same run. --soak runs the mix for a
duration and prints the resident memory at start and end. --dropin also
measures visit alone and the same requests through the drop-in shapes:
POST /serper/search, GET /jina/<url>, and the MCP tools search and visit
over streamable HTTP (one SDK client session per client), with each one's
p99 as a ratio to /search's or /visit's: in each of --rounds rounds every
drop-in shape runs right after its native endpoint (search, Serper, MCP
search, visit, Jina, MCP visit) and is divided by that round's native p99;
the medians over the rounds are reported.`,
		Example: `  leaper-bench serve --store ./leaper-data --clients 1,8,64 --requests 2000 --fts5
  leaper-bench serve --store ./leaper-data --cache 10000 --soak 10m
  leaper-bench serve --store ./leaper-data --clients 64 --requests 4000 --dropin`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web = load.IO{Out: f.IO.Out, ErrOut: f.IO.ErrOut}, f.Web
			opts.Clients = nil
			for _, s := range strings.Split(clients, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n < 1 || n > load.MaxClients {
					return usageErrorf("--clients: %q is not a count in 1..%d", s, load.MaxClients)
				}
				opts.Clients = append(opts.Clients, n)
			}
			if opts.Requests < 1 || opts.Requests > load.MaxRequests {
				return usageErrorf("--requests must be within 1..%d", load.MaxRequests)
			}
			if opts.Soak < 0 || opts.Soak > load.MaxSoak {
				return usageErrorf("--soak must be within 0..%v", load.MaxSoak)
			}
			if opts.Rounds < 1 || opts.Rounds > 100 {
				return usageErrorf("--rounds must be within 1..100")
			}
			if opts.Cache < 0 || opts.Workers < 0 {
				return usageErrorf("--cache and --workers must not be negative")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBenchServe(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&clients, "clients", "1,8,64", "concurrent client counts, comma-separated")
	c.Flags().IntVar(&opts.Requests, "requests", 2000, "requests per run")
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "draw queries and pages from these tasks (JSONL)")
	c.Flags().StringVar(&opts.URL, "url", "", "target this server instead of one started in-process")
	c.Flags().StringVar(&opts.TokenFile, "token-file", "", "bearer token for --url")
	c.Flags().BoolVar(&opts.FTS5, "fts5", false, "also measure SQLite FTS5 over the same pages and queries")
	c.Flags().StringVar(&opts.FTS5DB, "fts5-db", "", "keep the FTS5 database here and reuse it (default: temporary)")
	c.Flags().BoolVar(&opts.Lucene, "lucene", false, "also load Lucene 8 over HTTP with the same search requests")
	c.Flags().StringVar(&opts.LuceneIdx, "lucene-index", "", "keep the Lucene index here and reuse it (default: temporary)")
	c.Flags().IntVar(&opts.Cache, "cache", 0, "response cache entries of the in-process server (0: off)")
	c.Flags().IntVar(&opts.Workers, "workers", 0, "worker slots of the in-process server (0: its default)")
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 1<<30, "the in-process server's --max-memory, as leaper serve's (0: collect as usual)")
	c.Flags().DurationVar(&opts.Soak, "soak", 0, "after the runs, a mixed load for this long, with RSS at start and end")
	c.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the query mix")
	c.Flags().DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "stop a run that takes longer than this")
	c.Flags().BoolVar(&opts.Dropin, "dropin", false, "also measure visit alone and the drop-in shapes (Serper, Jina, MCP search and visit) on the same requests")
	c.Flags().IntVar(&opts.Rounds, "rounds", 3, "rounds of the --dropin runs (medians reported)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print results as JSON")
	return c
}

// runBenchServe tunes the collector for the in-process server, as leaper
// serve does, and runs the load test.
func runBenchServe(ctx context.Context, o *BenchServeOptions) error {
	if o.URL == "" {
		defer cmdutil.CollectNear(o.MaxMemory, -1)()
	}
	return load.Run(ctx, &o.Options)
}
