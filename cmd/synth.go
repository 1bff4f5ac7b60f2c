package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
	"github.com/spf13/cobra"
)

// SynthOptions are the flags of leaper synth.
type SynthOptions struct {
	IO         IO
	OpenStore  func() (*store.Store, error)
	Variant    string
	N          int
	Seed       int64
	Expand     int
	Aggregate  bool
	Cut        bool
	MinTargets int
	MinTrees   int
	PerAnswer  int
	Op         string
	Hardness   bool
	MaxNaive   float64
	Web        func() (*web.Web, error)
	LLM        bool
	BaseURL    string
	Model      string
	APIKey     string
	Timeout    time.Duration
	Retries    int
	JSON       bool
}

func newSynthCmd(f *Factory, runF func(context.Context, *SynthOptions) error) *cobra.Command {
	opts := &SynthOptions{}
	c := &cobra.Command{
		Use:   "synth",
		Short: "Synthesise Basic, Union or Reverse-Union tasks as JSONL",
		Long: `Synthesise information-seeking tasks (WebLeaper §3.1) from the store's
reasoning trees. Each task's formalization (WebShaper triples) evaluates over
the store to exactly its answer; candidates failing a check are dropped and
counted on stderr. Same store, flags and seed give byte-identical output.`,
		Example: `  leaper synth --variant basic -n 100 --seed 1 > basic.jsonl
  leaper synth --variant reverse-union -n 50 --expand 1 --min-targets 20 > ru.jsonl
  leaper synth --variant union -n 20 --aggregate --llm --model qwen --base-url http://localhost:8000/v1`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore, opts.Web = f.IO, f.OpenStore, f.Web
			v, ok := task.ParseVariant(opts.Variant)
			if !ok {
				return usageErrorf("--variant must be basic, union or reverse-union, not %q", opts.Variant)
			}
			if opts.N < 0 || opts.Expand < 0 || opts.MinTargets < 0 || opts.MinTrees < 0 {
				return usageErrorf("-n, --expand, --min-targets and --min-trees must not be negative")
			}
			if opts.MaxNaive < 0 || opts.MaxNaive > 1 {
				return usageErrorf("--max-naive-isr is a share of targets, from 0 (keep all) to 1, not %g", opts.MaxNaive)
			}
			if opts.Op != "" && !slices.Contains(synth.Ops, opts.Op) {
				return usageErrorf("--op must be one of %s, not %q", strings.Join(synth.Ops, ", "), opts.Op)
			}
			if opts.Op != "" && v != task.Union {
				return usageErrorf("--op is for --variant union")
			}
			if opts.LLM {
				if opts.APIKey == "" {
					opts.APIKey = os.Getenv("OPENAI_API_KEY")
				}
				if opts.BaseURL == "" {
					opts.BaseURL = os.Getenv("OPENAI_BASE_URL")
				}
				if opts.Model == "" {
					return usageErrorf("--llm needs --model")
				}
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runSynth(c.Context(), opts)
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Variant, "variant", "basic", "basic, union or reverse-union")
	fl.IntVarP(&opts.N, "n", "n", 10, "number of tasks")
	fl.Int64Var(&opts.Seed, "seed", 1, "random seed")
	fl.IntVar(&opts.Expand, "expand", 0, "layer-wise expansions of leaf constants (WebShaper), at most 8")
	// Each expansion multiplies the work, and WebShaper's tasks take one
	// to three.
	cmdutil.AtLeast(fl, "expand", 0)
	cmdutil.AtMost(fl, "expand", 8)
	fl.BoolVar(&opts.Aggregate, "aggregate", false, "ask for a computed answer: count, sum, avg, min/max, top-k, diff, member")
	fl.BoolVar(&opts.Cut, "cut", false, "also ask of tables their source cut to their first rows (OTT-QA keeps 20), to a part, or to a sample of their page's tables: true of the offline web only")
	fl.IntVar(&opts.MinTargets, "min-targets", 0, "keep only tasks with at least this many targets")
	fl.IntVar(&opts.MinTrees, "min-trees", 0, "union and reverse-union: keep only tasks over at least this many trees")
	fl.IntVar(&opts.PerAnswer, "per-answer", 2, "at most this many tasks with the same answer (the same targets reached from other clues or anchors); 0 for no limit")
	cmdutil.AtLeast(fl, "per-answer", 0)
	fl.StringVar(&opts.Op, "op", "", "union: only this operation (union, intersect, difference, count, compare); default all, drawn by the seed")
	fl.Float64Var(&opts.MaxNaive, "max-naive-isr", 0, "refuse tasks of which one search of the question and a visit of its first 5 hits (the naive policy) collect more than this share of the targets; 0 keeps all")
	fl.BoolVar(&opts.Hardness, "hardness", true, "report hardness on stderr: |R|, trees and pages per task, oracle tool calls and naive ISR over the offline web")
	fl.BoolVar(&opts.LLM, "llm", false, "paraphrase questions through an OpenAI-compatible endpoint")
	fl.StringVar(&opts.BaseURL, "base-url", "", "endpoint base URL (env OPENAI_BASE_URL)")
	fl.StringVar(&opts.Model, "model", "", "model name for --llm")
	fl.StringVar(&opts.APIKey, "api-key", "", "API key (env OPENAI_API_KEY)")
	fl.DurationVar(&opts.Timeout, "timeout", 2*time.Minute, "--llm: bound on one paraphrase call")
	fl.IntVar(&opts.Retries, "retries", 5, "--llm: retries of a call on 429, 5xx and timeouts; a call that still fails stops the run")
	cmdutil.AtLeast(fl, "retries", 0)
	fl.BoolVar(&opts.JSON, "json", false, "print the summary on stderr as JSON")
	return c
}

func runSynth(ctx context.Context, o *SynthOptions) error {
	g, err := graphOf(o.OpenStore)
	if err != nil {
		return err
	}
	so := &synth.Options{Variant: o.Variant, N: o.N, Seed: o.Seed, Expand: o.Expand,
		Aggregate: o.Aggregate, Cut: o.Cut, MinTargets: o.MinTargets, MinTrees: o.MinTrees, PerAnswer: o.PerAnswer, Op: o.Op}
	if o.LLM {
		l := synth.NewLLM(o.BaseURL, o.Model, o.APIKey, o.Seed)
		l.Timeout, l.Retries = o.Timeout, o.Retries
		var mu sync.Mutex
		l.OnRetry = func(n int, wait time.Duration, err error) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(o.IO.ErrOut, "synth: paraphrase call failed (%v); retry %d of %d in %s\n", err, n, o.Retries, wait.Round(100*time.Millisecond))
		}
		so.Paraphraser = l
	}
	var wb *web.Web // the offline web, opened once for --max-naive-isr and the report
	offline := func() (*web.Web, error) {
		if wb == nil && o.Web != nil {
			var err error
			if wb, err = o.Web(); err != nil {
				return nil, err
			}
		}
		return wb, nil
	}
	if o.MaxNaive > 0 {
		b, err := offline()
		if err != nil {
			return err
		}
		if b == nil {
			return fmt.Errorf("synth: --max-naive-isr needs the store's offline web")
		}
		so.Refuse = oneSearch(b, o.MaxNaive)
	}
	w := bufio.NewWriterSize(o.IO.Out, 1<<16)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var tasks []*task.Task
	st, err := synth.Run(ctx, g, so, func(t *task.Task) error {
		if o.Hardness { // kept only for the report: --hardness=false streams
			tasks = append(tasks, t)
		}
		return enc.Encode(t)
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	var hard []*eval.Hardness
	if err == nil && o.Hardness && len(tasks) > 0 {
		ho := &eval.HardnessOptions{Workers: 2}
		b, werr := offline()
		if werr != nil {
			return werr
		}
		if b != nil {
			ho.Backend = b
		}
		if hard, err = eval.ComputeHardness(ctx, tasks, g, ho); err != nil {
			return err
		}
	}
	if st != nil {
		if o.JSON {
			rep := struct {
				*synth.Stats
				Hardness []*eval.Hardness `json:"hardness,omitempty"`
			}{st, hard}
			if jerr := writeJSON(o.IO.ErrOut, rep); err == nil {
				err = jerr
			}
		} else {
			printSynthStats(o.IO.ErrOut, st, o.N)
			printHardness(o.IO.ErrOut, hard)
		}
	}
	return err
}

// DropOneSearch is the reason --max-naive-isr refuses a task for: one
// search of its question and a visit of the first hits collect more of
// its targets than the flag allows.
const DropOneSearch = "one_search"

// oneSearch refuses a task of which the naive policy, run over b,
// collects more than max of the targets (ISR): a question one search
// answers teaches an agent no searching (WebLeaper App. A.6.3 gives
// Reverse-Union this purpose).
func oneSearch(b *web.Web, max float64) func(context.Context, *task.Task) (string, error) {
	return func(ctx context.Context, t *task.Task) (string, error) {
		tr, err := agent.Run(ctx, t, &agent.Naive{}, b, &agent.Options{Deterministic: true})
		if err != nil {
			return "", fmt.Errorf("synth: --max-naive-isr: %s: %w", t.ID, err)
		}
		if tr.Metrics.ISR > max {
			return DropOneSearch, nil
		}
		return "", nil
	}
}

func printSynthStats(w interface{ Write([]byte) (int, error) }, st *synth.Stats, n int) {
	fmt.Fprintf(w, "synth %s: %d of %d tasks from %d candidates in %.2fs", st.Variant, st.Emitted, n, st.Candidates, st.Seconds)
	if st.Groups > 0 {
		fmt.Fprintf(w, " (%d union groups)", st.Groups)
	}
	fmt.Fprintln(w)
	if st.Cut > 0 {
		fmt.Fprintf(w, "left out %d tables their source cut (to their first rows, a part, or a sample of their page's tables; --cut takes them)\n", st.Cut)
	}
	dropped := 0
	for _, c := range st.Dropped {
		dropped += c
	}
	if dropped > 0 {
		fmt.Fprintf(w, "dropped %d candidates:\n", dropped)
		for _, k := range sortedByCount(st.Dropped) {
			fmt.Fprintf(w, "  %-21s %6d (%.1f%%)\n", k, st.Dropped[k], 100*float64(st.Dropped[k])/float64(max(1, st.Candidates)))
		}
	}
	if st.Emitted < n {
		// Fewer than asked: every candidate was drawn and the rest failed a
		// check; synth emits no task it cannot make true.
		if st.Variant == task.Basic {
			fmt.Fprintf(w, "synth: this store has no more %s tasks of these options that pass every check (the reasons above)\n", st.Variant)
		} else {
			fmt.Fprintf(w, "synth: %d rounds of draws from the store's %d union groups (a group left after %d draws in a row without a task) gave no more %s tasks of these options that pass every check (the reasons above)\n",
				synth.UnionRounds, st.Groups, synth.GiveUp, st.Variant)
		}
	}
	if hops := st.Hops; len(hops) > 0 {
		n := 0
		for _, c := range hops {
			n += c
		}
		fmt.Fprintf(w, "attributes beyond the table: %d relations of drawn tables' keys in other tables considered, by outcome:\n", n)
		for _, k := range sortedByCount(hops) {
			fmt.Fprintf(w, "  %-21s %6d (%.1f%%)\n", k, hops[k], 100*float64(hops[k])/float64(n))
		}
	}
	if len(st.Paraphrase) > 0 {
		fmt.Fprintln(w, "paraphrases:")
		for _, k := range sortedByCount(st.Paraphrase) {
			fmt.Fprintf(w, "  %-16s %6d\n", k, st.Paraphrase[k])
		}
	}
}

func sortedByCount(m map[string]int) []string {
	ks := sortedStrings(m)
	sort.SliceStable(ks, func(i, j int) bool { return m[ks[i]] > m[ks[j]] })
	return ks
}
