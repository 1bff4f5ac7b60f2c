package index

import (
	"container/heap"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bindex "github.com/blevesearch/bleve_index_api"
)

// This file evaluates the search disjunction with MaxScore dynamic pruning
// (Turtle and Flood, "Query evaluation: strategies and optimizations",
// 1995) over Bleve's own postings, read through its index reader.
//
// Bleve scores a disjunction by visiting every posting of every clause: a
// query with a common word ("list", "film") walks a large share of the
// index to rank ten pages. MaxScore gives each clause an upper bound on the
// score it can add. Once k pages are held, the clauses whose bounds cannot
// together lift a page above the k-th score are "non-essential": their
// postings are no longer walked, only probed (Advance) for pages that the
// essential clauses bring up, and only while the page can still reach the
// top k.
//
// Scores are Bleve's to the last digit that ranking looks at (roundScore):
// the same BM25 (Bleve's variant: the term's idf both in the term score
// and in the query weight, tf = sqrt(freq)), the same query norm over all
// clauses, the same coord factor (matched clauses / all clauses), the same
// average field lengths. The test TestMaxScoreMatchesBleve holds the two
// evaluations equal on random corpora and queries.

// slack widens upper bounds against floating-point rounding: a page is
// pruned only when its bound times slack is below the k-th score.
const slack = 1 + 1e-9

// noDoc marks an exhausted clause.
const noDoc = math.MaxUint64

// clause is one term in one field, with its cursor over the postings:
// a decoded list when the cache holds one, else Bleve's reader.
type clause struct {
	tfr  bindex.TermFieldReader
	tfd  bindex.TermFieldDoc
	list *plist
	pos  int    // index in list
	cur  uint64 // document number under the cursor, noDoc when exhausted
	freq uint64 // of the posting under the cursor
	norm float64

	idf float64 // Bleve's BM25 idf
	qw  float64 // query weight: boost * idf * query norm
	avg float64 // average field length
	ub  float64 // upper bound of the clause's score on any page

	term  []byte
	field string
	mem   *clause // membership cursor, see holds
}

// holds moves the clause's membership cursor, a reader of its postings
// bitmap without frequencies or norms (cheap to skip through), opened on
// first use, to doc. Only for clauses without a decoded list.
func (c *clause) holds(ctx context.Context, r bindex.IndexReader, doc uint64, buf *[8]byte) (bool, error) {
	if c.mem == nil {
		tfr, err := r.TermFieldReader(ctx, c.term, c.field, false, false, false)
		if err != nil {
			return false, err
		}
		c.mem = &clause{tfr: tfr}
	}
	err := c.mem.advance(doc, buf)
	return c.mem.cur == doc, err
}

func (c *clause) next() error {
	if c.list != nil {
		c.pos++
		c.setPos()
		return nil
	}
	d, err := c.tfr.Next(c.tfd.Reset())
	return c.set(d, err)
}

// advance moves the cursor to the first page at or after doc. Bleve's
// readers restart from the beginning when asked to go back, so a cursor
// already there stays put.
func (c *clause) advance(doc uint64, buf *[8]byte) error {
	if c.cur >= doc {
		return nil
	}
	if c.list != nil {
		if doc > math.MaxUint32 {
			c.pos = len(c.list.docs)
		} else {
			c.pos = c.list.seek(c.pos, uint32(doc))
		}
		c.setPos()
		return nil
	}
	binary.BigEndian.PutUint64(buf[:], doc)
	d, err := c.tfr.Advance(buf[:], c.tfd.Reset())
	return c.set(d, err)
}

func (c *clause) setPos() {
	if c.pos >= len(c.list.docs) {
		c.cur = noDoc
		return
	}
	c.cur = uint64(c.list.docs[c.pos])
	c.freq = uint64(c.list.freq[c.pos])
	c.norm = float64(c.list.norm[c.pos])
}

