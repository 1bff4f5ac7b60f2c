package cmd

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// QueryOptions are the flags of leaper query.
type QueryOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Query     string
	JSON      bool
	Limit     int
}

func newQueryCmd(f *Factory, runF func(context.Context, *QueryOptions) error) *cobra.Command {
	opts := &QueryOptions{}
	c := &cobra.Command{
		Use:   "query FORMAL",
		Short: "Evaluate a formal query (knowledge projections) over the graph",
		Long: `Evaluate a formal query over the graph: WebShaper's JSON triple form or the
compact form. See the query package documentation for the grammar.`,
		Example: `  leaper query '?T, G: has_gold(T, G), in_tree(T, 40), G >= 3'
  leaper query 'count(T): has_year(T, 1980..1989), has_category(T, "Physics")'
  leaper query '[["V@T","has_year","C@1997_1999"],["V@T","has_category","?"]]' --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Query = f.IO, f.OpenStore, args[0]
			if opts.Limit < 0 {
				return usageErrorf("--limit must not be negative")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runQuery(c.Context(), opts)
		},
	}
	c.Flags().BoolVar(&opts.JSON, "json", false, "print as JSON, with entity ids and names")
	c.Flags().IntVar(&opts.Limit, "limit", 0, "rows to print (0: all)")
	return c
}

// QueryCell is one value of a query result row.
type QueryCell struct {
	ID   uint32 `json:"id"`
	Name string `json:"name"`
}

// QueryOutput is what leaper query --json prints.
type QueryOutput struct {
	Query     string          `json:"query"`
	Columns   []string        `json:"columns"`
	Rows      [][]QueryCell   `json:"rows"`
	Total     int             `json:"total"`
	Aggregate *task.Aggregate `json:"aggregate,omitempty"`
}

func runQuery(ctx context.Context, opts *QueryOptions) error {
	q, err := query.Parse(opts.Query)
	if err != nil {
		return cmdutil.Usage(err)
	}
	g, err := graphOf(opts.OpenStore)
	if err != nil {
		return err
	}
	res, err := query.Eval(ctx, g, q)
	if err != nil {
		return err
	}
	total := len(res.Rows)
	if opts.Limit > 0 && len(res.Rows) > opts.Limit {
		res.Rows = res.Rows[:opts.Limit]
	}
	names, err := res.Names(g)
	if err != nil {
		return err
	}
	if opts.JSON {
		out := QueryOutput{Query: q.String(), Columns: res.Columns, Rows: make([][]QueryCell, len(res.Rows)), Total: total, Aggregate: res.Aggregate}
		for i, row := range res.Rows {
			out.Rows[i] = make([]QueryCell, len(row))
			for j, id := range row {
				out.Rows[i][j] = QueryCell{ID: id, Name: names[i][j]}
			}
		}
		return writeJSON(opts.IO.Out, out)
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(res.Columns, "\t"))
	for _, row := range names {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if a := res.Aggregate; a != nil {
		fmt.Fprintf(opts.IO.Out, "%s(%s) = %s\n", a.Op, a.Column, a.Value)
	}
	if total > len(res.Rows) {
		fmt.Fprintf(opts.IO.ErrOut, "%d of %d rows (--limit)\n", len(res.Rows), total)
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "%d rows\n", total)
	}
	return nil
}
