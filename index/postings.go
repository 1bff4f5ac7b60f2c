package index

import (
	"context"
	"encoding/binary"
	"math"
	"sync"
	"sync/atomic"

	bindex "github.com/blevesearch/bleve_index_api"
)

// Bleve's frequency-and-norm readers move forward by walking: Advance to a
// page far ahead decodes every posting in between. MaxScore probes the
// lists of frequent terms often and far apart, so a read-only index keeps
// those lists decoded in memory, up to a byte budget, and probes them by
// galloping search. The lists are exactly what the reader returns; scores
// do not change.

// minCachedDF is the shortest posting list worth decoding: shorter ones
// cost little to walk, but a decoded list also saves the dictionary
// lookup of every later query with the term.
const minCachedDF = 32

// entryBytes is the memory counted per cached list beyond its postings:
// key, entry and slice headers.
const entryBytes = 160

// postingBytes is the memory of one decoded posting.
const postingBytes = 12

// plist is a decoded posting list.
type plist struct {
	df   uint64 // the reader's Count
	docs []uint32
	freq []uint32
	norm []float32
}

// plistCache holds decoded lists by field and term. Lists are added until
// the budget is spent and then kept for the life of the index: the terms
// of a rollout workload repeat, and the first frequent ones seen are the
// ones that recur. Memory is bounded by the budget.
type plistCache struct {
	budget int64
	minDF  uint64 // minCachedDF but in tests
	used   atomic.Int64
	m      sync.Map // string(field + "\x00" + term) -> *plistEntry
}

type plistEntry struct {
	once sync.Once
	l    atomic.Pointer[plist] // nil until decoded, or when not cached
}

// cached returns the decoded list of a term if there is one, without
// waiting for a decoding in progress.
func (pc *plistCache) cached(field string, term []byte) *plist {
	if pc == nil {
		return nil
	}
	v, ok := pc.m.Load(field + "\x00" + string(term))
	if !ok {
		return nil
	}
	return v.(*plistEntry).l.Load()
}

// get returns the decoded list of the clause's term, decoding it with a
// reader of its own on first use; nil when the list is short, over
// budget, or cannot be decoded.
func (pc *plistCache) get(ctx context.Context, r bindex.IndexReader, field string, term []byte, df uint64) *plist {
	if pc == nil || df < pc.minDF || df > math.MaxUint32 {
		return nil
	}
	key := field + "\x00" + string(term)
	v, ok := pc.m.Load(key)
	cost := int64(df)*postingBytes + entryBytes
	if !ok {
		if pc.used.Load()+cost > pc.budget {
			return nil
		}
		v, _ = pc.m.LoadOrStore(key, &plistEntry{})
	}
	e := v.(*plistEntry)
	e.once.Do(func() {
		if pc.used.Add(cost) > pc.budget {
			pc.used.Add(-cost)
			return
		}
		l, err := decodePostings(ctx, r, field, term, df)
		if err != nil {
			pc.used.Add(-cost)
			pc.m.Delete(key) // try again another time
			return
		}
		e.l.Store(l)
	})
	return e.l.Load()
}

func decodePostings(ctx context.Context, r bindex.IndexReader, field string, term []byte, df uint64) (*plist, error) {
	tfr, err := r.TermFieldReader(ctx, term, field, true, true, false)
	if err != nil {
		return nil, err
	}
	defer tfr.Close()
	l := &plist{df: df, docs: make([]uint32, 0, df), freq: make([]uint32, 0, df), norm: make([]float32, 0, df)}
	var tfd bindex.TermFieldDoc
	for {
		d, err := tfr.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		doc := binary.BigEndian.Uint64(d.ID)
		if doc > math.MaxUint32 || d.Freq > math.MaxUint32 {
			return nil, errUncachable
		}
		l.docs = append(l.docs, uint32(doc))
		l.freq = append(l.freq, uint32(d.Freq))
		// Bleve stores norms as float32 and widens them on reading.
		l.norm = append(l.norm, float32(d.Norm))
	}
	return l, nil
}

type uncachable struct{}

func (uncachable) Error() string { return "posting list cannot be cached" }

var errUncachable error = uncachable{}

// seek returns the first index at or after i whose document is >= doc,
// galloping then bisecting.
func (l *plist) seek(i int, doc uint32) int {
	n := len(l.docs)
	if i >= n || l.docs[i] >= doc {
		return i
	}
	lo, step := i, 1
	hi := i + step
	for hi < n && l.docs[hi] < doc {
		lo = hi
		step *= 2
		hi = i + step
	}
	hi = min(hi, n)
	// docs[lo] < doc; answer in (lo, hi]
	for lo+1 < hi {
		mid := int(uint(lo+hi) >> 1)
		if l.docs[mid] < doc {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
