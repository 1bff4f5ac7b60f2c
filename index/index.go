package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bolterrors "go.etcd.io/bbolt/errors"
	"golang.org/x/sync/errgroup"
)

// Page is one page of the offline web.
type Page struct {
	// URL is the canonical https://en.wikipedia.org/wiki/Title address and
	// the page's identity: adding a page with a URL already present
	// replaces it.
	URL string
	// Title is shown in search results and searched with a boost.
	Title string
	// Text is the plain-text or markdown body.
	Text string
	// Years the page is about or mentions; filter_year matches any of them
	// and Hit.Year reports the first when no filter is given, so put the
	// page's own year (publication, event) first.
	Years []int
	// Stored is kept with the page, not searched, and returned with its
	// hits: data a caller needs for every hit without another lookup.
	Stored []byte
}

// Index is a full-text index of pages. It is safe for concurrent use.
type Index struct {
	mu     sync.RWMutex // write-held only by Close
	closed bool

	bi    bleve.Index
	an    analyzers
	opts  Options
	log   *slog.Logger
	dirty atomic.Bool // writes not yet known to be persisted
	syncN atomic.Uint64
	stats lengthStats

	bleveOnly bool                       // rank with Bleve's searchers only (tests, benchmarks)
	plists    *plistCache                // decoded frequent posting lists; nil unless read-only
	compacted atomic.Pointer[segmentSet] // set by Compact, cleared by writes
}

// lengthStats are running totals of analysed field lengths over every page
// ever added (replaced pages included), persisted with each Sync. They give
// BM25 its average field lengths: Bleve's own estimate (distinct terms of
// the field dictionary per document) changes with the segment layout, so
// the same pages built in different batches would score differently.
type lengthStats struct {
	docs, title, text atomic.Int64
}

var internalStatsKey = []byte("leaper:lengths")

func (s *lengthStats) encode() []byte {
	return fmt.Appendf(nil, "%d %d %d", s.docs.Load(), s.title.Load(), s.text.Load())
}

func (s *lengthStats) decode(b []byte) error {
	var d, ti, te int64
	if _, err := fmt.Sscanf(string(b), "%d %d %d", &d, &ti, &te); err != nil {
		return err
	}
	s.docs.Store(d)
	s.title.Store(ti)
	s.text.Store(te)
	return nil
}

// Open opens the index in dir, creating it when missing unless
// opts.ReadOnly is set. A nil opts means defaults.
func Open(dir string, opts *Options) (*Index, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	m := newMapping()
	an, err := newAnalyzers(m)
	if err != nil {
		return nil, err
	}
	ix := &Index{an: an, opts: o, log: o.Logger}

	var created bool
	switch {
	case o.InMemory:
		ix.bi, err = bleve.NewMemOnly(m)
		created = true
	default:
		if dir == "" {
			return nil, fmt.Errorf("index: open: empty directory name")
		}
		_, statErr := os.Stat(filepath.Join(dir, "index_meta.json"))
		switch {
		case statErr == nil:
			ix.bi, err = bleve.OpenUsing(dir, ix.runtimeConfig())
		case !errors.Is(statErr, os.ErrNotExist):
			return nil, fmt.Errorf("index: open %s: %w", dir, statErr)
		case o.ReadOnly:
			return nil, fmt.Errorf("index: open %s: %w", dir, ErrNotFound)
		default:
			ix.bi, err = bleve.NewUsing(dir, m, scorch.Name, scorch.Name, ix.runtimeConfig())
			created = true
		}
	}
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			err = ErrLocked
		}
		return nil, fmt.Errorf("index: open %s: %w", dir, err)
	}
	if created {
		if err := ix.bi.SetInternal(internalVersionKey, []byte(formatVersion)); err != nil {
			_ = ix.bi.Close()
			return nil, fmt.Errorf("index: open %s: %w", dir, err)
		}
	} else {
		v, err := ix.bi.GetInternal(internalVersionKey)
		if err != nil || string(v) != formatVersion {
			_ = ix.bi.Close()
			return nil, fmt.Errorf("index: open %s: found %q, want %q: %w", dir, v, formatVersion, ErrIncompatible)
		}
		if v, err := ix.bi.GetInternal(internalStatsKey); err == nil && v != nil {
			if err := ix.stats.decode(v); err != nil {
				_ = ix.bi.Close()
				return nil, fmt.Errorf("index: open %s: length stats %q: %w", dir, v, ErrIncompatible)
			}
		}
	}
	if o.ReadOnly && o.PostingsCache > 0 {
		ix.plists = &plistCache{budget: o.PostingsCache, minDF: minCachedDF, warmDF: minWarmDF}
	}
	ix.log.Debug("index opened", "dir", dir, "in_memory", o.InMemory, "read_only", o.ReadOnly, "created", created)
	return ix, nil
}

