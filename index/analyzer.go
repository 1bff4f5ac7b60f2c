package index

import (
	"bufio"
	"bytes"
	"hash/maphash"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	bindex "github.com/blevesearch/bleve_index_api"
	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// textAnalyzer is leaper's English analysis, applied to titles, bodies,
// queries and snippet matching alike: words (runs of letters and digits,
// keeping inner apostrophes and digit-group separators as in "don't" and
// "1,000"), a trailing possessive 's dropped, lower-cased, Bleve's English
// stop words dropped, Porter-stemmed. It gives the same terms as Bleve's
// "en" analyser on ordinary English text but is several times faster: it
// scans bytes with an ASCII fast path, builds no token stream and caches
// stems (the stemmer is the costly part and word frequencies are Zipfian).
type textAnalyzer struct {
	stop map[string]bool
	seed maphash.Seed
	// slots is an insert-only open-addressing hash table from lower-cased
	// word to term ("" for a stop word): lock-free reads, CAS inserts,
	// inserts stop at 3/4 full. One hash and no allocation per cached word.
	slots []atomic.Pointer[stemEntry]
	used  atomic.Int64
}

type stemEntry struct {
	word, term string
}

// stemSlots sizes the cache: 1<<20 slots (8 MB) hold 768k words, which
// covers nearly every token of a Wikipedia-sized vocabulary.
const stemSlots = 1 << 20

func newTextAnalyzer() *textAnalyzer {
	a := &textAnalyzer{stop: map[string]bool{}, seed: maphash.MakeSeed(), slots: make([]atomic.Pointer[stemEntry], stemSlots)}
	sc := bufio.NewScanner(bytes.NewReader(en.EnglishStopWords))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '|'); i >= 0 {
			line = line[:i]
		}
		for _, w := range strings.Fields(line) {
			a.stop[w] = true
		}
	}
	return a
}

// each calls fn with every term of s in order.
func (a *textAnalyzer) each(s []byte, fn func(term string)) {
	a.eachPos(s, nil, func(t string, _, _ int) { fn(t) })
}

// wordFilter tells from the first two bytes of a lower-cased word whether
// its term can be one of a set, so that other words need not be stemmed.
// Porter's rules rewrite suffixes only: a term keeps its word's first
// letter, and its second unless the rule Y -> I turned "ay" into "ai".
type wordFilter struct {
	first [256]bool
	any   [256]bool // first bytes of one-byte terms: any second byte
	pairs []uint16  // first two bytes of longer terms
}

func newWordFilter(terms []string) *wordFilter {
	f := &wordFilter{}
	for _, t := range terms {
		if t == "" {
			continue
		}
		f.first[t[0]] = true
		if len(t) == 1 {
			f.any[t[0]] = true
			continue
		}
		f.pairs = append(f.pairs, uint16(t[0])<<8|uint16(t[1]))
		if t[1] == 'i' {
			f.pairs = append(f.pairs, uint16(t[0])<<8|'y')
		}
	}
	return f
}

func (f *wordFilter) pass(w []byte) bool {
	if !f.first[w[0]] {
		return false
	}
	return len(w) < 2 || f.any[w[0]] || slices.Contains(f.pairs, uint16(w[0])<<8|uint16(w[1]))
}

// passASCII is pass for an ASCII word not yet lower-cased. It may differ
// from pass on the word with a trailing 's stripped only when that leaves
// one byte, whose term is itself: both then pass if a one-byte term could
// match.
func (f *wordFilter) passASCII(w []byte) bool {
	c0 := w[0] | asciiLower[w[0]]
	if !f.first[c0] {
		return false
	}
	if len(w) < 2 || f.any[c0] {
		return true
	}
	return slices.Contains(f.pairs, uint16(c0)<<8|uint16(w[1]|asciiLower[w[1]]))
}

// asciiLower is the bit that lower-cases an ASCII capital.
var asciiLower = func() (t [256]byte) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = 0x20
	}
	return t
}()

