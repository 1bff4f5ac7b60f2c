package graph

import (
	"fmt"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestAsyncWriter writes more pairs than a chunk and a transaction hold,
// flushes, and reads every pair back; a pair Badger refuses is reported.
func TestAsyncWriter(t *testing.T) {
	db, err := badger.Open(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).WithMemTableSize(1 << 20).WithValueThreshold(512))
	if err != nil {
		t.Fatal(err)
	}
	w := newAsyncWriter(db)
	const n = 3*asyncChunk + 17
	for i := range n {
		if err := w.Set([]byte(fmt.Sprintf("k%06d", i)), make([]byte, 300)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := 0
	db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			got++
		}
		return nil
	})
	if got != n {
		t.Fatalf("%d pairs read back, want %d", got, n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	w.Cancel() // after Close: nothing

	// A pair Badger refuses fails the writer: Set or Close reports it.
	w = newAsyncWriter(db)
	w.Set(make([]byte, 70000), nil)
	if err := w.Close(); err == nil {
		t.Fatal("a 70,000-byte key: no error")
	}
	db.Close()
}

// TestAsyncWriterOrder: pairs land in the order they were set, across the
// writer's transactions: the last value of a key set in every chunk and
// in transactions that filled within a chunk wins.
func TestAsyncWriterOrder(t *testing.T) {
	db, err := badger.Open(badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).WithMemTableSize(1 << 20).WithValueThreshold(512).WithDetectConflicts(false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := newAsyncWriter(db)
	defer w.Close()
	const n = 5*asyncChunk + 3
	for i := range n {
		// 500-byte values: a transaction (150 KB here) is full before a
		// chunk is.
		if err := w.Set([]byte(fmt.Sprintf("u%06d", i)), make([]byte, 500)); err != nil {
			t.Fatal(err)
		}
		if err := w.Set([]byte("same"), []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	db.View(func(txn *badger.Txn) error {
		it, err := txn.Get([]byte("same"))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := it.ValueCopy(nil)
		if string(v) != fmt.Sprint(n-1) {
			t.Errorf("same = %s, want %d", v, n-1)
		}
		return nil
	})
}
