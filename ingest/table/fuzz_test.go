package table

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets check that no parser panics, and that what they return
// holds together: rows as wide as the header, keys computable.

func checkTable(t *testing.T, tb *Table) {
	t.Helper()
	for _, r := range tb.Rows {
		if len(r) != len(tb.Header) {
			t.Fatalf("row width %d, header %d", len(r), len(tb.Header))
		}
	}
	if tb.HeaderLink != nil && len(tb.HeaderLink) != len(tb.Header) {
		t.Fatalf("%d header links for %d columns", len(tb.HeaderLink), len(tb.Header))
	}
	_ = tb.Key()
}

func FuzzParseHTML(f *testing.F) {
	for _, p := range []string{"wtq/csv/200-csv/0.html", "wtq/csv/200-csv/11.html", "wtq/csv/202-csv/37.html"} {
		if b, err := os.ReadFile(filepath.Join(corpus, p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<h2>A</h2><p>x</p><table class="wikitable"><tr><th colspan=3>T</th></tr><tr><th>a<th>b</tr><tr><td rowspan=0>1<td colspan=999999>2</table>`))
	f.Add([]byte(`<table><tr><td rowspan="3"><table class="wikitable"><tr><td>n</td></tr></table></td></tr></table>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tables, err := ParseHTML("f.html", bytes.NewReader(b), nil)
		if err == nil && len(tables) == 0 {
			t.Fatal("no tables and no error")
		}
		for _, tb := range tables {
			checkTable(t, tb)
		}
	})
}

func FuzzParseWikiTables(f *testing.F) {
	f.Add([]byte(`{"uid": "X_1", "url": "https://en.wikipedia.org/wiki/X", "title": "X", "section_title": "A -- B", "header": [["Year", []], ["Title", ["/wiki/T"]]], "data": [[["2003 , 2008", []], ["Eek ! The Cat", ["/wiki/Eek!_The_Cat"]]], [["1", []]]]}`))
	f.Add([]byte(`{"header": ["a"], "data": [[["x"]]]}`))
	f.Add([]byte(`{"url": "/wiki/A", "text": "B , c ( d ) ."}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if tb, err := ParseWikiTablesLine(b); err == nil {
			checkTable(t, tb)
		}
		if p, err := ParsePassageLine(b); err == nil && p.Title == "" {
			t.Fatal("passage without title")
		}
		_ = Detokenize(string(b))
		_ = Title(string(b))
		_ = Detect("x", b)
	})
}

func FuzzParseTabEL(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(corpus, "tabel/tabel.jsonl")); err == nil {
		for _, l := range bytes.Split(b, []byte("\n")) {
			f.Add(l)
		}
	}
	if b, err := os.ReadFile(filepath.Join(corpus, "tabel/Abel_Prize.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"headers": [{"text": "a", "links": ["http://www.wikipedia.org/wiki/X"]}], "rows": [[], [{"text": "1"}, {"text": "2"}]]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if tb, err := ParseTabELLine(b); err == nil {
			checkTable(t, tb)
		}
	})
}

func FuzzParseCSV(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(corpus, "csv/Shooting_at_the_1988_Summer_Olympics.csv")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("a\tb\n1\t\"2\n3\t4"))
	f.Add([]byte("a;b;c\n1;2\n1;2;3;4\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := ParseCSV("List_of_X.csv", bytes.NewReader(b), nil)
		if err == nil {
			checkTable(t, tb)
		} else if !strings.Contains(err.Error(), "List_of_X.csv") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
