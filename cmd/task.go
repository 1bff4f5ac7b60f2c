package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// TaskOptions are the flags of leaper task.
type TaskOptions struct {
	IO        IO
	OpenStore func() (*store.Store, error)
	Store     string // the store's directory, for messages
	File      string
	ID        string
	JSON      bool
	Check     bool
	Rows      int
}

func newTaskCmd(f *Factory, runF func(context.Context, *TaskOptions) error) *cobra.Command {
	opts := &TaskOptions{}
	c := &cobra.Command{
		Use:   "task FILE ID",
		Short: "Show one task: question, formal query, answer table, targets",
		Example: `  leaper task tasks.jsonl basic-1-0
  leaper task --check tasks.jsonl union-1-3`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.File, opts.ID, opts.Store = f.IO, f.OpenStore, args[0], args[1], f.Store
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runTask(c.Context(), opts)
		},
	}
	c.Flags().BoolVar(&opts.JSON, "json", false, "print the task as JSON")
	c.Flags().BoolVar(&opts.Check, "check", false, "evaluate the formalization over the store and compare with the answer")
	c.Flags().IntVar(&opts.Rows, "rows", 10, "answer rows and targets to show (0: all)")
	cmdutil.AtLeast(c.Flags(), "rows", 0)
	return c
}

func runTask(ctx context.Context, o *TaskOptions) error {
	tasks, err := task.ReadFile(o.File)
	if err != nil {
		return err
	}
	var t *task.Task
	for _, x := range tasks {
		if x.ID == o.ID {
			t = x
			break
		}
	}
	if t == nil {
		return fmt.Errorf("no task %q in %s", o.ID, o.File)
	}
	checked := ""
	if o.Check {
		g, err := graphOf(o.OpenStore)
		if err != nil {
			return err
		}
		if err := checkStore([]*task.Task{t}, g, o.File, o.Store); err != nil {
			return err
		}
		if err := synth.Check(ctx, g, t); err != nil {
			return err
		}
		checked = "formalization evaluates to the answer: ok"
	}
	if o.JSON {
		return writeJSON(o.IO.Out, t)
	}
	w := o.IO.Out
	fmt.Fprintf(w, "Task %s (%s, seed %d", t.ID, t.Variant, t.Seed)
	if t.Expand > 0 {
		fmt.Fprintf(w, ", expanded %d", t.Expand)
	}
	fmt.Fprintf(w, ", trees %v)\n\nQuestion:\n  %s\n\n", t.Trees, t.Question)
	if q, err := query.FromTriples(t.Formalization); err == nil {
		fmt.Fprintf(w, "Formal query:\n  %s\n", q)
	}
	b, _ := json.Marshal(t.Formalization)
	fmt.Fprintf(w, "  %s\n\n", b)
	limit := func(n int) int {
		if o.Rows <= 0 || n < o.Rows {
			return n
		}
		return o.Rows
	}
	fmt.Fprintf(w, "Answer (%d rows):\n  %s\n", len(t.Answer.Rows), strings.Join(t.Answer.Columns, " | "))
	for _, r := range t.Answer.Rows[:limit(len(t.Answer.Rows))] {
		fmt.Fprintf(w, "  %s\n", strings.Join(r, " | "))
	}
	if n := len(t.Answer.Rows) - limit(len(t.Answer.Rows)); n > 0 {
		fmt.Fprintf(w, "  ... %d more\n", n)
	}
	if a := t.Answer.Aggregate; a != nil {
		fmt.Fprintf(w, "Aggregate: %s(%s) = %s\n", a.Op, a.Column, a.Value)
	}
	layers := map[int]int{}
	for _, tg := range t.Targets {
		layers[tg.Layer]++
	}
	fmt.Fprintf(w, "\nTargets |R| = %d (layer 2: %d, layer 3: %d):\n", len(t.Targets), layers[2], layers[3])
	for _, tg := range t.Targets[:limit(len(t.Targets))] {
		rel := ""
		if tg.Relation != "" {
			rel = " via " + tg.Relation
		}
		fmt.Fprintf(w, "  L%d %-40s tree %d%s\n", tg.Layer, tg.Name, tg.Tree, rel)
	}
	if n := len(t.Targets) - limit(len(t.Targets)); n > 0 {
		fmt.Fprintf(w, "  ... %d more\n", n)
	}
	if checked != "" {
		fmt.Fprintf(w, "\n%s\n", checked)
	}
	return nil
}
