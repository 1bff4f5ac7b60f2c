package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	// Web opens the store read-only, graph and index, and serves the
	// offline web over it.
	Web func() (*web.Web, error)
	// Graph opens the store's graph read-only; it opens only the graph
	// unless the whole store is open already.
	Graph func() (*graph.Store, error)
	// isTerminal reports whether stderr is a terminal (progress bars).
	isTerminal bool
	web        *web.Web
	st, gst    *store.Store // the whole store; the graph alone
	// stopProfile ends --cpuprofile; Close calls it, so that a command
	// that fails (a build with skipped records exits 3) still leaves a
	// profile.
	stopProfile func()
}

// Close closes what the lazy openers opened.
func (f *Factory) Close() error {
	if f.stopProfile != nil {
		f.stopProfile()
		f.stopProfile = nil
	}
	var errs []error
	for _, st := range []*store.Store{f.st, f.gst} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	f.web, f.st, f.gst = nil, nil, nil
	return errors.Join(errs...)
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
		st, err := store.Open(f.Store, nil)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		w, err := web.New(st, nil)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		f.st, f.web = st, w
		return w, nil
	}
	f.Graph = func() (*graph.Store, error) {
		switch {
		case f.st != nil:
			return f.st.Graph(), nil
		case f.gst != nil:
			return f.gst.Graph(), nil
		}
		st, err := store.Open(f.Store, &store.Options{GraphOnly: true})
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", f.Store, err)
		}
		f.gst = st
		return st.Graph(), nil
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
	Setup(f, root)
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
		newHAProxyCmd(f, nil),
		newBenchCmd(),
	)
	return root
}

// Setup gives a root command leaper's streams and persistent flags
// (--store, the hidden --cpuprofile); leaper-bench shares them.
func Setup(f *Factory, root *cobra.Command) {
	def := os.Getenv("LEAPER_STORE")
	if def == "" {
		def = DefaultStore
	}
	root.PersistentFlags().StringVar(&f.Store, "store", def, "store directory (env LEAPER_STORE)")
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	var prof, traceOut string
	root.PersistentFlags().StringVar(&prof, "cpuprofile", "", "write a CPU profile to this file")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&traceOut, "trace", "", "write an execution trace (go tool trace) to this file")
	root.PersistentFlags().MarkHidden("trace")
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if err := checkFlags(c); err != nil {
			return err
		}
		var stops []func()
		f.stopProfile = func() {
			for _, stop := range stops {
				stop()
			}
		}
		// record writes a profile or trace to path until the command ends.
		record := func(path string, begin func(io.Writer) error, end func()) error {
			if path == "" {
				return nil
			}
			out, err := os.Create(path)
			if err != nil {
				return err
			}
			if err := begin(out); err != nil {
				out.Close()
				return err
			}
			stops = append(stops, func() { end(); out.Close() })
			return nil
		}
		if err := record(prof, pprof.StartCPUProfile, pprof.StopCPUProfile); err != nil {
			return err
		}
		if err := record(traceOut, trace.Start, trace.Stop); err != nil {
			return err
		}
		return nil
	}
}

// newBenchCmd is where leaper bench was: the load tester and its SQLite
// peer are the leaper-bench binary now, so that leaper does not link them.
func newBenchCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "bench",
		Short:              "Moved: the load tester is the leaper-bench binary (go run ./cmd/leaper-bench)",
		DisableFlagParsing: true,
		// Flags are leaper-bench's, passed on in the hint, so cobra
		// parses none, not even --help: look for it here.
		RunE: func(c *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "--" {
					break
				}
				if a == "-h" || a == "--help" {
					return c.Help()
				}
			}
			return usageErrorf("leaper bench moved to its own binary, so that leaper does not link SQLite: run leaper-bench %s (go install ./cmd/leaper-bench, or go run ./cmd/leaper-bench)", strings.Join(args, " "))
		},
	}
}

// Main runs leaper with the process's arguments and returns the exit code.
func Main() int { return Exec("leaper", NewRootCmd) }

// Exec runs the command tree that build makes over the process's streams,
// as the program name, and returns the exit code.
func Exec(name string, build func(*Factory) *cobra.Command) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := NewFactory()
	root := build(f)
	usageArgs(root)
	c, err := root.ExecuteContextC(ctx)
	// cobra's own errors for a wrong subcommand are untyped.
	if err != nil && strings.HasPrefix(err.Error(), "unknown command ") {
		err = &usageError{err}
	}
	f.Close()
	return exitCodeIn(name, commandPath(name, c), f.IO.ErrOut, err, ctx)
}

