package cmd

import (
	"context"
	"fmt"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/web/serve"
	"github.com/spf13/cobra"
)

// HAProxyOptions are the flags of leaper haproxy.
type HAProxyOptions struct {
	IO        IO
	Bind      string
	Replicas  []string
	N         int
	MaxConn   int
	TokenFile string
	Stats     string
	Output    string
	// args is the command line, recorded in the config.
	args []string
}

func newHAProxyCmd(f *Factory, runF func(context.Context, *HAProxyOptions) error) *cobra.Command {
	opts := &HAProxyOptions{}
	c := &cobra.Command{
		Use:   "haproxy [--replicas N | --replica HOST:PORT ...]",
		Short: "Write an HAProxy configuration for leaper serve replicas",
		Long: `Haproxy writes an HAProxy (2.6 or later; Debian's haproxy) configuration that
spreads requests over several leaper serve replicas of one store: health
checks on /readyz (ready means the store is open and warm), retries with
redispatch to another replica for every call but /admin/ (every leaper call
is a read), a connection limit per replica (--maxconn; the rest queue in
HAProxy), MCP sessions kept on the replica that opened them, and the bearer
token passed through to the replicas, which check it. Store switches
(/admin/store) are refused at the balancer: send them to each replica.

--replicas N puts N replicas on the ports after --bind's, on its host;
--replica HOST:PORT (repeated or comma-separated) names them, on this
machine or others. A --bind off loopback needs --token-file, as leaper
serve does: the token file the replicas read (HAProxy does not read it).`,
		Example: `  leaper haproxy --replicas 3 > haproxy.cfg          # 127.0.0.1:8080 -> 127.0.0.1:8081..8083
  for p in 8081 8082 8083; do leaper serve --store ./leaper-data --addr 127.0.0.1:$p --drain 3s & done
  haproxy -f haproxy.cfg
  leaper haproxy --bind 0.0.0.0:8080 --token-file token.txt \
      --replica 10.0.0.11:8080,10.0.0.12:8080,10.0.0.13:8080 -o /etc/haproxy/haproxy.cfg`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO = f.IO
			opts.args = os.Args
			if (opts.N > 0) == (len(opts.Replicas) > 0) {
				return usageErrorf("give either --replicas N or --replica HOST:PORT")
			}
			if opts.N < 0 || opts.MaxConn < 0 {
				return usageErrorf("--replicas and --maxconn must not be negative")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runHAProxy(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Bind, "bind", "127.0.0.1:8080", "address HAProxy listens on (host:port)")
	c.Flags().IntVar(&opts.N, "replicas", 0, "replicas on the ports after --bind's, on its host")
	c.Flags().StringSliceVar(&opts.Replicas, "replica", nil, "a replica's HOST:PORT (repeat, or comma-separate)")
	c.Flags().IntVar(&opts.MaxConn, "maxconn", 32, "requests sent to one replica at once; more queue in HAProxy")
	c.Flags().StringVar(&opts.TokenFile, "token-file", "", "the replicas' token file (required off loopback; only checked here)")
	c.Flags().StringVar(&opts.Stats, "stats", "", "also serve HAProxy's stats page on this HOST:PORT (/;csv for CSV)")
	c.Flags().StringVarP(&opts.Output, "output", "o", "", "write to FILE (default stdout)")
	return c
}

func runHAProxy(_ context.Context, o *HAProxyOptions) error {
	reps := o.Replicas
	if o.N > 0 {
		host, port, err := net.SplitHostPort(o.Bind)
		p, perr := strconv.Atoi(port)
		if err != nil || perr != nil {
			return usageErrorf("--bind %q: want HOST:PORT", o.Bind)
		}
		if p+o.N > 65535 {
			return usageErrorf("--replicas %d: ports past 65535 after --bind's %d", o.N, p)
		}
		for i := 1; i <= o.N; i++ {
			reps = append(reps, net.JoinHostPort(host, strconv.Itoa(p+i)))
		}
	}
	if o.TokenFile != "" {
		if _, err := serve.ReadToken(o.TokenFile); err != nil {
			return usageErrorf("--token-file: %v", err)
		}
	}
	b, err := serve.HAProxyConfig(serve.HAProxyOptions{Bind: o.Bind, Replicas: reps, MaxConn: o.MaxConn,
		Token: o.TokenFile != "", Stats: o.Stats, Command: "leaper " + strings.Join(commandArgs(o.args), " ")})
	if err != nil {
		return cmdutil.Usage(err)
	}
	if o.Output == "" {
		_, err = o.IO.Out.Write(b)
		return err
	}
	if err := os.WriteFile(o.Output, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "haproxy: %d replicas behind %s: %s\n", len(reps), o.Bind, o.Output)
	return nil
}

// commandArgs are the arguments after "haproxy" in a command line, or
// the usual ones when it is not leaper's (tests).
func commandArgs(args []string) []string {
	for i, a := range args {
		if a == "haproxy" {
			return args[i:]
		}
	}
	return []string{"haproxy", "..."}
}
