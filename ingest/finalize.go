package ingest

import (
	"context"

	"github.com/leaper-dev/leaper/graph"
)

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