// usageArgs makes the errors of every command's argument check usage
// errors, as flag errors are (SetFlagErrorFunc).
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return &usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// commandPath is the path of c, the command that ran or failed to parse,
// under the program name: "leaper serve".
func commandPath(name string, c *cobra.Command) string {
	var words []string
	for ; c != nil && c.HasParent(); c = c.Parent() {
		words = append(words, c.Name())
	}
	words = append(words, name)
	slices.Reverse(words)
	return strings.Join(words, " ")
}

// exitCode maps err to an exit code and prints it, as leaper name does.
func exitCode(name string, errOut io.Writer, err error, ctx context.Context) int {
	return exitCodeIn(name, name, errOut, err, ctx)
}

// exitCodeIn is exitCode for an error of the command at path ("leaper
// serve"), which a usage error's hint names.
func exitCodeIn(name, path string, errOut io.Writer, err error, ctx context.Context) int {
	if err == nil {
		return ExitOK
	}
	var pe *partialError
	var ue *usageError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintln(errOut, name+":", err)
		return ExitPartial
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintln(errOut, name+": interrupted")
		return ExitInterrupt
	case errors.As(err, &ue):
		fmt.Fprintln(errOut, name+":", err)
		fmt.Fprintf(errOut, "Run '%s --help' for usage.\n", path)
		return ExitUsage
	}
	fmt.Fprintln(errOut, name+":", err)
	return ExitError
}

// UsageErrorf is an error that exits with ExitUsage and a hint to --help.
func UsageErrorf(format string, a ...any) error { return usageErrorf(format, a...) }

// WriteJSON writes v as indented JSON, HTML unescaped, as every --json does.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v) }

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

// CollectNear is collectNear, for leaper-bench's in-process server.
func CollectNear(maxMemory int64) func() { return collectNear(maxMemory, -1) }

// collectNear caps the Go heap at store.HeapLimit(maxMemory) and sets the
// collector's percent below the cap to gcPercent (-1: collect only as the
// heap nears the cap; GOGC=400 when maxMemory is 0), unless GOGC or
// GOMEMLIMIT in the environment say otherwise, and returns what puts the
// settings back.
//
// A server allocates far faster than its live heap grows: collecting by
// GOGC's default costs it about a tenth more CPU, so it runs with
// gcPercent -1. A build runs with GOGC's default: its large structures hold
// no pointers, so a collection is cheap, while a heap left to fill the cap
// before each collection spreads over gigabytes of pages that the runtime
// hands back to the kernel (madvise) and faults in again as the heap
// refills. Measured side by side, GOGC's default builds sts-csv with about
// a sixth less CPU and a third fewer page faults (see the README).
func collectNear(maxMemory int64, gcPercent int) func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	if maxMemory <= 0 {
		old := debug.SetGCPercent(400)
		return func() { debug.SetGCPercent(old) }
	}
	oldLimit := debug.SetMemoryLimit(store.HeapLimit(maxMemory))
	oldPercent := debug.SetGCPercent(gcPercent)
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}

// flagFloors are the least values of integer flags, by command; each
// command checks its other bounds itself.
var flagFloors = map[string]map[string]int{
	"search":  {"top": 0},
	"tree":    {"rows": 0},
	"task":    {"rows": 0},
	"mine":    {"workers": 0},
	"rollout": {"max-steps": 1, "max-tokens": 1},
	"synth":   {"expand": 0, "retries": 0},
}

// maxExpand bounds synth --expand: each expansion multiplies the work, and
// WebShaper's tasks take one to three.
const maxExpand = 8

// checkFlags refuses, as bad usage naming the flag, an integer flag below
// its floor, a float flag that is not a finite number and a negative
// duration, for every command.
func checkFlags(c *cobra.Command) error {
	floors := flagFloors[c.Name()]
	names := make([]string, 0, len(floors))
	for n := range floors {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v, err := c.Flags().GetInt(n); err == nil && v < floors[n] {
			return usageErrorf("--%s must be at least %d (got %d)", n, floors[n], v)
		}
	}
	if c.Name() == "synth" {
		if v, err := c.Flags().GetInt("expand"); err == nil && v > maxExpand {
			return usageErrorf("--expand must be at most %d (got %d)", maxExpand, v)
		}
	}
	var bad error
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if bad != nil {
			return
		}
		switch fl.Value.Type() {
		case "float64":
			if v, err := c.Flags().GetFloat64(fl.Name); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				bad = usageErrorf("--%s must be a finite number (got %v)", fl.Name, v)
			}
		case "duration":
			if v, err := c.Flags().GetDuration(fl.Name); err == nil && v < 0 {
				bad = usageErrorf("--%s must not be negative (got %v)", fl.Name, v)
			}
		}
	})
	return bad
}
