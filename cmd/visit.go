package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// VisitOptions are the flags of leaper visit.
type VisitOptions struct {
	IO   IO
	Web  func() (*web.Web, error)
	URLs []string
	Goal string
	JSON bool
}

func newVisitCmd(f *Factory, runF func(context.Context, *VisitOptions) error) *cobra.Command {
	opts := &VisitOptions{}
	c := &cobra.Command{
		Use:     "visit --goal GOAL URL...",
		Short:   "Visit pages of the offline web (Tongyi DeepResearch's visit tool format)",
		Example: `  leaper visit --goal "Nobel laureates and their nationality" https://en.wikipedia.org/wiki/Nobel_Prize_in_Literature`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web, opts.URLs = f.IO, f.Web, args
			if opts.Goal == "" {
				return usageErrorf("--goal is required")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runVisit(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Goal, "goal", "", "what the visit is for (chooses the evidence)")
	c.Flags().BoolVar(&opts.JSON, "json", false, `print {"result", "entities", "urls"} as JSON`)
	return c
}

func runVisit(ctx context.Context, o *VisitOptions) error {
	w, err := o.Web()
	if err != nil {
		return err
	}
	obs, err := w.Visit(ctx, o.URLs, o.Goal)
	if err != nil {
		return err
	}
	return printObservation(o.IO.Out, obs, o.JSON)
}

// printObservation writes a tool's observation: its text, or with asJSON
// the text and the entities and URLs it shows.
func printObservation(w io.Writer, obs *web.Observation, asJSON bool) error {
	if asJSON {
		return writeJSON(w, obs)
	}
	_, err := fmt.Fprintln(w, obs.Text)
	return err
}
