package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/export"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/spf13/cobra"
)

// ExportOptions are the flags of leaper export.
type ExportOptions struct {
	IO           IO
	Graph        func() (*graph.Store, error)
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
	// browsecomp-plus is also a stream of run records: without --out it
	// stays one.
	_, notStream := export.Lookup(o.Format)
	return notStream != nil || o.Out != ""
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
	all := append(append([]string{}, streams...), sets...)
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
			opts.IO, opts.Graph = f.IO, f.Graph
			if len(args) == 1 {
				opts.Trajectories = args[0]
			}
			_, serr := export.Lookup(opts.Format)
			d, derr := export.LookupDataset(opts.Format)
			switch {
			case serr != nil && derr != nil:
				return usageErrorf("--format must be one of %s, not %q", strings.Join(all, ", "), opts.Format)
			case serr == nil && opts.Out == "":
				if opts.Trajectories == "" {
					return usageErrorf("--format %s writes trajectories: give the TRAJECTORIES file (- for stdin)", opts.Format)
				}
			default:
				if opts.Tasks == "" || opts.Out == "" {
					return usageErrorf("--format %s writes a dataset: give --tasks FILE and --out PATH", opts.Format)
				}
				if opts.Trajectories != "" && !export.ReadsStore(d) {
					return usageErrorf("--format %s reads tasks, not trajectories", opts.Format)
				}
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
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "tasks JSONL (datasets)")
	c.Flags().StringVar(&opts.Out, "out", "", "output file, or directory for browsecomp-plus and widesearch (datasets)")
	c.Flags().StringVar(&opts.DataSource, "data-source", "", "data_source of each row (parquet datasets; default nq for search-r1, whose trainer scores only its own QA sets by name, and leaper otherwise)")
	c.Flags().StringVar(&opts.Split, "split", "train", "extra_info.split (parquet datasets)")
	c.Flags().StringVar(&opts.BaseURL, "base-url", "http://127.0.0.1:8080", "where leaper serve runs, for the tool settings (parquet datasets)")
	c.Flags().IntVar(&opts.TopK, "topk", 3, "retrieval depth in the tool settings (parquet datasets)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print a JSON summary of a dataset export")
	return c
}

func runExport(ctx context.Context, o *ExportOptions) error {
	var trajs []*agent.Trajectory
	readTrajs := func(each func(*agent.Trajectory) error) error {
		return eachLine(o.Trajectories, o.IO.In, func(line int, b []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var t agent.Trajectory
			if err := json.Unmarshal(b, &t); err != nil {
				return fmt.Errorf("%s:%d: %w", o.Trajectories, line, err)
			}
			return each(&t)
		})
	}
	if !o.dataset() {
		ft, err := export.Lookup(o.Format)
		if err != nil {
			return err
		}
		ew := ft.NewWriter(o.IO.Out)
		n := 0
		err = readTrajs(func(t *agent.Trajectory) error { n++; return ew.Write(t) })
		if cerr := ew.Close(); err == nil {
			err = cerr
		}
		fmt.Fprintf(o.IO.ErrOut, "export: %d trajectories as %s\n", n, o.Format)
		return err
	}
	d, err := export.LookupDataset(o.Format)
	if err != nil {
		return err
	}
	tasks, err := query.ReadTasks(o.Tasks)
	if err != nil {
		return err
	}
	if o.Trajectories != "" {
		if err := readTrajs(func(t *agent.Trajectory) error { trajs = append(trajs, t); return nil }); err != nil {
			return err
		}
	}
	src := &export.Source{Tasks: tasks, Trajectories: trajs, DataSource: o.DataSource, Split: o.Split, BaseURL: o.BaseURL, TopK: o.TopK}
	if export.ReadsStore(d) {
		g, err := o.Graph()
		if err != nil {
			return err
		}
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
