package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/spf13/cobra"
)

// EvalOptions are the flags of leaper eval.
type EvalOptions struct {
	IO           IO
	Graph        func() (*graph.Store, error) // nil: no aliases
	Tasks        string
	Trajectories string
	JSON         bool
	Omega        float64
}

// EvalItem is one scored trajectory.
type EvalItem struct {
	TaskID  string       `json:"task_id"`
	Variant string       `json:"variant"`
	End     string       `json:"end"`
	Scores  agent.Scores `json:"scores"`
}

// EvalGroup aggregates the trajectories of one variant (or all).
type EvalGroup struct {
	Variant       string         `json:"variant"`
	N             int            `json:"n"`
	ISR           Summary        `json:"isr"`
	ISE           Summary        `json:"ise"`
	ValidRate     Summary        `json:"valid_rate"`
	Steps         Summary        `json:"steps"`
	Precision     float64        `json:"precision"`
	Recall        float64        `json:"recall"`
	F             float64        `json:"f"`
	SuccessRate   float64        `json:"success_rate"`
	RowF1         float64        `json:"row_f1"`
	ItemF1        float64        `json:"item_f1"`
	Ends          map[string]int `json:"ends"`
	ISRHist       FloatHistogram `json:"isr_histogram"`
	ISEHist       FloatHistogram `json:"ise_histogram"`
	ValidRateHist FloatHistogram `json:"valid_rate_histogram"`
}

// Summary is the mean, median, min and max of a measure.
type Summary struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	var sum float64
	for _, x := range s {
		sum += x
	}
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{Mean: sum / float64(len(s)), Median: med, Min: s[0], Max: s[len(s)-1]}
}

// FloatHistogram counts values in buckets: bucket i holds values < Bounds[i]
// (and ≥ Bounds[i-1]); the last bucket the rest.
type FloatHistogram struct {
	Bounds []float64 `json:"bounds"`
	Counts []int     `json:"counts"`
}

func newFloatHistogram(bounds ...float64) FloatHistogram {
	return FloatHistogram{Bounds: bounds, Counts: make([]int, len(bounds)+1)}
}

func (h *FloatHistogram) add(v float64) {
	i := sort.Search(len(h.Bounds), func(i int) bool { return v < h.Bounds[i] })
	h.Counts[i]++
}

func (h *FloatHistogram) print(w io.Writer, indent string) {
	printBars(w, indent, h.Counts, func(i int) string {
		switch {
		case i == 0:
			return fmt.Sprintf("< %g", h.Bounds[0])
		case i == len(h.Bounds):
			return fmt.Sprintf(">= %g", h.Bounds[i-1])
		}
		return fmt.Sprintf("%g-%g", h.Bounds[i-1], h.Bounds[i])
	})
}

// EvalReport is what leaper eval --json prints.
type EvalReport struct {
	Omega   float64      `json:"omega"`
	Groups  []*EvalGroup `json:"groups"` // per variant, then "all"
	Items   []EvalItem   `json:"items"`
	Missing []string     `json:"missing_tasks,omitempty"`
	// Hardness describes the tasks (agent.ComputeHardness without
	// policies), when the store is there.
	Hardness []*agent.Hardness `json:"hardness,omitempty"`
}

