// Package textnorm normalises text the same way wherever leaper reads it:
// the readers' cells and titles (ingest/table), the cleaning's headers
// (build) and the graph's canonical titles and names (graph).
//
// # Concurrency
//
// Its functions are pure and safe for concurrent use.
//
// # Caveats
//
// They run on every cell of every table a build reads: CollapseSpace and
// SqueezeSpaces return their argument itself, without allocating, when
// there is nothing to change.
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CollapseSpace trims s and replaces each run of white space (including
// no-break spaces) with one space. It returns s itself when nothing changes.
func CollapseSpace(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			if prevSpace {
				clean = false
				break
			}
			prevSpace = true
			continue
		}
		if c < ' ' || c >= 0x80 || c == 0x7f {
			clean = false
			break
		}
		prevSpace = false
	}
	if clean && !prevSpace || s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == 0xa0 || r == 0x200b || r == 0xfeff {
			space = b.Len() > 0
			continue
		}
		if r == utf8.RuneError || (r < ' ' && r != '\t') || r == 0x7f {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FoldAccents is s in lower case without its accents (NFD, the marks
// dropped): "Wallström" → "wallstrom".
func FoldAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// IsSpace is regexp's \s: [\t\n\f\r ].
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// SqueezeSpaces replaces each run of whitespace (regexp's \s+) with one
// space, as regexp `\s+` replaced with " " does, without a regexp: it
// runs on every cell of every table a build reads.
func SqueezeSpaces(s string) string {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; IsSpace(c) && (c != ' ' || i+1 < len(s) && IsSpace(s[i+1])) {
			break
		}
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		if !IsSpace(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		b = append(b, ' ')
		for i < len(s) && IsSpace(s[i]) {
			i++
		}
	}
	return string(b)
}

// dashes are the dashes FoldDashes writes as a hyphen.
var dashes = strings.NewReplacer("–", "-", "—", "-", "‐", "-", "−", "-")

// FoldDashes returns s with its dashes one kind (a hyphen) and no spaces
// around them: "Langley–Eustis", "Langley-Eustis" and "Langley - Eustis"
// read alike.
func FoldDashes(s string) string {
	if !strings.ContainsAny(s, "-–—‐−") {
		return s // most names: no dash, nothing to write
	}
	s = dashes.Replace(s)
	return strings.ReplaceAll(strings.ReplaceAll(s, " -", "-"), "- ", "-")
}
