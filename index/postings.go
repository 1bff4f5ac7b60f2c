package index

import (
	"context"
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/scorer"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Bleve's frequency-and-norm readers move forward by walking: Advance to a
// page far ahead decodes every posting in between. MaxScore probes the
// lists of frequent terms often and far apart, so a read-only index keeps
// those lists decoded, up to a byte budget, and probes them by skipping
// blocks. The lists are exactly what the reader returns; scores do not
// change.
//
// A decoded list is compact, about 4 to 5 bytes a posting: document
// numbers in blocks of blockSize postings, each block bit-packed at the
// width of its span from the last document of the block before (frame of
// reference: a cursor finds a page in a block by bisection, without
// decoding it), with each block's last document to skip by; one byte of
// frequency and two of field length a posting (zap stores the length and
// derives the norm from it, as fieldNorm does). Each block also keeps the highest term-frequency factor of
// BM25 in it (Block-Max, Ding and Suel 2011), so that MaxScore bounds a
// clause by its list's true maximum and skips blocks that cannot lift a
// page into the top k. The memory is off the Go heap (arena.go).

// minCachedDF is the shortest posting list worth decoding: shorter ones
// cost little to walk, but a decoded list also saves the dictionary
// lookup of every later query with the term.
const minCachedDF = 32

// entryBytes is the memory counted per cached list beyond its postings:
// key, entry and slice headers.
const entryBytes = 160

// blockSize is the number of postings of a block.
const blockSize = 64

// bigFreq marks a frequency kept in plist.big, bigLen a field length
// kept in plist.bigLen.
const (
	bigFreq = 255
	bigLen  = math.MaxUint16
)

// plist is a decoded posting list.
type plist struct {
	df     uint64   // the reader's Count
	n      int      // postings
	data   []byte   // bit-packed documents, padded for 8-byte reads
	freq   []byte   // a posting's frequency, or bigFreq
	flen   []uint16 // a posting's field length, or bigLen
	big    map[int]uint32
	bigLen map[int]uint64
	last   []uint32  // last document of each block
	off    []uint32  // offset in data of each block
	width  []uint8   // bits a document of each block takes
	bmax   []float32 // each block's highest bm25TF, rounded up
	max    float64   // the list's highest bm25TF
	avg    float64   // the average field length bmax was computed at
}

// plistCache holds decoded lists by field and term. Lists are added until
// the budget is spent and then kept for the life of the index: the terms
// of a rollout workload repeat, and the first frequent ones seen are the
// ones that recur. Memory is bounded by the budget.
type plistCache struct {
	budget int64
	minDF  uint64 // minCachedDF but in tests
	// warmDF is the shortest list WarmPostings decodes: minWarmDF but
	// in tests.
	warmDF uint64
	used   atomic.Int64
	m      sync.Map // string(field + "\x00" + term) -> *plistEntry
	mem    arena
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

// estimate is the memory a list of df postings is counted at before it
// is decoded: generous, the exact figure replaces it after.
func estimate(df uint64) int64 {
	return int64(df)*6 + int64(df/blockSize+1)*12 + entryBytes
}

// get returns the decoded list of the clause's term, decoding it with a
// reader of its own on first use; nil when the list is short, over
// budget, or cannot be decoded. avg is the field's average length, at
// which block maxima are computed.
func (pc *plistCache) get(ctx context.Context, r bindex.IndexReader, field string, term []byte, df uint64, avg float64) *plist {
	if pc == nil || df < pc.minDF || df > math.MaxUint32 {
		return nil
	}
	key := field + "\x00" + string(term)
	v, ok := pc.m.Load(key)
	cost := estimate(df)
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
		l, err := pc.decode(ctx, r, field, term, df, avg)
		if err != nil {
			pc.used.Add(-cost)
			if err != errUncachable {
				pc.m.Delete(key) // try again another time
			}
			return
		}
		pc.used.Add(l.bytes() - cost)
		e.l.Store(l)
	})
	return e.l.Load()
}

