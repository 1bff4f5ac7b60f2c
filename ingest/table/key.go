package table

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// Key is a stable content hash of the table: the hex of the first 16 bytes
// of a SHA-256 over the page URL, the index, the header and every cell's
// text and links (not Source, Section, Caption or Context, which differ
// between copies of the same table read through different paths). The
// same table read twice has the same Key; the store dedupes on it and
// derives stable tree ids from it.
func (t *Table) Key() string {
	h := sha256.New()
	var buf [8]byte
	num := func(n int) {
		binary.LittleEndian.PutUint64(buf[:], uint64(int64(n)))
		h.Write(buf[:])
	}
	str := func(s string) {
		num(len(s))
		writeString(h, s)
	}
	str(t.PageURL)
	num(t.Index)
	num(len(t.Header))
	for _, s := range t.Header {
		str(s)
	}
	num(len(t.Rows))
	for _, r := range t.Rows {
		num(len(r))
		for _, c := range r {
			str(c.Text)
			num(len(c.Links))
			for _, l := range c.Links {
				str(l)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func writeString(h hash.Hash, s string) {
	if sw, ok := h.(interface{ WriteString(string) (int, error) }); ok {
		sw.WriteString(s)
		return
	}
	h.Write([]byte(s))
}
