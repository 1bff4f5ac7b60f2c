package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/bench/load"
	"github.com/leaper-dev/leaper/bench/lucene"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// BenchSearchOptions are the flags of leaper-bench search.
type BenchSearchOptions struct {
	IO          IO
	Web         func() (*web.Web, error)
	Threads     []int
	Queries     int
	Rounds      int
	Seed        uint64
	Lucene      bool
	LuceneIndex string
	JSON        bool
}

func newBenchSearchCmd(f *Factory, runF func(context.Context, *BenchSearchOptions) error) *cobra.Command {
	opts := &BenchSearchOptions{}
	var threads string
	c := &cobra.Command{
		Use:   "search [flags]",
		Short: "Measure in-process search (and Lucene with --lucene) on the store's pages",
		Long: `search runs the store's top-10 search (with snippets) in-process on
seeded queries drawn from the store (tree titles, page titles with column
headers, key entities), all queries once per pass, at each thread count.
--lucene also runs Apache Lucene 8 (Debian's liblucene8-java, OpenJDK) on
the same pages, exported from the store, and the same queries: OR of the
terms over title^3 and body, BM25, top 10, a highlighter snippet per hit.
The engines alternate, pass by pass; it prints q/s, p50 and p99 for both,
leaper's ratio, and the overlap@10 of their hit lists. Without java or the
jars --lucene says so and measures leaper alone.`,
		Example: `  leaper-bench search --store ./leaper-data --lucene
  leaper-bench search --store ./leaper-data --lucene --lucene-index /tmp/lucene-idx --threads 1,2`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web = f.IO, f.Web
			opts.Threads = nil
			for _, s := range strings.Split(threads, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n < 1 || n > load.MaxClients {
					return usageErrorf("--threads: %q is not a count in 1..%d", s, load.MaxClients)
				}
				opts.Threads = append(opts.Threads, n)
			}
			if opts.Queries < 1 || opts.Queries > 1_000_000 {
				return usageErrorf("--queries must be within 1..1000000")
			}
			if opts.Rounds < 1 || opts.Rounds > 100 {
				return usageErrorf("--rounds must be within 1..100")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBenchSearch(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&threads, "threads", "1,2,8", "concurrent searcher counts, comma-separated")
	c.Flags().IntVar(&opts.Queries, "queries", 2000, "queries per pass")
	c.Flags().IntVar(&opts.Rounds, "rounds", 3, "passes per engine and thread count")
	c.Flags().Uint64Var(&opts.Seed, "seed", 1, "seed of the queries")
	c.Flags().BoolVar(&opts.Lucene, "lucene", false, "also measure Lucene 8 over the same pages and queries")
	c.Flags().StringVar(&opts.LuceneIndex, "lucene-index", "", "keep the Lucene index here and reuse it (default: temporary)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print results as JSON")
	return c
}

func runBenchSearch(ctx context.Context, o *BenchSearchOptions) error {
	w, err := o.Web()
	if err != nil {
		return err
	}
	st := w.Store()
	queries, err := load.SearchQueries(ctx, st.Graph(), o.Queries, o.Seed)
	if err != nil {
		return err
	}
	errOut := o.IO.ErrOut
	fmt.Fprintf(errOut, "workload: %d queries, seed %d\n", len(queries), o.Seed)
	var peer *lucene.Peer
	if o.Lucene {
		lo := &lucene.Options{IndexDir: o.LuceneIndex, Log: errOut}
		if err := lucene.Check(lo); err != nil {
			fmt.Fprintf(errOut, "%v; measuring leaper alone\n", err)
		} else {
			pages := func(yield func(lucene.Page) error) error {
				return st.Graph().EachPage(ctx, func(p *graph.Page) error {
					return yield(lucene.Page{URL: p.URL, Title: p.Title, Text: graph.PageText(p)})
				})
			}
			if peer, err = lucene.Start(ctx, lo, pages, lucene.StopWords(), queries); err != nil {
				return err
			}
			defer peer.Close()
			if peer.BuildTime > 0 {
				fmt.Fprintf(errOut, "lucene: index built in %.1fs\n", peer.BuildTime.Seconds())
			}
		}
	}
	search := func(ctx context.Context, q string) ([]string, error) {
		hs, err := st.Index().Search(ctx, q, index.SearchOptions{K: 10})
		urls := make([]string, len(hs))
		for i, h := range hs {
			urls[i] = h.URL
		}
		return urls, err
	}
	rep, err := lucene.Compare(ctx, peer, search, queries, &lucene.CompareOptions{Threads: o.Threads, Rounds: o.Rounds, Log: errOut})
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.IO.Out, rep)
	}
	rep.Print(o.IO.Out)
	return nil
}
