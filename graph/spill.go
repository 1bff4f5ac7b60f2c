package graph

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// fragment is a piece of a page (a passage, a tree's segments, a fact
// line) on its way to the page: finalize emits fragments in any URL order,
// a spill sorts them by URL and then by seq, the order in which they were
// emitted, so that a page is assembled exactly as if it had been built in
// memory.
type fragment struct {
	url   string
	seq   uint64
	title string // the page's title, when this fragment opens it
	kind  byte   // fragPassage, fragTree, fragFact
	segs  []Segment
	// names are the names of the entities the segments show, in order
	// (segment by segment, then Entities), so that pages are assembled
	// without looking entities up.
	names []string
}

// fragWork is a fragment's share of the work of assembling, storing and
// indexing the pages, for the pages stage's ETA: its text and names, and
// a fixed cost per fragment. A source page's fragment holds a whole table;
// an entity page's, one fact. The fixed cost (1,000 bytes' worth) is the
// one that made the share of work done track the share of time taken,
// within 10% after the stage's first tenth, in a build of sts-csv.
func fragWork(f *fragment) int64 {
	n := 1000 + len(f.url) + len(f.title)
	for _, sg := range f.segs {
		n += len(sg.Text)
	}
	for _, name := range f.names {
		n += len(name)
	}
	return int64(n)
}

// Fragment kinds.
const (
	fragPassage byte = iota
	fragTree
	fragFact
)

// spill is an external sort of fragments: fragments are encoded into an
// in-memory buffer up to half the budget, then sorted and written to a run
// file in the background while the next half fills; merge reads the runs
// back in order. Memory is bounded by the budget plus a read buffer per
// run, and the buffers hold no pointers, so that the garbage collector has
// nothing in them to scan.
type spill struct {
	dir     string
	budget  int
	data    []byte   // encoded fragments (encodeFragment)
	offs    []uint32 // where each fragment starts in data
	runs    []string
	seq     uint64
	scratch []byte
	work    int64 // of the fragments added (fragWork)
	// The run being written in the background, and the buffers of the
	// run written before it, for the next fragments.
	bg        background
	spareData []byte
	spareOffs []uint32
	keys      []sortKey // the background's, reused
}

// newSpill makes a spill in a new directory under parent.
func newSpill(parent string, budget int) (*spill, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("graph: spill: %w", err)
	}
	dir, err := os.MkdirTemp(parent, "finalize-")
	if err != nil {
		return nil, fmt.Errorf("graph: spill: %w", err)
	}
	// Offsets are 32-bit.
	return &spill{dir: dir, budget: min(budget, 1<<31)}, nil
}

