package index

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlainText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"born October 23 , 1959 ) is", "born October 23, 1959) is"},
		{"# Title\n\n## Section\n\n| A | B |\n|---|:--:|\n| [x](https://y) | **z** |", "Title. Section. A, B. x, z"},
		{"- has_award: Booker Prize\n- has_year: 1983", "has_award: Booker Prize. has_year: 1983"},
		{"Yankovic 's first album ( 1983 ) !", "Yankovic's first album (1983)!"},
	}
	for _, tt := range tests {
		if got := plainText(tt.in); got != tt.want {
			t.Errorf("plainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzSnippet(f *testing.F) {
	f.Add("Brian Schmidt ( born 1967 ) astrophysicist | a | b |\n|---|", "astrophysicist born")
	f.Add(strings.Repeat("é漢字 word ", 100), "word")
	an := newTextAnalyzer()
	f.Fuzz(func(t *testing.T, text, q string) {
		s := snippet(text, an.terms(q), an)
		if !utf8.ValidString(text) {
			return
		}
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 snippet %q", s)
		}
		if len(s) > snippetLen+6 {
			t.Errorf("snippet length %d", len(s))
		}
	})
}

// TestWordFilter holds the premise of findMatches' prefilter: the filter
// of a word's term passes the word. Words are those of the sample corpus,
// plus short words that Porter's rules rewrite.
func TestWordFilter(t *testing.T) {
	an := newTextAnalyzer()
	words := map[string]bool{}
	add := func(s string) {
		for w := range strings.FieldsFuncSeq(strings.ToLower(s), func(r rune) bool {
			return !isWordRune(r)
		}) {
			words[w] = true
		}
	}
	for _, w := range []string{"ies", "ays", "ay", "eying", "oys", "sses", "ied", "eed", "ing", "aing", "ational", "yes", "ÿes", "éies", "ölies", "xyzzy", "abilities"} {
		add(w)
	}
	for _, text := range sampleTexts(t) {
		add(text)
	}
	checked := 0
	for w := range words {
		t2 := an.term([]byte(w))
		if t2 == "" {
			continue
		}
		checked++
		if !newWordFilter([]string{t2}).pass([]byte(w)) {
			t.Errorf("term(%q) = %q, whose filter does not pass the word", w, t2)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d words checked", checked)
	}
}

// TestFindMatchesPrefilter compares findMatches with an unfiltered scan.
func TestFindMatchesPrefilter(t *testing.T) {
	an := newTextAnalyzer()
	for i, text := range sampleTexts(t) {
		plain := plainText(text)
		var terms []string
		for i, w := range an.terms(plain) {
			if i%7 == 0 && !slices.Contains(terms, w) {
				terms = append(terms, w)
			}
		}
		var want []match
		an.eachPos([]byte(plain), nil, func(t string, start, end int) {
			if i := slices.Index(terms, t); i >= 0 {
				want = append(want, match{start, end, i})
			}
		})
		if got := findMatches(plain, terms, an); !slices.Equal(got, want) {
			t.Fatalf("text %d: findMatches differs from an unfiltered scan", i)
		}
	}
}

// sampleTexts returns the files of the sample corpus (testdata/corpus),
// gunzipped, cut into pieces of at most 64 KiB.
func sampleTexts(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("../testdata/corpus", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return err
			}
			if b, err = io.ReadAll(zr); err != nil {
				return err
			}
		}
		for len(b) > 0 {
			n := min(len(b), 64<<10)
			out = append(out, strings.ToValidUTF8(string(b[:n]), " "))
			b = b[n:]
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no sample corpus in ../testdata/corpus")
	}
	return out
}

// plainTextRef is plainText written plainly, with strings.Replacer and
// strings.Fields: the definition plainText must keep to.
func plainTextRef(s string) string {
	punct := strings.NewReplacer(
		" ,", ",", " .", ".", " ;", ";", " :", ":", " !", "!", " ?", "?",
		" )", ")", "( ", "(", " ]", "]", "[ ", "[", " 's", "'s", " n't", "n't",
		" %", "%", "**", "", "__", "", "`", "",
	)
	var b strings.Builder
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
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			line = strings.Join(cells, ", ")
		}
		line = stripLinks(line)
		line = punct.Replace(line)
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			switch b.String()[b.Len()-1] {
			case '.', '!', '?', ':', ';', ',':
				b.WriteByte(' ')
			default:
				b.WriteString(". ")
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

func TestPlainTextMatchesReference(t *testing.T) {
	texts := append(sampleTexts(t),
		"a  , b", "( ( x", "***bold*** __u__ `c`", " n't 's  's", "x\u00a0,\u2003y", "|  | a |  |", "\xff ,\xfe",
		"- * # > ##", "a [ b ]( c ) d", "#\n|\n-\n", "x ( ,",
	)
	for i, s := range texts {
		if got, want := plainText(s), plainTextRef(s); got != want {
			t.Fatalf("text %d: plainText differs from the reference\n got %.300q\nwant %.300q", i, got, want)
		}
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add("| a | [b](c) |\n# T ( x ) , y 's\n|---|")
	f.Add("x\u00a0 ,\u2003y ** z __ `")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainText(s), plainTextRef(s); got != want {
			t.Fatalf("plainText(%q) = %q, reference %q", s, got, want)
		}
	})
}

func FuzzFindMatches(f *testing.F) {
	f.Add("Ponies' AYS x's O'Neil ablities happy", "pony ays x o'neil abilities happiness")
	an := newTextAnalyzer()
	f.Fuzz(func(t *testing.T, text, q string) {
		terms := an.terms(q)
		var want []match
		an.eachPos([]byte(text), nil, func(tm string, start, end int) {
			if i := slices.Index(terms, tm); i >= 0 {
				want = append(want, match{start, end, i})
			}
		})
		if got := findMatches(text, terms, an); !slices.Equal(got, want) {
			t.Fatalf("findMatches(%q, %q) = %v, unfiltered %v", text, terms, got, want)
		}
	})
}
