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
func (c *cursor) advance(doc uint64, buf *[8]byte) error {
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

func (c *cursor) setPos() {
	if c.pos >= len(c.list.docs) {
		c.cur = noDoc
		return
	}
	c.cur = uint64(c.list.docs[c.pos])
	c.freq = uint64(c.list.freq[c.pos])
	c.norm = float64(c.list.norm[c.pos])
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
// Bleve's TermQueryScorer does.
func (c *cursor) score() float64 {
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
