package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/export"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// ExportOptions are the flags of leaper export.
type ExportOptions struct {
	IO           IO
	OpenStore    func() (*store.Store, error)
	Store        string // the store's directory, for messages
	Trajectories string
	Format       string
	Tasks        string
	Out          string
	DataSource   string
	Split        string
	BaseURL      string
	TopK         int
	JSON         bool
}

// dataset reports whether the options ask for a dataset (a file or a
// directory) rather than a stream of trajectories.
func (o *ExportOptions) dataset() bool {
	_, err := export.LookupDataset(o.Format)
	if err != nil {
		return false
	}
	// browsecomp-plus is also a stream of run records: without --out or
	// --tasks it stays one.
	_, notStream := export.Lookup(o.Format)
	return notStream != nil || o.Out != "" || o.Tasks != ""
}

// formatNames are the stream and dataset formats' names, each once (a
// format such as browsecomp-plus is both), sorted.
func formatNames() []string {
	all := append(export.Names(), export.DatasetNames()...)
	slices.Sort(all)
	return slices.Compact(all)
}

// streamOnly are the formats that are streams and not datasets.
func streamOnly() []string {
	var out []string
	for _, n := range export.Names() {
		if _, err := export.LookupDataset(n); err != nil {
			out = append(out, n)
		}
	}
	return out
}

