package cmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/cmd/cmdutil"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// EvalOptions are the flags of leaper eval.
type EvalOptions struct {
	IO           IO
	Graph        func() (*graph.Store, error) // nil: no aliases
	Store        string                       // the store's directory, for messages
	Tasks        string
	Trajectories string
	JSON         bool
	Omega        float64
}

func newEvalCmd(f *Factory, runF func(context.Context, *EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{}
	c := &cobra.Command{
		Use:   "eval --tasks FILE TRAJECTORIES",
		Short: "Score trajectories: ISR, ISE, valid-action rate, soft-F, WideSearch",
		Long: `Score each trajectory against its task: ISR and ISE (WebLeaper §2.3), the
valid-action rate, soft precision/recall and F = (1+ω²)PR/(ω²P+R) of the
answer's entities (§3.3), and WideSearch's success rate, row F1 and item F1
of the answer table. Prints aggregates per task variant and histograms.
Target aliases and the tasks' hardness come from the store when it exists;
tasks synthesised on another store are refused.`,
		Example: `  leaper eval --store DIR --tasks tasks.jsonl traj.jsonl
  leaper eval --store DIR --tasks tasks.jsonl traj.jsonl --json --omega 2`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Trajectories, opts.Store = f.IO, args[0], f.Store
			if opts.Tasks == "" {
				return usageErrorf("--tasks is required")
			}
			if opts.Omega <= 0 {
				return usageErrorf("--omega must be positive")
			}
			if _, err := os.Stat(f.Store); err == nil {
				opts.Graph = f.Graph
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runEval(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "task file (JSONL)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print every number as JSON")
	c.Flags().Float64Var(&opts.Omega, "omega", 1, "ω of the soft F (>1 favours recall)")
	return c
}

func runEval(ctx context.Context, o *EvalOptions) error {
	tasks, err := task.ReadFile(o.Tasks)
	if err != nil {
		return err
	}
	trs, err := agent.ReadTrajectories(o.Trajectories)
	if err != nil {
		return err
	}
	sc := &eval.Scorer{Omega: o.Omega}
	if o.Graph == nil {
		noStoreNote(o.IO.ErrOut, "the targets' aliases and the tasks' hardness", fmt.Errorf("no store at %s", o.Store))
	} else {
		g, err := o.Graph()
		if err != nil {
			noStoreNote(o.IO.ErrOut, "the targets' aliases and the tasks' hardness", err)
		} else {
			if err := checkStore(tasks, g, o.Tasks, o.Store); err != nil {
				return err
			}
			sc.Graph = g
		}
	}
	rep := eval.Evaluate(ctx, tasks, trs, sc)
	if err := ctx.Err(); err != nil {
		return err
	}
	if g, ok := sc.Graph.(agent.Graph); ok && g != nil {
		// The tasks' own hardness (|R|, trees, pages); the trajectories'
		// measures are the report itself, so no policies are run.
		if rep.Hardness, err = eval.ComputeHardness(ctx, tasks, g, nil); err != nil {
			return err
		}
	}
	if o.JSON {
		if err := writeJSON(o.IO.Out, rep); err != nil {
			return err
		}
	} else {
		printEval(o.IO.Out, rep)
	}
	if len(rep.Missing) > 0 {
		return cmdutil.Partial(fmt.Sprintf("%d trajectories name tasks not in %s (first: %s)", len(rep.Missing), o.Tasks, rep.Missing[0]))
	}
	return nil
}

func printEval(w io.Writer, rep *eval.Report) {
	fmt.Fprintf(w, "%-14s %5s %7s %7s %7s %7s %7s %6s %6s %6s %7s %7s %7s\n", "variant", "n", "ISR", "ISR~", "ISE", "ISE~",
		"valid", "P", "R", fmt.Sprintf("F(%g)", rep.Omega), "success", "rowF1", "itemF1")
	for _, g := range rep.Groups {
		fmt.Fprintf(w, "%-14s %5d %7.3f %7.3f %7.3f %7.3f %7.3f %6.3f %6.3f %6.3f %7.3f %7.3f %7.3f\n", g.Variant, g.N,
			g.ISR.Mean, g.ISR.Median, g.ISE.Mean, g.ISE.Median, g.ValidRate.Mean, g.Precision, g.Recall, g.F,
			g.SuccessRate, g.RowF1, g.ItemF1)
	}
	all := rep.Groups[len(rep.Groups)-1]
	fmt.Fprintf(w, "\nSteps per trajectory: mean %.1f, median %g, max %g. Ended:", all.Steps.Mean, all.Steps.Median, all.Steps.Max)
	for _, k := range sortedStrings(all.Ends) {
		fmt.Fprintf(w, " %s %d", k, all.Ends[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\nISR (all):")
	all.ISRHist.Print(w, "  ")
	fmt.Fprintln(w, "ISE (all):")
	all.ISEHist.Print(w, "  ")
	fmt.Fprintln(w, "Valid-action rate (all):")
	all.ValidRateHist.Print(w, "  ")
	printHardness(w, rep.Hardness)
}

// FilterOptions are the flags of leaper filter.
type FilterOptions struct {
	IO           IO
	Trajectories string
	Alpha, Beta  float64
}

func newFilterCmd(f *Factory, runF func(context.Context, *FilterOptions) error) *cobra.Command {
	opts := &FilterOptions{}
	c := &cobra.Command{
		Use:   "filter [--alpha A] [--beta B] TRAJECTORIES",
		Short: "Keep trajectories with ISR > alpha and ISE > beta (WebLeaper §3.2)",
		Long: `Write the trajectories whose ISR exceeds --alpha (coverage) and whose ISE
exceeds --beta (efficiency) to stdout, unchanged. Use - to read stdin.`,
		Example: `  leaper filter --alpha 0.3 --beta 0.1 traj.jsonl > kept.jsonl`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Trajectories = f.IO, args[0]
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runFilter(c.Context(), opts)
		},
	}
	c.Flags().Float64Var(&opts.Alpha, "alpha", 0.3, "coverage threshold: keep ISR > alpha")
	c.Flags().Float64Var(&opts.Beta, "beta", 0.1, "efficiency threshold: keep ISE > beta")
	return c
}

// eachTrajectory calls fn with every trajectory of a file (or stdin for
// -) and its line, through the one decoder of trajectories
// (agent.EachTrajectory), stopping when ctx is done.
func eachTrajectory(ctx context.Context, path string, in io.Reader, fn func(t *agent.Trajectory, line []byte) error) error {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	return agent.EachTrajectory(in, path, func(t *agent.Trajectory, line []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(t, line)
	})
}

func runFilter(ctx context.Context, o *FilterOptions) error {
	if o.Trajectories != "-" {
		if _, err := os.Stat(o.Trajectories); err != nil {
			return err
		}
	}
	kept, n := 0, 0
	err := eachTrajectory(ctx, o.Trajectories, o.IO.In, func(t *agent.Trajectory, line []byte) error {
		n++
		if t.Metrics.ISR > o.Alpha && t.Metrics.ISE > o.Beta {
			kept++
			_, err := o.IO.Out.Write(append(line, '\n'))
			return err
		}
		return nil
	})
	fmt.Fprintf(o.IO.ErrOut, "filter: kept %d of %d trajectories (ISR > %g, ISE > %g)\n", kept, n, o.Alpha, o.Beta)
	return err
}
