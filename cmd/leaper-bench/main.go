// Command leaper-bench measures leaper against its peers: leaper-bench serve
// load-tests leaper serve, with SQLite FTS5 over the same pages as the peer.
// It is a binary of its own so that leaper does not link SQLite.
package main

import (
	"io"
	"os"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/spf13/cobra"
)

// IO and Factory are leaper's: the same streams, --store and lazy openers.
type (
	IO      = cmdutil.IO
	Factory = cmdutil.Factory
)

func usageErrorf(format string, a ...any) error { return cmdutil.UsageErrorf(format, a...) }

func writeJSON(w io.Writer, v any) error { return cmdutil.WriteJSON(w, v) }

func newRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "leaper-bench",
		Short: "Measure leaper's speed against its peers",
		Long: `leaper-bench measures leaper against its peers in the same run: serve
load-tests leaper serve on the loopback, with SQLite FTS5 over the same
pages and queries as the peer (--fts5); search measures in-process search
against Lucene; build measures leaper build (tables/s, stage times, peak
RSS, store size) on a corpus or its replay to millions of tables. It is a
binary of its own so that the leaper binary does not link SQLite.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmdutil.Setup(f, root)
	root.AddCommand(newBenchServeCmd(f, nil), newBenchSearchCmd(f, nil), newBenchBuildCmd(f, nil), newBenchReplicasCmd(f, nil), newBenchPassagesCmd(f, nil), newBenchSTSTitlesCmd(f))
	return root
}

func main() { os.Exit(cmdutil.Exec("leaper-bench", newRootCmd)) }