// add queues a fragment. Fragments of one URL come out of merge by phase,
// then in the order they were added.
func (s *spill) add(phase byte, f fragment) error {
	f.seq = uint64(phase)<<56 | s.seq
	s.seq++
	s.work += fragWork(&f)
	s.scratch = encodeFragment(s.scratch[:0], &f)
	half := s.budget / 2
	if len(s.data) > 0 && len(s.data)+len(s.scratch) > half {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.offs = growFor(s.offs, 1, half/4)
	s.offs = append(s.offs, uint32(len(s.data)))
	s.data = growFor(s.data, len(s.scratch), half)
	s.data = append(s.data, s.scratch...)
	return nil
}

// growFor makes room for n more elements in s, doubling its capacity (up
// to limit elements, or as far as n needs) when it is full. append grows a
// large slice by a quarter at a time: a spill or bitmap buffer of hundreds
// of MiB was then copied, and its new memory zeroed, about four times over,
// which in a build of sts-csv cost 3-5 s of CPU. Doubling copies it once.
func growFor[T any](s []T, n, limit int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	c := max(min(2*cap(s), limit), len(s)+n, 1024)
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}

func cmpFragment(a, b *fragment) int {
	if c := strings.Compare(a.url, b.url); c != 0 {
		return c
	}
	switch {
	case a.seq < b.seq:
		return -1
	case a.seq > b.seq:
		return 1
	}
	return 0
}

// sortKey is where a fragment of a run's buffer sorts: its url (where it
// is in the buffer) and seq, read once per fragment rather than at every
// comparison. It holds no pointer, so that the garbage collector has
// nothing in the keys to scan.
type sortKey struct {
	seq         uint64
	off         uint32 // of the fragment
	url, urlEnd uint32
}

// keyAt reads the url and seq of the fragment encoded at off in data.
func keyAt(data []byte, off uint32) sortKey {
	b := data[off+4:]
	n, k := binary.Uvarint(b)
	url := off + 4 + uint32(k)
	seq, _ := binary.Uvarint(b[k+int(n):])
	return sortKey{seq: seq, off: off, url: url, urlEnd: url + uint32(n)}
}

// flush hands the queued fragments to the background, to be sorted and
// written as one run, once the run before them is written; the next
// fragments fill that run's buffers. It returns the error of the run
// before.
func (s *spill) flush() error {
	if err := s.bg.wait(); err != nil {
		return err
	}
	if len(s.offs) == 0 {
		return nil
	}
	name := filepath.Join(s.dir, fmt.Sprintf("run-%06d", len(s.runs)))
	s.runs = append(s.runs, name)
	data, offs := s.data, s.offs
	s.data, s.offs = s.spareData[:0], s.spareOffs[:0]
	s.spareData, s.spareOffs = nil, nil
	s.bg.start(func() error {
		err := s.writeRun(name, data, offs)
		s.spareData, s.spareOffs = data, offs
		return err
	})
	return nil
}

// writeRun sorts the fragments encoded in data at offs and writes them as
// the run name.
func (s *spill) writeRun(name string, data []byte, offs []uint32) error {
	keys := s.keys[:0]
	for _, off := range offs {
		keys = append(keys, keyAt(data, off))
	}
	slices.SortFunc(keys, func(a, b sortKey) int {
		if c := bytes.Compare(data[a.url:a.urlEnd], data[b.url:b.urlEnd]); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	s.keys = keys[:0]
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("graph: spill: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, k := range keys {
		n := binary.BigEndian.Uint32(data[k.off:])
		if _, err := w.Write(data[k.off : k.off+4+n]); err != nil {
			f.Close()
			return fmt.Errorf("graph: spill: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("graph: spill: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("graph: spill: %w", err)
	}
	return nil
}

// close waits for the run being written and removes the run files.
func (s *spill) close() {
	s.bg.wait()
	os.RemoveAll(s.dir)
}

// background runs one job at a time off the caller's goroutine.
type background struct{ done chan error }

// start runs job in the background. The caller waits for the job before
// it first.
func (g *background) start(job func() error) {
	g.done = make(chan error, 1)
	go func() { g.done <- job() }()
}

// wait waits for the job in the background, if any, and returns its error.
func (g *background) wait() error {
	if g.done == nil {
		return nil
	}
	err := <-g.done
	g.done = nil
	return err
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// encodeFragment appends a fragment, length-prefixed.
func encodeFragment(b []byte, f *fragment) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	b = appendString(b, f.url)
	b = binary.AppendUvarint(b, f.seq)
	b = appendString(b, f.title)
	b = append(b, f.kind)
	b = binary.AppendUvarint(b, uint64(len(f.segs)))
	for _, sg := range f.segs {
		b = appendString(b, sg.Text)
		b = appendString(b, string(sg.Kind))
		b = binary.AppendUvarint(b, uint64(sg.Block))
		b = appendString(b, sg.DocID)
		b = binary.AppendUvarint(b, uint64(len(sg.Entities)))
		for _, id := range sg.Entities {
			b = binary.AppendUvarint(b, uint64(id))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(f.names)))
	for _, n := range f.names {
		b = appendString(b, n)
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b
}

var errCorruptRun = errors.New("graph: spill: corrupt run")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorruptRun
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.err = errCorruptRun
		d.b = nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func decodeFragment(b []byte) (fragment, error) {
	d := &decoder{b: b}
	var f fragment
	f.url = d.str()
	f.seq = d.uvarint()
	f.title = d.str()
	if len(d.b) == 0 {
		return f, errCorruptRun
	}
	f.kind = d.b[0]
	d.b = d.b[1:]
	n := d.uvarint()
	if n > uint64(len(b)) {
		return f, errCorruptRun
	}
	f.segs = make([]Segment, n)
	for i := range f.segs {
		sg := &f.segs[i]
		sg.Text = d.str()
		sg.Kind = SegmentKind(d.str())
		sg.Block = int(d.uvarint())
		sg.DocID = d.str()
		m := d.uvarint()
		if m > uint64(len(b)) {
			return f, errCorruptRun
		}
		if m > 0 {
			sg.Entities = make([]uint32, m)
			for j := range sg.Entities {
				sg.Entities[j] = uint32(d.uvarint())
			}
		}
	}
	if m := d.uvarint(); m > 0 {
		if m > uint64(len(b)) {
			return f, errCorruptRun
		}
		f.names = make([]string, m)
		for i := range f.names {
			f.names[i] = d.str()
		}
	}
	return f, d.err
}

// runReader reads one run's fragments in order.
type runReader struct {
	f   *os.File
	r   *bufio.Reader
	cur fragment
	buf []byte
}

func (r *runReader) next() (bool, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r.r, hdr[:]); err != nil {
		if err == io.EOF {
			return false, nil
		}
		return false, fmt.Errorf("graph: spill: %w", err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if cap(r.buf) < int(n) {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		return false, fmt.Errorf("graph: spill: %w", err)
	}
	f, err := decodeFragment(r.buf)
	if err != nil {
		return false, err
	}
	r.cur = f
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return cmpFragment(&h[i].cur, &h[j].cur) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge calls fn with every fragment in (url, seq) order: the runs written
// so far and what is still in memory, which is written as a last run.
func (s *spill) merge(fn func(*fragment) error) error {
	if err := s.flush(); err != nil {
		return err
	}
	if err := s.bg.wait(); err != nil {
		return err
	}
	s.data, s.offs, s.spareData, s.spareOffs, s.keys = nil, nil, nil, nil, nil
	h := make(runHeap, 0, len(s.runs))
	defer func() {
		for _, r := range h {
			r.f.Close()
		}
	}()
	// Read buffers share what the in-memory budget allowed.
	bufSize := max(64<<10, min(1<<20, s.budget/max(1, len(s.runs))))
	for _, name := range s.runs {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("graph: spill: %w", err)
		}
		r := &runReader{f: f, r: bufio.NewReaderSize(f, bufSize)}
		ok, err := r.next()
		if err != nil {
			f.Close()
			return err
		}
		if !ok {
			f.Close()
			continue
		}
		h = append(h, r)
	}
	heap.Init(&h)
	for h.Len() > 0 {
		r := h[0]
		f := r.cur
		if err := fn(&f); err != nil {
			return err
		}
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			r.f.Close()
			heap.Pop(&h)
		}
	}
	return nil
}
