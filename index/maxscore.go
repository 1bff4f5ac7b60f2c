package index

import (
	"container/heap"
	"context"
	"math"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/search"
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

// The evaluation has three parts: newMaxScore sets up one cursor per term
// and field (cursor.go) with Bleve's weights (idf, query norm, boosts) and
// the clauses' upper bounds; run is the MaxScore loop; keepTies cuts the
// candidates at the k-th score.

// slack widens upper bounds against floating-point rounding: a page is
// pruned only when its bound times slack is below the k-th score.
const slack = 1 + 1e-9

// scoredDoc is a page number and its score.
type scoredDoc struct {
	doc   uint64
	score float64
}

// minHeap is a min-heap of scores.
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

// topScores holds the k best scores seen so far.
type topScores struct {
	h minHeap
	k int
}

func (t *topScores) add(s float64) {
	if len(t.h) < t.k {
		heap.Push(&t.h, s)
	} else if s > t.h[0] {
		t.h[0] = s
		heap.Fix(&t.h, 0)
	}
}

// threshold is the k-th best score, the score a page must reach; 0 until
// k scores are held.
func (t *topScores) threshold() float64 {
	if len(t.h) < t.k {
		return 0
	}
	return t.h[0]
}

// topK returns every page whose rounded score reaches the k-th best
// rounded score (so ties at the boundary are all there), best first, in
// no particular order among equals. ok is false when the index cannot be
// evaluated this way (no BM25 statistics) and Bleve should search instead.
func topK(ctx context.Context, r bindex.IndexReader, pc *plistCache, terms []string, keys []string, year int, k int, stats *search.BM25Stats) (hits []scoredDoc, ok bool, err error) {
	m, ok, err := newMaxScore(ctx, r, pc, terms, keys, year, stats)
	if m != nil {
		defer m.close()
	}
	if !ok || err != nil {
		return nil, ok, err
	}
	cands, err := m.run(ctx, k)
	if err != nil {
		return nil, false, err
	}
	return keepTies(cands, k), true, nil
}

// maxScore evaluates one query. The fields up to total are set up by
// newMaxScore and fixed; the rest is the loop's state.
type maxScore struct {
	r      bindex.IndexReader
	all    []*cursor // every cursor opened, closed by close
	cls    []*cursor // clauses with postings, by upper bound, ascending
	prefix []float64 // prefix[i] is the sum of the bounds of cls[:i]
	filter *cursor   // pages of the filter year, or nil
	total  float64   // number of clauses, the coord factor's denominator
	inv    float64   // slack / total

	ne    int     // cls[:ne] are non-essential
	theta float64 // the k-th best score once k pages are held
	// passed is the last page of the block range blockSkip last could
	// not skip, while theta stays: pages up to it are not checked again.
	passed  uint64
	buf     [8]byte // a document number for Advance
	held    []*cursor
	at      []*cursor // essential cursors on the page being scored
	seedBuf []int
}

// newMaxScore opens the clauses of terms: each term in the title (boosted)
// and in the body, weighed as Bleve weighs them. ok is false when stats
// have no documents or field lengths. The caller closes m when it is not
// nil, whatever the error.
func newMaxScore(ctx context.Context, r bindex.IndexReader, pc *plistCache, terms []string, keys []string, year int, stats *search.BM25Stats) (m *maxScore, ok bool, err error) {
	n := uint64(stats.DocCount)
	avgOf := func(field string) float64 {
		return math.Ceil(float64(stats.FieldCardinality[field]) / float64(n))
	}
	avgTitle, avgText := avgOf(fieldTitle), avgOf(fieldText)
	if n == 0 || avgTitle <= 0 || avgText <= 0 {
		return nil, false, nil
	}
	m = &maxScore{r: r}
	var sumSq float64
	for _, t := range terms {
		for _, f := range [...]struct {
			name  string
			boost float64
			avg   float64
		}{{fieldTitle, titleBoost, avgTitle}, {fieldText, 1, avgText}} {
			c, df, err := m.open(ctx, pc, t, f.name, f.avg)
			if err != nil {
				return m, false, err
			}
			c.idf = bm25IDF(n, df)
			c.qw = f.boost
			w := f.boost * c.idf
			sumSq += w * w
		}
	}
	// The query as title keys (buildQuery's last clauses).
	for _, k := range keys {
		c, df, err := m.open(ctx, pc, k, fieldKey, avgOf(fieldKey))
		if err != nil {
			return m, false, err
		}
		c.idf = bm25IDF(n, df)
		c.qw = keyBoost
		w := keyBoost * c.idf
		sumSq += w * w
	}
	m.weigh(1 / math.Sqrt(sumSq))
	for _, c := range m.cls {
		if err := c.next(); err != nil {
			return m, false, err
		}
	}
	if year != 0 {
		tfr, err := r.TermFieldReader(ctx, []byte(strconv.Itoa(year)), fieldYear, false, false, false)
		if err != nil {
			return m, false, err
		}
		m.filter = &cursor{tfr: tfr}
		m.all = append(m.all, m.filter)
		if err := m.filter.next(); err != nil {
			return m, false, err
		}
	}
	return m, true, nil
}

// open adds the cursor of one term in one field, and returns it with the
// term's document frequency: the decoded list when the cache holds or
// takes one, else Bleve's reader (noDoc when the term is absent).
func (m *maxScore) open(ctx context.Context, pc *plistCache, term, field string, avg float64) (c *cursor, df uint64, err error) {
	c = &cursor{avg: avg, term: []byte(term), field: field}
	m.all = append(m.all, c)
	if l := pc.cached(field, c.term); l != nil {
		c.start(l)
		return c, l.df, nil
	}
	tfr, err := m.r.TermFieldReader(ctx, c.term, field, true, true, false)
	if err != nil {
		return c, 0, err
	}
	c.tfr = tfr
	df = tfr.Count()
	if df == 0 {
		c.cur = noDoc
	} else if l := pc.get(ctx, m.r, field, c.term, df, avg); l != nil {
		c.start(l)
	}
	return c, df, nil
}

// bm25IDF is Bleve's BM25 idf (scorer.TermQueryScorer.computeIDF).
func bm25IDF(docs, df uint64) float64 {
	return math.Log(1 + (float64(docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// weigh completes the clauses' query weights with Bleve's query norm
// (1/sqrt of the sum of squared boost*idf over all clauses), bounds each
// clause's score, and orders the clauses that have postings by bound.
func (m *maxScore) weigh(norm float64) {
	m.total = float64(len(m.all))
	// The bounds are widened by slack, which covers the reciprocal's
	// rounding.
	m.inv = slack / m.total
	m.cls = make([]*cursor, 0, len(m.all))
	for _, c := range m.all {
		c.qw = c.qw * c.idf * norm
		// The BM25 saturation tf*k1/(tf + k1*x) stays below k1 for any
		// tf and field length; a decoded list knows its highest.
		tfMax := search.BM25_k1
		if c.blockMax() {
			tfMax = c.list.max
		}
		c.ub = c.idf * tfMax * c.qw * slack
		c.bs = c.idf * c.qw * slack
		if c.cur != noDoc {
			m.cls = append(m.cls, c)
		}
	}
	slices.SortStableFunc(m.cls, func(a, b *cursor) int {
		switch {
		case a.ub < b.ub:
			return -1
		case a.ub > b.ub:
			return 1
		}
		return 0
	})
	m.prefix = make([]float64, len(m.cls)+1)
	for i, c := range m.cls {
		m.prefix[i+1] = m.prefix[i] + c.ub
	}
}

func (m *maxScore) close() {
	for _, c := range m.all {
		c.close()
	}
}

// low reports whether a page with this bound on its clause sum and this
// many matched clauses certainly stays below the k-th score.
func (m *maxScore) low(bound float64, matched int) bool {
	return bound*float64(matched)*m.inv < m.theta
}

// run is the MaxScore loop: it returns every page that reached the k-th
// best score when it was scored, a superset of the top k.
func (m *maxScore) run(ctx context.Context, k int) ([]scoredDoc, error) {
	if len(m.cls) == 0 {
		return nil, nil
	}
	top := topScores{h: make(minHeap, 0, k), k: k}
	if err := m.seed(k); err != nil {
		return nil, err
	}
	var cands []scoredDoc
	for steps := 1; ; steps++ {
		if steps&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		doc := uint64(noDoc)
		for _, c := range m.cls[m.ne:] {
			doc = min(doc, c.cur)
		}
		if doc == noDoc {
			break
		}
		if doc > m.passed {
			skipped, err := m.blockSkip(doc)
			if err != nil {
				return nil, err
			}
			if skipped {
				continue
			}
		}
		if m.filter != nil {
			if err := m.filter.advance(doc, &m.buf); err != nil {
				return nil, err
			}
			if m.filter.cur == noDoc {
				break
			}
			if m.filter.cur > doc {
				// Leapfrog: no page before the filter's can match.
				for _, c := range m.cls[m.ne:] {
					if err := c.advance(m.filter.cur, &m.buf); err != nil {
						return nil, err
					}
				}
				continue
			}
		}
		score, ok, err := m.score(ctx, doc)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		cands = append(cands, scoredDoc{doc, score})
		top.add(score)
		if th := top.threshold(); th > m.theta {
			m.theta = th
			for m.ne < len(m.cls) && m.low(m.prefix[m.ne+1], m.ne+1) {
				m.ne++
			}
			m.passed = 0
		}
	}
	return cands, nil
}

// seedMax is the most pages seed scores.
const seedMax = 512

// seed starts theta before the loop, so that clauses are non-essential
// from the first page: it scores pages of the shortest decoded list (the
// rarest clause, the likeliest to be on the best pages) over the decoded
// clauses, with cursors of its own, and takes the k-th best. A list of
// more than seedMax pages gives the pages of its blocks with the highest
// maxima, seedMax of them. A page's score there leaves out the clauses
// without a decoded list (and their share of the coord factor), so it is
// at most the page's score: the k-th best of k distinct pages is at most
// the k-th best score of the query, and nothing that reaches it is
// pruned. The loop finds and scores those pages again. Not with a filter
// year.
func (m *maxScore) seed(k int) error {
	pivot := -1
	for i, c := range m.cls {
		if c.list != nil && c.list.n > 0 && (pivot < 0 || c.list.n < m.cls[pivot].list.n) {
			pivot = i
		}
	}
	// With a filter year, the pages seed scores may be filtered out.
	if pivot < 0 || m.filter != nil || m.cls[pivot].list.n < k {
		return nil
	}
	p := m.cls[pivot].list
	blocks := seedBlocks(p, m.seedBuf[:0])
	m.seedBuf = blocks
	own := make([]cursor, 0, len(m.cls))
	for _, c := range m.cls {
		if c.list != nil {
			o := cursor{idf: c.idf, qw: c.qw, avg: c.avg}
			o.start(c.list)
			o.step()
			own = append(own, o)
		}
	}
	top := topScores{h: make(minHeap, 0, k), k: k}
	for _, b := range blocks {
		for j := range min(blockSize, p.n-b*blockSize) {
			doc := p.docAt(b, j)
			var sum float64
			matched := 0
			for i := range own {
				o := &own[i]
				if err := o.advance(doc, &m.buf); err != nil {
					return err
				}
				if o.cur == doc {
					sum += o.score()
					matched++
				}
			}
			top.add(sum * float64(matched) / m.total)
		}
	}

	if th := top.threshold(); th > m.theta {
		m.theta = th
		for m.ne < len(m.cls) && m.low(m.prefix[m.ne+1], m.ne+1) {
			m.ne++
		}
	}
	return nil
}

// seedBlocks appends to buf the blocks of l that seed scores, in order:
// all of them when l has seedMax postings or fewer, else the seedMax /
// blockSize blocks with the highest maxima (the first of equals).
func seedBlocks(l *plist, buf []int) []int {
	nb := len(l.last)
	if l.n <= seedMax {
		for b := range nb {
			buf = append(buf, b)
		}
		return buf
	}
	want := seedMax / blockSize
	// A short selection: buf holds the best blocks so far, by maximum
	// descending.
	for b := range nb {
		v := l.bmax[b]
		if len(buf) == want && v <= l.bmax[buf[want-1]] {
			continue
		}
		if len(buf) < want {
			buf = append(buf, b)
		} else {
			buf[want-1] = b
		}
		for i := len(buf) - 1; i > 0 && l.bmax[buf[i]] > l.bmax[buf[i-1]]; i-- {
			buf[i], buf[i-1] = buf[i-1], buf[i]
		}
	}
	slices.Sort(buf)
	return buf
}

// blockSkips counts the block ranges blockSkip skipped, for tests.
var blockSkips atomic.Int64

// blockSkip is Block-Max MaxScore's test (Ding and Suel 2011; Mallia et
// al. 2019): the pages from doc, the smallest under the essential cursors,
// to end, the first end of a block under one of them, can score at most
// their blocks' maxima (a cursor whose current block ends at or after
// end holds no other block's page there) plus the non-essential bounds.
// When that stays below the k-th score, the essential cursors skip past
// end and blockSkip reports true.
func (m *maxScore) blockSkip(doc uint64) (bool, error) {
	ess := m.cls[m.ne:]
	end := uint64(noDoc)
	for _, c := range ess {
		if c.cur != noDoc && c.blockMax() {
			e, _ := c.blockEnd()
			end = min(end, e)
		}
	}
	if end == noDoc || m.theta == 0 {
		return false, nil
	}
	bound, matched := m.prefix[m.ne], m.ne
	for _, c := range ess {
		if c.cur > end {
			continue
		}
		matched++
		if c.blockMax() {
			_, bm := c.blockEnd()
			bound += c.idf * bm * c.qw * slack
		} else {
			bound += c.ub
		}
	}
	if !m.low(bound, matched) {
		m.passed = end
		return false, nil
	}
	blockSkips.Add(1)
	for _, c := range ess {
		if c.cur <= end {
			if err := c.advance(end+1, &m.buf); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// score scores doc, the smallest page under the essential cursors, and
// moves those cursors past it. ok is false when the page certainly stays
// below the k-th score.
func (m *maxScore) score(ctx context.Context, doc uint64) (score float64, ok bool, err error) {
	// The essential clauses on the page, bounded by their blocks' maxima
	// until the page has survived the non-essential ones: most pages
	// they bring up cannot make the top k, and that is cheaper to tell
	// than their scores.
	m.at = m.at[:0]
	var bound float64
	for _, c := range m.cls[m.ne:] {
		if c.cur == doc {
			bound += c.bound()
			m.at = append(m.at, c)
		}
	}
	score, ok, err = m.complete(ctx, doc, bound)
	for _, c := range m.at {
		if nerr := c.next(); nerr != nil && err == nil {
			err = nerr
		}
	}
	if err != nil {
		return 0, false, err
	}
	return score, ok, nil
}

// complete finishes score: the non-essential clauses, best bound first,
// each ruled out as soon as the page's bound (its clauses' bounds and the
// coord factor) falls below the k-th score; then the exact score. sum
// collects exact scores, bound their bounds where not known yet.
func (m *maxScore) complete(ctx context.Context, doc uint64, bound float64) (float64, bool, error) {
	var sum float64
	matched := len(m.at)
	m.held = m.held[:0]
	for i := m.ne - 1; i >= 0; i-- {
		if m.low(bound+m.prefix[i+1], matched+i+1) {
			return 0, false, nil
		}
		c := m.cls[i]
		if c.list != nil {
			if c.blockMax() {
				// The bound of the block that would hold doc, found
				// without decoding it.
				bm, in := c.blockBound(doc)
				if !in {
					continue
				}
				if m.low(bound+m.prefix[i]+bm, matched+i+1) {
					return 0, false, nil
				}
			}
			if err := c.advance(doc, &m.buf); err != nil {
				return 0, false, err
			}
			if c.cur == doc {
				s := c.score()
				bound += s
				sum += s
				matched++
			}
			continue
		}
		// A reader without a decoded list: which pages it holds first,
		// from its bitmap alone (cheap to skip through); its exact
		// score below, only for a page that may still make the top k
		// (Bleve's frequency readers skip by walking).
		in, err := c.holds(ctx, m.r, doc, &m.buf)
		if err != nil {
			return 0, false, err
		}
		if in {
			bound += c.ub
			matched++
			m.held = append(m.held, c)
		}
	}
	// The essential clauses' exact scores.
	for _, c := range m.at {
		bound -= c.bound()
		s := c.score()
		bound += s
		sum += s
	}
	if m.low(bound, matched) {
		return 0, false, nil
	}
	for _, c := range m.held {
		if err := c.advance(doc, &m.buf); err != nil {
			return 0, false, err
		}
		bound -= c.ub
		if c.cur == doc { // always, as the bitmap said
			s := c.score()
			bound += s
			sum += s
		}
		if m.low(bound, matched) {
			return 0, false, nil
		}
	}
	// scorer.DisjunctionQueryScorer.Score
	coord := float64(matched) / m.total
	score := sum * coord
	if score*slack < m.theta {
		return 0, false, nil
	}
	return score, true, nil
}

// keepTies sorts the candidates by score and keeps the pages whose
// rounded score reaches the k-th rounded score.
func keepTies(cands []scoredDoc, k int) []scoredDoc {
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
	return cands
}
