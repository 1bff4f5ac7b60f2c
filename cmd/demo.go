package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
	"github.com/spf13/cobra"
)

// DemoOptions are the flags of leaper demo.
type DemoOptions struct {
	IO    IO
	Data  string
	Store string
	f     *Factory
}

func newDemoCmd(f *Factory, runF func(context.Context, *DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{}
	c := &cobra.Command{
		Use:   "demo",
		Short: "Build a store from the bundled sample corpus and show it working",
		Long: `Demo builds a store from the sample tables under testdata/corpus (real
WikiTableQuestions and OTT-QA tables, with entity passages), then shows the
cleaning report, a reasoning tree, a search and a visit; then mines union
groups, synthesises Basic, Union and Reverse-Union tasks, rolls the oracle
policy out on them over the offline web and scores the trajectories.

The store is ./leaper-demo unless --store names another: a new or empty
directory, or an earlier demo's store, since the demo rebuilds it from
scratch; a directory holding anything else is refused.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.f = f.IO, f
			if !c.Flags().Changed("store") && !c.Root().PersistentFlags().Changed("store") {
				opts.Store = "./leaper-demo"
			} else {
				// The demo rebuilds its store from scratch: a --store
				// that holds anything but an earlier demo is refused,
				// not wiped.
				opts.Store = f.Store
				if err := demoStoreFree(opts.Store); err != nil {
					return cmdutil.Usage(err)
				}
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runDemo(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&opts.Data, "data", "testdata/corpus", "sample corpus directory")
	return c
}

// section heads a step with the command that does it by hand: a command
// that reads the store names it, so that the line runs as shown.
func section(o *DemoOptions, title string) {
	if rest, ok := strings.CutPrefix(title, "leaper "); ok && !strings.HasPrefix(rest, "build ") {
		title = "leaper --store " + o.Store + " " + rest
	}
	fmt.Fprintf(o.IO.Out, "\n=== %s\n\n", title)
}

// demoMark marks a directory as a store the demo built, which a later
// demo may rebuild.
const demoMark = ".leaper-demo"

// demoStoreFree reports whether the demo may build its store in dir: dir
// does not exist, is empty, or holds an earlier demo.
func demoStoreFree(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, demoMark)); err == nil {
		return nil
	}
	return fmt.Errorf("--store %s is not empty and not an earlier demo's store; the demo rebuilds its store from scratch: pass a new directory, or leave --store out (./leaper-demo)", dir)
}

func runDemo(ctx context.Context, o *DemoOptions) error {
	if _, err := os.Stat(o.Data); err != nil {
		return fmt.Errorf("sample corpus %s not found (run leaper demo from the repository root, or pass --data): %w", o.Data, err)
	}
	f := o.f
	f.Store = o.Store
	section(o, "leaper build --force --store "+o.Store+" "+o.Data)
	bo := &BuildOptions{IO: o.IO, Store: o.Store, Inputs: []string{o.Data}, Format: "auto", Links: "auto", Force: true, Quiet: true, MaxShow: 5}
	if err := runBuild(ctx, bo); err != nil {
		if !cmdutil.IsPartial(err) {
			return err
		}
		fmt.Fprintf(o.IO.Out, "(%v: the sample includes malformed files on purpose)\n", err)
	}
	if err := os.WriteFile(filepath.Join(o.Store, demoMark), []byte("built by leaper demo; a later demo may rebuild it\n"), 0o644); err != nil {
		return err
	}
	g, err := graphOf(f.OpenStore)
	if err != nil {
		return err
	}
	section(o, "leaper stats")
	if err := runStats(ctx, &StatsOptions{IO: o.IO, OpenStore: f.OpenStore}, o.Store); err != nil {
		return err
	}
	// The largest tree makes the best example.
	var best *graph.Tree
	if err := g.EachTree(ctx, func(t *graph.Tree) error {
		if best == nil || len(t.Rows)*len(t.Columns) > len(best.Rows)*len(best.Columns) {
			best = t
		}
		return nil
	}); err != nil {
		return err
	}
	if best == nil {
		return fmt.Errorf("the sample built no trees")
	}
	section(o, fmt.Sprintf("leaper tree %d", best.ID))
	if err := runTree(ctx, &TreeOptions{IO: o.IO, OpenStore: f.OpenStore, Ref: fmt.Sprint(best.ID), Rows: 5}); err != nil {
		return err
	}
	q := best.PageTitle
	section(o, fmt.Sprintf("leaper search --top 3 %q", q))
	if err := runSearch(ctx, &SearchOptions{IO: o.IO, Web: f.Web, Queries: []string{q}, TopK: 3}); err != nil {
		return err
	}
	goal := fmt.Sprintf("%s: %s of every %s", best.Title(), best.Columns[0].Header, best.KeyHeader)
	section(o, fmt.Sprintf("leaper visit --goal %q %s", goal, best.PageURL))
	if err := runVisit(ctx, &VisitOptions{IO: o.IO, Web: f.Web, URLs: []string{best.PageURL}, Goal: goal}); err != nil {
		return err
	}
	return demoPipeline(ctx, o)
}

// demoCmd runs a leaper command line as a user would, with its output to
// out, sharing the demo's open store.
func demoCmd(ctx context.Context, o *DemoOptions, out io.Writer, args ...string) error {
	sub := *o.f
	sub.IO.Out = out
	root := NewRootCmd(&sub)
	root.SetArgs(append([]string{"--store", o.Store}, args...))
	return root.ExecuteContext(ctx)
}

// firstLines returns at most n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
	}
	return s
}

// demoPipeline mines unions, synthesises tasks of the three variants, rolls
// the oracle policy out on them and scores the trajectories.
func demoPipeline(ctx context.Context, o *DemoOptions) error {
	w := o.IO.Out
	section(o, "leaper mine --min-trees 2 --min-relations 2")
	var mined bytes.Buffer
	if err := demoCmd(ctx, o, &mined, "mine", "--min-trees", "2", "--min-relations", "2"); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d union groups; the first:\n%s", strings.Count(mined.String(), "\n"), firstLines(mined.String(), 2))

	tasks := filepath.Join(o.Store, "tasks.jsonl")
	var all bytes.Buffer
	// The sample's unions are of OTT-QA tables, which their release cut to
	// 20 rows: the demo asks of them (--cut), true of the offline web.
	fmt.Fprintln(w, "\nThe sample's OTT-QA tables are cut to their first 20 rows by their release: the demo")
	fmt.Fprintln(w, "asks of them with --cut (tasks true of the offline web); synth leaves them out by default.")
	for _, v := range []string{"basic", "union", "reverse-union"} {
		section(o, fmt.Sprintf("leaper synth --variant %s -n 4 --seed 1 --cut >> %s", v, tasks))
		var buf bytes.Buffer
		if err := demoCmd(ctx, o, &buf, "synth", "--variant", v, "-n", "4", "--seed", "1", "--cut"); err != nil {
			return err
		}
		all.Write(buf.Bytes())
		fmt.Fprintf(w, "%d %s tasks\n", strings.Count(buf.String(), "\n"), v)
	}
	if err := os.WriteFile(tasks, all.Bytes(), 0o644); err != nil {
		return err
	}
	ts, err := task.ReadFile(tasks)
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		return fmt.Errorf("the sample gave no tasks")
	}
	// Show the task with the most targets.
	best := ts[0]
	for _, t := range ts {
		if len(t.Targets) > len(best.Targets) {
			best = t
		}
	}
	section(o, fmt.Sprintf("leaper task --rows 5 %s %s", tasks, best.ID))
	if err := demoCmd(ctx, o, w, "task", "--rows", "5", tasks, best.ID); err != nil {
		return err
	}
	// The auditor reads every task off its tables by a path of its own.
	section(o, fmt.Sprintf("leaper audit --cut --tasks %s", tasks))
	if err := demoCmd(ctx, o, w, "audit", "--cut", "--tasks", tasks); err != nil {
		return err
	}
	trajs := filepath.Join(o.Store, "trajectories.jsonl")
	os.Remove(trajs)
	section(o, fmt.Sprintf("leaper rollout --tasks %s --policy oracle --deterministic -o %s", tasks, trajs))
	if err := demoCmd(ctx, o, io.Discard, "rollout", "--tasks", tasks, "--policy", "oracle", "--deterministic", "-o", trajs); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d trajectories written\n", len(ts))
	section(o, fmt.Sprintf("leaper eval --tasks %s %s", tasks, trajs))
	if err := demoCmd(ctx, o, w, "eval", "--tasks", tasks, trajs); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe store is in %s; tasks and trajectories beside it. Try: leaper --store %s search QUERY\n", filepath.Clean(o.Store), o.Store)
	return nil
}
