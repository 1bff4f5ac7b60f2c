package cmd

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// AuditOptions are the flags of leaper audit.
type AuditOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Store     string
	Tasks     string
	JSON      bool
	All       bool // print sound tasks too
	Cut       bool // accept tables their source cut (synth --cut)
}

func newAuditCmd(f *Factory, runF func(context.Context, *AuditOptions) error) *cobra.Command {
	opts := &AuditOptions{}
	c := &cobra.Command{
		Use:   "audit --tasks FILE",
		Short: "Re-derive tasks from the stored tables and report every defect",
		Long: `Read each task's named tables as a person would, independently of the
synthesiser and of the query engine, and report what breaks a true task:
a target set or value the tables do not give (mismatch), a target its
recorded source does not state (unsupported), a value read beyond the
tables that belongs to another table's context (context), a join through a
string that names no one thing (string_join), equal values not matched
(unmatched_equal), a table whose page has a twin titled alike
(twin_table), a table its source cut to its first rows (cut_table; --cut
accepts it), a union of pages without a theme (incoherent), a cell
merging different sources (merged_cell), a question listing page titles
(lists_pages), a header or clue that is no word (raw_clue), a page named
by its file (file_title), a link's label as a value (link_value), a
Wikipedia disambiguator in an answer (disambiguator).

Each task gets a verdict: sound, minor, unanswerable or wrong (see
docs/RUBRIC.md). Flagged tasks are printed with their findings, then the
totals; --json prints one report per line and the totals last. Exits 0
whatever it finds.`,
		Example: `  leaper audit --store DIR --tasks tasks.jsonl
  leaper audit --store DIR --tasks tasks.jsonl --json > audit.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Store = f.IO, f.OpenStore, f.Store
			if opts.Tasks == "" {
				return usageErrorf("--tasks is required")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runAudit(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "task file (JSONL)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "one JSON report per task, then the totals")
	c.Flags().BoolVar(&opts.All, "all", false, "print sound tasks too")
	c.Flags().BoolVar(&opts.Cut, "cut", false, "accept tables their source cut to their first rows, a part, or a sample of their page's tables (tasks of synth --cut)")
	return c
}

// AuditTotals are leaper audit's counts.
type AuditTotals struct {
	Tasks    int                       `json:"tasks"`
	Verdicts map[string]int            `json:"verdicts"`
	Classes  map[audit.Class]int       `json:"classes"`
	Variants map[string]map[string]int `json:"variants"` // variant → verdict → tasks
}

func runAudit(ctx context.Context, o *AuditOptions) error {
	tasks, err := task.ReadFile(o.Tasks)
	if err != nil {
		return err
	}
	g, err := graphOf(o.OpenStore)
	if err != nil {
		return err
	}
	if err := checkStore(tasks, g, o.Tasks, o.Store); err != nil {
		return err
	}
	a, err := audit.New(g)
	if err != nil {
		return err
	}
	a.Cut = o.Cut
	tot := AuditTotals{Verdicts: map[string]int{}, Classes: map[audit.Class]int{}, Variants: map[string]map[string]int{}}
	enc := json.NewEncoder(o.IO.Out)
	printed := false
	for _, t := range tasks {
		r, err := a.Audit(ctx, t)
		if err != nil {
			return err
		}
		v := r.Verdict()
		tot.Tasks++
		tot.Verdicts[v]++
		if tot.Variants[string(t.Variant)] == nil {
			tot.Variants[string(t.Variant)] = map[string]int{}
		}
		tot.Variants[string(t.Variant)][v]++
		seen := map[audit.Class]bool{}
		for _, f := range r.Findings {
			if !seen[f.Class] {
				seen[f.Class] = true
				tot.Classes[f.Class]++
			}
		}
		switch {
		case o.JSON:
			if err := enc.Encode(struct {
				*audit.Report
				Verdict string `json:"verdict"`
			}{r, v}); err != nil {
				return err
			}
		case v != "sound" || o.All:
			printed = true
			fmt.Fprintf(o.IO.Out, "%s  %s\n", t.ID, v)
			for _, f := range r.Findings {
				fmt.Fprintf(o.IO.Out, "    %-15s %s\n", f.Class, f.Detail)
			}
		}
	}
	if o.JSON {
		return enc.Encode(struct {
			Totals AuditTotals `json:"totals"`
		}{tot})
	}
	if printed {
		fmt.Fprintln(o.IO.Out)
	}
	fmt.Fprintf(o.IO.Out, "%d tasks: %d sound, %d minor, %d unanswerable, %d wrong\n", tot.Tasks,
		tot.Verdicts["sound"], tot.Verdicts["minor"], tot.Verdicts["unanswerable"], tot.Verdicts["wrong"])
	for _, c := range audit.Classes {
		if n := tot.Classes[c]; n > 0 {
			fmt.Fprintf(o.IO.Out, "  %-15s %d tasks (%s)\n", c, n, c.Severity())
		}
	}
	return nil
}
