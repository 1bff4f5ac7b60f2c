package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/internal/cputime"
	"github.com/leaper-dev/leaper/internal/memtrim"
	"github.com/leaper-dev/leaper/store"
)

// Options configure Run: what to read and the rules the graph is built
// by. A nil *Options means the defaults.
type Options struct {
	Format table.Format
	// Titles maps CSV file base names to [title, url].
	Titles map[string][2]string
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

// finalize has the graph derive its bitmaps and pages from the stored
// trees, feeding each page to the indexer as it is written.
func finalize(ctx context.Context, b *graph.Builder, ix *indexer, o Options) error {
	c := b.Counts()
	fin := func(stage string, done, all int) {
		p := Progress{Stage: stage, Done: done, Total: all, Tables: c.Tables + c.Duplicates, Trees: c.Trees}
		if stage == "pages" {
			p.Pages = done
		}
		o.Progress(p)
	}
	if err := b.Finalize(ctx, fin, ix.add); err != nil {
		ix.abort()
		return err
	}
	return nil
}

// read is the first stage: the readers read every input in parallel
// goroutines, which also clean and shape each table (Prepare); here, in
// input order, the graph's Builder stores each table's tree, entities and
// relations, and the passages and documents. Each input is recorded in the
// manifest before it is read and marked done after.
func read(ctx context.Context, b *graph.Builder, inputs []string, o Options, rep *Report) error {
	for _, in := range inputs {
		if err := b.SetInput(in, string(o.Format), false); err != nil {
			return err
		}
	}
	n := 0
	sizes, total := inputSizes(inputs)
	var cur string
	var doneBytes int64
	report := func(stage string, done, all int) {
		c := b.Counts()
		o.Progress(Progress{Stage: stage, Done: done, Total: all, Tables: c.Tables + c.Duplicates, Trees: c.Trees,
			Bytes: doneBytes, TotalBytes: total})
	}
	// Tables are cleaned and shaped in the reader's parallel goroutines;
	// only the dictionary and the writes are in input order, here.
	prepare := func(it *table.Item) {
		if it.Table != nil {
			it.Prepared = Prepare(it.Table, *o.Clean)
		}
	}
	err := table.Read(ctx, inputs, &table.Options{Format: o.Format, Titles: o.Titles, Links: o.Links, Logger: o.Logger, Prepare: prepare}, func(it table.Item) error {
		if src := itemFile(it); src != cur {
			doneBytes += sizes[cur]
			cur = src
		}
		switch {
		case it.Table != nil:
			_, rej, err := b.AddPrepared(it.Prepared.(*graph.Prepared))
			if err != nil {
				return err
			}
			if rej == nil || rej.Reason != graph.RejectDuplicate {
				rep.Cleaned.Add(it.Table.Fixes)
			}
			n++
			if n%o.FlushEvery == 0 {
				if err := b.Flush(); err != nil {
					return err
				}
				report("read", n, 0)
			}
		case it.Passage != nil:
			if err := b.AddPassage(it.Passage.Title, it.Passage.Text); err != nil {
				return err
			}
		case it.Document != nil:
			d := it.Document
			if err := b.AddDocument(&graph.Document{ID: d.ID, Title: d.Title, URL: d.URL, Article: d.Article, Paragraphs: d.Paragraphs}); err != nil {
				return err
			}
			// A corpus of passages has no tables to count: flush and
			// report by documents.
			if d := b.Counts().Documents; d%(100*o.FlushEvery) == 0 {
				if err := b.Flush(); err != nil {
					return err
				}
				report("read", n, 0)
			}
		case it.Skip != nil:
			if o.OnSkip != nil {
				o.OnSkip(it.Skip)
			}
			e := it.Skip
			return b.AddSkip(graph.Skip{File: e.File, Line: e.Line, Reason: e.Reason, Msg: e.Msg})
		}
		return nil
	})
	if err != nil {
		// Keep what was read: a rerun resumes from it.
		if ferr := b.Flush(); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return err
	}
	doneBytes = total
	report("read", n, n)
	for _, in := range inputs {
		if err := b.SetInput(in, string(o.Format), true); err != nil {
			return err
		}
	}
	return nil
}

// inputSizes maps every file under inputs to its size, and sums them, so
// that the read stage can tell how far it is (see Progress).
func inputSizes(inputs []string) (map[string]int64, int64) {
	sizes := map[string]int64{}
	var total int64
	for _, in := range inputs {
		filepath.WalkDir(in, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
				sizes[p] = fi.Size()
				total += fi.Size()
			}
			return nil
		})
	}
	return sizes, total
}