// runtimeConfig is the scorch configuration. Writers batch without waiting
// for each batch to reach disk (unsafe_batch); Sync and Close wait for
// everything to be persisted instead.
func (ix *Index) runtimeConfig() map[string]any {
	c := map[string]any{
		"bolt_timeout": ix.opts.LockTimeout.String(),
	}
	if ix.opts.ReadOnly {
		c["read_only"] = true
		return c
	}
	c["unsafe_batch"] = true
	// Each batch is already a large segment: write it out as it is rather
	// than merging in memory first (threshold 0 disables that path).
	c["scorchPersisterOptions"] = map[string]any{
		"PersisterNapTimeMSec":         0,
		"MemoryPressurePauseThreshold": 0,
	}
	// Do not merge while loading: every merge rewrites the postings of
	// the pages it covers, and a bulk load would rewrite them several
	// times. Compact merges once at the end.
	// The planner's budget is about total/smallest segments per tier, up
	// to MaxSegmentsPerTier, so a floor of 1 and a wide tier mean no merge
	// until there are ~2,000 segments (20 million pages in batches of
	// 10,000). With 100, a build of 2 million tables (1,170 segments)
	// spent a fifth of its pages stage in merges that Compact then redid.
	c["scorchMergePlanOptions"] = map[string]any{
		"MaxSegmentsPerTier":   2000,
		"SegmentsPerMergeTask": 10,
		"FloorSegmentSize":     1,
		"MaxSegmentSize":       int64(1 << 30),
		"TierGrowth":           10.0,
		"ReclaimDeletesWeight": 2.0,
	}
	return c
}

// Close waits for pending writes to reach disk and closes the index. Every
// method, Close included, returns ErrClosed afterwards.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	ix.closed = true
	var err error
	if ix.dirty.Load() {
		err = ix.syncLocked(context.Background())
	}
	if cerr := ix.bi.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("index: close: %w", cerr)
	}
	if c := ix.compacted.Load(); c != nil && err == nil {
		err = c.removeOthers()
	}
	ix.plists.free()
	ix.log.Debug("index closed")
	return err
}

// Count returns the number of pages in the index.
func (ix *Index) Count() (uint64, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return 0, ErrClosed
	}
	n, err := ix.bi.DocCount()
	if err != nil {
		return 0, fmt.Errorf("index: count: %w", err)
	}
	return n, nil
}

// Add indexes pages, replacing any page with the same URL. Within one call
// the last page with a given URL wins. Pages are searchable when Add
// returns; they are durable after Sync or Close.
func (ix *Index) Add(ctx context.Context, pages []Page) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	if ix.opts.ReadOnly {
		return ErrReadOnly
	}
	last := make(map[string]int, len(pages))
	for i := range pages {
		if pages[i].URL == "" {
			return fmt.Errorf("index: add: page %d (%q): empty URL: %w", i, pages[i].Title, ErrInvalidPage)
		}
		last[pages[i].URL] = i
	}
	if len(pages) == 0 {
		return nil
	}
	ix.dirty.Store(true)
	ix.compacted.Store(nil)

	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(ix.opts.Workers)
	bs := ix.opts.BatchSize
	for lo := 0; lo < len(pages); lo += bs {
		hi := min(lo+bs, len(pages))
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			b := ix.bi.NewBatch()
			fields := make([]*textField, 0, 2*(hi-lo))
			for i := lo; i < hi; i++ {
				if last[pages[i].URL] != i {
					continue // a later page in this call replaces it
				}
				d, title, text := ix.document(&pages[i])
				fields = append(fields, title, text)
				if err := b.IndexAdvanced(d); err != nil {
					return fmt.Errorf("index: add %q: %w", pages[i].URL, err)
				}
			}
			if err := ix.bi.Batch(b); err != nil {
				return fmt.Errorf("index: add: batch: %w", err)
			}
			// Batch analysed the fields; count their lengths.
			var tl, xl int64
			for i := 0; i < len(fields); i += 2 {
				tl += int64(fields[i].AnalyzedLength())
				xl += int64(fields[i+1].AnalyzedLength())
			}
			ix.stats.docs.Add(int64(len(fields) / 2))
			ix.stats.title.Add(tl)
			ix.stats.text.Add(xl)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	ix.log.Debug("pages added", "n", len(pages), "elapsed", time.Since(start))
	return nil
}

// Delete removes the pages with the given URLs; missing URLs are ignored.
func (ix *Index) Delete(ctx context.Context, urls []string) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	if ix.opts.ReadOnly {
		return ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ix.dirty.Store(true)
	ix.compacted.Store(nil)
	b := ix.bi.NewBatch()
	for _, u := range urls {
		b.Delete(u)
	}
	if err := ix.bi.Batch(b); err != nil {
		return fmt.Errorf("index: delete: %w", err)
	}
	return nil
}

// Sync waits until every page added so far is persisted.
func (ix *Index) Sync(ctx context.Context) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	if ix.opts.ReadOnly {
		return nil
	}
	return ix.syncLocked(ctx)
}