// free releases the cache's memory; no list may be used afterwards.
func (pc *plistCache) free() {
	if pc != nil {
		pc.mem.free()
	}
}

func (l *plist) bytes() int64 {
	return int64(len(l.data)+len(l.freq)+len(l.width)+2*len(l.flen)+4*(len(l.last)+len(l.off)+len(l.bmax))+16*(len(l.big)+len(l.bigLen))) + entryBytes
}

// bm25TF is the part of a clause's BM25 score that depends on the
// posting: the score is idf * bm25TF * query weight (cursor.score).
func bm25TF(freq uint64, norm, avg float64) float64 {
	var tf float64
	if freq < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[freq]
	} else {
		tf = math.Sqrt(float64(freq))
	}
	fl := 1 / (norm * norm)
	return (tf * search.BM25_k1) / (tf + search.BM25_k1*(1-search.BM25_b+(search.BM25_b*fl/avg)))
}

// decode reads the whole list into the compact form: from the segments'
// own postings iterators when r is a scorch snapshot (several times
// cheaper a posting than its term reader), else with a term reader.
func (pc *plistCache) decode(ctx context.Context, r bindex.IndexReader, field string, term []byte, df uint64, avg float64) (*plist, error) {
	b := newListBuilder(df, avg)
	var err error
	if snap, ok := r.(*scorch.IndexSnapshot); ok {
		err = segmentPostings(snap, field, term, b.add)
	} else {
		err = readerPostings(ctx, r, field, term, b.add)
	}
	if err != nil {
		return nil, err
	}
	l := b.finish()
	if !pc.store(l, b) {
		return nil, errUncachable
	}
	return l, nil
}

// segmentPostings calls add with every live posting of term in field,
// segment after segment, with scorch's global document numbers.
func segmentPostings(snap *scorch.IndexSnapshot, field string, term []byte, add func(doc, freq uint64, norm float64) error) error {
	var base uint64
	for _, ss := range snap.Segments() {
		offset := base
		base += uint64(ss.FullSize())
		dict, err := ss.Segment().Dictionary(field)
		if err != nil {
			return err
		}
		if dict == nil {
			continue
		}
		pl, err := dict.PostingsList(term, ss.Deleted(), nil)
		if err != nil {
			return err
		}
		if pl == nil {
			continue
		}
		it := pl.Iterator(true, true, false, nil)
		for {
			p, err := it.Next()
			if err != nil {
				return err
			}
			if p == nil {
				break
			}
			if err := add(p.Number()+offset, p.Frequency(), p.Norm()); err != nil {
				return err
			}
		}
	}
	return nil
}

// readerPostings calls add with every posting of a term reader.
func readerPostings(ctx context.Context, r bindex.IndexReader, field string, term []byte, add func(doc, freq uint64, norm float64) error) error {
	tfr, err := r.TermFieldReader(ctx, term, field, true, true, false)
	if err != nil {
		return err
	}
	defer tfr.Close()
	var tfd bindex.TermFieldDoc
	for {
		d, err := tfr.Next(tfd.Reset())
		if err != nil {
			return err
		}
		if d == nil {
			return nil
		}
		if len(d.ID) != 8 {
			return errUncachable
		}
		if err := add(binary.BigEndian.Uint64(d.ID), d.Freq, d.Norm); err != nil {
			return err
		}
	}
}

// listBuilder makes a plist's arrays from its postings, in order.
type listBuilder struct {
	l          *plist
	data, freq []byte
	width      []uint8
	flen       []uint16
	last, off  []uint32
	bmax       []float32
	blk        []uint32 // documents of the block being filled
	prev       uint64
	bm, lmax   float64
	memo       lengthMemo
}

