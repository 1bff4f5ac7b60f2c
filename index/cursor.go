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
	off  int    // offset in list.gaps of the next posting's gap
	cur  uint64 // document number under the cursor, noDoc when exhausted
	freq uint64 // of the posting under the cursor
	norm float64

	idf float64 // Bleve's BM25 idf
	qw  float64 // query weight: boost * idf * query norm
	avg float64 // average field length
	ub  float64 // upper bound of the clause's score on any page

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
	c.list, c.pos, c.off, c.cur = l, -1, 0, 0
}

// step moves a cursor on a decoded list to its next posting.
func (c *cursor) step() {
	l := c.list
	c.pos++
	if c.pos >= l.n {
		c.pos, c.cur = l.n, noDoc
		return
	}
	g := uint64(l.gaps[c.off])
	if g < 0x80 {
		c.off++
	} else {
		var k int
		g, k = binary.Uvarint(l.gaps[c.off:])
		c.off += k
	}
	c.cur += g
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
		if b := max(c.pos, 0) / blockSize; uint32(doc) > l.last[b] {
			// Skip to the block holding doc, from the last document of
			// the block before it.
			nb := l.block(b+1, uint32(doc))
			if nb >= len(l.last) {
				c.pos, c.cur = l.n, noDoc
				return nil
			}
			c.pos, c.off, c.cur = nb*blockSize-1, int(l.off[nb]), uint64(l.last[nb-1])
		}
		for c.cur < doc {
			c.step()
		}
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