// itemFile is the input file an item was read from: its source without
// an archive member ("a.tar.gz!x.csv"), a line ("a.jsonl#line 3") or a
// table number ("a.html#table 2").
func itemFile(it table.Item) string {
	var src string
	switch {
	case it.Table != nil:
		src = it.Table.Source
	case it.Passage != nil:
		src = it.Passage.Source
	case it.Document != nil:
		src = it.Document.Source
	case it.Skip != nil:
		src = it.Skip.File
	}
	if i := strings.IndexByte(src, '!'); i >= 0 {
		src = src[:i]
	}
	for _, mark := range []string{"#line ", "#table "} {
		if i := strings.LastIndex(src, mark); i >= 0 {
			src = src[:i]
		}
	}
	return src
}

// indexer indexes pages into a new index directory on its own goroutine,
// in batches, while the graph renders them; finish swaps the new index in,
// so an interrupted build never leaves a half index in place.
type indexer struct {
	dir, tmp string
	ix       *index.Index
	batches  chan []index.Page
	buf      []index.Page
	done     chan error
	progress func(Progress)
}

// indexBatch is the number of pages handed to the index at a time (two
// Bleve batches of 10,000, built in parallel): on the full corpus, 2,000
// made 110 segments and a final merge of 6.6 s; 20,000 make 11, and the
// build is 5-8 s faster; 50,000 leave too much indexing after the pages.
const indexBatch = 20000

func newIndexer(ctx context.Context, dir, tmp string, o Options) (*indexer, error) {
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	ix, err := index.Open(tmp, &index.Options{Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	x := &indexer{dir: dir, tmp: tmp, ix: ix, batches: make(chan []index.Page, 2), done: make(chan error, 1), progress: o.Progress}
	go func() {
		var err error
		n := 0
		for batch := range x.batches {
			if err != nil {
				continue // drain
			}
			err = ix.Add(ctx, batch)
			n += len(batch)
			x.progress(Progress{Stage: "index", Done: n})
		}
		x.done <- err
	}()
	return x, nil
}

func (x *indexer) add(p *graph.Page, shown []graph.Shown) error {
	x.buf = append(x.buf, index.Page{URL: p.URL, Title: p.Title, Text: graph.PageText(p), Years: p.Years, Stored: graph.NamesBlob(shown)})
	if len(x.buf) == indexBatch {
		x.batches <- x.buf
		x.buf = make([]index.Page, 0, indexBatch)
	}
	return nil
}

func (x *indexer) abort() {
	close(x.batches)
	<-x.done
	x.ix.Close()
	os.RemoveAll(x.tmp)
}

func (x *indexer) finish(ctx context.Context) error {
	if len(x.buf) > 0 {
		x.batches <- x.buf
	}
	close(x.batches)
	err := <-x.done
	if err == nil {
		err = x.ix.Sync(ctx)
	}
	if err == nil {
		// One segment instead of one per batch: each search term is
		// then one dictionary lookup and one posting list.
		x.progress(Progress{Stage: "compact", Total: 1})
		err = x.ix.Compact(ctx)
		x.progress(Progress{Stage: "compact", Done: 1, Total: 1})
	}
	if cerr := x.ix.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ingest: index: %w", err)
	}
	if err := os.RemoveAll(x.dir); err != nil {
		return err
	}
	return os.Rename(x.tmp, x.dir)
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
