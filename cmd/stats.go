package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// StatsOptions are the flags of leaper stats.
type StatsOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Store     string // the store's directory, for messages
	JSON      bool
	Tasks     string // a tasks JSONL file to summarise instead of the store
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
			opts.IO, opts.OpenStore, opts.Store = f.IO, f.OpenStore, f.Store
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

func runStats(ctx context.Context, o *StatsOptions, store string) error {
	g, err := graphOf(o.OpenStore)
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

func runTaskStats(ctx context.Context, o *StatsOptions) error {
	tasks, err := task.ReadFile(o.Tasks)
	if err != nil {
		return err
	}
	st := eval.ComputeTaskStats(tasks)
	st.File = o.Tasks
	if o.Web == nil && o.Hardness {
		noStoreNote(o.IO.ErrOut, "hardness", fmt.Errorf("no store at %s", o.Store))
	}
	if o.Web != nil && o.Hardness {
		// The report needs the store: without one the file alone is summarised.
		wb, err := o.Web()
		if err != nil {
			noStoreNote(o.IO.ErrOut, "hardness", err)
		} else {
			if err := checkStore(tasks, wb.Store().Graph(), o.Tasks, o.Store); err != nil {
				return err
			}
			st.Hardness, err = eval.ComputeHardness(ctx, tasks, wb.Store().Graph(), &eval.HardnessOptions{Backend: wb, Workers: 2})
			if err != nil {
				return err
			}
		}
	}
	if o.JSON {
		return writeJSON(o.IO.Out, st)
	}
	w := o.IO.Out
	fmt.Fprintf(w, "Tasks %s: %d (%d expanded)\n", o.Tasks, st.Tasks, st.Expanded)
	printCounts(w, "Variants:", st.Variants)
	printCounts(w, "Aggregates:", st.Aggregates)
	fmt.Fprintf(w, "Targets per task (|R|): min %d, max %d, mean %.1f\n", int(st.Targets.Min), int(st.Targets.Max), st.Targets.Mean)
	st.Targets.Print(w, "  ")
	for _, v := range sortedStrings(st.ByVariant) {
		h := st.ByVariant[v]
		fmt.Fprintf(w, "%s: min %d, max %d, mean %.1f\n", v, int(h.Min), int(h.Max), h.Mean)
		h.Print(w, "  ")
	}
	printHardness(w, st.Hardness)
	return nil
}
