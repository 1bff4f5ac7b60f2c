package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// runApart separates the things a cell of several links runs together:
// Wikipedia writes them a line each, and the exports join the lines
// with a space ("Merian C. Cooper Ernest B. Schoedsack Lothar Mendes",
// "Milan Paris Saint-Germain", "Eriksdalshallen (Main venue)
// Skanstullshallen (Second venue)"). It parts them only where it can
// tell every part: the text starts with a linked name, and between two
// linked names and after the last is nothing, a parenthesis that stays
// with the name before it, or an unlinked name of two or three
// capitalised words ("Lothar Mendes"). The parts are joined
// by ", ". Any other text (already separated by a comma, "and", a dash;
// a name inside a phrase, "shared with Christiaan Eijkman", "Tom Jones
// featuring Mousse T"; a word that may end the name before it,
// "Bongeunsa Temple") is returned as it is.
func runApart(text string, links []string) string {
	if len(links) < 2 || strings.ContainsAny(text, ",;/&•·\n") || strings.Contains(text, " and ") || strings.Contains(text, " or ") ||
		strings.Contains(text, " - ") || strings.Contains(text, " – ") || strings.Contains(text, " — ") {
		return text
	}
	type span struct{ start, end int }
	var spans []span
	at := 0
	for _, l := range links {
		s, e := findName(text, at, l)
		if s < 0 {
			continue
		}
		spans = append(spans, span{s, e})
		at = e
	}
	if len(spans) < 2 || spans[0].start != 0 {
		return text
	}
	var parts []string
	for i, sp := range spans {
		next := len(text)
		if i+1 < len(spans) {
			next = spans[i+1].start
		}
		part, gap := text[sp.start:sp.end], strings.TrimSpace(text[sp.end:next])
		switch {
		case gap == "":
			parts = append(parts, part)
		case strings.HasPrefix(gap, "("):
			if strings.Count(gap, "(") != strings.Count(gap, ")") || strings.Contains(gap, ") ") && !strings.HasSuffix(gap, ")") {
				return text // a note that goes on past its parenthesis
			}
			parts = append(parts, part+" "+gap)
		case unlinkedName(gap):
			parts = append(parts, part, gap)
		default:
			return text
		}
	}
	return strings.Join(parts, ", ")
}

// unlinkedName reports whether s is a person's or place's name: two or
// three words, each capitalised.
func unlinkedName(s string) bool {
	ws := strings.Fields(s)
	if len(ws) < 2 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// findName finds, at or after byte at of text, the first name of the
// article titled l that text writes as whole words: its title, the title
// without its qualifier ("Jack Holden" of "Jack Holden (athlete)"), or
// without a club's abbreviation ("Milan" of "A.C. Milan", "Paris
// Saint-Germain" of "Paris Saint-Germain F.C."). It returns the name's
// start and end, or -1, -1.
func findName(text string, at int, l string) (int, int) {
	best, bestEnd := -1, -1
	for _, n := range nameForms(l) {
		if len(n) < 3 {
			continue
		}
		for from := at; from < len(text); {
			i := strings.Index(text[from:], n)
			if i < 0 {
				break
			}
			s, e := from+i, from+i+len(n)
			if wordEdge(text, s) && wordEdge(text, e) {
				if best < 0 || s < best || s == best && e > bestEnd {
					best, bestEnd = s, e
				}
				break
			}
			from = s + 1
		}
	}
	return best, bestEnd
}

// nameForms are the names findName looks for of the article titled l.
func nameForms(l string) []string {
	out := []string{l}
	head := l
	if i := strings.IndexAny(l, "(,"); i > 0 {
		head = strings.TrimSpace(l[:i])
		out = append(out, head)
	}
	ws := strings.Fields(head)
	if len(ws) > 1 && strings.Contains(ws[0], ".") {
		out = append(out, strings.Join(ws[1:], " ")) // "A.C. Milan"
	}
	if len(ws) > 1 && (strings.Contains(ws[len(ws)-1], ".") || clubMark[ws[len(ws)-1]]) {
		out = append(out, strings.Join(ws[:len(ws)-1], " ")) // "Paris Saint-Germain F.C."
	}
	return out
}

// clubMark are the abbreviations a club's title ends with that its
// table's cells leave out.
var clubMark = map[string]bool{"FC": true, "AFC": true, "SC": true, "CF": true, "FK": true, "SK": true}

// wordEdge reports whether byte i of s is at a word's edge: the text's
// ends, or a letter or digit on one side only.
func wordEdge(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	a, _ := utf8.DecodeLastRuneInString(s[:i])
	b, _ := utf8.DecodeRuneInString(s[i:])
	return !(isWordRune(a) && isWordRune(b))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