func newExportCmd(f *Factory, runF func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	streams, sets := export.Names(), export.DatasetNames()
	var docs []string
	for _, n := range streams {
		ft, _ := export.Lookup(n)
		docs = append(docs, ft.Doc())
	}
	for _, n := range sets {
		d, _ := export.LookupDataset(n)
		docs = append(docs, d.Doc())
	}
	all := formatNames()
	c := &cobra.Command{
		Use:   "export --format FORMAT [--tasks FILE --out PATH] [TRAJECTORIES]",
		Short: "Write trajectories or tasks in another stack's format (SFT, verl, SkyRL, ASearcher, WideSearch, BrowseComp-Plus...)",
		Long: reflow(`Export writes trajectories as a stream on stdout (`+strings.Join(streams, ", ")+`), or
tasks as training or evaluation data in a file or directory given by --out
(`+strings.Join(sets, ", ")+`; package agent/export, one file per format).

`+strings.Join(docs, "\n\n"), 80),
		Example: `  leaper export --format sft kept.jsonl > sft.jsonl
  leaper export --format verl --tasks tasks.jsonl --out train.parquet
  leaper export --format skyrl --tasks tasks.jsonl --out train.parquet --base-url http://10.0.0.5:8080
  leaper export --format asearcher --tasks tasks.jsonl --out asearcher.jsonl
  leaper export --format widesearch --tasks tasks.jsonl --out widesearch/
  leaper export --format browsecomp-plus --tasks tasks.jsonl --out bcp/ traj.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Store = f.IO, f.OpenStore, f.Store
			if len(args) == 1 {
				opts.Trajectories = args[0]
			}
			_, serr := export.Lookup(opts.Format)
			d, derr := export.LookupDataset(opts.Format)
			switch {
			case serr != nil && derr != nil:
				return usageErrorf("--format must be one of %s, not %q", strings.Join(all, ", "), opts.Format)
			case opts.dataset():
				if opts.Tasks == "" || opts.Out == "" {
					return usageErrorf("--format %s writes a dataset: give --tasks FILE and --out PATH", opts.Format)
				}
				if opts.Trajectories != "" && !export.ReadsStore(d) {
					return usageErrorf("--format %s reads tasks, not trajectories", opts.Format)
				}
			case opts.Tasks != "":
				return usageErrorf("--tasks applies only to dataset formats (%s); --format %s converts trajectories: give the TRAJECTORIES file", strings.Join(sets, ", "), opts.Format)
			case opts.Trajectories == "":
				return usageErrorf("--format %s converts trajectories: give the TRAJECTORIES file (- for stdin)", opts.Format)
			}
			if opts.TopK < 0 {
				return usageErrorf("--topk must not be negative")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runExport(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "sft", strings.Join(all, ", "))
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "tasks JSONL, as leaper synth writes it (datasets only)")
	c.Flags().StringVar(&opts.Out, "out", "", "output file, or directory for browsecomp-plus and widesearch (datasets); for "+strings.Join(streamOnly(), " and ")+", the file to write the stream to instead of stdout")
	c.Flags().StringVar(&opts.DataSource, "data-source", "", "data_source of each row (parquet datasets; default nq for search-r1, whose trainer scores only its own QA sets by name, and leaper otherwise)")
	c.Flags().StringVar(&opts.Split, "split", "train", "extra_info.split (parquet datasets)")
	c.Flags().StringVar(&opts.BaseURL, "base-url", "http://127.0.0.1:8080", "where leaper serve runs, for the tool settings (parquet datasets)")
	c.Flags().IntVar(&opts.TopK, "topk", 3, "retrieval depth in the tool settings (parquet datasets)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print a JSON summary of a dataset export")
	return c
}

func runExport(ctx context.Context, o *ExportOptions) error {
	for _, in := range []string{o.Trajectories, o.Tasks} {
		if in != "" && in != "-" && o.Out != "" && sameFile(in, o.Out) {
			return usageErrorf("--out %s is an input of the export: write it elsewhere", o.Out)
		}
	}
	var trajs []*agent.Trajectory
	readTrajs := func(each func(*agent.Trajectory) error) error {
		return eachTrajectory(ctx, o.Trajectories, o.IO.In, func(t *agent.Trajectory, _ []byte) error { return each(t) })
	}
	if !o.dataset() {
		return exportStream(o, readTrajs)
	}
	d, err := export.LookupDataset(o.Format)
	if err != nil {
		return err
	}
	var g *graph.Store
	if export.ReadsStore(d) {
		// Before reading anything: without a store the export cannot be
		// written at all.
		if g, err = graphOf(o.OpenStore); err != nil {
			return fmt.Errorf("--format %s reads pages from the store: pass --store DIR (or set LEAPER_STORE): %w", o.Format, err)
		}
	}
	tasks, err := task.ReadFile(o.Tasks)
	if err != nil {
		return err
	}
	if o.Trajectories != "" {
		if err := readTrajs(func(t *agent.Trajectory) error { trajs = append(trajs, t); return nil }); err != nil {
			return err
		}
	}
	if g != nil {
		if err := checkStore(tasks, g, o.Tasks, o.Store); err != nil {
			return err
		}
	}
	src := &export.Source{Tasks: tasks, Trajectories: trajs, DataSource: o.DataSource, Split: o.Split, BaseURL: o.BaseURL, TopK: o.TopK}
	if g != nil {
		src.Page, src.Trees = g.Page, g
	}
	if err := d.WriteDataset(ctx, src, o.Out); err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.IO.Out, map[string]any{"format": o.Format, "out": o.Out, "tasks": len(tasks), "trajectories": len(trajs)})
	}
	fmt.Fprintf(o.IO.ErrOut, "export: %d tasks, %d trajectories as %s in %s\n", len(tasks), len(trajs), o.Format, o.Out)
	return nil
}

// exportStream writes the trajectories that read gives in a stream format,
// to stdout or to --out: a file is written whole or not at all
// (export.WriteFile), as the datasets are.
func exportStream(o *ExportOptions, read func(func(*agent.Trajectory) error) error) error {
	ft, err := export.Lookup(o.Format)
	if err != nil {
		return err
	}
	n := 0
	write := func(w io.Writer) error {
		ew := ft.NewWriter(w)
		err := read(func(t *agent.Trajectory) error { n++; return ew.Write(t) })
		if cerr := ew.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if o.Out == "" || o.Out == "-" {
		bw := bufio.NewWriter(o.IO.Out)
		err = write(bw)
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(o.IO.ErrOut, "export: %d trajectories as %s\n", n, o.Format)
		return nil
	}
	if err := export.WriteFile(o.Out, write); err != nil {
		return err
	}
	fmt.Fprintf(o.IO.ErrOut, "export: %d trajectories as %s in %s\n", n, o.Format, o.Out)
	return nil
}

// reflow fills each paragraph of s (paragraphs are separated by a blank
// line) to lines of at most width bytes; a word longer than width stands on
// a line of its own.
func reflow(s string, width int) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		var b strings.Builder
		n := 0
		for _, w := range strings.Fields(p) {
			switch {
			case n == 0:
			case n+1+len(w) > width:
				b.WriteByte('\n')
				n = 0
			default:
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += len(w)
		}
		paras[i] = b.String()
	}
	return strings.Join(paras, "\n\n")
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
