package index

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

const (
	// snippetLen is the target snippet length in bytes, ellipses excluded.
	snippetLen = 260
	// snippetScan bounds how much of a page is scanned for a snippet, so
	// that a huge table page costs no more than a few passages.
	snippetScan = 64 << 10
)

// plainText turns a markdown or tokenised body into one line of prose:
// headings lose their #, table rows become comma-separated cells, separator
// rows and link targets disappear, and the corpus's "word , word" spacing is
// undone. It is deterministic and never adds characters that were not in
// the input apart from ", " and ". " joints.
//
// Per line, in order: cells joined by ", " (table rows), links stripped,
// the spacing rules of respace, white space collapsed as strings.Fields
// would. It runs on every search hit, so it works in two reused buffers
// rather than through strings.Replacer and strings.Fields; the test holds
// it equal to that composition.
func plainText(s string) string {
	out := make([]byte, 0, len(s))
	var row, sp []byte
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || isTableRule(line) {
			continue
		}
		line = strings.TrimLeft(line, "#>")
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
			line = line[2:]
		}
		if strings.HasPrefix(line, "|") {
			row = appendTableRow(row[:0], line)
			line = unsafeString(row)
		}
		line = stripLinks(line)
		sp = respace(sp[:0], line)
		n := len(out)
		if n > 0 {
			switch out[n-1] {
			case '.', '!', '?', ':', ';', ',':
				out = append(out, ' ')
			default:
				out = append(out, ". "...)
			}
		}
		m := len(out)
		out = appendFields(out, sp)
		if len(out) == m {
			out = out[:n] // nothing left of the line
		}
	}
	return string(out)
}

// respace applies the corpus's spacing rules: no space before , . ; : ! ?
// ) ] % 's n't, none after ( [, and no ** __ ` markup. Like
// strings.Replacer, it scans left to right and never rescans a
// replacement.
func respace(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		var next byte
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch c {
		case ' ':
			switch next {
			case ',', '.', ';', ':', '!', '?', ')', ']', '%':
				dst = append(dst, next)
				i++
				continue
			case '\'':
				if i+2 < len(s) && s[i+2] == 's' {
					dst = append(dst, "'s"...)
					i += 2
					continue
				}
			case 'n':
				if i+3 < len(s) && s[i+2] == '\'' && s[i+3] == 't' {
					dst = append(dst, "n't"...)
					i += 3
					continue
				}
			}
		case '(', '[':
			if next == ' ' {
				dst = append(dst, c)
				i++
				continue
			}
		case '*', '_':
			if next == c {
				i++
				continue
			}
		case '`':
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// appendFields appends the white-space separated fields of s (as
// strings.Fields splits them) joined by single spaces.
func appendFields(dst, s []byte) []byte {
	start := len(dst)
	space := true // at a field boundary
	for i := 0; i < len(s); {
		c := s[i]
		w := 1
		var isSpace bool
		if c < utf8.RuneSelf {
			isSpace = asciiSpace[c]
		} else {
			var r rune
			r, w = utf8.DecodeRune(s[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = true
		} else {
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, s[i:i+w]...)
		}
		i += w
	}
	return dst
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// isTableRule reports a markdown table separator such as |---|:--:|.
func isTableRule(line string) bool {
	dash := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '=':
		default:
			return false
		}
	}
	return dash
}

// appendTableRow appends the non-empty cells of a |-separated row,
// trimmed, joined by ", ".
func appendTableRow(dst []byte, line string) []byte {
	first := true
	for c := range strings.SplitSeq(strings.Trim(line, "|"), "|") {
		if c = strings.TrimSpace(c); c != "" {
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = append(dst, c...)
		}
	}
	return dst
}

// stripLinks rewrites [text](target) as text.
func stripLinks(s string) string {
	if !strings.Contains(s, "](") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "](")
		if i < 0 {
			break
		}
		open := strings.LastIndexByte(s[:i], '[')
		close := strings.IndexByte(s[i+2:], ')')
		if open < 0 || close < 0 {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:open])
		b.WriteString(s[open+1 : i])
		s = s[i+2+close+1:]
	}
	b.WriteString(s)
	return b.String()
}

type match struct {
	start, end int
	term       int
}

// snippet returns about snippetLen bytes of text around the densest cluster
// of query terms (terms are analysed, i.e. stemmed, as the index is).
func snippet(text string, terms []string, an *textAnalyzer) string {
	return plainSnippet(plainText(snippetText(text)), terms, an)
}

// snippetText is the part of a page's text snippets are cut from.
func snippetText(text string) string {
	if len(text) > snippetScan {
		text = text[:snippetScan]
	}
	return text
}

// plainSnippet is snippet given plainText(snippetText(text)).
func plainSnippet(plain string, terms []string, an *textAnalyzer) string {
	if len(plain) <= snippetLen {
		return plain
	}
	ms := findMatches(plain, terms, an)
	lo := 0
	if len(ms) > 0 {
		lo = bestWindow(plain, ms)
	}
	hi := min(lo+snippetLen, len(plain))
	if hi < len(plain) {
		// cut at the last space so that no word or rune is split
		if j := strings.LastIndexByte(plain[lo:hi], ' '); j > snippetLen/2 {
			hi = lo + j
		}
	}
	var b strings.Builder
	if lo > 0 {
		b.WriteString("...")
	}
	b.WriteString(strings.TrimRight(plain[lo:hi], " ,;:"))
	if hi < len(plain) {
		b.WriteString("...")
	}
	return b.String()
}

// bestWindow chooses where the snippet starts: the window of snippetLen
// bytes covering the most distinct terms, then the most matches, then the
// earliest; with a little lead before its first match, snapped to a word.
func bestWindow(plain string, ms []match) int {
	nterms := 0
	for _, m := range ms {
		nterms = max(nterms, m.term+1)
	}
	counts := make([]int, nterms)
	distinct, best, bestScore, bestEnd := 0, 0, -1, 0
	j := 0
	for i := range ms {
		for j < len(ms) && ms[j].end-ms[i].start <= snippetLen {
			if counts[ms[j].term] == 0 {
				distinct++
			}
			counts[ms[j].term]++
			j++
		}
		if score := distinct*1000 + (j - i); score > bestScore {
			best, bestScore, bestEnd = i, score, ms[j-1].end
		}
		counts[ms[i].term]--
		if counts[ms[i].term] == 0 {
			distinct--
		}
	}
	start := ms[best].start
	lead := min((snippetLen-(bestEnd-start))/3, 80)
	lo := max(start-max(lead, 0), 0)
	if lo > len(plain)-snippetLen {
		lo = max(len(plain)-snippetLen, 0)
	}
	if lo > 0 {
		// move forward to the start of a word
		if k := strings.IndexByte(plain[lo:start], ' '); k >= 0 {
			lo += k + 1
		} else {
			lo = start
		}
	}
	return lo
}

// findMatches finds the words of plain whose term is one of terms.
func findMatches(plain string, terms []string, an *textAnalyzer) []match {
	if len(terms) == 0 {
		return nil
	}
	var ms []match
	an.eachPos(unsafeBytes(plain), newWordFilter(terms), func(t string, start, end int) {
		if i := slices.Index(terms, t); i >= 0 {
			ms = append(ms, match{start: start, end: end, term: i})
		}
	})
	return ms
}
