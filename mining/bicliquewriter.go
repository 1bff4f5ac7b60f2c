package mining

import (
	"encoding/binary"
	"io"
)

// BicliqueWriter writes bicliques to w as "left ids | right ids" lines
// (the lines AppendBiclique makes), as leaper mine --graph prints them. It formats into
// its own block and hands whole blocks to w, so no byte is copied twice in
// the process, and it copies each id as one 8-byte word from a table of the
// ids' decimal forms: with millions of bicliques a line, formatting and
// copying are a good part of the whole run.
type BicliqueWriter struct {
	w           io.Writer
	buf         []byte // the block; len(buf) is its capacity
	n           int    // bytes of buf in use
	left, right idTable
	err         error
}

// idTable holds "id " (decimal, then a space) packed little-endian in a
// word for every id below len(word), and its length.
type idTable struct {
	word []uint64
	size []uint8
}

// idTableMax bounds the ids in a table: "9999999 " is the longest form that
// fits a word. Larger ids are formatted on the fly.
const idTableMax = 10_000_000

func newIDTable(n int) idTable {
	n = min(n, idTableMax)
	t := idTable{word: make([]uint64, n), size: make([]uint8, n)}
	var tmp [16]byte
	for i := range n {
		b := appendID(tmp[:0], uint32(i))
		b = append(b, ' ')
		var w [8]byte
		copy(w[:], b)
		t.word[i] = binary.LittleEndian.Uint64(w[:])
		t.size[i] = uint8(len(b))
	}
	return t
}

// bicliqueBlock is the size of the blocks handed to the writer: small
// enough to stay in cache between being formatted and being copied out.
const bicliqueBlock = 128 << 10

// NewBicliqueWriter returns a writer for bicliques of a graph with nl left
// and nr right vertices; Flush writes out what it holds.
func NewBicliqueWriter(w io.Writer, nl, nr int) *BicliqueWriter {
	return &BicliqueWriter{w: w, buf: make([]byte, bicliqueBlock), left: newIDTable(nl), right: newIDTable(nr)}
}

// Write appends one biclique, the same line AppendBiclique makes. An
// error of the underlying writer is kept and returned by every later call.
func (bw *BicliqueWriter) Write(left, right []uint32) error {
	if bw.err != nil {
		return bw.err
	}
	// Each id takes at most 11 bytes ("4294967295 "), the separator 2; 8
	// bytes of slack for the last word store.
	need := 11*(len(left)+len(right)) + 2 + 8
	if bw.n+need > len(bw.buf) {
		if err := bw.Flush(); err != nil {
			return err
		}
		if need > len(bw.buf) {
			bw.buf = make([]byte, need)
		}
	}
	if len(left) == 0 {
		bw.n += copy(bw.buf[bw.n:], AppendBiclique(nil, left, right))
		return nil
	}
	buf, n := bw.buf, bw.n
	n = bw.left.put(buf, n, left)
	buf[n], buf[n+1] = '|', ' '
	n = bw.right.put(buf, n+2, right)
	buf[n-1] = '\n' // over the last space
	bw.n = n
	return nil
}

// put writes "id " for every id at buf[n:] and returns the new end. buf
// has room for 11 bytes an id plus 8.
func (t *idTable) put(buf []byte, n int, ids []uint32) int {
	for _, id := range ids {
		if int(id) < len(t.word) {
			binary.LittleEndian.PutUint64(buf[n:], t.word[id])
			n += int(t.size[id])
			continue
		}
		n += len(appendID(buf[n:n], id))
		buf[n] = ' '
		n++
	}
	return n
}

// Flush writes out the bicliques written so far.
func (bw *BicliqueWriter) Flush() error {
	if bw.err == nil && bw.n > 0 {
		_, bw.err = bw.w.Write(bw.buf[:bw.n])
	}
	bw.n = 0
	return bw.err
}

// AppendBiclique appends the line "left ids | right ids\n". Ids are
// written digit pairs at a time: with millions of bicliques, formatting is
// a good part of the whole run.
func AppendBiclique(buf []byte, left, right []uint32) []byte {
	for i, l := range left {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = appendID(buf, l)
	}
	buf = append(buf, " |"...)
	for _, r := range right {
		buf = append(buf, ' ')
		buf = appendID(buf, r)
	}
	return append(buf, '\n')
}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendID appends v in decimal, as strconv.AppendUint does.
func appendID(buf []byte, v uint32) []byte {
	var tmp [10]byte
	i := len(tmp)
	for v >= 100 {
		q := v / 100
		d := (v - q*100) * 2
		i -= 2
		tmp[i], tmp[i+1] = digitPairs[d], digitPairs[d+1]
		v = q
	}
	if v >= 10 {
		i -= 2
		tmp[i], tmp[i+1] = digitPairs[v*2], digitPairs[v*2+1]
	} else {
		i--
		tmp[i] = byte('0' + v)
	}
	return append(buf, tmp[i:]...)
}
