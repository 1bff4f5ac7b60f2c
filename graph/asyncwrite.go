package graph

import (
	"errors"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// asyncWriter writes key-value pairs through Badger transactions that its
// own goroutine owns, so that the build's other work goes on while Badger
// writes. Pairs are written in the order Set is called, in transactions
// committed one after the other, so a process killed at any point leaves a
// prefix of them. Set keeps k and v: the caller must not change them
// afterwards. An asyncWriter is not safe for concurrent use.
//
// Each chunk of pairs is committed as a transaction of its own, so that
// Badger applies the build's writes as they come. It used a WriteBatch,
// which commits only when its transaction is full (about 10 MB, more than
// the 500 tables between two flushes write): Badger then had nothing to
// apply until the build flushed, and the build waited at every flush
// while Badger applied everything at once (6.7 s of a 12 s read stage in
// an execution trace of 30,000 sts-csv tables). And starting a
// transaction waits until every commit so far is applied (the oracle's
// read timestamp), so the writer starts the next transaction before it
// commits the current one: the start waits only for the commits before,
// and the next chunk fills while Badger applies this one.
type asyncWriter struct {
	db   *badger.DB
	buf  []kvPair
	reqs chan writeReq
	done chan struct{}

	// Owned by the writer goroutine: the transaction being filled, and
	// the commits not yet applied.
	cur      *badger.Txn
	inflight sync.WaitGroup

	mu     sync.Mutex
	err    error // the first that Set, a commit or a flush met
	closed bool
}

type kvPair struct{ k, v []byte }

type writeReq struct {
	pairs []kvPair
	flush chan error // if not nil: flush, then report
}

// asyncChunk is how many pairs go to the writer at a time, and
// asyncQueue how many chunks may wait for it.
const (
	asyncChunk = 1024
	asyncQueue = 16
)

func newAsyncWriter(db *badger.DB) *asyncWriter {
	w := &asyncWriter{db: db, reqs: make(chan writeReq, asyncQueue), done: make(chan struct{}),
		buf: make([]kvPair, 0, asyncChunk)}
	go w.run()
	return w
}

func (w *asyncWriter) run() {
	defer close(w.done)
	for req := range w.reqs {
		err := w.failed()
		for _, q := range req.pairs {
			if err != nil {
				break
			}
			err = w.set(q.k, q.v)
		}
		if req.flush != nil {
			if err == nil {
				err = w.flushTxns()
			}
			w.fail(err)
			req.flush <- w.failed()
			continue
		}
		if err == nil {
			err = w.rotate()
		}
		w.fail(err)
	}
	w.discard()
}

func (w *asyncWriter) set(k, v []byte) error {
	if w.cur == nil {
		w.cur = w.db.NewTransaction(true)
	}
	err := w.cur.Set(k, v)
	if !errors.Is(err, badger.ErrTxnTooBig) {
		return err
	}
	if err := w.rotate(); err != nil {
		return err
	}
	return w.cur.Set(k, v)
}

// rotate commits the current transaction, after starting the next.
func (w *asyncWriter) rotate() error {
	if w.cur == nil {
		return w.failed()
	}
	next := w.db.NewTransaction(true)
	w.commit(w.cur)
	w.cur = next
	return w.failed()
}

func (w *asyncWriter) commit(t *badger.Txn) {
	w.inflight.Add(1)
	t.CommitWith(func(err error) {
		w.fail(err)
		w.inflight.Done()
	})
}

// flushTxns commits what is set and waits until every commit is applied.
func (w *asyncWriter) flushTxns() error {
	if w.cur != nil {
		w.commit(w.cur)
		w.cur = nil
	}
	w.inflight.Wait()
	return w.failed()
}

// discard drops what is set but not committed and waits for the commits.
func (w *asyncWriter) discard() {
	if w.cur != nil {
		w.cur.Discard()
		w.cur = nil
	}
	w.inflight.Wait()
}

func (w *asyncWriter) fail(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

func (w *asyncWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Set queues a pair; an error is the first that writing any pair met.
func (w *asyncWriter) Set(k, v []byte) error {
	w.buf = append(w.buf, kvPair{k, v})
	if len(w.buf) == asyncChunk {
		w.reqs <- writeReq{pairs: w.buf}
		w.buf = make([]kvPair, 0, asyncChunk)
	}
	return w.failed()
}

// Flush waits until every pair set so far is written.
func (w *asyncWriter) Flush() error {
	ch := make(chan error, 1)
	w.reqs <- writeReq{pairs: w.buf, flush: ch}
	w.buf = make([]kvPair, 0, asyncChunk)
	return <-ch
}

// Close flushes and stops the writer. Closing again does nothing.
func (w *asyncWriter) Close() error {
	if w.closed {
		return w.failed()
	}
	err := w.Flush()
	w.stop()
	return err
}

// Cancel stops the writer, unless it is closed; pairs not yet written may
// or may not be.
func (w *asyncWriter) Cancel() {
	if !w.closed {
		w.fail(errCancelled)
		w.stop()
	}
}

func (w *asyncWriter) stop() {
	w.closed = true
	close(w.reqs)
	<-w.done
}

var errCancelled = errors.New("graph: write cancelled")
