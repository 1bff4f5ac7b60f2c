package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/leaper-dev/leaper/agent"
	"github.com/spf13/cobra"
)

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
