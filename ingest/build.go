package ingest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/internal/cputime"
	"github.com/leaper-dev/leaper/internal/memtrim"
	"github.com/leaper-dev/leaper/store"
)

// Options configure Run: what to read and the rules the graph is built
// by. A nil *Options means the defaults.
type Options struct {
	Format table.Format
	// Titles maps CSV file base names to [title, url, section]; the
	// section may be "".
	Titles map[string][3]string
	// Clean are the cleaning rules. Default: DefaultCleanOptions.
	Clean  *CleanOptions
	Logger *slog.Logger
	// Links says how CSV cells written as page titles are read.
	Links table.LinkMode
	// Progress is called as work advances, from the build's goroutines
	// (the index stage reports from its own): see Progress.
	Progress func(Progress)
	// OnSkip is called for each input record that could not be read.
	OnSkip func(*table.ParseError)
	// SpillBudget bounds the memory of page fragments, and that of bitmap
	// pairs, in finalize (see graph.Options).
	SpillBudget int
	// EntityCache bounds the entity records held in memory (see
	// graph.Options).
	EntityCache int
	// FlushEvery is how many tables are written between durable flushes.
	FlushEvery int
	// MappedMemory bounds the resident pages of the store's memory-mapped
	// files (Badger's tables and value logs, Bleve's segments): past it,
	// the build asks the kernel to reclaim them (Linux; see
	// internal/memtrim). 0 leaves them to the kernel.
	MappedMemory int64
}

func (opts *Options) withDefaults() (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Format == "" {
		o.Format = table.FormatAuto
	}
	if !o.Format.Known() {
		return o, fmt.Errorf("ingest: unknown format %q", o.Format)
	}
	if o.FlushEvery < 0 {
		return o, fmt.Errorf("ingest: FlushEvery %d < 0", o.FlushEvery)
	}
	if o.FlushEvery == 0 {
		o.FlushEvery = 500
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch o.Links {
	case "":
		o.Links = table.LinksAuto
	case table.LinksAuto, table.LinksTitles, table.LinksNone:
	default:
		return o, fmt.Errorf("ingest: unknown links mode %q", o.Links)
	}
	if o.Progress == nil {
		o.Progress = func(Progress) {}
	}
	if o.Clean == nil {
		c := DefaultCleanOptions()
		o.Clean = &c
	}
	return o, nil
}

// Progress is a snapshot of a build's advance. Stage is "read",
// "bitmaps", "pages", "index" or "compact"; Done of Total is the stage's
// own unit (tables, trees, pages; Total 0 when unknown; during "pages"
// an estimate until the stage's last report). Tables, Trees
// and Pages are the running totals known so far; during "read", Bytes of
// TotalBytes is how far the reader is through the input files (by whole
// files: an archive counts when it is finished).
type Progress struct {
	Stage                string
	Done, Total          int
	Tables, Trees, Pages int
	Bytes, TotalBytes    int64
}

// Report says what a build did.
type Report struct {
	graph.BuildCounts
	// Cleaned counts what the readers repaired in the tables read
	// (duplicates left out).
	Cleaned  table.Fixes   `json:"cleaned"`
	Counts   graph.Counts  `json:"store"`
	Read     time.Duration `json:"read_ns"`
	Finalize time.Duration `json:"finalize_ns"`
	Index    time.Duration `json:"index_ns"`
	Total    time.Duration `json:"total_ns"`
	// CPU is the process's CPU time (user and system) in each stage: a
	// stage whose CPU is near twice its wall time on two cores uses both.
	CPU StageCPU `json:"cpu"`
	// Mapped says how the resident pages of mapped files were kept
	// within Options.MappedMemory.
	Mapped memtrim.Stats `json:"mapped"`
}

// StageCPU is CPU time per build stage (0 where the system does not say).
type StageCPU struct {
	Read     time.Duration `json:"read_ns"`
	Finalize time.Duration `json:"finalize_ns"`
	Index    time.Duration `json:"index_ns"`
}

// Run builds the store in dir from inputs, creating it if needed: the
// readers (package ingest/table) read tables and passages, cleaning shapes
// each table into a tree (clean.go), the graph's Builder writes trees,
// entities and relations (graph/build.go, in input order, each table
// marked done by its tree), finalize derives the bitmaps and pages from
// the stored trees, and the pages are indexed into a new index swapped in
// at the end (index.go). Inputs already in the store are not duplicated;
// a stopped build is completed by running it again with the same inputs.
func Run(ctx context.Context, dir string, inputs []string, opts *Options) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	start, cpu0 := time.Now(), cputime.Process()
	trim := memtrim.Start(o.MappedMemory, time.Second, dir)
	defer trim.Stop()
	st, err := graph.Open(store.GraphPath(dir), &graph.Options{Logger: o.Logger, SpillBudget: o.SpillBudget, EntityCache: o.EntityCache, SpillDir: store.SpillPath(dir)})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// What a killed build spilled is of no use to the next (the graph's
	// lock is held: no other build is using it).
	if err := os.RemoveAll(store.SpillPath(dir)); err != nil {
		return nil, err
	}
	defer os.RemoveAll(store.SpillPath(dir))
	b, err := st.NewBuilder()
	if err != nil {
		return nil, err
	}
	defer b.Close()
	rep := &Report{}
	if err := read(ctx, b, inputs, o, rep); err != nil {
		return nil, err
	}
	rep.Read = time.Since(start)
	cpu1 := cputime.Process()
	rep.CPU.Read = cpu1 - cpu0
	t := time.Now()
	ix, err := newIndexer(ctx, store.IndexPath(dir), store.IndexBuildPath(dir), o)
	if err != nil {
		return nil, err
	}
	if err := finalize(ctx, b, ix, o); err != nil {
		return nil, err
	}
	rep.Finalize = time.Since(t)
	cpu2 := cputime.Process()
	rep.CPU.Finalize = cpu2 - cpu1
	t = time.Now()
	if err := ix.finish(ctx); err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	rep.Index = time.Since(t)
	rep.CPU.Index = cputime.Process() - cpu2
	rep.BuildCounts = b.Counts()
	rep.Counts = st.Manifest().Counts
	rep.Mapped = trim.Stats()
	rep.Total = time.Since(start)
	return rep, nil
}

// HeapLimit is the Go memory limit (debug.SetMemoryLimit) a build should
// run under for its resident memory to stay within maxMemory: a quarter
// of it, at most 1 GiB, is left to what the Go runtime does not count,
// the pages of Badger's and Bleve's memory-mapped files that a build
// touches. It is maxMemory itself below 64 MiB.
func HeapLimit(maxMemory int64) int64 {
	if maxMemory < 64<<20 {
		return maxMemory
	}
	return maxMemory - min(maxMemory/4, 1<<30)
}
