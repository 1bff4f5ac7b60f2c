package cmd

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/leaper-dev/leaper/agent/eval/rewardhttp"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/report"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/mcpserve"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/spf13/cobra"
)

// ServeOptions are the flags of leaper serve.
type ServeOptions struct {
	IO        IO
	Web       func() (*web.Web, error)
	Store     string
	Addr      string
	TokenFile string
	Workers   int
	// Evaluations bounds the search queries evaluated at once.
	Evaluations int
	Cache       int
	Tasks       string
	Grace       time.Duration
	Drain       time.Duration
	// MaxBatch bounds the queries of one /retrieve call; BatchTimeout
	// the time it may take.
	MaxBatch     int
	BatchTimeout time.Duration
	// MCPSearchJSON: /mcp's search answers BrowseComp-Plus's JSON hits.
	MCPSearchJSON bool
	// MaxMemory is the memory the server aims to stay within (see
	// collectNear); 0 collects as usual.
	MaxMemory int64
	// Ready, when set (tests), receives the bound address once listening.
	Ready func(addr string)
}

func newServeCmd(f *Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	c := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Serve the offline web over HTTP to rollout workers",
		Long: `Serve answers search and visit (Tongyi DeepResearch's tools, the same text as
leaper search and leaper visit), /retrieve in Search-R1's, verl's, SkyRL's,
ASearcher's and rLLM's shapes, ASearcher's /access, Serper's /serper/search,
Jina Reader's /jina/<url>, /reward and OpenRLHF's /get_reward (with --tasks
for task ids), the MCP tools at /mcp (streamable HTTP; see leaper mcp),
/healthz and /stats, and the HTML report of the store and --tasks at
/report (see leaper report), over one read-only store. It binds loopback by
default; any other address needs --token-file, whose token clients send
as "Authorization: Bearer TOKEN". SIGINT or SIGTERM stop it after
in-flight requests finish.

Behind a load balancer (leaper haproxy writes HAProxy's configuration):
several replicas may open one store directory at once. GET /readyz says
200 once the store is open and warm, 503 while warming and, for --drain,
once stopping; GET /livez says the process answers. Every answer names its
store in the X-Leaper-Store header (format version and content digest;
also in /stats). SIGHUP reopens --store (point it at a symlink and move
the link to roll a new store out), and POST /admin/store {"dir": DIR}
(behind the token) switches to DIR: the new store is opened and warmed,
new requests go to it, and the old one closes once its requests finish.`,
		Example: `  leaper serve --store ./leaper-data
  curl -s localhost:8080/search -d '{"query": ["Booker Prize winners"], "filter_year": 1983}'
  curl -s localhost:8080/serper/search -d '{"q": "Booker Prize winners", "num": 5}'
  curl -s localhost:8080/jina/https://en.wikipedia.org/wiki/Man_Booker_Prize
  leaper serve --addr 0.0.0.0:8080 --token-file token.txt --workers 8 --cache 10000 --tasks tasks.jsonl
  leaper serve --store /stores/current --addr 127.0.0.1:8081 --drain 3s   # one replica behind HAProxy`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web, opts.Store = f.IO, f.Web, f.Store
			if opts.Workers < 0 || opts.Evaluations < 0 || opts.Cache < 0 || opts.Drain < 0 {
				return usageErrorf("--workers, --evaluations, --cache and --drain must not be negative")
			}
			if opts.MaxBatch < 1 || opts.BatchTimeout <= 0 {
				return usageErrorf("--max-batch and --batch-timeout must be positive")
			}
			if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
				return usageErrorf("--addr %q: %v", opts.Addr, err)
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runServe(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "listen address (host:port)")
	c.Flags().StringVar(&opts.TokenFile, "token-file", "", "file holding the bearer token clients must send (required off loopback)")
	c.Flags().IntVar(&opts.Workers, "workers", 0, "concurrent tool executions; more requests queue (0: 2 x CPUs)")
	c.Flags().IntVar(&opts.Evaluations, "evaluations", 0, "search queries evaluated at once (each query of a /retrieve batch is one); more wait in arrival order (0: CPUs)")
	c.Flags().IntVar(&opts.Cache, "cache", 0, "responses kept in an LRU cache (0: off)")
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "tasks JSONL that /reward resolves task_id against")
	c.Flags().DurationVar(&opts.Grace, "grace", 30*time.Second, "how long in-flight requests may finish on shutdown (and on the old store, after a switch)")
	c.Flags().DurationVar(&opts.Drain, "drain", 0, "on SIGTERM, answer for this long with /readyz at 503 before closing the listener (behind a balancer: its check interval x fall)")
	c.Flags().IntVar(&opts.MaxBatch, "max-batch", serve.DefaultMaxBatch, "queries one /retrieve call may carry (Search-R1 posts every rollout's query at once: 512 prompts x 5)")
	c.Flags().DurationVar(&opts.BatchTimeout, "batch-timeout", 90*time.Second, "time one /retrieve call may take before it is answered 503")
	c.Flags().BoolVar(&opts.MCPSearchJSON, "mcp-search-json", false, "/mcp: "+searchJSONHelp)
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 1<<30, "bytes of memory the server aims to stay within: the Go heap is collected only as it nears 3/4 of it (0: collect as usual; GOGC or GOMEMLIMIT in the environment win)")
	return c
}