func newListBuilder(df uint64, avg float64) *listBuilder {
	nb := int(df/blockSize) + 1
	return &listBuilder{l: &plist{df: df, avg: avg},
		data: make([]byte, 0, df+df/2), freq: make([]byte, 0, df), flen: make([]uint16, 0, df),
		width: make([]uint8, 0, nb), last: make([]uint32, 0, nb), off: make([]uint32, 0, nb),
		bmax: make([]float32, 0, nb), blk: make([]uint32, 0, blockSize)}
}

func (b *listBuilder) add(doc, freq uint64, norm float64) error {
	l, n := b.l, b.l.n
	fl, ok := b.memo.length(norm)
	if doc > math.MaxUint32 || (n > 0 && doc <= b.prev) || len(b.data) > math.MaxUint32-64 || freq > math.MaxUint32 || !ok {
		return errUncachable
	}
	b.blk = append(b.blk, uint32(doc))
	b.prev = doc
	b.freq = append(b.freq, byte(min(freq, bigFreq)))
	if freq >= bigFreq {
		l.big = setBig(l.big, n, uint32(freq))
	}
	b.flen = append(b.flen, uint16(min(fl, bigLen)))
	if fl >= bigLen {
		l.bigLen = setBig(l.bigLen, n, fl)
	}
	b.bm = max(b.bm, bm25TF(freq, norm, l.avg))
	l.n = n + 1
	if len(b.blk) == blockSize {
		b.endBlock()
	}
	return nil
}

// endBlock packs the block's documents, from the block's base, at the
// width of the largest.
func (b *listBuilder) endBlock() {
	var base uint32
	if len(b.last) > 0 {
		base = b.last[len(b.last)-1] + 1
	}
	w := uint(bits.Len32(b.blk[len(b.blk)-1] - base))
	b.off = append(b.off, uint32(len(b.data)))
	b.width = append(b.width, uint8(w))
	var acc uint64
	var have uint
	for _, d := range b.blk {
		acc |= uint64(d-base) << have
		have += w
		for have >= 8 {
			b.data = append(b.data, byte(acc))
			acc >>= 8
			have -= 8
		}
	}
	if have > 0 {
		b.data = append(b.data, byte(acc))
	}
	b.last = append(b.last, b.blk[len(b.blk)-1])
	b.bmax = append(b.bmax, roundUp32(b.bm))
	b.lmax, b.bm = max(b.lmax, b.bm), 0
	b.blk = b.blk[:0]
}

func (b *listBuilder) finish() *plist {
	if len(b.blk) > 0 {
		b.endBlock()
	}
	// Padding: a document is read with one 8-byte load.
	b.data = append(b.data, make([]byte, 8)...)
	b.l.max = float64(roundUp32(b.lmax))
	return b.l
}

func setBig[V uint32 | uint64](m map[int]V, i int, v V) map[int]V {
	if m == nil {
		m = map[int]V{}
	}
	m[i] = v
	return m
}

// store copies the built arrays into the arena; false when it has no
// memory.
func (pc *plistCache) store(l *plist, b *listBuilder) bool {
	l.data, l.freq, l.width = pc.mem.bytes(len(b.data)), pc.mem.bytes(len(b.freq)), pc.mem.bytes(len(b.width))
	l.flen = pc.mem.uint16s(len(b.flen))
	l.last, l.off, l.bmax = pc.mem.uint32s(len(b.last)), pc.mem.uint32s(len(b.off)), pc.mem.float32s(len(b.bmax))
	if (l.data == nil && len(b.data) > 0) || (l.freq == nil && len(b.freq) > 0) || (l.width == nil && len(b.width) > 0) ||
		(l.flen == nil && len(b.flen) > 0) || (l.last == nil && len(b.last) > 0) || (l.off == nil && len(b.off) > 0) ||
		(l.bmax == nil && len(b.bmax) > 0) {
		return false
	}
	copy(l.data, b.data)
	copy(l.freq, b.freq)
	copy(l.width, b.width)
	copy(l.flen, b.flen)
	copy(l.last, b.last)
	copy(l.off, b.off)
	copy(l.bmax, b.bmax)
	return true
}

