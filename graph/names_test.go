package graph

import (
	"slices"
	"strings"
	"testing"
)

// matchRef is the definition MatchNames keeps to.
func matchRef(ss []Shown, low string) []uint32 {
	var out []uint32
	for _, s := range ss {
		if len(s.Name) < 2 {
			continue
		}
		name := strings.ToLower(s.Name)
		for i := 0; ; {
			j := strings.Index(low[i:], name)
			if j < 0 {
				break
			}
			a, b := i+j, i+j+len(name)
			if (a == 0 || !isWordByte(low[a-1])) && (b == len(low) || !isWordByte(low[b])) {
				out = append(out, s.ID)
				break
			}
			i = a + 1
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

var oddNames = []Shown{
	{ID: 1, Name: "(band)"}, {ID: 2, Name: "AC/DC"}, {ID: 3, Name: "x"}, {ID: 4, Name: "São Paulo"},
	{ID: 5, Name: "ac"}, {ID: 6, Name: "-1"}, {ID: 7, Name: "Paris"}, {ID: 8, Name: "Paris, Texas"},
	{ID: 9, Name: "paris"}, {ID: 10, Name: "A{b}"}, {ID: 11, Name: "a`b"}, {ID: 12, Name: "a:b"},
	{ID: 13, Name: "..."}, {ID: 14, Name: "a.b.c"}, {ID: 15, Name: "ab"}, {ID: 16, Name: "abc"},
}

func TestMatchNames(t *testing.T) {
	blob := NamesBlob(oddNames)
	for _, s := range []string{
		"the (band) played ac/dc in são paulo", "acdc", "x -1 ac", "parisian", "paris", "paris, texas!",
		"a{b} a`b a:b", "...", "x...y", "a.b.c.d", "a.b.cd", "zab ab abc abcd", "", "(band)(band)", "-1x -1",
	} {
		got, ok := MatchNames(blob, s)
		if want := matchRef(oddNames, s); !ok || !slices.Equal(got, want) {
			t.Errorf("%q: MatchNames %v, %v; reference %v", s, got, ok, want)
		}
	}
	if _, ok := MatchNames([]byte{0x01, 1}, "x"); ok {
		t.Error("MatchNames accepted another encoding")
	}
	if _, ok := MatchNames(NamesBlob(nil), "x"); !ok {
		t.Error("MatchNames refused an empty blob")
	}
}

func FuzzMatchNames(f *testing.F) {
	f.Add("Paris|AC/DC|(band)", "the (band) in paris")
	f.Add("a b|a|ab", "a ab a b")
	f.Fuzz(func(t *testing.T, names, text string) {
		var ss []Shown
		for i, n := range strings.Split(names, "|") {
			ss = append(ss, Shown{ID: uint32(i), Name: n})
		}
		low := strings.ToLower(text)
		got, ok := MatchNames(NamesBlob(ss), low)
		if want := matchRef(ss, low); !ok || !slices.Equal(got, want) {
			t.Fatalf("names %q text %q: MatchNames %v, reference %v", names, low, got, want)
		}
	})
}

// TestPlainName: a quoted nickname between a person's names, or a title
// of address before them, is left out; other quotes and names stay.
func TestPlainName(t *testing.T) {
	for in, want := range map[string]string{
		`Sune "Mona-Lisa" Andersson`:       "Sune Andersson",
		`Nils "Lidas"/"Greven" Liedholm`:   "Nils Liedholm",
		"Louis “Speedy” Thomas":            "Louis Thomas",
		`Eugene "Mercury" Morris`:          "Eugene Morris",
		`Henry Carlsson`:                   "",
		`"Weird Al" Yankovic`:              "",
		`Song "Title" and more words here`: "",
		`The "Hits" Album`:                 "",
		"Ms Carina Autengruber":            "Carina Autengruber",
		"Mr Luis Alvarado Martinez":        "Luis Alvarado Martinez",
		"Dr. Ruth Westheimer":              "Ruth Westheimer",
		"Sir Alex Ferguson":                "Alex Ferguson",
		"Mr. Olympia":                      "",
		"Miss Universe 2010":               "",
		"Mrs Brown's Boys":                 "",
		"Missouri State University":        "",
	} {
		got, ok := PlainName(in)
		if want == "" && ok || want != "" && got != want {
			t.Errorf("PlainName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
