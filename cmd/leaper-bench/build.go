package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/leaper-dev/leaper/bench/buildbench"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/spf13/cobra"
)

// BenchBuildOptions are the flags of leaper-bench build.
type BenchBuildOptions struct {
	IO        IO
	Inputs    []string
	Tables    []int
	Leaper    string
	Work      string
	Keep      bool
	MaxMemory int64
	Nice      int
	Quiet     bool
	JSON      bool
	ResumeAt  float64
	// Against is a file of earlier --json results (--resume-against).
	Against string
}

func newBenchBuildCmd(f *Factory, runF func(context.Context, *BenchBuildOptions) error) *cobra.Command {
	opts := &BenchBuildOptions{}
	var tables string
	c := &cobra.Command{
		Use:   "build [flags] CORPUS...",
		Short: "Measure leaper build: tables/s, stage times, peak RSS, store size, at any corpus size",
		Long: `build runs leaper build --force --json as a child process on a corpus and
reports its wall time, each stage's time (from the build's own report),
tables/s, CPU time, the child's peak resident memory (rusage) and the
store's size on disk.

With --tables, the corpus's CSV tables (files, directories, .tar.gz, as
../shared/corpus/sts-csv) are first replayed to each size: replica 0 is
the corpus itself; replica r renames the page ids of the file names
(+ r × 10^9, still untitled), every linked title and entity-column title
(Hugo_(film) → Hugo_(film)_(r3)) and the text of the first column, so
that each replica adds new pages, entities and trees with the real
distributions. Sizes are built one after the other, never side by side.
The replayed corpora and stores go to --work and are deleted after each
size unless --keep.

With --resume-at F, each size is built a second time, killed with SIGKILL
at F of the first build's wall time and run again with the same command;
the completed store's counts must equal the uninterrupted build's. With
--resume-against FILE (an earlier --json output of the same corpus and
sizes), the uninterrupted builds are taken from FILE and only the resume
check runs: at 2,000,000 tables that saves a 45-minute build.`,
		Example: `  go build -o /tmp/leaper ./cmd/leaper
  leaper-bench build --leaper /tmp/leaper ../shared/corpus/wtq ../shared/corpus/ottqa
  leaper-bench build --leaper /tmp/leaper --tables 100000,500000,2000000 ../shared/corpus/sts-csv
  leaper-bench build --leaper /tmp/leaper --tables 2000000 --json ../shared/corpus/sts-csv > r2m.json
  leaper-bench build --leaper /tmp/leaper --tables 2000000 --resume-at 0.6 --resume-against r2m.json ../shared/corpus/sts-csv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.Inputs = f.IO, args
			opts.Tables = nil
			if tables != "" {
				for _, s := range strings.Split(tables, ",") {
					n, err := strconv.Atoi(strings.TrimSpace(s))
					if err != nil || n < 1 || n > 100_000_000 {
						return usageErrorf("--tables: %q is not a table count in 1..100000000", s)
					}
					opts.Tables = append(opts.Tables, n)
				}
			}
			for _, in := range args {
				if _, err := os.Stat(in); err != nil {
					return usageErrorf("corpus %s: %v", in, err)
				}
			}
			if opts.ResumeAt < 0 || opts.ResumeAt >= 1 {
				return usageErrorf("--resume-at must be a fraction in [0, 1)")
			}
			if opts.Against != "" && (opts.ResumeAt == 0 || len(opts.Tables) == 0) {
				return usageErrorf("--resume-against needs --tables and --resume-at")
			}
			if opts.Nice < 0 || opts.Nice > 19 {
				return usageErrorf("--nice must be within 0..19")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runBenchBuild(c.Context(), opts)
		},
	}
	c.Flags().StringVar(&tables, "tables", "", "replay the corpus's CSV tables to these sizes, comma-separated (default: build the corpus as it is)")
	c.Flags().StringVar(&opts.Leaper, "leaper", "", "the leaper binary to measure (default: leaper next to this binary, else on $PATH)")
	c.Flags().StringVar(&opts.Work, "work", "", "scratch directory for replayed corpora and stores (default: a new one under $TMPDIR)")
	c.Flags().BoolVar(&opts.Keep, "keep", false, "keep the replayed corpora and stores in --work")
	cmdutil.BytesVar(c.Flags(), &opts.MaxMemory, "max-memory", 0, "pass --max-memory to leaper build (0: its default)")
	c.Flags().IntVar(&opts.Nice, "nice", 0, "run the build under nice -n N")
	c.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "hide the build's progress lines")
	c.Flags().BoolVar(&opts.JSON, "json", false, "print results as JSON")
	c.Flags().Float64Var(&opts.ResumeAt, "resume-at", 0, "with --tables, also kill a second build (SIGKILL) at this fraction of the first's wall time, run it again and compare the counts")
	c.Flags().StringVar(&opts.Against, "resume-against", "", "with --resume-at, take the uninterrupted builds from this earlier --json output (same corpus and sizes) instead of building them again: only the resume check runs")
	return c
}

// findLeaper is the leaper binary: next to this one, else on $PATH.
func findLeaper() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "leaper")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("leaper"); err == nil {
		return p, nil
	}
	return "", usageErrorf("no leaper binary next to leaper-bench or on $PATH: build one (go build -o /tmp/leaper ./cmd/leaper) and pass --leaper")
}

// benchSetup finds the leaper binary when leaper is empty and makes the
// scratch directory when work is empty (named for what, removed by
// cleanup unless keep).
func benchSetup(leaper, work, what string, keep bool) (bin, dir string, cleanup func(), err error) {
	bin, dir, cleanup = leaper, work, func() {}
	if bin == "" {
		if bin, err = findLeaper(); err != nil {
			return "", "", nil, err
		}
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "leaper-bench-"+what+"-"); err != nil {
			return "", "", nil, err
		}
		if !keep {
			cleanup = func() { os.RemoveAll(dir) }
		}
	}
	return bin, dir, cleanup, nil
}

func runBenchBuild(ctx context.Context, o *BenchBuildOptions) error {
	var work string
	var cleanup func()
	var err error
	if o.Leaper, work, cleanup, err = benchSetup(o.Leaper, o.Work, "build", o.Keep); err != nil {
		return err
	}
	defer cleanup()
	mo := buildbench.MeasureOptions{Leaper: o.Leaper, Nice: o.Nice}
	if !o.Quiet {
		mo.Stderr = o.IO.ErrOut
	}
	if o.MaxMemory > 0 {
		mo.Args = []string{"--max-memory", strconv.FormatInt(o.MaxMemory, 10)}
	}
	var against map[int]buildbench.Result
	if o.Against != "" {
		var err error
		if against, err = readAgainst(o.Against, o.Tables); err != nil {
			return err
		}
	}
	res, err := buildbench.Run(ctx, &buildbench.Options{Inputs: o.Inputs, Sizes: o.Tables, Work: work,
		Keep: o.Keep, Measure: mo, Log: o.IO.ErrOut, ResumeAt: o.ResumeAt, Against: against})
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.IO.Out, res)
	}
	tw := tabwriter.NewWriter(o.IO.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\ttables\ttrees\tpages\twall s\tread s\tfinalize s\tindex s\ttables/s\tCPU s\tpeak RSS MiB\tpeak mapped MiB\tstore MiB\t")
	for _, r := range res {
		if r.Earlier {
			r.Label += " (earlier run)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t%.0f\t%.0f\t%.0f\t\n", r.Label, r.Tables+r.Duplicates, r.Trees, r.Counts.Pages,
			r.Wall.Seconds(), r.Read.Seconds(), r.Finalize.Seconds(), r.Index.Seconds(), r.TablesPerSec,
			r.CPU.Seconds(), float64(r.PeakRSS)/(1<<20), float64(r.PeakMapped)/(1<<20), float64(r.StoreSize)/(1<<20))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range res {
		if rr := r.Resume; rr != nil {
			same := "the same counts as the uninterrupted build"
			if !rr.Same {
				same = fmt.Sprintf("DIFFERENT counts: %+v, uninterrupted %+v", rr.Counts, r.Counts)
			}
			fmt.Fprintf(o.IO.Out, "resume %s: killed after %.0fs (killed: %v; last progress: %s), the same command completed it in %.1fs with %s\n",
				r.Label, rr.KilledAfter.Seconds(), rr.Killed, rr.Stage, rr.Wall.Seconds(), same)
		}
	}
	return nil
}

// readAgainst reads the results of an earlier leaper-bench build --tables
// --json run, by size, and checks that it has every size asked for.
func readAgainst(path string, sizes []int) (map[int]buildbench.Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf("--resume-against: %v", err)
	}
	var rs []buildbench.Result
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, usageErrorf("--resume-against %s: not the output of leaper-bench build --json: %v", path, err)
	}
	byLabel := map[string]buildbench.Result{}
	for _, r := range rs {
		byLabel[r.Label] = r
	}
	out := map[int]buildbench.Result{}
	for _, n := range sizes {
		r, ok := byLabel[fmt.Sprintf("replay-%d", n)]
		if !ok || r.Wall <= 0 {
			return nil, usageErrorf("--resume-against %s: no build of %d tables (label replay-%d) in it", path, n, n)
		}
		out[n] = r
	}
	return out, nil
}
