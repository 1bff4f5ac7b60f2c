package graph

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/dgraph-io/badger/v4"
)

// bitmaps derives the adjacency bitmaps from the trees as an external sort
// of (key, value) pairs: add appends plain integers to one flat slice per
// bitmap kind, and when they pass half the budget every kind is sorted and
// written to a run file, in the background while the other half takes the
// next pairs; write merges the runs of a kind in key order and builds one
// bitmap at a time. Nothing here holds a pointer per key, so a build's garbage
// collector has nothing to scan, and the memory is the budget plus a read
// buffer per run, whatever the corpus size.
type bitmaps struct {
	dir    string // where runs go (the finalize spill directory)
	budget int    // bytes of pairs held, half arriving, half being written
	bg     background
	// One per kind, in key order: tree->relations, relation->trees,
	// entity->trees, (relation, object)->subjects, (relation,
	// subject)->objects, tree->keys, relation->subjects, relation->objects.
	treeRels, relTrees, entTrees, relObjSubj, relSubjObj, treeKeys, relSubj, relObj *pairBuf
	all                                                                             []*pairBuf // the kinds in key order
	triples                                                                         int
}

// pairBuf is one kind's pairs not yet written, and its runs. Kinds keyed
// by a uint32 keep key<<32|value in narrow; the kinds keyed by (relation,
// entity) keep a wide pair.
type pairBuf struct {
	kind   byte
	wide   bool
	narrow []uint64
	pairs  []widePair
	runs   []string
	// The buffers of the run written last, for the next pairs.
	spareNarrow []uint64
	sparePairs  []widePair
	// room is how many bytes of pairs may still arrive before the
	// bitmaps flush: a kind grows by at most that much, so that the
	// capacity of all kinds stays near the budget.
	room int
}

type widePair struct {
	k uint64
	v uint32
}

func cmpWide(a, b widePair) int {
	if c := cmp.Compare(a.k, b.k); c != 0 {
		return c
	}
	return cmp.Compare(a.v, b.v)
}

func (p *pairBuf) bytes() int { return 8*len(p.narrow) + 16*len(p.pairs) }

func (p *pairBuf) add32(k, v uint32) {
	if len(p.narrow) == cap(p.narrow) {
		p.narrow = growFor(p.narrow, 1, len(p.narrow)+p.room/8)
	}
	p.narrow = append(p.narrow, uint64(k)<<32|uint64(v))
}

func (p *pairBuf) add64(k uint64, v uint32) {
	if len(p.pairs) == cap(p.pairs) {
		p.pairs = growFor(p.pairs, 1, len(p.pairs)+p.room/16)
	}
	p.pairs = append(p.pairs, widePair{k, v})
}

// sort sorts the pairs in memory and drops duplicates.
func (p *pairBuf) sort() {
	if p.wide {
		slices.SortFunc(p.pairs, cmpWide)
		p.pairs = slices.Compact(p.pairs)
	} else {
		slices.Sort(p.narrow)
		p.narrow = slices.Compact(p.narrow)
	}
}

// newBitmaps keeps up to budget bytes of pairs in memory and writes its
// runs in dir, which the caller removes.
func newBitmaps(dir string, budget int) *bitmaps {
	n := func(kind byte) *pairBuf { return &pairBuf{kind: kind, room: budget} }
	w := func(kind byte) *pairBuf { return &pairBuf{kind: kind, wide: true, room: budget} }
	b := &bitmaps{dir: dir, budget: budget,
		treeRels: n(bTreeRels), relTrees: n(bRelTrees), entTrees: n(bEntTrees),
		relObjSubj: w(bRelObjSubj), relSubjObj: w(bRelSubjObj),
		treeKeys: n(bTreeKeys), relSubj: n(bRelSubjects), relObj: n(bRelObjects)}
	b.all = []*pairBuf{b.treeRels, b.relTrees, b.entTrees, b.relObjSubj, b.relSubjObj, b.treeKeys, b.relSubj, b.relObj}
	return b
}

// add adds a tree's edges; the pairs are written as runs when they pass
// the budget.
func (b *bitmaps) add(t *Tree) error {
	for _, q := range t.Question {
		b.entTrees.add32(q, t.ID)
	}
	// A relation is the tree's when one of its column's cells has a value.
	for j, c := range t.Columns {
		for _, r := range t.Rows {
			if len(r.Values[j]) > 0 {
				b.treeRels.add32(t.ID, c.Relation)
				b.relTrees.add32(c.Relation, t.ID)
				break
			}
		}
	}
	for _, r := range t.Rows {
		b.treeKeys.add32(t.ID, r.Key)
		b.entTrees.add32(r.Key, t.ID)
		for j, vs := range r.Values {
			if len(vs) == 0 {
				continue
			}
			rel := t.Columns[j].Relation
			b.relSubj.add32(rel, r.Key)
			subj := uint64(rel)<<32 | uint64(r.Key)
			for _, v := range vs {
				b.entTrees.add32(v, t.ID)
				b.relObj.add32(rel, v)
				b.relObjSubj.add64(uint64(rel)<<32|uint64(v), r.Key)
				b.relSubjObj.add64(subj, v)
			}
		}
	}
	size := 0
	for _, p := range b.all {
		size += p.bytes()
	}
	var err error
	half := b.budget / 2
	if size >= half {
		size = 0
		err = b.flush()
	}
	for _, p := range b.all {
		p.room = half - size
	}
	return err
}

