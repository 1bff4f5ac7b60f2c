package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/leaper-dev/leaper/agent/web"
	"github.com/leaper-dev/leaper/graph"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitError     = 1 // the command failed
	ExitUsage     = 2 // bad flags or arguments
	ExitPartial   = 3 // the command finished but some input was rejected
	ExitInterrupt = 130
)

// DefaultStore is the store directory used when --store is not given and
// LEAPER_STORE is unset.
const DefaultStore = "./leaper-data"

// IO are a command's streams.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Factory holds what commands share: streams, the store location and lazy
// openers, so --help never opens the store.
type Factory struct {
	IO    IO
	Store string
	// Web opens the store read-only.
	Web func() (*web.Web, error)
	// Graph opens the graph read-only.
	Graph func() (*graph.Store, error)
	// isTerminal reports whether stderr is a terminal (progress bars).
	isTerminal bool
	web        *web.Web
}

// Close closes what the lazy openers opened.
func (f *Factory) Close() error {
	if f.web == nil {
		return nil
	}
	w := f.web
	f.web = nil
	return w.Close()
}

// partialError reports that a command finished but rejected some input.
type partialError struct{ msg string }

func (e *partialError) Error() string { return e.msg }

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// NewFactory returns a Factory over the process's streams.
func NewFactory() *Factory {
	f := &Factory{IO: IO{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}}
	if fi, err := os.Stderr.Stat(); err == nil {
		f.isTerminal = fi.Mode()&os.ModeCharDevice != 0
	}
	f.init()
	return f
}

func (f *Factory) init() {
	f.Web = func() (*web.Web, error) {
		if f.web != nil {
			return f.web, nil
		}
		w, err := web.Open(f.Store)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		f.web = w
		return w, nil
	}
	f.Graph = func() (*graph.Store, error) {
		w, err := f.Web()
		if err != nil {
			return nil, err
		}
		return w.G, nil
	}
}

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
	def := os.Getenv("LEAPER_STORE")
	if def == "" {
		def = DefaultStore
	}
	root.PersistentFlags().StringVar(&f.Store, "store", def, "store directory (env LEAPER_STORE)")
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	var prof string
	var profFile *os.File
	root.PersistentFlags().StringVar(&prof, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if prof == "" {
			return nil
		}
		var err error
		if profFile, err = os.Create(prof); err != nil {
			return err
		}
		return pprof.StartCPUProfile(profFile)
	}
	root.PersistentPostRun = func(*cobra.Command, []string) {
		if profFile != nil {
			pprof.StopCPUProfile()
			profFile.Close()
		}
	}
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
		newFilterCmd(f, nil),
		newExportCmd(f, nil),
		newServeCmd(f, nil),
		newMCPCmd(f, nil),
		newBenchCmd(f),
	)
	return root
}

// Main runs leaper with the process's arguments and returns the exit code.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := NewFactory()
	root := NewRootCmd(f)
	err := root.ExecuteContext(ctx)
	f.Close()
	return exitCode(f.IO.ErrOut, err, ctx)
}

func exitCode(errOut io.Writer, err error, ctx context.Context) int {
	if err == nil {
		return ExitOK
	}
	var pe *partialError
	var ue *usageError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintln(errOut, "leaper:", err)
		return ExitPartial
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintln(errOut, "leaper: interrupted")
		return ExitInterrupt
	case errors.As(err, &ue):
		fmt.Fprintln(errOut, "leaper:", err)
		fmt.Fprintln(errOut, "Run 'leaper --help' for usage.")
		return ExitUsage
	}
	fmt.Fprintln(errOut, "leaper:", err)
	return ExitError
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeOneOrMany prints one value as a JSON object, several as a list.
func writeOneOrMany[T any](w io.Writer, vs []T) error {
	if len(vs) == 1 {
		return writeJSON(w, vs[0])
	}
	return writeJSON(w, vs)
}

// mapErr applies f to each element, stopping at the first error.
func mapErr[A, B any](as []A, f func(A) (B, error)) ([]B, error) {
	bs := make([]B, 0, len(as))
	for _, a := range as {
		b, err := f(a)
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, nil
}
