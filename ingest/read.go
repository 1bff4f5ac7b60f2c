package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/table"
)

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
			prepareItem(it, *o.Clean, o.Logger)
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

// prepareTable cleans and shapes a table: Prepare, but for tests that
// make it fail.
var prepareTable = Prepare

// prepareItem cleans and shapes an item's table. A panic there is a bug
// met on one table of many: the table is skipped as a record that could
// not be read, named by its source, the stack is logged, and the build
// goes on, as it does past a malformed line.
func prepareItem(it *table.Item, opts CleanOptions, log *slog.Logger) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("cleaning a table panicked", "source", it.Table.Source, "panic", r, "stack", string(debug.Stack()))
			it.Skip = &table.ParseError{File: it.Table.Source, Reason: ReasonCleaningFailed,
				Msg: fmt.Sprintf("internal error (%v, in %s); the table is left out: please report it", r, panicSite())}
			it.Table, it.Prepared = nil, nil
		}
	}()
	it.Prepared = prepareTable(it.Table, opts)
}

// panicSite names the function, file and line that panicked, for a
// deferred recover to report: the first caller below the runtime's frames.
func panicSite() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s at %s:%d", path.Base(f.Function), filepath.Base(f.File), f.Line)
		}
		if !more {
			return "an unknown place"
		}
	}
}

// ReasonCleaningFailed is the skip reason of a table whose cleaning
// failed on a bug (prepareItem).
const ReasonCleaningFailed = "cleaning failed"