// docAt is document j of block b.
func (l *plist) docAt(b, j int) uint64 {
	w := uint(l.width[b])
	bit := uint(j) * w
	x := binary.LittleEndian.Uint64(l.data[int(l.off[b])+int(bit>>3):])
	var base uint64
	if b > 0 {
		base = uint64(l.last[b-1]) + 1
	}
	return base + (x>>(bit&7))&(1<<w-1)
}

// seekIn returns the first index at or after j in block b whose document
// is >= doc; the block's last document must be >= doc.
func (l *plist) seekIn(b, j int, doc uint64) int {
	hi := min(blockSize, l.n-b*blockSize) - 1 // docAt(b, hi) >= doc
	for j < hi {
		mid := int(uint(j+hi) >> 1)
		if l.docAt(b, mid) < doc {
			j = mid + 1
		} else {
			hi = mid
		}
	}
	return j
}

// fieldNorm is the norm zap gives a field of length n
// (zapx Posting.Norm): what its readers return.
func fieldNorm(n uint64) float64 {
	if n < uint64(len(shortNorms)) {
		return shortNorms[n]
	}
	return float64(float32(1.0 / math.Sqrt(float64(n))))
}

// shortNorms holds fieldNorm of the common lengths.
var shortNorms = func() (t [2048]float64) {
	for n := range t {
		t[n] = float64(float32(1.0 / math.Sqrt(float64(n))))
	}
	return t
}()

// lengthMemo remembers recent fieldLength answers: a list's postings have
// few distinct lengths.
type lengthMemo [1024]struct {
	norm float64
	n    uint64
}

func (m *lengthMemo) length(norm float64) (uint64, bool) {
	if norm > 0 {
		// A short field: its exact length by the table.
		if c := uint64(1/(norm*norm) + 0.5); c < uint64(len(shortNorms)) && shortNorms[c] == norm {
			return c, true
		}
	}
	e := &m[(math.Float64bits(norm)>>29)%uint64(len(m))]
	if e.norm == norm && e.n > 0 {
		return e.n, true
	}
	n, ok := fieldLength(norm)
	if ok {
		e.norm, e.n = norm, n
	}
	return n, ok
}

// fieldLength is the field length whose fieldNorm is norm; ok is false
// when there is none (an index whose norms are not zap's).
func fieldLength(norm float64) (uint64, bool) {
	if !(norm > 0) || norm > 1 {
		return 0, false
	}
	c := uint64(math.Round(1 / (norm * norm)))
	for _, n := range [...]uint64{c, c - 1, c + 1} {
		if n > 0 && fieldNorm(n) == norm {
			return n, true
		}
	}
	return 0, false
}

// roundUp32 is x as a float32 no smaller than x.
func roundUp32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

type uncachable struct{}

func (uncachable) Error() string { return "posting list cannot be cached" }

var errUncachable error = uncachable{}

// normAt is the field norm of posting i.
func (l *plist) normAt(i int) float64 {
	if n := l.flen[i]; n != bigLen {
		return fieldNorm(uint64(n))
	}
	return fieldNorm(l.bigLen[i])
}

// freqAt is the frequency of posting i.
func (l *plist) freqAt(i int) uint64 {
	if f := l.freq[i]; f != bigFreq {
		return uint64(f)
	}
	return uint64(l.big[i])
}

// block returns the first block at or after b whose last document is >=
// doc, galloping then bisecting; len(l.last) when there is none.
func (l *plist) block(b int, doc uint32) int {
	n := len(l.last)
	if b >= n || l.last[b] >= doc {
		return b
	}
	lo, step := b, 1
	hi := b + step
	for hi < n && l.last[hi] < doc {
		lo = hi
		step *= 2
		hi = b + step
	}
	hi = min(hi, n)
	// last[lo] < doc; answer in (lo, hi]
	for lo+1 < hi {
		mid := int(uint(lo+hi) >> 1)
		if l.last[mid] < doc {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
