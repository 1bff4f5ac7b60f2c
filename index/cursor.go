package index

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bindex "github.com/blevesearch/bleve_index_api"
)

// noDoc marks an exhausted cursor.
const noDoc = math.MaxUint64

// cursor walks the postings of one term in one field: a decoded list when
// the cache holds one, else Bleve's reader. It carries the clause's BM25
// weights, set by maxScore's setup.
type cursor struct {
	tfr  bindex.TermFieldReader
	tfd  bindex.TermFieldDoc
	list *plist
	pos  int    // posting index in list
	cur  uint64 // document number under the cursor, noDoc when exhausted
	freq uint64 // of the posting under the cursor
	norm float64

	idf float64 // Bleve's BM25 idf
	qw  float64 // query weight: boost * idf * query norm
	avg float64 // average field length
	ub  float64 // upper bound of the clause's score on any page
	bs  float64 // what a bm25TF bound is multiplied by to bound the score

	term  []byte
	field string
	mem   *cursor // membership cursor, see holds
}

// close closes the cursor's readers.
func (c *cursor) close() {
	if c.tfr != nil {
		_ = c.tfr.Close()
	}
	if c.mem != nil {
		c.mem.close()
	}
}

// holds moves the cursor's membership cursor, a reader of its postings
// bitmap without frequencies or norms (cheap to skip through), opened on
// first use, to doc. Only for cursors without a decoded list.
func (c *cursor) holds(ctx context.Context, r bindex.IndexReader, doc uint64, buf *[8]byte) (bool, error) {
	if c.mem == nil {
		tfr, err := r.TermFieldReader(ctx, c.term, c.field, false, false, false)
		if err != nil {
			return false, err
		}
		c.mem = &cursor{tfr: tfr}
		// On its first page: a cursor's page must be one of its own
		// before advance, which leaves a cursor at or past doc alone
		// (a new cursor's 0 would hold page 0).
		if err := c.mem.next(); err != nil {
			return false, err
		}
	}
	err := c.mem.advance(doc, buf)
	return c.mem.cur == doc, err
}

func (c *cursor) next() error {
	if c.list != nil {
		c.step()
		return nil
	}
	d, err := c.tfr.Next(c.tfd.Reset())
	return c.set(d, err)
}

// start puts a cursor on a decoded list before its first posting.
func (c *cursor) start(l *plist) {
	c.list, c.pos, c.cur = l, -1, 0
}

// step moves a cursor on a decoded list to its next posting.
func (c *cursor) step() {
	l := c.list
	c.pos++
	if c.pos >= l.n {
		c.pos, c.cur = l.n, noDoc
		return
	}
	c.cur = l.docAt(c.pos/blockSize, c.pos%blockSize)
}

// advance moves the cursor to the first page at or after doc. Bleve's
// readers restart from the beginning when asked to go back, so a cursor
// already there stays put.
func (c *cursor) advance(doc uint64, buf *[8]byte) error {
	if c.cur >= doc {
		return nil
	}
	if l := c.list; l != nil {
		if doc > math.MaxUint32 {
			c.pos, c.cur = l.n, noDoc
			return nil
		}
		// The block holding doc, by its last document; then doc in it,
		// by bisection.
		b, j := max(c.pos, 0)/blockSize, max(c.pos, 0)%blockSize
		if uint32(doc) > l.last[b] {
			if b = l.block(b+1, uint32(doc)); b >= len(l.last) {
				c.pos, c.cur = l.n, noDoc
				return nil
			}
			j = 0
		}
		j = l.seekIn(b, j, doc)
		c.pos = b*blockSize + j
		c.cur = l.docAt(b, j)
		return nil
	}
	binary.BigEndian.PutUint64(buf[:], doc)
	d, err := c.tfr.Advance(buf[:], c.tfd.Reset())
	return c.set(d, err)
}

// blockMax reports whether the cursor's decoded list has block maxima
// for its field's average length.
func (c *cursor) blockMax() bool {
	return c.list != nil && c.list.avg == c.avg
}

// bound is the bound of the clause's score on the page under the
// cursor: its block's maximum, or the clause's.
func (c *cursor) bound() float64 {
	if c.blockMax() {
		return c.bs * float64(c.list.bmax[c.pos/blockSize])
	}
	return c.ub
}

// blockBound is the bound of the clause's score on page doc, at or after
// the cursor's, from the block that would hold it, found without
// decoding; in is false when the list cannot hold doc (the cursor is
// past it, or the list ends before it).
// Only for cursors with block maxima.
func (c *cursor) blockBound(doc uint64) (bm float64, in bool) {
	if c.cur == doc {
		return c.bound(), true
	}
	if c.cur > doc || doc > math.MaxUint32 {
		return 0, false
	}
	l := c.list
	b := l.block(max(c.pos, 0)/blockSize, uint32(doc))
	if b >= len(l.last) {
		return 0, false
	}
	return c.bs * float64(l.bmax[b]), true
}

// blockEnd is the last document of the block under a cursor on a decoded
// list, and the bound of bm25TF there.
func (c *cursor) blockEnd() (uint64, float64) {
	b := c.pos / blockSize
	return uint64(c.list.last[b]), float64(c.list.bmax[b])
}

func (c *cursor) set(d *bindex.TermFieldDoc, err error) error {
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
// Bleve's TermQueryScorer does. A decoded list's frequency and norm are
// read here, not while the cursor moves.
func (c *cursor) score() float64 {
	if l := c.list; l != nil {
		c.freq, c.norm = l.freqAt(c.pos), l.normAt(c.pos)
	}
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