func newEvalCmd(f *Factory, runF func(context.Context, *EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{}
	c := &cobra.Command{
		Use:   "eval --tasks FILE TRAJECTORIES",
		Short: "Score trajectories: ISR, ISE, valid-action rate, soft-F, WideSearch",
		Long: `Score each trajectory against its task: ISR and ISE (WebLeaper §2.3), the
valid-action rate, soft precision/recall and F = (1+ω²)PR/(ω²P+R) of the
answer's entities (§3.3), and WideSearch's success rate, row F1 and item F1
of the answer table. Prints aggregates per task variant and histograms.
Target aliases come from the store when it exists.`,
		Example: `  leaper eval --tasks tasks.jsonl traj.jsonl
  leaper eval --tasks tasks.jsonl traj.jsonl --json --omega 2`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Trajectories = f.IO, args[0]
			if opts.Tasks == "" {
				return usageErrorf("--tasks is required")
			}
			if opts.Omega <= 0 {
				return usageErrorf("--omega must be positive")
			}
			if _, err := os.Stat(f.Store); err == nil {
				opts.Graph = f.Graph
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runEval(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Tasks, "tasks", "", "task file (JSONL)")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print every number as JSON")
	c.Flags().Float64Var(&opts.Omega, "omega", 1, "ω of the soft F (>1 favours recall)")
	return c
}

// Evaluate scores trajectories against tasks.
func Evaluate(ctx context.Context, tasks []*query.Task, trs []*agent.Trajectory, sc *agent.Scorer) *EvalReport {
	byID := map[string]*query.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	rep := &EvalReport{Omega: sc.Omega}
	groups := map[string][]EvalItem{}
	var order []string
	for _, tr := range trs {
		if ctx.Err() != nil {
			break
		}
		t := byID[tr.TaskID]
		if t == nil {
			rep.Missing = append(rep.Missing, tr.TaskID)
			continue
		}
		it := EvalItem{TaskID: tr.TaskID, Variant: t.Variant, End: tr.End, Scores: sc.Score(t, tr.Answer, tr)}
		rep.Items = append(rep.Items, it)
		if groups[t.Variant] == nil {
			order = append(order, t.Variant)
		}
		groups[t.Variant] = append(groups[t.Variant], it)
	}
	sort.Strings(order)
	for _, v := range order {
		rep.Groups = append(rep.Groups, group(v, groups[v]))
	}
	rep.Groups = append(rep.Groups, group("all", rep.Items))
	return rep
}

func group(name string, items []EvalItem) *EvalGroup {
	g := &EvalGroup{Variant: name, N: len(items), Ends: map[string]int{},
		ISRHist:       newFloatHistogram(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
		ISEHist:       newFloatHistogram(0.1, 0.25, 0.5, 1, 2, 5, 10, 20),
		ValidRateHist: newFloatHistogram(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)}
	var isr, ise, vr, steps []float64
	for _, it := range items {
		s := it.Scores
		isr, ise, vr, steps = append(isr, s.ISR), append(ise, s.ISE), append(vr, s.ValidRate), append(steps, float64(s.Steps))
		g.ISRHist.add(s.ISR)
		g.ISEHist.add(s.ISE)
		g.ValidRateHist.add(s.ValidRate)
		g.Precision += s.Precision
		g.Recall += s.Recall
		g.F += s.F
		if s.Success {
			g.SuccessRate++
		}
		g.RowF1 += s.RowF1
		g.ItemF1 += s.ItemF1
		g.Ends[it.End]++
	}
	g.ISR, g.ISE, g.ValidRate, g.Steps = summarize(isr), summarize(ise), summarize(vr), summarize(steps)
	if n := float64(len(items)); n > 0 {
		g.Precision /= n
		g.Recall /= n
		g.F /= n
		g.SuccessRate /= n
		g.RowF1 /= n
		g.ItemF1 /= n
	}
	return g
}

func runEval(ctx context.Context, o *EvalOptions) error {
	tasks, err := query.ReadTasks(o.Tasks)
	if err != nil {
		return err
	}
	trs, err := agent.ReadTrajectories(o.Trajectories)
	if err != nil {
		return err
	}
	sc := &agent.Scorer{Omega: o.Omega}
	if o.Graph != nil {
		if g, err := o.Graph(); err == nil {
			sc.Graph = g
		}
	}
	rep := Evaluate(ctx, tasks, trs, sc)
	if err := ctx.Err(); err != nil {
		return err
	}
	if sc.Graph != nil {
		// The tasks' own hardness (|R|, trees, pages); the trajectories'
		// measures are the report itself, so no policies are run.
		if rep.Hardness, err = agent.ComputeHardness(ctx, tasks, sc.Graph, nil); err != nil {
			return err
		}
	}
	if o.JSON {
		if err := writeJSON(o.IO.Out, rep); err != nil {
			return err
		}
	} else {
		printEval(o.IO.Out, rep)
	}
	if len(rep.Missing) > 0 {
		return &partialError{fmt.Sprintf("%d trajectories name tasks not in %s (first: %s)", len(rep.Missing), o.Tasks, rep.Missing[0])}
	}
	return nil
}

func printEval(w io.Writer, rep *EvalReport) {
	fmt.Fprintf(w, "%-14s %5s %7s %7s %7s %7s %7s %6s %6s %6s %7s %7s %7s\n", "variant", "n", "ISR", "ISR~", "ISE", "ISE~",
		"valid", "P", "R", fmt.Sprintf("F(%g)", rep.Omega), "success", "rowF1", "itemF1")
	for _, g := range rep.Groups {
		fmt.Fprintf(w, "%-14s %5d %7.3f %7.3f %7.3f %7.3f %7.3f %6.3f %6.3f %6.3f %7.3f %7.3f %7.3f\n", g.Variant, g.N,
			g.ISR.Mean, g.ISR.Median, g.ISE.Mean, g.ISE.Median, g.ValidRate.Mean, g.Precision, g.Recall, g.F,
			g.SuccessRate, g.RowF1, g.ItemF1)
	}
	all := rep.Groups[len(rep.Groups)-1]
	fmt.Fprintf(w, "\nSteps per trajectory: mean %.1f, median %g, max %g. Ended:", all.Steps.Mean, all.Steps.Median, all.Steps.Max)
	for _, k := range sortedStrings(all.Ends) {
		fmt.Fprintf(w, " %s %d", k, all.Ends[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\nISR (all):")
	all.ISRHist.print(w, "  ")
	fmt.Fprintln(w, "ISE (all):")
	all.ISEHist.print(w, "  ")
	fmt.Fprintln(w, "Valid-action rate (all):")
	all.ValidRateHist.print(w, "  ")
	printHardness(w, rep.Hardness)
}

// FilterOptions are the flags of leaper filter.
type FilterOptions struct {
	IO           IO
	Trajectories string
	Alpha, Beta  float64
}

func newFilterCmd(f *Factory, runF func(context.Context, *FilterOptions) error) *cobra.Command {
	opts := &FilterOptions{}
	c := &cobra.Command{
		Use:   "filter [--alpha A] [--beta B] TRAJECTORIES",
		Short: "Keep trajectories with ISR > alpha and ISE > beta (WebLeaper §3.2)",
		Long: `Write the trajectories whose ISR exceeds --alpha (coverage) and whose ISE
exceeds --beta (efficiency) to stdout, unchanged. Use - to read stdin.`,
		Example: `  leaper filter --alpha 0.3 --beta 0.1 traj.jsonl > kept.jsonl`,
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Trajectories = f.IO, args[0]
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runFilter(c.Context(), opts)
		},
	}
	c.Flags().Float64Var(&opts.Alpha, "alpha", 0.3, "coverage threshold: keep ISR > alpha")
	c.Flags().Float64Var(&opts.Beta, "beta", 0.1, "efficiency threshold: keep ISE > beta")
	return c
}

// eachLine calls fn with every non-blank line of a file (or stdin for -).
func eachLine(path string, in io.Reader, fn func(n int, line []byte) error) error {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for n := 1; sc.Scan(); n++ {
		if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
			if err := fn(n, b); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

func runFilter(ctx context.Context, o *FilterOptions) error {
	kept, n := 0, 0
	err := eachLine(o.Trajectories, o.IO.In, func(line int, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var t struct {
			Metrics agent.Metrics `json:"metrics"`
		}
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("%s:%d: %w", o.Trajectories, line, err)
		}
		n++
		if t.Metrics.ISR > o.Alpha && t.Metrics.ISE > o.Beta {
			kept++
			_, err := o.IO.Out.Write(append(b, '\n'))
			return err
		}
		return nil
	})
	fmt.Fprintf(o.IO.ErrOut, "filter: kept %d of %d trajectories (ISR > %g, ISE > %g)\n", kept, n, o.Alpha, o.Beta)
	return err
}

// ExportOptions are the flags of leaper export.
type ExportOptions struct {
	IO           IO
	Trajectories string
	Format       string
}

func newExportCmd(f *Factory, runF func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	c := &cobra.Command{
		Use:   "export --format sft|browsecomp-plus TRAJECTORIES",
		Short: "Write trajectories as SFT messages or a BrowseComp-Plus run file",
		Long: `sft: one {"messages":[{"role","content"}...]} per trajectory, in Tongyi's
text protocol (native tool calls are rewritten as <tool_call> text and tool
results as <tool_response> user messages).
browsecomp-plus: one run record per trajectory: query_id, tool_call_counts,
status, retrieved_docids (the pages searched up or visited, in order), and
result (the final answer as output_text).`,
		Example: `  leaper export --format sft kept.jsonl > sft.jsonl
  leaper export --format browsecomp-plus traj.jsonl > run.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Trajectories = f.IO, args[0]
			if opts.Format != "sft" && opts.Format != "browsecomp-plus" {
				return usageErrorf("--format must be sft or browsecomp-plus, not %q", opts.Format)
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runExport(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "sft", "sft or browsecomp-plus")
	return c
}

// SFTMessages returns a trajectory's messages in the text protocol.
func SFTMessages(t *agent.Trajectory) []agent.Message {
	out := make([]agent.Message, 0, len(t.Messages))
	for _, m := range t.Messages {
		switch {
		case m.Role == agent.RoleAssistant && len(m.ToolCalls) > 0:
			c := m.Content
			for _, tc := range m.ToolCalls {
				var args any = json.RawMessage(tc.Arguments)
				if !json.Valid([]byte(tc.Arguments)) {
					args = tc.Arguments
				}
				b, _ := json.Marshal(map[string]any{"name": tc.Name, "arguments": args})
				if c != "" {
					c += "\n"
				}
				c += "<tool_call>\n" + string(b) + "\n</tool_call>"
			}
			out = append(out, agent.Message{Role: agent.RoleAssistant, Content: c})
		case m.Role == agent.RoleTool:
			out = append(out, agent.Message{Role: agent.RoleUser, Content: agent.ToolResponse(m.Content)})
		default:
			out = append(out, agent.Message{Role: m.Role, Content: m.Content})
		}
	}
	return out
}

// BCPRun is a BrowseComp-Plus run record.
type BCPRun struct {
	QueryID        string         `json:"query_id"`
	ToolCallCounts map[string]int `json:"tool_call_counts"`
	Status         string         `json:"status"`
	RetrievedDocs  []string       `json:"retrieved_docids"`
	Result         []BCPOutput    `json:"result"`
}

// BCPOutput is one output item of a run record.
type BCPOutput struct {
	Type   string `json:"type"`
	Output string `json:"output"`
}

// BrowseCompPlus converts a trajectory to a run record.
func BrowseCompPlus(t *agent.Trajectory) BCPRun {
	r := BCPRun{QueryID: t.TaskID, ToolCallCounts: map[string]int{}, Status: "completed", RetrievedDocs: []string{}}
	if t.End != agent.EndAnswer {
		r.Status = t.End
	}
	seen := map[string]bool{}
	for _, s := range t.Steps {
		if s.Tool != "" && s.Error == "" {
			r.ToolCallCounts[s.Tool]++
		}
		for _, u := range s.URLs {
			if !seen[u] {
				seen[u] = true
				r.RetrievedDocs = append(r.RetrievedDocs, u)
			}
		}
	}
	r.Result = []BCPOutput{{Type: "output_text", Output: t.Answer}}
	return r
}

func runExport(ctx context.Context, o *ExportOptions) error {
	enc := json.NewEncoder(o.IO.Out)
	enc.SetEscapeHTML(false)
	n := 0
	err := eachLine(o.Trajectories, o.IO.In, func(line int, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var t agent.Trajectory
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("%s:%d: %w", o.Trajectories, line, err)
		}
		n++
		if o.Format == "sft" {
			return enc.Encode(map[string]any{"messages": SFTMessages(&t)})
		}
		return enc.Encode(BrowseCompPlus(&t))
	})
	fmt.Fprintf(o.IO.ErrOut, "export: %d trajectories as %s\n", n, o.Format)
	return err
}