func (c *clause) set(d *bindex.TermFieldDoc, err error) error {
	if err != nil {
		return err
	}
	if d == nil || len(d.ID) != 8 {
		c.cur = noDoc
		return nil
	}
	c.cur = binary.BigEndian.Uint64(d.ID)
	c.freq, c.norm = d.Freq, d.Norm
	return nil
}

// score is the clause's score on the page under the cursor, computed as
// Bleve's TermQueryScorer does.
func (c *clause) score() float64 {
	var tf float64
	if f := c.freq; f < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[f]
	} else {
		tf = math.Sqrt(float64(f))
	}
	fl := 1 / (c.norm * c.norm)
	s := c.idf * (tf * search.BM25_k1) /
		(tf + search.BM25_k1*(1-search.BM25_b+(search.BM25_b*fl/c.avg)))
	if c.qw != 1 {
		s *= c.qw
	}
	return s
}

// scoredDoc is a page number and its score.
type scoredDoc struct {
	doc   uint64
	score float64
}

// minHeap holds the k best scores seen so far; its minimum is the
// threshold a page must reach.
type minHeap []float64

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// topK returns every page whose rounded score reaches the k-th best
// rounded score (so ties at the boundary are all there), best first, in
// no particular order among equals. ok is false when the index cannot be
// evaluated this way (no BM25 statistics) and Bleve should search instead.
func topK(ctx context.Context, r bindex.IndexReader, pc *plistCache, terms []string, year int, k int, stats *search.BM25Stats) (hits []scoredDoc, ok bool, err error) {
	n := uint64(stats.DocCount)
	avgOf := func(field string) float64 {
		return math.Ceil(float64(stats.FieldCardinality[field]) / float64(n))
	}
	avgTitle, avgText := avgOf(fieldTitle), avgOf(fieldText)
	if n == 0 || avgTitle <= 0 || avgText <= 0 {
		return nil, false, nil
	}

	var all []*clause
	defer func() {
		for _, c := range all {
			if c.tfr != nil {
				_ = c.tfr.Close()
			}
			if c.mem != nil {
				_ = c.mem.tfr.Close()
			}
		}
	}()
	var sumSq float64
	for _, t := range terms {
		for _, f := range [...]struct {
			name  string
			boost float64
			avg   float64
		}{{fieldTitle, titleBoost, avgTitle}, {fieldText, 1, avgText}} {
			c := &clause{avg: f.avg, qw: f.boost, term: []byte(t), field: f.name}
			all = append(all, c)
			var df uint64
			if l := pc.cached(f.name, c.term); l != nil {
				c.list, c.pos, df = l, -1, l.df
			} else {
				tfr, err := r.TermFieldReader(ctx, c.term, f.name, true, true, false)
				if err != nil {
					return nil, false, err
				}
				c.tfr = tfr
				df = tfr.Count()
				if df == 0 {
					c.cur = noDoc
				} else if l := pc.get(ctx, r, f.name, c.term, df); l != nil {
					c.list, c.pos = l, -1
				}
			}
			// scorer.TermQueryScorer.computeIDF, BM25 branch.
			c.idf = math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
			w := f.boost * c.idf
			sumSq += w * w
		}
	}
	total := float64(len(all))
	norm := 1 / math.Sqrt(sumSq)
	cls := make([]*clause, 0, len(all))
	for _, c := range all {
		c.qw = c.qw * c.idf * norm
		// The BM25 saturation tf*k1/(tf + k1*x) stays below k1 for any
		// tf and field length.
		c.ub = c.idf * search.BM25_k1 * c.qw * slack
		if c.cur != noDoc {
			cls = append(cls, c)
		}
	}
	if len(cls) == 0 {
		return nil, true, nil
	}
	slices.SortStableFunc(cls, func(a, b *clause) int {
		switch {
		case a.ub < b.ub:
			return -1
		case a.ub > b.ub:
			return 1
		}
		return 0
	})
	// prefix[i] is the sum of the bounds of cls[:i].
	prefix := make([]float64, len(cls)+1)
	for i, c := range cls {
		prefix[i+1] = prefix[i] + c.ub
		if err := c.next(); err != nil {
			return nil, false, err
		}
	}

	var filter *clause
	if year != 0 {
		tfr, err := r.TermFieldReader(ctx, []byte(strconv.Itoa(year)), fieldYear, false, false, false)
		if err != nil {
			return nil, false, err
		}
		filter = &clause{tfr: tfr}
		all = append(all, filter)
		if err := filter.next(); err != nil {
			return nil, false, err
		}
	}

	var (
		top   = make(minHeap, 0, k)
		theta float64 // k-th best score once k pages are held
		ne    int     // cls[:ne] are non-essential
		buf   [8]byte
		cands []scoredDoc
		held  []*clause
		steps int
	)
	// low reports whether a page with this bound on its clause sum and
	// this many matched clauses certainly stays below the k-th score.
	low := func(bound float64, matched int) bool {
		return bound*float64(matched)/total*slack < theta
	}
	for {
		if steps++; steps&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		doc := uint64(noDoc)
		for _, c := range cls[ne:] {
			doc = min(doc, c.cur)
		}
		if doc == noDoc {
			break
		}
		if filter != nil {
			if err := filter.advance(doc, &buf); err != nil {
				return nil, false, err
			}
			if filter.cur == noDoc {
				break
			}
			if filter.cur > doc {
				// Leapfrog: no page before the filter's can match.
				for _, c := range cls[ne:] {
					if err := c.advance(filter.cur, &buf); err != nil {
						return nil, false, err
					}
				}
				continue
			}
		}
		var sum float64
		matched := 0
		for _, c := range cls[ne:] {
			if c.cur == doc {
				sum += c.score()
				matched++
				if err := c.next(); err != nil {
					return nil, false, err
				}
			}
		}
		// Non-essential clauses, best bound first: first which of them
		// hold the page, from their bitmaps alone (cheap to skip through),
		// bounding the score with their upper bounds and the coord factor;
		// then, only for a page that may still make the top k, their
		// exact scores (Bleve's frequency readers skip by walking).
		pruned := false
		bound := sum
		held = held[:0]
		for i := ne - 1; i >= 0; i-- {
			if low(bound+prefix[i+1], matched+i+1) {
				pruned = true
				break
			}
			c := cls[i]
			if c.list != nil {
				if err := c.advance(doc, &buf); err != nil {
					return nil, false, err
				}
				if c.cur == doc {
					s := c.score()
					bound += s
					sum += s
					matched++
				}
				continue
			}
			in, err := c.holds(ctx, r, doc, &buf)
			if err != nil {
				return nil, false, err
			}
			if in {
				bound += c.ub
				matched++
				held = append(held, c)
			}
		}
		if !pruned && low(bound, matched) {
			pruned = true
		}
		for _, c := range held {
			if pruned {
				break
			}
			if err := c.advance(doc, &buf); err != nil {
				return nil, false, err
			}
			bound -= c.ub
			if c.cur == doc { // always, as the bitmap said
				s := c.score()
				bound += s
				sum += s
			}
			pruned = low(bound, matched)
		}
		if pruned {
			continue
		}
		// scorer.DisjunctionQueryScorer.Score
		coord := float64(matched) / total
		score := sum * coord
		if score*slack < theta {
			continue
		}
		cands = append(cands, scoredDoc{doc, score})
		if len(top) < k {
			heap.Push(&top, score)
		} else if score > top[0] {
			top[0] = score
			heap.Fix(&top, 0)
		}
		if len(top) == k && top[0] > theta {
			theta = top[0]
			for ne < len(cls) && low(prefix[ne+1], ne+1) {
				ne++
			}
		}
	}

	// Keep the pages whose rounded score reaches the k-th rounded score.
	slices.SortFunc(cands, func(a, b scoredDoc) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	if len(cands) > k {
		kth := roundScore(cands[k-1].score)
		i := k
		for i < len(cands) && roundScore(cands[i].score) >= kth {
			i++
		}
		cands = cands[:i]
	}
	return cands, true, nil
}
