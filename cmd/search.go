package cmd

import (
	"context"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// SearchOptions are the flags of leaper search.
type SearchOptions struct {
	IO         IO
	Web        func() (*web.Web, error)
	Queries    []string
	FilterYear int
	TopK       int
	JSON       bool
}

func newSearchCmd(f *Factory, runF func(context.Context, *SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{}
	c := &cobra.Command{
		Use:   "search [flags] QUERY...",
		Short: "Search the offline web (Tongyi DeepResearch's search tool format)",
		Long: `Search runs each query against the store's pages and prints the result
exactly as Tongyi DeepResearch's search tool does; several queries are
joined by "=======". --json adds the ids of the entities the result shows.`,
		Example: `  leaper search "Nobel laureates University of Chicago"
  leaper search --filter-year 1983 "Booker Prize" "Nobel Prize in Literature"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Web, opts.Queries = f.IO, f.Web, args
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runSearch(c.Context(), opts)
		},
	}
	c.Flags().IntVar(&opts.FilterYear, "filter-year", 0, "keep pages that mention this year")
	c.Flags().IntVarP(&opts.TopK, "top", "k", 10, "results per query")
	cmdutil.AtLeast(c.Flags(), "top", 0)
	c.Flags().BoolVar(&opts.JSON, "json", false, `print {"result", "entities", "urls"} as JSON`)
	return c
}

func runSearch(ctx context.Context, o *SearchOptions) error {
	w, err := o.Web()
	if err != nil {
		return err
	}
	if w, err = web.New(w.Store(), &web.Options{TopK: o.TopK}); err != nil {
		return err
	}
	obs, err := w.Search(ctx, o.Queries, o.FilterYear)
	if err != nil {
		return err
	}
	return printObservation(o.IO.Out, obs, o.JSON)
}
