package graph

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"github.com/dgraph-io/badger/v4"
)

// pageDigest is the content digest of a store: SHA-256 over its pages in
// URL order, each page's stored JSON and the JSON of the entities it shows,
// both length-prefixed. Everything the offline web answers (search hits,
// visit evidence, the entity ids of an observation) is read from these
// values, so two stores with the same digest answer alike; the Bleve index
// is derived from the same pages. A build computes it as it writes the
// pages (Finalize, in URL order already), so it costs no extra pass.
type pageDigest struct {
	h   hash.Hash
	buf [8]byte
}

func newPageDigest() *pageDigest { return &pageDigest{h: sha256.New()} }

func (d *pageDigest) add(page, shown []byte) {
	for _, b := range [][]byte{page, shown} {
		binary.BigEndian.PutUint64(d.buf[:], uint64(len(b)))
		d.h.Write(d.buf[:])
		d.h.Write(b)
	}
}

func (d *pageDigest) sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// ComputeDigest computes the store's content digest from its pages, as a
// build records it in Manifest.Digest. It reads every page once; stores
// built before the digest was recorded get theirs this way.
func (s *Store) ComputeDigest(ctx context.Context) (string, error) {
	d := newPageDigest()
	n := 0
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{pPage}, PrefetchValues: true, PrefetchSize: 256})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if n++; n%10000 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			item := it.Item()
			page, err := item.ValueCopy(nil)
			if err != nil {
				return err
			}
			var shown []byte
			ek := append([]byte{pPageEnts}, item.Key()[1:]...)
			if e, err := txn.Get(ek); err == nil {
				if shown, err = e.ValueCopy(nil); err != nil {
					return err
				}
			} else if err != badger.ErrKeyNotFound {
				return err
			}
			d.add(page, shown)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return d.sum(), nil
}
