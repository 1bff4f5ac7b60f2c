package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/graph/table"
	"github.com/leaper-dev/leaper/index"
)

// BuildOptions configure Build: what to read and the rules the graph is
// built by.
type BuildOptions struct {
	Format table.Format
	// Titles maps CSV file base names to [title, url].
	Titles map[string][2]string
	// Clean are the cleaning rules. Default: graph.DefaultCleanOptions.
	Clean  *graph.CleanOptions
	Logger *slog.Logger
	// Progress is called as work advances: stage names are "read",
	// "bitmaps", "pages", "index", "compact".
	Progress func(stage string, done, total int)
	// OnSkip is called for each input record that could not be read.
	OnSkip func(*table.ParseError)
	// FlushEvery is how many tables are written between durable flushes.
	FlushEvery int
}

func (opts *BuildOptions) withDefaults() (BuildOptions, error) {
	var o BuildOptions
	if opts != nil {
		o = *opts
	}
	switch o.Format {
	case "":
		o.Format = table.FormatAuto
	case table.FormatAuto, table.FormatWikiTables, table.FormatHTML, table.FormatTabEL, table.FormatCSV, table.FormatPassages:
	default:
		return o, fmt.Errorf("store: build: unknown format %q", o.Format)
	}
	if o.FlushEvery < 0 {
		return o, fmt.Errorf("store: build: FlushEvery %d < 0", o.FlushEvery)
	}
	if o.FlushEvery == 0 {
		o.FlushEvery = 500
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Progress == nil {
		o.Progress = func(string, int, int) {}
	}
	return o, nil
}

// Report says what a build did.
type Report struct {
	graph.BuildCounts
	Counts   graph.Counts  `json:"store"`
	Read     time.Duration `json:"read_ns"`
	Finalize time.Duration `json:"finalize_ns"`
	Index    time.Duration `json:"index_ns"`
	Total    time.Duration `json:"total_ns"`
}

// Build reads inputs into the store in dir, creating it if needed, then
// finalizes the graph and rebuilds the index. Inputs already in the store
// are not duplicated.
func Build(ctx context.Context, dir string, inputs []string, opts *BuildOptions) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	st, err := graph.Open(GraphPath(dir), &graph.Options{Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	b, err := st.NewBuilder(o.Clean)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, in := range inputs {
		if err := b.SetInput(in, string(o.Format), false); err != nil {
			return nil, err
		}
	}
	n := 0
	err = table.Read(ctx, inputs, &table.Options{Format: o.Format, Titles: o.Titles, Logger: o.Logger}, func(it table.Item) error {
		switch {
		case it.Table != nil:
			if _, _, err := b.AddTable(it.Table); err != nil {
				return err
			}
			n++
			if n%o.FlushEvery == 0 {
				if err := b.Flush(); err != nil {
					return err
				}
				o.Progress("read", n, 0)
			}
		case it.Passage != nil:
			if err := b.AddPassage(it.Passage); err != nil {
				return err
			}
		case it.Skip != nil:
			if o.OnSkip != nil {
				o.OnSkip(it.Skip)
			}
			return b.AddSkip(it.Skip)
		}
		return nil
	})
	if err != nil {
		// Keep what was read: a rerun resumes from it.
		if ferr := b.Flush(); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return nil, err
	}
	o.Progress("read", n, n)
	for _, in := range inputs {
		if err := b.SetInput(in, string(o.Format), true); err != nil {
			return nil, err
		}
	}
	rep.Read = time.Since(start)
	t := time.Now()
	ix, err := newIndexer(ctx, IndexPath(dir), indexBuildPath(dir), o)
	if err != nil {
		return nil, err
	}
	if err := b.Finalize(ctx, o.Progress, ix.add); err != nil {
		ix.abort()
		return nil, err
	}
	rep.Finalize = time.Since(t)
	t = time.Now()
	if err := ix.finish(ctx); err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	rep.Index = time.Since(t)
	rep.BuildCounts = b.Counts()
	rep.Counts = st.Manifest().Counts
	rep.Total = time.Since(start)
	return rep, nil
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
	progress func(string, int, int)
}

// indexBatch is the number of pages handed to the index at a time (two
// Bleve batches of 10,000, built in parallel): on the full corpus, 2,000
// made 110 segments and a final merge of 6.6 s; 20,000 make 11, and the
// build is 5-8 s faster; 50,000 leave too much indexing after the pages.
const indexBatch = 20000

func newIndexer(ctx context.Context, dir, tmp string, o BuildOptions) (*indexer, error) {
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
			x.progress("index", n, 0)
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
		x.progress("compact", 0, 1)
		err = x.ix.Compact(ctx)
		x.progress("compact", 1, 1)
	}
	if cerr := x.ix.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: build index: %w", err)
	}
	if err := os.RemoveAll(x.dir); err != nil {
		return err
	}
	return os.Rename(x.tmp, x.dir)
}