// serveOptions turns flags into server options, reading the token, and
// reads the tasks /reward resolves ids against; it refuses a non-loopback
// address without a token.
func serveOptions(o *ServeOptions) (*serve.Options, []*task.Task, error) {
	so := &serve.Options{
		Workers:       o.Workers,
		Evaluations:   o.Evaluations,
		Cache:         o.Cache,
		ShutdownGrace: o.Grace,
		Drain:         o.Drain,
		Open:          func(dir string) (*web.Web, error) { return web.Open(dir, nil) },
		MaxBatch:      o.MaxBatch,
		BatchTimeout:  o.BatchTimeout,
		Logger:        slog.New(slog.NewTextHandler(o.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if err := so.Validate(); err != nil {
		return nil, nil, cmdutil.Usage(err)
	}
	if o.TokenFile != "" {
		tok, err := serve.ReadToken(o.TokenFile)
		if err != nil {
			return nil, nil, usageErrorf("--token-file: %v", err)
		}
		so.Token = tok
	}
	if err := serve.CheckAddr(o.Addr, so.Token); err != nil {
		return nil, nil, cmdutil.Usage(err)
	}
	var tasks []*task.Task
	if o.Tasks != "" {
		ts, err := task.ReadFile(o.Tasks)
		if err != nil {
			return nil, nil, err
		}
		tasks = ts
	}
	return so, tasks, nil
}

func runServe(ctx context.Context, o *ServeOptions) error {
	so, tasks, err := serveOptions(o)
	if err != nil {
		return err
	}
	w, err := o.Web()
	if err != nil {
		return err
	}
	if len(tasks) > 0 {
		// Rewards read the targets' aliases from the store.
		if err := checkStore(tasks, w.Store().Graph(), o.Tasks, o.Store); err != nil {
			return err
		}
	}
	defer cmdutil.CollectNear(o.MaxMemory, -1)()
	srv := serve.NewServer(w, so)
	// Scoring is agent/eval's: its endpoints are mounted, served as the
	// server's own.
	re := rewardhttp.NewEndpoints(&rewardhttp.Options{Tasks: tasks})
	srv.MountEndpoint("/reward", re.MaxBody(), re.Reward)
	srv.MountEndpoint("/get_reward", re.MaxBody(), re.GetReward)
	srv.MountWeb("/mcp", func(w *web.Web) http.Handler {
		return mcpserve.NewServer(w, &mcpserve.Options{Workers: so.Workers, SearchJSON: o.MCPSearchJSON}).Handler()
	})
	// The report of the store and --tasks, built on the first GET (again
	// after a store switch).
	srv.MountWeb("/report", func(w *web.Web) http.Handler {
		return report.Handler(w.Store().Graph(), &report.Options{Store: o.Store, Tasks: tasks})
	})
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return err
	}
	st := srv.Stats()
	fmt.Fprintf(o.IO.ErrOut, "leaper serve: http://%s (store %s, id %s, workers %d, cache %d, tasks %d, token %v)\n",
		ln.Addr(), o.Store, st.Store, st.Workers, st.CacheCapacity, len(tasks), so.Token != "")
	// SIGHUP reopens --store: a new store rolled out behind a symlink.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				res, err := srv.Switch(ctx, o.Store)
				if err != nil {
					fmt.Fprintf(o.IO.ErrOut, "leaper serve: SIGHUP: %v (still serving %s)\n", err, srv.StoreID())
					continue
				}
				fmt.Fprintf(o.IO.ErrOut, "leaper serve: switched store %s -> %s (%s; old requests drained in %.0f ms)\n", res.From, res.To, res.Dir, res.DrainedMS)
			}
		}
	}()
	if o.Ready != nil {
		o.Ready(ln.Addr().String())
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(o.IO.ErrOut, "leaper serve: stopped")
	return nil
}