// eachPos calls fn with every term of s and the byte range of its word.
// When f is not nil, words it does not pass are skipped unstemmed.
func (a *textAnalyzer) eachPos(s []byte, f *wordFilter, fn func(term string, start, end int)) {
	var buf []byte
	n := len(s)
	for i := 0; i < n; {
		c := s[i]
		if c < utf8.RuneSelf {
			if !isAlnumASCII(c) {
				i++
				continue
			}
		} else if r, w := utf8.DecodeRune(s[i:]); !isWordRune(r) {
			i += w
			continue
		}
		start := i
		ascii := true
		var prev rune
		for i < n {
			c := s[i]
			r, w := rune(c), 1
			if c >= utf8.RuneSelf {
				r, w = utf8.DecodeRune(s[i:])
				ascii = false
			}
			if isWordRune(r) {
				prev = r
				i += w
				continue
			}
			// inner apostrophe between letters, or separator between digits
			if i+w < n {
				next, _ := utf8.DecodeRune(s[i+w:])
				if (r == '\'' || r == '’') && unicode.IsLetter(prev) && unicode.IsLetter(next) ||
					(r == ',' || r == '.') && isDigit(prev) && isDigit(next) {
					i += w
					continue
				}
			}
			break
		}
		if f != nil && ascii && !f.passASCII(s[start:i]) {
			continue
		}
		buf = lowerWord(buf[:0], s[start:i], ascii)
		if l := len(buf); l > 2 && buf[l-1] == 's' && buf[l-2] == '\'' {
			buf = buf[:l-2]
		} else if l > 4 && buf[l-1] == 's' && bytes.HasSuffix(buf[:l-1], []byte("’")) {
			buf = buf[:l-4]
		}
		if len(buf) == 0 || f != nil && !f.pass(buf) {
			continue
		}
		if t := a.term(buf); t != "" {
			fn(t, start, i)
		}
	}
}

// terms returns the terms of s.
func (a *textAnalyzer) terms(s string) []string {
	var out []string
	a.each([]byte(s), func(t string) { out = append(out, t) })
	return out
}

// term returns the term of a lower-cased word, "" for a stop word.
func (a *textAnalyzer) term(w []byte) string {
	mask := uint64(len(a.slots) - 1)
	h := maphash.Bytes(a.seed, w)
	for i := h & mask; ; i = (i + 1) & mask {
		e := a.slots[i].Load()
		if e == nil {
			break
		}
		if e.word == string(w) {
			return e.term
		}
	}
	var t string
	if !a.stop[string(w)] {
		t = string(porterstemmer.StemWithoutLowerCasing([]rune(string(w))))
	}
	if a.used.Load() < int64(len(a.slots))*3/4 {
		e := &stemEntry{word: string(w), term: t}
		for i := h & mask; ; i = (i + 1) & mask {
			if a.slots[i].CompareAndSwap(nil, e) {
				a.used.Add(1)
				break
			}
			if a.slots[i].Load().word == e.word {
				break // inserted concurrently
			}
		}
	}
	return t
}

func lowerWord(dst, w []byte, ascii bool) []byte {
	if ascii {
		for _, c := range w {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
		}
		return dst
	}
	for len(w) > 0 {
		r, n := utf8.DecodeRune(w)
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		w = w[n:]
	}
	return dst
}

func isAlnumASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isAlnumASCII(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// textField is an indexed (and optionally stored) text field analysed by
// textAnalyzer. It implements Bleve's document.Field; scorch calls Analyze
// from its analysis workers, in parallel.
type textField struct {
	name   string
	value  []byte
	opts   bindex.FieldIndexingOptions
	an     *textAnalyzer
	length int
	freqs  bindex.TokenFrequencies
}

func (f *textField) Name() string                                      { return f.name }
func (f *textField) ArrayPositions() []uint64                          { return nil }
func (f *textField) Options() bindex.FieldIndexingOptions              { return f.opts }
func (f *textField) Value() []byte                                     { return f.value }
func (f *textField) NumPlainTextBytes() uint64                         { return uint64(len(f.value)) }
func (f *textField) EncodedFieldType() byte                            { return 't' }
func (f *textField) AnalyzedLength() int                               { return f.length }
func (f *textField) AnalyzedTokenFrequencies() bindex.TokenFrequencies { return f.freqs }
func (f *textField) Size() int                                         { return 64 + len(f.name) + len(f.value) + 48*len(f.freqs) }

func (f *textField) Analyze() {
	freqs := make(bindex.TokenFrequencies, 16+len(f.value)/16)
	var slab []bindex.TokenFreq
	n := 0
	f.an.each(f.value, func(t string) {
		n++
		tf := freqs[t]
		if tf == nil {
			if len(slab) == cap(slab) {
				slab = make([]bindex.TokenFreq, 0, 64)
			}
			slab = append(slab, bindex.TokenFreq{
				// The stem strings are immutable and never freed while
				// referenced; scorch only reads Term.
				Term: unsafe.Slice(unsafe.StringData(t), len(t)),
			})
			tf = &slab[len(slab)-1]
			freqs[t] = tf
		}
		tf.SetFrequency(tf.Frequency() + 1)
	})
	f.length = n
	f.freqs = freqs
}
