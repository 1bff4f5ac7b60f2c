package cmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/cmd/cmdutil"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// EvalOptions are the flags of leaper eval.
type EvalOptions struct {
	IO           IO
	OpenStore    func() (*store.Store, error) // nil: no aliases
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
				opts.OpenStore = f.OpenStore
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
	if o.OpenStore == nil {
		noStoreNote(o.IO.ErrOut, "the targets' aliases and the tasks' hardness", fmt.Errorf("no store at %s", o.Store))
	} else {
		g, err := graphOf(o.OpenStore)
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
