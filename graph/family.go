package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/dgraph-io/badger/v4"
)

// A family is many bitmaps under one key: member id -> bitmap. Storing the
// 1.3M (relation, object) and (relation, subject) sets of the full corpus
// as one family per relation makes the build write thousands of keys
// instead of millions, and lets readers load and cache a relation's index
// in one read.
//
// Encoding: n uint32, n member ids (sorted), n+1 offsets into the payload,
// then the payload: each member's bitmap in roaring's portable format.
type family struct {
	ids  []uint32
	offs []uint32
	data []byte
}

// entChunk is how many entities share one entity->trees family.
const entChunk = 4096

// familyEncoder builds a family from members added in increasing id
// order, each bitmap serialized as it comes.
type familyEncoder struct {
	ids  []uint32
	offs []uint32
	data bytes.Buffer
}

// add appends a member; the bitmap is run-optimized and may be reused once
// add returns.
func (e *familyEncoder) add(id uint32, bm *roaring.Bitmap) error {
	if n := len(e.ids); n > 0 && id <= e.ids[n-1] {
		return fmt.Errorf("graph: family member %d after %d", id, e.ids[n-1])
	}
	bm.RunOptimize()
	e.ids = append(e.ids, id)
	e.offs = append(e.offs, uint32(e.data.Len()))
	_, err := bm.WriteTo(&e.data)
	return err
}

// finish returns the encoded family and resets the encoder.
func (e *familyEncoder) finish() []byte {
	n := len(e.ids)
	head := 4 + 8*n + 4
	buf := make([]byte, head, head+e.data.Len())
	binary.LittleEndian.PutUint32(buf, uint32(n))
	for i, id := range e.ids {
		binary.LittleEndian.PutUint32(buf[4+4*i:], id)
	}
	offAt := 4 + 4*n
	for i, off := range e.offs {
		binary.LittleEndian.PutUint32(buf[offAt+4*i:], off)
	}
	binary.LittleEndian.PutUint32(buf[offAt+4*n:], uint32(e.data.Len()))
	buf = append(buf, e.data.Bytes()...)
	e.ids, e.offs = e.ids[:0], e.offs[:0]
	e.data.Reset()
	return buf
}

var errCorrupt = errors.New("graph: corrupt bitmap family")

func decodeFamily(b []byte) (*family, error) {
	if len(b) < 8 {
		return nil, errCorrupt
	}
	n := int(binary.LittleEndian.Uint32(b))
	head := 4 + 8*n + 4
	if n < 0 || head > len(b) {
		return nil, errCorrupt
	}
	f := &family{ids: make([]uint32, n), offs: make([]uint32, n+1), data: b[head:]}
	for i := range f.ids {
		f.ids[i] = binary.LittleEndian.Uint32(b[4+4*i:])
	}
	for i := range f.offs {
		f.offs[i] = binary.LittleEndian.Uint32(b[4+4*n+4*i:])
		if int(f.offs[i]) > len(f.data) || (i > 0 && f.offs[i] < f.offs[i-1]) {
			return nil, errCorrupt
		}
	}
	return f, nil
}

// get returns a fresh copy of a member's bitmap; empty when absent.
func (f *family) get(id uint32) (*roaring.Bitmap, error) {
	bm := roaring.New()
	i := sort.Search(len(f.ids), func(i int) bool { return f.ids[i] >= id })
	if i == len(f.ids) || f.ids[i] != id {
		return bm, nil
	}
	if err := bm.UnmarshalBinary(f.data[f.offs[i]:f.offs[i+1]]); err != nil {
		return nil, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	return bm, nil
}

// families caches decoded families by key. Bitmaps change only in
// Finalize, which resets the cache.
type families struct{ m sync.Map }

func (c *families) reset() { c.m.Clear() }

func (s *Store) family(key []byte) (*family, error) {
	if f, ok := s.fams.m.Load(string(key)); ok {
		return f.(*family), nil
	}
	var f *family
	err := s.view(func(txn *badger.Txn) error {
		b, err := getBytes(txn, key)
		if errors.Is(err, ErrNotFound) {
			f = &family{offs: []uint32{0}}
			return nil
		}
		if err != nil {
			return err
		}
		f, err = decodeFamily(b)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.fams.m.Store(string(key), f)
	return f, nil
}

func (s *Store) member(key []byte, id uint32) (*roaring.Bitmap, error) {
	f, err := s.family(key)
	if err != nil {
		return nil, err
	}
	return f.get(id)
}