// flush hands every kind's pairs to the background, to be sorted and
// written as one run each, once the runs before them are written; the next
// pairs fill those runs' buffers. It returns the error of the runs before.
func (b *bitmaps) flush() error {
	if err := b.bg.wait(); err != nil {
		return err
	}
	type run struct {
		p    *pairBuf
		q    pairBuf // the pairs, out of p
		name string
	}
	var runs []run
	for _, p := range b.all {
		if p.bytes() == 0 {
			continue
		}
		name := filepath.Join(b.dir, fmt.Sprintf("bitmap-%c-%06d", p.kind, len(p.runs)))
		p.runs = append(p.runs, name)
		runs = append(runs, run{p: p, q: pairBuf{kind: p.kind, wide: p.wide, narrow: p.narrow, pairs: p.pairs}, name: name})
		p.narrow, p.pairs = p.spareNarrow[:0], p.sparePairs[:0]
		p.spareNarrow, p.sparePairs = nil, nil
	}
	if len(runs) == 0 {
		return nil
	}
	b.bg.start(func() error {
		for _, r := range runs {
			r.q.sort()
			if err := r.q.writeRun(r.name); err != nil {
				return err
			}
			r.p.spareNarrow, r.p.sparePairs = r.q.narrow[:0], r.q.pairs[:0]
		}
		return nil
	})
	return nil
}

// wait waits for the runs being written, and drops the spare buffers.
func (b *bitmaps) wait() error {
	err := b.bg.wait()
	for _, p := range b.all {
		p.spareNarrow, p.sparePairs = nil, nil
	}
	return err
}

// A run file is the magic, the number of pairs (uint64, little-endian) and
// the pairs in increasing (key, value) order, each as uvarints: the key's
// increase over the previous pair's, then the value when the key changed,
// or else the value's increase over the previous value minus one.
var runMagic = []byte("LBM1")

const runHeader = 12

