package cmdutil

import (
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/cobra"
)

// Setup gives a root command the Factory's streams and the persistent
// flags every command shares: --store, and the hidden --cpuprofile and
// --trace; before each command runs, its flags are checked against their
// bounds (AtLeast, AtMost) and the profile and trace start.
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
		return f.startProfiles(prof, traceOut)
	}
}

// startProfiles writes a CPU profile to prof and an execution trace to
// traceOut (either may be "") until the Factory closes.
func (f *Factory) startProfiles(prof, traceOut string) error {
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
	return record(traceOut, trace.Start, trace.Stop)
}
