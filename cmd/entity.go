package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/store"
	"github.com/spf13/cobra"
)

// EntityOptions are the flags of leaper entity.
type EntityOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Ref       string
	JSON      bool
}

func newEntityCmd(f *Factory, runF func(context.Context, *EntityOptions) error) *cobra.Command {
	opts := &EntityOptions{}
	c := &cobra.Command{
		Use:   "entity NAME|URL|KEY",
		Short: "Show an entity: aliases, trees, facts",
		Example: `  leaper entity "William Golding"
  leaper entity https://en.wikipedia.org/wiki/William_Golding
  leaper entity y:1983`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Ref = f.IO, f.OpenStore, args[0]
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runEntity(c.Context(), opts)
		},
	}
	c.Flags().BoolVar(&opts.JSON, "json", false, "print as JSON")
	return c
}

// Fact is one statement about an entity from a tree row.
type Fact struct {
	Tree     uint32 `json:"tree"`
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
}

// EntityView is an entity with the trees it appears in and its facts.
type EntityView struct {
	*graph.Entity
	Trees []string `json:"trees"`
	Facts []Fact   `json:"facts"`
}

// maxEntities is how many of the entities a reference names are shown.
const maxEntities = 20

const maxEntityFacts = 50

func viewEntity(ctx context.Context, g *graph.Store, e *graph.Entity) (*EntityView, error) {
	v := &EntityView{Entity: e}
	trees, err := g.TreesOfEntity(e.ID)
	if err != nil {
		return nil, err
	}
	it := trees.Iterator()
	for it.HasNext() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := g.Tree(it.Next())
		if err != nil {
			return nil, err
		}
		v.Trees = append(v.Trees, fmt.Sprintf("%d %s", t.ID, t.Title()))
		for _, r := range t.Rows {
			for j, vs := range r.Values {
				for _, o := range vs {
					if len(v.Facts) >= maxEntityFacts || (r.Key != e.ID && o != e.ID) {
						continue
					}
					es, err := g.Entities([]uint32{r.Key, o})
					if err != nil {
						return nil, err
					}
					v.Facts = append(v.Facts, Fact{Tree: t.ID, Subject: es[0].Name, Relation: t.Columns[j].Name, Object: es[1].Name})
				}
			}
		}
	}
	return v, nil
}

func runEntity(ctx context.Context, o *EntityOptions) error {
	g, err := graphOf(o.OpenStore)
	if err != nil {
		return err
	}
	ents, err := query.ResolveEntities(g, o.Ref)
	if len(ents) > maxEntities {
		ents = ents[:maxEntities]
	}
	if err != nil {
		return err
	}
	views, err := mapErr(ents, func(e *graph.Entity) (*EntityView, error) { return viewEntity(ctx, g, e) })
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
		fmt.Fprintf(w, "Entity %d: %s (%s)\n  key     %s\n", v.ID, v.Name, v.Type, v.Key)
		if v.URL != "" {
			fmt.Fprintf(w, "  url     %s\n", v.URL)
		}
		if len(v.Aliases) > 0 {
			fmt.Fprintf(w, "  aliases %s\n", strings.Join(v.Aliases, " | "))
		}
		fmt.Fprintf(w, "Trees (%d):\n", len(v.Trees))
		for j, t := range v.Trees {
			if j == 10 {
				fmt.Fprintf(w, "  ... %d more\n", len(v.Trees)-10)
				break
			}
			fmt.Fprintf(w, "  %s\n", t)
		}
		fmt.Fprintf(w, "Facts (%d shown):\n", len(v.Facts))
		for _, f := range v.Facts {
			fmt.Fprintf(w, "  (%s, %s, %s)  [tree %d]\n", f.Subject, f.Relation, f.Object, f.Tree)
		}
	}
	return nil
}
