package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/store"
	"github.com/spf13/cobra"
)

// TreeOptions are the flags of leaper tree.
type TreeOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Ref       string
	JSON      bool
	Rows      int
}

func newTreeCmd(f *Factory, runF func(context.Context, *TreeOptions) error) *cobra.Command {
	opts := &TreeOptions{}
	c := &cobra.Command{
		Use:   "tree ID|TITLE",
		Short: "Show a reasoning tree: question entities, key column, relations",
		Long: `Show one reasoning tree by id, or the trees of a page by title (exact, then
case-insensitive prefix).`,
		Example: `  leaper tree 12
  leaper tree "Renaissance (band)"`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Ref = f.IO, f.OpenStore, args[0]
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runTree(c.Context(), opts)
		},
	}
	c.Flags().BoolVar(&opts.JSON, "json", false, "print as JSON, with entity names")
	c.Flags().IntVar(&opts.Rows, "rows", 10, "rows to show (0: all)")
	cmdutil.AtLeast(c.Flags(), "rows", 0)
	return c
}

// TreeView is a tree with entity names, as leaper tree --json prints it.
type TreeView struct {
	*graph.Tree
	QuestionNames []string   `json:"question_names"`
	RowNames      [][]string `json:"row_names"` // key, then each column's values joined by "; "
}

func viewTree(g *graph.Store, t *graph.Tree) (*TreeView, error) {
	v := &TreeView{Tree: t}
	name := func(ids []uint32) (string, error) {
		es, err := g.Entities(ids)
		if err != nil {
			return "", err
		}
		ns := make([]string, len(es))
		for i, e := range es {
			ns[i] = e.Name
		}
		return strings.Join(ns, "; "), nil
	}
	for _, q := range t.Question {
		n, err := name([]uint32{q})
		if err != nil {
			return nil, err
		}
		v.QuestionNames = append(v.QuestionNames, n)
	}
	for _, r := range t.Rows {
		k, err := name([]uint32{r.Key})
		if err != nil {
			return nil, err
		}
		row := []string{k}
		for _, vs := range r.Values {
			n, err := name(vs)
			if err != nil {
				return nil, err
			}
			row = append(row, n)
		}
		v.RowNames = append(v.RowNames, row)
	}
	return v, nil
}

func runTree(ctx context.Context, o *TreeOptions) error {
	g, err := graphOf(o.OpenStore)
	if err != nil {
		return err
	}
	trees, err := query.ResolveTrees(ctx, g, o.Ref)
	if err != nil {
		return err
	}
	views, err := mapErr(trees, func(t *graph.Tree) (*TreeView, error) { return viewTree(g, t) })
	if err != nil {
		return err
	}
	if o.JSON {
		return writeOneOrMany(o.IO.Out, views)
	}
	w := o.IO.Out
	for i, v := range views {
		if i > 0 {
			fmt.Fprintln(w)
		}
		t := v.Tree
		fmt.Fprintf(w, "Tree %d: %s\n  page   %s\n  source %s\n", t.ID, t.Title(), t.PageURL, t.Source)
		fmt.Fprintf(w, "Layer 1 (question entities): %s\n", strings.Join(v.QuestionNames, " | "))
		fmt.Fprintf(w, "Layer 2 (key column %q, %s/%s): %d subtrees\n", t.KeyHeader, t.KeyDatatype, t.KeyDomain, len(t.Rows))
		fmt.Fprintf(w, "Layer 3 (relations):\n")
		for _, c := range t.Columns {
			fmt.Fprintf(w, "  %-32s %-7s %-12s (%s)\n", c.Name, c.Datatype, c.Domain, c.Header)
		}
		if len(t.Dropped) > 0 {
			fmt.Fprintf(w, "Dropped columns: %s\n", strings.Join(t.Dropped, ", "))
		}
		n := len(v.RowNames)
		if o.Rows > 0 && n > o.Rows {
			n = o.Rows
		}
		fmt.Fprintf(w, "Subtrees:\n")
		for _, r := range v.RowNames[:n] {
			fmt.Fprintf(w, "  %s\n", r[0])
			for j, c := range t.Columns {
				if r[j+1] != "" {
					fmt.Fprintf(w, "    %s: %s\n", c.Name, r[j+1])
				}
			}
		}
		if n < len(v.RowNames) {
			fmt.Fprintf(w, "  ... %d more (--rows 0 shows all)\n", len(v.RowNames)-n)
		}
	}
	return nil
}
