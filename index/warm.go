package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// WarmStats says what WarmPostings decoded.
type WarmStats struct {
	Lists    int    // lists decoded (or found decoded)
	Postings uint64 // their postings
	Bytes    int64  // the postings cache's memory in use after
}

// minWarmDF is the shortest list WarmPostings decodes: shorter ones
// cost a search little to decode when it first needs them.
const minWarmDF = 1 << 14

// WarmPostings decodes the posting lists of the most frequent terms, in
// the title and the text, longest first, as many as their estimated
// memory allows within budget bytes (at most the postings cache's own budget) or ctx
// ends: the lists a fresh server's searches would otherwise each decode
// on first use, at about 50 ns a posting, while the search waits. It uses
// every core. Lists of fewer than 16,384 postings are left to searches.
// It does nothing on an index without a postings cache (not read-only).
// A search running meanwhile that needs a list being decoded waits for
// it, as it would for another search's.
func (ix *Index) WarmPostings(ctx context.Context, budget int64) (WarmStats, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var st WarmStats
	if ix.closed {
		return st, ErrClosed
	}
	pc := ix.plists
	if pc == nil || budget <= 0 {
		return st, nil
	}
	n, err := ix.bi.DocCount()
	if err != nil || n == 0 {
		return st, err
	}
	avgs, ok := fieldAvgs(ix.bm25Stats(n).FieldCardinality, n)
	if !ok {
		return st, nil
	}
	adv, err := ix.bi.Advanced()
	if err != nil {
		return st, fmt.Errorf("index: warm postings: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return st, fmt.Errorf("index: warm postings: %w", err)
	}
	defer r.Close()
	type list struct {
		field, term string
		df          uint64
	}
	var lists []list
	for _, field := range []string{fieldTitle, fieldText} {
		d, err := r.FieldDict(field)
		if err != nil {
			return st, fmt.Errorf("index: warm postings: %w", err)
		}
		for {
			e, err := d.Next()
			if err != nil {
				d.Close()
				return st, fmt.Errorf("index: warm postings: %w", err)
			}
			if e == nil {
				break
			}
			if e.Count >= max(pc.warmDF, pc.minDF) && e.Count <= math.MaxUint32 {
				lists = append(lists, list{field, e.Term, e.Count})
			}
		}
		d.Close()
		if err := ctx.Err(); err != nil {
			return st, nil
		}
	}
	slices.SortFunc(lists, func(a, b list) int { return cmp.Compare(b.df, a.df) }) // longest first
	budget = min(budget, pc.budget)
	var spent int64
	var next atomic.Int64
	var count atomic.Int64
	var postings atomic.Uint64
	// Longest first, each that still fits.
	lists = slices.DeleteFunc(lists, func(l list) bool {
		if spent+estimate(l.df) > budget {
			return true
		}
		spent += estimate(l.df)
		return false
	})
	g, gctx := errgroup.WithContext(ctx)
	for range runtime.GOMAXPROCS(0) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(lists) || gctx.Err() != nil {
					return nil
				}
				// The document frequency as a search reads it (the
				// dictionary's may count deleted pages), which the list
				// keeps for the searches' idf.
				l := lists[i]
				tfr, err := r.TermFieldReader(gctx, []byte(l.term), l.field, true, true, false)
				if err != nil {
					return err
				}
				df := tfr.Count()
				if err := tfr.Close(); err != nil {
					return err
				}
				if pc.get(gctx, r, l.field, []byte(l.term), df, avgs[l.field]) != nil {
					count.Add(1)
					postings.Add(df)
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return st, err
	}
	st.Lists, st.Postings, st.Bytes = int(count.Load()), postings.Load(), pc.used.Load()
	return st, nil
}

// PostingsCache is the postings cache's budget in bytes
// (Options.PostingsCache), 0 when the index has none.
func (ix *Index) PostingsCache() int64 {
	if ix.plists == nil {
		return 0
	}
	return ix.plists.budget
}

// fieldAvgs are the average field lengths BM25 uses, as searches compute
// them from the stats' cardinalities and the page count n; ok is false
// when a field has none.
func fieldAvgs(card map[string]int, n uint64) (map[string]float64, bool) {
	out := map[string]float64{}
	for _, f := range []string{fieldTitle, fieldText} {
		a := math.Ceil(float64(card[f]) / float64(n))
		if n == 0 || a <= 0 {
			return nil, false
		}
		out[f] = a
	}
	return out, true
}
