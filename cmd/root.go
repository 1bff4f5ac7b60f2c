package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
)

// IO and Factory are cmdutil's: the streams, --store and the lazy openers
// every command shares.
type (
	IO      = cmdutil.IO
	Factory = cmdutil.Factory
)

// Exit codes, as cmdutil.Exec maps errors to them.
const (
	ExitOK        = cmdutil.ExitOK
	ExitError     = cmdutil.ExitError
	ExitUsage     = cmdutil.ExitUsage
	ExitPartial   = cmdutil.ExitPartial
	ExitInterrupt = cmdutil.ExitInterrupt
)

// DefaultStore is the store directory used when --store is not given and
// LEAPER_STORE is unset.
const DefaultStore = cmdutil.DefaultStore

// NewRootCmd builds the leaper command tree.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "leaper",
		Short: "An embedded knowledge engine for entity-dense information-seeking tasks",
		Long: `leaper loads Wikipedia tables into a Badger entity-relation graph with a
Bleve full-text index, mines unions of tables, synthesises WebLeaper tasks
verified by formal queries, and serves an offline search/visit web so that
agent rollouts run reproducibly and are scored exactly.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmdutil.Setup(f, root)
	root.AddCommand(
		newBuildCmd(f, nil),
		newStatsCmd(f, nil),
		newTreeCmd(f, nil),
		newEntityCmd(f, nil),
		newSearchCmd(f, nil),
		newVisitCmd(f, nil),
		newQueryCmd(f, nil),
		newMineCmd(f, nil),
		newDemoCmd(f, nil),
		newSynthCmd(f, nil),
		newTaskCmd(f, nil),
		newRolloutCmd(f, nil),
		newEvalCmd(f, nil),
		newAuditCmd(f, nil),
		newFilterCmd(f, nil),
		newExportCmd(f, nil),
		newReportCmd(f, nil),
		newServeCmd(f, nil),
		newMCPCmd(f, nil),
		newHAProxyCmd(f, nil),
	)
	return root
}

// Main runs leaper with the process's arguments and returns the exit code.
func Main() int { return cmdutil.Exec("leaper", NewRootCmd) }

func usageErrorf(format string, a ...any) error { return cmdutil.UsageErrorf(format, a...) }

// graphOf opens the store with open and returns its graph: commands meet
// one store type, and reach the graph through it.
func graphOf(open func() (*store.Store, error)) (*graph.Store, error) {
	st, err := open()
	if err != nil {
		return nil, err
	}
	return st.Graph(), nil
}

func writeJSON(w io.Writer, v any) error { return cmdutil.WriteJSON(w, v) }
