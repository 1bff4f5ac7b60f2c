package cmd

import (
	"context"
	"fmt"
	"net"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/web"
	"github.com/leaper-dev/leaper/web/mcpserve"
	"github.com/leaper-dev/leaper/web/serve"
	"github.com/spf13/cobra"
)

// MCPOptions are the flags of leaper mcp.
type MCPOptions struct {
	IO        IO
	Web       func() (*web.Web, error)
	Store     string
	Transport string
	Addr      string
	TokenFile string
	Workers   int
	// SearchJSON: search answers BrowseComp-Plus's JSON hits.
	SearchJSON bool
	// MaxMemory is the memory the server aims to stay within (see
	// collectNear); 0 collects as usual.
	MaxMemory int64
	// Ready, when set (tests), receives the bound address of the HTTP
	// transport once listening.
	Ready func(addr string)
}

func newMCPCmd(f *Factory, runF func(context.Context, *MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{}
	c := &cobra.Command{
		Use:   "mcp [--transport stdio|http]",
		Short: "Serve the offline web as MCP tools (search, visit, get_document, fetch)",
		Long: `Mcp serves the offline web as Model Context Protocol tools: search and visit
(the text leaper search and leaper visit print), get_document (BrowseComp-Plus's
tool; a docid is a page URL) and fetch (a page by URL, as Jina Reader's text).
Each result's _meta holds the entities the text shows ("leaper/entities").

With --transport stdio (the default) it serves one session on stdin/stdout,
for clients that start the server themselves. With --transport http it
serves streamable HTTP at /mcp on --addr, with the same loopback default and
token rule as leaper serve (which mounts /mcp too, beside its other endpoints).`,
		Example: `  leaper mcp --store ./leaper-data
  leaper mcp --transport http --addr 127.0.0.1:8081     # endpoint http://127.0.0.1:8081/mcp
  claude mcp add leaper -- leaper mcp --store ./leaper-data`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web, opts.Store = f.IO, f.Web, f.Store
			switch opts.Transport {
			case "stdio", "http":
			default:
				return usageErrorf("--transport %q: use stdio or http", opts.Transport)
			}
			if opts.Workers < 0 {
				return usageErrorf("--workers must not be negative")
			}
			if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
				return usageErrorf("--addr %q: %v", opts.Addr, err)
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runMCP(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Transport, "transport", "stdio", "stdio or http (streamable HTTP at /mcp)")
	c.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8081", "listen address of the http transport")
	c.Flags().StringVar(&opts.TokenFile, "token-file", "", "file holding the bearer token clients must send (required off loopback)")
	c.Flags().IntVar(&opts.Workers, "workers", 0, "concurrent tool calls (0: 2 x CPUs)")
	c.Flags().BoolVar(&opts.SearchJSON, "search-json", false, searchJSONHelp)
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 1<<30, "bytes of memory the server aims to stay within: the Go heap is collected only as it nears 3/4 of it (0: collect as usual; GOGC or GOMEMLIMIT in the environment win)")
	return c
}

func runMCP(ctx context.Context, o *MCPOptions) error {
	var so *serve.Options
	if o.Transport == "http" {
		var err error
		// The same checks as leaper serve: token file, loopback rule.
		so, _, err = serveOptions(&ServeOptions{IO: o.IO, Addr: o.Addr, TokenFile: o.TokenFile, Workers: o.Workers})
		if err != nil {
			return err
		}
	}
	w, err := o.Web()
	if err != nil {
		return err
	}
	defer cmdutil.CollectNear(o.MaxMemory, -1)()
	m := mcpserve.NewServer(w, &mcpserve.Options{Workers: o.Workers, SearchJSON: o.SearchJSON})
	if o.Transport == "stdio" {
		return m.RunStdio(ctx)
	}
	srv := serve.NewServer(w, so)
	srv.Mount("/mcp", m.Handler())
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "leaper mcp: http://%s/mcp (store %s, token %v)\n", ln.Addr(), o.Store, so.Token != "")
	if o.Ready != nil {
		o.Ready(ln.Addr().String())
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(o.IO.ErrOut, "leaper mcp: stopped")
	return nil
}

// searchJSONHelp is the help of --search-json (leaper mcp) and
// --mcp-search-json (leaper serve).
const searchJSONHelp = "search answers a JSON list of {docid, score, snippet, url, title} per hit, as BrowseComp-Plus's MCP search does (its clients read the docids from it), instead of the CLI's text"