// syncLocked sends an empty batch (an internal key only) and waits for the
// persister to report it: scorch persists snapshots in epoch order, so every
// earlier batch is on disk too.
func (ix *Index) syncLocked(ctx context.Context) error {
	if ix.opts.InMemory {
		ix.dirty.Store(false)
		return nil
	}
	b := ix.bi.NewBatch()
	b.SetInternal([]byte("leaper:sync"), strconv.AppendUint(nil, ix.syncN.Add(1), 10))
	b.SetInternal(internalStatsKey, ix.stats.encode())
	done := make(chan error, 1)
	b.SetPersistedCallback(func(err error) { done <- err })
	if err := ix.bi.Batch(b); err != nil {
		return fmt.Errorf("index: sync: %w", err)
	}
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("index: sync: %w", err)
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	ix.dirty.Store(false)
	return nil
}

// Compact merges the index into a single segment, which makes searches
// faster, then syncs. Call it once after a bulk load.
func (ix *Index) Compact(ctx context.Context) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return ErrClosed
	}
	if ix.opts.ReadOnly {
		return ErrReadOnly
	}
	if ix.opts.InMemory {
		return nil
	}
	if err := ix.syncLocked(ctx); err != nil {
		return err
	}
	adv, err := ix.bi.Advanced()
	if err != nil {
		return fmt.Errorf("index: compact: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	start := time.Now()
	if err := s.ForceMerge(ctx, &compactPlan); err != nil {
		return fmt.Errorf("index: compact: %w", err)
	}
	ix.dirty.Store(true)
	if err := ix.syncLocked(ctx); err != nil {
		return err
	}
	ix.log.Debug("index compacted", "elapsed", time.Since(start))
	c, err := liveSegments(s)
	ix.compacted.Store(c)
	return err
}

// segmentSet is the segment files of a compacted index. Scorch removes
// the files of merged-away segments in the background, but may not get to
// it before Close: a compacted index would keep every pre-merge segment on
// disk (twice the size). Close removes them once scorch has stopped, unless
// the index changed since Compact.
type segmentSet struct {
	dir  string
	live map[string]bool
}

func liveSegments(s *scorch.Scorch) (*segmentSet, error) {
	r, err := s.Reader()
	if err != nil {
		return nil, fmt.Errorf("index: compact: %w", err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, nil
	}
	c := &segmentSet{live: map[string]bool{}}
	for _, ss := range snap.Segments() {
		p, ok := ss.Segment().(interface{ Path() string })
		if !ok {
			return nil, nil // an unpersisted segment: leave the files alone
		}
		c.live[filepath.Base(p.Path())] = true
		c.dir = filepath.Dir(p.Path())
	}
	if c.dir == "" {
		return nil, nil
	}
	return c, nil
}

func (c *segmentSet) removeOthers() error {
	files, err := os.ReadDir(c.dir)
	if err != nil {
		return fmt.Errorf("index: close: %w", err)
	}
	for _, f := range files {
		if n := f.Name(); filepath.Ext(n) == ".zap" && !c.live[n] {
			if err := os.Remove(filepath.Join(c.dir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("index: close: %w", err)
			}
		}
	}
	return nil
}

// compactPlan merges every segment in one task, so that each posting is
// rewritten once.
var compactPlan = mergeplan.MergePlanOptions{
	MaxSegmentsPerTier:   1,
	MaxSegmentSize:       1 << 30,
	MaxSegmentFileSize:   1 << 40,
	TierGrowth:           1.0,
	SegmentsPerMergeTask: 1 << 20,
	FloorSegmentSize:     1 << 30,
	FloorSegmentFileSize: 1 << 40,
	ReclaimDeletesWeight: 2.0,
}

// document builds the Bleve document directly, skipping the
// reflection-based mapper.
func (ix *Index) document(p *Page) (d *document.Document, title, text *textField) {
	d = document.NewDocument(p.URL)
	title = &textField{name: fieldTitle, value: unsafeBytes(p.Title), opts: titleOptions, an: ix.an.text}
	text = &textField{name: fieldText, value: unsafeBytes(p.Text), opts: textOptions, an: ix.an.text}
	d.AddField(title)
	d.AddField(text)
	// Snippets are cut from the plain text: compute it once, here.
	d.AddField(document.NewTextFieldCustom(fieldPlain, nil, []byte(plainText(snippetText(p.Text))), storedOptions, nil))
	if len(p.Stored) > 0 {
		d.AddField(document.NewTextFieldCustom(fieldStored, nil, p.Stored, storedOptions, nil))
	}
	for i, k := range titleKeys(p.Title) {
		d.AddField(document.NewTextFieldCustom(fieldKey, []uint64{uint64(i)}, []byte(k), keyOptions, ix.an.keyword))
	}
	for i, y := range p.Years {
		d.AddField(document.NewTextFieldCustom(fieldYear, []uint64{uint64(i)}, strconv.AppendInt(nil, int64(y), 10), yearOptions, ix.an.keyword))
	}
	return d, title, text
}

// unsafeBytes views s as bytes without copying: fields are only read, and
// the page text is the bulk of what is indexed.
func unsafeBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
