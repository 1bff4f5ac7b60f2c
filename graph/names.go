package graph

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
)

// A search hit shows the entities of its page whose names its title or
// snippet contains as whole words. A page lists up to thousands of
// entities, and a hit is matched against them on every search, so the
// names are prepared when the store is built: lower-cased, sorted, laid
// out for binary search in place (NamesBlob), and kept with the page in
// the full-text index. MatchNames then costs a few lookups per word of the
// snippet, with no decoding and no allocation but the result.

// namesBlob marks the layout: the marker byte; the count n and the size
// of a Bloom filter in 64-bit words, little-endian uint32s; the filter;
// n ids, n name end offsets (uint32 each, relative to the names); the
// names back to back. The filter holds the first words of the names (two
// bits each, of FNV-1a): most words of a snippet start no name, and are
// passed over without a search.
const namesBlob = 0x03

// NamesBlob prepares shown entities for MatchNames. Names shorter than two
// bytes are left out: they would match too much to mean anything.
func NamesBlob(ss []Shown) []byte {
	type nm struct {
		low string
		id  uint32
	}
	var ns []nm
	size := 0
	for _, s := range ss {
		if len(s.Name) >= 2 {
			low := strings.ToLower(s.Name)
			ns = append(ns, nm{low, s.ID})
			size += len(low)
		}
	}
	slices.SortFunc(ns, func(a, b nm) int {
		if c := strings.Compare(a.low, b.low); c != 0 {
			return c
		}
		return int(a.id) - int(b.id)
	})
	words := 1 // of 64 bits, about 8 bits a name
	for words*64 < 8*len(ns) {
		words *= 2
	}
	bloom := make([]uint64, words)
	for _, n := range ns {
		if w := leadingWord(n.low); w != "" {
			h := fnv1a(w)
			m := uint64(words*64 - 1)
			bloom[(h&m)/64] |= 1 << (h & 63)
			bloom[((h>>32)&m)/64] |= 1 << ((h >> 32) & 63)
		}
	}
	b := make([]byte, 0, 9+8*words+8*len(ns)+size)
	b = append(b, namesBlob)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ns)))
	b = binary.LittleEndian.AppendUint32(b, uint32(words))
	for _, x := range bloom {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	for _, n := range ns {
		b = binary.LittleEndian.AppendUint32(b, n.id)
	}
	end := 0
	for _, n := range ns {
		end += len(n.low)
		b = binary.LittleEndian.AppendUint32(b, uint32(end))
	}
	for _, n := range ns {
		b = append(b, n.low...)
	}
	return b
}

// namesView reads a NamesBlob in place.
type namesView struct {
	n     int
	bloom []byte // of words*8 bytes, words a power of two
	ids   []byte
	ends  []byte
	names string
}

func viewNames(b []byte) (namesView, bool) {
	if len(b) < 9 || b[0] != namesBlob {
		return namesView{}, false
	}
	n := int(binary.LittleEndian.Uint32(b[1:]))
	words := int(binary.LittleEndian.Uint32(b[5:]))
	if words <= 0 || words&(words-1) != 0 || words > (len(b)-9)/8 {
		return namesView{}, false
	}
	b = b[9:]
	bloom := b[:8*words]
	b = b[8*words:]
	if n < 0 || n > len(b)/8 {
		return namesView{}, false
	}
	v := namesView{n: n, bloom: bloom, ids: b[:4*n], ends: b[4*n : 8*n], names: string(b[8*n:])}
	if n > 0 && int(binary.LittleEndian.Uint32(v.ends[4*(n-1):])) != len(v.names) {
		return namesView{}, false
	}
	prev := 0
	for i := range n {
		e := int(binary.LittleEndian.Uint32(v.ends[4*i:]))
		if e < prev {
			return namesView{}, false
		}
		prev = e
	}
	return v, true
}

func (v namesView) name(i int) string {
	lo := 0
	if i > 0 {
		lo = int(binary.LittleEndian.Uint32(v.ends[4*(i-1):]))
	}
	return v.names[lo:int(binary.LittleEndian.Uint32(v.ends[4*i:]))]
}

func (v namesView) id(i int) uint32 { return binary.LittleEndian.Uint32(v.ids[4*i:]) }

// mayStart reports whether some name may have w as its first word.
func (v namesView) mayStart(w string) bool {
	h := fnv1a(w)
	m := uint64(len(v.bloom)*8 - 1)
	bit := func(i uint64) bool { return v.bloom[i/8]&(1<<(i%8)) != 0 }
	return bit(h&m) && bit((h>>32)&m)
}

// fnv1a is the 64-bit FNV-1a hash of s.
func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// lowerBound is the first index whose name is >= s.
func (v namesView) lowerBound(s string) int {
	return sort.Search(v.n, func(i int) bool { return v.name(i) >= s })
}

// MatchNames returns the ids, ascending and distinct, of the names in blob
// (a NamesBlob) that occur in low, a lower-cased text, at word boundaries:
// not preceded or followed by a letter, digit or '_'. ok is false when
// blob is not a NamesBlob.
func MatchNames(blob []byte, low string) (ids []uint32, ok bool) {
	v, ok := viewNames(blob)
	if !ok {
		return nil, false
	}
	// hit reports whether name i occurs at a, ending at a word boundary.
	hit := func(i, a int) bool {
		name := v.name(i)
		b := a + len(name)
		if strings.HasPrefix(low[a:], name) && (b == len(low) || !isWordByte(low[b])) {
			ids = append(ids, v.id(i))
			return true
		}
		return false
	}
	// A name that starts with a word byte can only occur where a word of
	// low starts, and that word is then the name's first word: the names
	// whose first word is w sort in the ranges w followed by the end or a
	// non-word byte.
	for a := 0; a < len(low); {
		if !isWordByte(low[a]) {
			a++
			continue
		}
		w := leadingWord(low[a:])
		if !v.mayStart(w) {
			a += len(w)
			continue
		}
		i := v.lowerBound(w)
		if i < v.n && strings.HasPrefix(v.name(i), w) {
			for _, r := range nonWordRanges {
				for j := v.lowerBound(w + r[0]); j < v.n && v.name(j) < w+r[1]; j++ {
					hit(j, a)
				}
			}
			for j := i; j < v.n && v.name(j) == w; j++ {
				hit(j, a)
			}
		}
		a += len(w)
	}
	// Names that start with a non-word byte may start anywhere.
	for _, r := range nonWordRanges {
		for j := v.lowerBound(r[0]); j < v.n && v.name(j) < r[1]; j++ {
			name := v.name(j)
			for a := 0; ; {
				k := strings.Index(low[a:], name)
				if k < 0 {
					break
				}
				a += k
				if (a == 0 || !isWordByte(low[a-1])) && hit(j, a) {
					break
				}
				a++
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// nonWordRanges are the byte ranges [lo, hi) that are not word bytes.
var nonWordRanges = [][2]string{{"\x00", "0"}, {":", "_"}, {"`", "a"}, {"{", "\x80"}}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 0x80
}

// leadingWord is the run of word bytes s starts with.
func leadingWord(s string) string {
	n := 0
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	return s[:n]
}