// writeRun writes the sorted, duplicate-free pairs as a run.
func (p *pairBuf) writeRun(name string) (err error) {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("graph: bitmap run: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("graph: bitmap run: %w", cerr)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	n := len(p.narrow)
	if p.wide {
		n = len(p.pairs)
	}
	hdr := binary.LittleEndian.AppendUint64(slices.Clone(runMagic), uint64(n))
	w.Write(hdr)
	var e pairEncoder
	buf := make([]byte, 0, 64<<10)
	for i := 0; i < n; i++ {
		if p.wide {
			buf = e.append(buf, p.pairs[i].k, p.pairs[i].v)
		} else {
			buf = e.append(buf, p.narrow[i]>>32, uint32(p.narrow[i]))
		}
		if len(buf) >= 60<<10 {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	w.Write(buf)
	if err := w.Flush(); err != nil {
		return fmt.Errorf("graph: bitmap run: %w", err)
	}
	return nil
}

// pairEncoder delta-encodes increasing pairs.
type pairEncoder struct {
	k uint64
	v int64 // -1 before the first pair, so that (0, v) encodes as v
	n int
}

func (e *pairEncoder) append(b []byte, k uint64, v uint32) []byte {
	if e.n == 0 {
		e.v = -1
	}
	e.n++
	b = binary.AppendUvarint(b, k-e.k)
	if k == e.k {
		b = binary.AppendUvarint(b, uint64(int64(v)-e.v-1))
	} else {
		b = binary.AppendUvarint(b, uint64(v))
	}
	e.k, e.v = k, int64(v)
	return b
}

var errCorruptBitmapRun = errors.New("graph: corrupt bitmap run")

// pairSource yields pairs in increasing order.
type pairSource interface {
	next() (k uint64, v uint32, ok bool, err error)
	close()
}

// pairRun reads a run file.
type pairRun struct {
	name string
	f    *os.File
	r    *bufio.Reader
	left uint64
	k    uint64
	v    int64
}

func openPairRun(name string, bufSize int) (*pairRun, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("graph: bitmap run: %w", err)
	}
	r := &pairRun{name: name, f: f, r: bufio.NewReaderSize(f, bufSize), v: -1}
	var hdr [runHeader]byte
	if _, err := io.ReadFull(r.r, hdr[:]); err != nil || !bytes.Equal(hdr[:4], runMagic) {
		f.Close()
		return nil, fmt.Errorf("%w %s: bad header", errCorruptBitmapRun, name)
	}
	r.left = binary.LittleEndian.Uint64(hdr[4:])
	return r, nil
}

func (r *pairRun) corrupt(what string) error {
	return fmt.Errorf("%w %s: %s with %d pairs left", errCorruptBitmapRun, r.name, what, r.left)
}

func (r *pairRun) next() (uint64, uint32, bool, error) {
	if r.left == 0 {
		if _, err := r.r.ReadByte(); err != io.EOF {
			return 0, 0, false, r.corrupt("data past the end")
		}
		return 0, 0, false, nil
	}
	dk, err := binary.ReadUvarint(r.r)
	if err != nil {
		return 0, 0, false, r.corrupt("truncated or bad key")
	}
	x, err := binary.ReadUvarint(r.r)
	if err != nil {
		return 0, 0, false, r.corrupt("truncated or bad value")
	}
	if r.k+dk < r.k {
		return 0, 0, false, r.corrupt("key overflows")
	}
	if dk == 0 {
		x += uint64(r.v + 1)
	}
	if x > math.MaxUint32 || (dk == 0 && x < uint64(r.v+1)) {
		return 0, 0, false, r.corrupt("value out of range")
	}
	r.k += dk
	r.v = int64(x)
	r.left--
	return r.k, uint32(x), true, nil
}

func (r *pairRun) close() { r.f.Close() }

// memSource yields the sorted pairs still in memory.
type memSource struct {
	p *pairBuf
	i int
}

func (m *memSource) next() (uint64, uint32, bool, error) {
	if m.p.wide {
		if m.i == len(m.p.pairs) {
			return 0, 0, false, nil
		}
		m.i++
		return m.p.pairs[m.i-1].k, m.p.pairs[m.i-1].v, true, nil
	}
	if m.i == len(m.p.narrow) {
		return 0, 0, false, nil
	}
	m.i++
	x := m.p.narrow[m.i-1]
	return x >> 32, uint32(x), true, nil
}

func (m *memSource) close() {}

type mergeItem struct {
	k   uint64
	v   uint32
	src pairSource
}

type mergeHeap []mergeItem

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	return h[i].k < h[j].k || h[i].k == h[j].k && h[i].v < h[j].v
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(mergeItem)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge calls fn with every key of a kind, in order, and its values,
// sorted and without duplicates: the runs and what is in memory.
func (b *bitmaps) merge(p *pairBuf, fn func(k uint64, vs []uint32) error) error {
	p.sort()
	srcs := []pairSource{&memSource{p: p}}
	bufSize := max(64<<10, min(1<<20, b.budget/max(1, len(p.runs))))
	defer func() {
		for _, s := range srcs {
			s.close()
		}
	}()
	for _, name := range p.runs {
		r, err := openPairRun(name, bufSize)
		if err != nil {
			return err
		}
		srcs = append(srcs, r)
	}
	h := make(mergeHeap, 0, len(srcs))
	for _, s := range srcs {
		k, v, ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, mergeItem{k, v, s})
		}
	}
	heap.Init(&h)
	var vs []uint32
	var cur uint64
	for h.Len() > 0 {
		it := &h[0]
		k, v := it.k, it.v
		switch {
		case len(vs) == 0:
			cur, vs = k, append(vs, v)
		case k != cur:
			if err := fn(cur, vs); err != nil {
				return err
			}
			cur, vs = k, append(vs[:0], v)
		case v != vs[len(vs)-1]:
			vs = append(vs, v)
		}
		nk, nv, ok, err := it.src.next()
		if err != nil {
			return err
		}
		if ok {
			it.k, it.v = nk, nv
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	if len(vs) > 0 {
		return fn(cur, vs)
	}
	return nil
}

// write merges every kind and stores its bitmaps, in key order, and counts
// the triples. The pairs are gone afterwards.
func (b *bitmaps) write(ctx context.Context, db *badger.DB) error {
	wb := newAsyncWriter(db)
	defer wb.Cancel()
	bm := roaring.New()
	build := func(vs []uint32) *roaring.Bitmap {
		bm.Clear()
		bm.AddMany(vs)
		bm.RunOptimize()
		return bm
	}
	if err := b.wait(); err != nil {
		return err
	}
	b.triples = 0
	for _, p := range b.all {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch p.kind {
		case bEntTrees, bRelObjSubj, bRelSubjObj:
			// Families: one key per relation, or per chunk of entities.
			group := func(k uint64) uint32 { return uint32(k >> 32) }
			if p.kind == bEntTrees {
				group = func(k uint64) uint32 { return uint32(k / entChunk) }
			}
			var fam familyEncoder
			g, open := uint32(0), false
			err = b.merge(p, func(k uint64, vs []uint32) error {
				if p.kind == bRelSubjObj {
					b.triples += len(vs)
				}
				if kg := group(k); !open || kg != g {
					if open {
						if err := wb.Set(bmKey(p.kind, g), fam.finish()); err != nil {
							return err
						}
					}
					g, open = kg, true
				}
				return fam.add(uint32(k), build(vs))
			})
			if err == nil && open {
				err = wb.Set(bmKey(p.kind, g), fam.finish())
			}
		default:
			err = b.merge(p, func(k uint64, vs []uint32) error {
				v, err := build(vs).ToBytes()
				if err != nil {
					return err
				}
				return wb.Set(bmKey(p.kind, uint32(k)), v)
			})
		}
		if err != nil {
			return err
		}
		p.narrow, p.pairs = nil, nil
	}
	return wb.Close()
}
