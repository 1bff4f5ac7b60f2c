package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/report"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// ReportOptions are the flags of leaper report.
type ReportOptions struct {
	IO           IO
	OpenStore    func() (*store.Store, error)
	Web          func() (*web.Web, error)
	Store        string
	Tasks        string
	Trajectories []string
	Eval         string
	Synth        []string
	Out          string
	Title        string
	Hardness     bool
	Score        bool
}

func newReportCmd(f *Factory, runF func(context.Context, *ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{}
	c := &cobra.Command{
		Use:   "report [flags] [TRAJECTORIES...]",
		Short: "Write one self-contained HTML page of the store, tasks and rollouts",
		Long: `Write one HTML page that opens offline (every script and style inline, nothing
fetched): the store (counts, cleaning rejections, rows and relations per
tree, key classes, isomorphism groups), the tasks (|R| per variant and
operation, trees and pages per task, naive against oracle ISR, refusals by
reason from --synth-stats), the rollouts (ISR, ISE, tool calls, valid-action
rate, coverage against efficiency, end reasons; several trajectory files
side by side) and a searchable card per task: its question, answer and
source tables with the target cells highlighted, and each trajectory's steps
with the targets they revealed.`,
		Example: `  leaper report --tasks tasks.jsonl -o report.html
  leaper report --tasks tasks.jsonl naive.jsonl oracle.jsonl -o report.html
  leaper synth -n 100 --json 2> synth.json > tasks.jsonl
  leaper report --tasks tasks.jsonl --synth-stats synth.json --eval eval.json traj.jsonl -o report.html`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Web, opts.Store, opts.Trajectories = f.IO, f.OpenStore, f.Web, f.Store, args
			if (opts.Hardness || opts.Score) && opts.Tasks == "" {
				return usageErrorf("--hardness and --score need --tasks")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runReport(c.Context(), opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Tasks, "tasks", "", "task file (JSONL)")
	fl.StringVar(&opts.Eval, "eval", "", "leaper eval --json's output, shown as a table")
	fl.StringArrayVar(&opts.Synth, "synth-stats", nil, "leaper synth --json's report (its stderr), charted as refusals by reason; repeatable")
	fl.StringVarP(&opts.Out, "out", "o", "-", "file to write (-: stdout)")
	fl.StringVar(&opts.Title, "title", "", "the page's title (default \"leaper report\")")
	fl.BoolVar(&opts.Score, "score", false, "score each run's answers as leaper eval does (soft F, success rate, row and item F1) for the side-by-side table")
	fl.BoolVar(&opts.Hardness, "hardness", false, "run the naive and oracle policies over the store's web for the hardness scatter, when no trajectory file holds both")
	return c
}

func runReport(ctx context.Context, o *ReportOptions) error {
	t0 := time.Now()
	ro := &report.Options{Title: o.Title, Store: o.Store, Score: o.Score}
	var err error
	if o.Tasks != "" {
		if ro.Tasks, err = task.ReadFile(o.Tasks); err != nil {
			return err
		}
	}
	for _, p := range o.Trajectories {
		trs, err := report.ReadTrajectories(p)
		if err != nil {
			return err
		}
		ro.Runs = append(ro.Runs, report.Run{Name: report.RunName(p), Trajectories: trs})
	}
	if o.Eval != "" {
		if ro.Eval, err = report.ReadEval(o.Eval); err != nil {
			return err
		}
	}
	for _, p := range o.Synth {
		st, err := report.ReadSynthStats(p)
		if err != nil {
			return err
		}
		ro.Synth = append(ro.Synth, st...)
	}
	var g *graph.Store
	if o.Hardness {
		w, err := o.Web()
		if err != nil {
			return err
		}
		g, ro.Backend = w.Store().Graph(), w
	} else if g, err = graphOf(o.OpenStore); err != nil {
		return err
	}
	if len(ro.Tasks) > 0 {
		if err := checkStore(ro.Tasks, g, o.Tasks, o.Store); err != nil {
			return err
		}
	}
	var out io.Writer = o.IO.Out
	var f *os.File
	if o.Out != "-" {
		if f, err = os.Create(o.Out); err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	if err := report.Write(ctx, bw, g, ro); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return err
		}
		fi, _ := os.Stat(o.Out)
		fmt.Fprintf(o.IO.ErrOut, "leaper report: %s (%.1f MB, %d tasks, %d trajectory files) in %.1fs\n",
			o.Out, float64(fi.Size())/1e6, len(ro.Tasks), len(ro.Runs), time.Since(t0).Seconds())
	}
	return nil
}
