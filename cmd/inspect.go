package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// StatsOptions are the flags of leaper stats.
type StatsOptions struct {
	IO    IO
	Graph func() (*graph.Store, error)
	Store string // the store's directory, for messages
	JSON  bool
	Tasks string // a tasks JSONL file to summarise instead of the store
	// Hardness runs the oracle and naive policies over the store's web for
	// the tasks' hardness report (with Tasks).
	Hardness bool
	Web      func() (*web.Web, error)
}

// Stats is what leaper stats reports: the store's directory and its
// graph.Stats.
type Stats struct {
	Store string `json:"store"`
	*graph.Stats
}

func newStatsCmd(f *Factory, runF func(context.Context, *StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{}
	c := &cobra.Command{
		Use:   "stats",
		Short: "Show what the store holds: counts, cleaning report, distributions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Graph, opts.Store = f.IO, f.Graph, f.Store
			if _, err := os.Stat(f.Store); err == nil {
				opts.Web = f.Web
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			if opts.Tasks != "" {
				return runTaskStats(c.Context(), opts)
			}
			return runStats(c.Context(), opts, f.Store)
		},
	}
	c.Flags().BoolVar(&opts.JSON, "json", false, "print as JSON")
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "summarise a tasks JSONL file (variants, target-set sizes; hardness over the store they were synthesised on) instead of the store")
	c.Flags().BoolVar(&opts.Hardness, "hardness", true, "with --tasks and a store: run the oracle and naive policies for the hardness report")
	return c
}

func sortedStrings[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func printCounts(w io.Writer, title string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	keys := sortedStrings(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	fmt.Fprintln(w, title)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-36s %7d\n", k, m[k])
	}
}

func runStats(ctx context.Context, o *StatsOptions, store string) error {
	g, err := o.Graph()
	if err != nil {
		return err
	}
	gs, err := g.Stats(ctx)
	if err != nil {
		return err
	}
	st := &Stats{Store: store, Stats: gs}
	if o.JSON {
		return writeJSON(o.IO.Out, st)
	}
	w := o.IO.Out
	c := st.Counts
	fmt.Fprintf(w, "Store %s\n", store)
	fmt.Fprintf(w, "  tables    %8d distinct read, %d passed cleaning (%.1f%%), %d rejected\n", c.Tables, c.Trees,
		100*float64(c.Trees)/float64(max(1, c.Tables)), c.Rejected)
	fmt.Fprintf(w, "  entities  %8d\n  relations %8d\n  triples   %8d\n  passages  %8d\n  pages     %8d\n",
		c.Entities, c.Relations, c.Triples, c.Passages, c.Pages)
	if c.Skipped > 0 {
		fmt.Fprintf(w, "  skipped   %8d input records could not be read\n", c.Skipped)
	}
	fmt.Fprintln(w)
	printCounts(w, "Rejected tables, by reason:", st.Rejections)
	printCounts(w, "Dropped columns, by reason:", st.DropColumns)
	printCounts(w, "Skipped input records, by reason:", st.Skips)
	for _, s := range st.SkipSamples {
		if s.Line > 0 {
			fmt.Fprintf(w, "  e.g. %s:%d: %s\n", s.File, s.Line, s.Msg)
		} else {
			fmt.Fprintf(w, "  e.g. %s: %s\n", s.File, s.Msg)
		}
	}
	fmt.Fprintln(w, "\nRows per tree:")
	st.Rows.Print(w, "  ")
	fmt.Fprintln(w, "Relations per tree:")
	st.Columns.Print(w, "  ")
	printCounts(w, "Relation datatypes (columns):", st.Datatypes)
	printCounts(w, "Key columns (datatype/domain):", st.KeyDomains)
	fmt.Fprintf(w, "Isomorphism groups: %d groups of 2+ trees covering %d trees; largest (%d): %s\n",
		st.Groups.Groups, st.Groups.Trees, st.Groups.Size, st.Groups.Largest)
	fmt.Fprintln(w, "Most shared relations (trees):")
	for _, r := range st.TopRels {
		fmt.Fprintf(w, "  %-52s %6d\n", r.Name, r.Count)
	}
	return nil
}

// TreeOptions are the flags of leaper tree.
type TreeOptions struct {
	IO    IO
	Graph func() (*graph.Store, error)
	Ref   string
	JSON  bool
	Rows  int
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
			opts.IO, opts.Graph, opts.Ref = f.IO, f.Graph, args[0]
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
	g, err := o.Graph()
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

// EntityOptions are the flags of leaper entity.
type EntityOptions struct {
	IO    IO
	Graph func() (*graph.Store, error)
	Ref   string
	JSON  bool
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
			opts.IO, opts.Graph, opts.Ref = f.IO, f.Graph, args[0]
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
	g, err := o.Graph()
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
	if o.JSON {
		return writeJSON(o.IO.Out, obs)
	}
	_, err = fmt.Fprintln(o.IO.Out, obs.Text)
	return err
}

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
	if o.JSON {
		return writeJSON(o.IO.Out, obs)
	}
	_, err = fmt.Fprintln(o.IO.Out, obs.Text)
	return err
}
