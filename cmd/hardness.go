package cmd

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/task"
)

// printHardness prints eval.ComputeHardness's report, one block per
// variant.
func printHardness(w io.Writer, hs []*eval.Hardness) {
	if len(hs) == 0 {
		return
	}
	fmt.Fprintln(w, "Hardness (median / mean / min / max):")
	d := func(x eval.Summary, f string) string {
		return fmt.Sprintf(f+" / "+f+" / "+f+" / "+f, x.Median, x.Mean, x.Min, x.Max)
	}
	for _, h := range hs {
		fmt.Fprintf(w, "  %s: %d tasks", h.Variant, h.Tasks)
		if len(h.Ops) > 0 {
			var ks []string
			for k := range h.Ops {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			parts := make([]string, len(ks))
			for i, k := range ks {
				parts[i] = fmt.Sprintf("%s %d", k, h.Ops[k])
			}
			fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "    |R|                 %s (%d over 100)\n", d(h.Targets, "%.0f"), h.TargetsOver100)
		h.TargetsHist.Print(w, "      ")
		fmt.Fprintf(w, "    trees per task      %s\n", d(h.Trees, "%.0f"))
		fmt.Fprintf(w, "    pages per task      %s\n", d(h.Pages, "%.0f"))
		fmt.Fprintf(w, "    spread              %d of %d (3+ trees, or intersect/difference across pages)\n", h.Spread, h.Tasks)
		fmt.Fprintf(w, "    names a table       %d of %d\n", h.NamesTable, h.Tasks)
		if h.OracleCalls != nil {
			fmt.Fprintf(w, "    oracle tool calls   %s\n", d(*h.OracleCalls, "%.0f"))
			fmt.Fprintf(w, "    oracle ISR          %s\n", d(*h.OracleISR, "%.2f"))
			fmt.Fprintf(w, "    naive ISR           %s\n", d(*h.NaiveISR, "%.2f"))
		}
	}
}

// checkStore refuses tasks that were synthesised on another store than
// dir: their entity and tree ids would name other things there.
func checkStore(tasks []*task.Task, g eval.Graph, file, dir string) error {
	if err := task.CheckStore(tasks, g); err != nil {
		return fmt.Errorf("%s: %w; pass the --store they were synthesised on (this is %s)", file, err, dir)
	}
	return nil
}

// noStoreNote says on stderr what a command leaves out without a store.
func noStoreNote(w io.Writer, what string, err error) {
	fmt.Fprintf(w, "leaper: %s left out: %v (pass --store)\n", what, err)
}
