package ingest

import (
	"context"
	"fmt"
	"os"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/index"
)

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
