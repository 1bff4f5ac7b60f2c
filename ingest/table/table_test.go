package table

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const corpus = "../../testdata/corpus"

func TestTitle(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/wiki/Brian_Schmidt", "Brian Schmidt"},
		{"//en.wikipedia.org/wiki/Brian_Schmidt", "Brian Schmidt"},
		{"http://www.wikipedia.org/wiki/Brian_Schmidt", "Brian Schmidt"},
		{"https://en.wikipedia.org/wiki/Caf%C3%A9#History", "Café"},
		{"/wiki/eek!_The_Cat", "Eek! The Cat"},
		{"/wiki/That_90's_Show", "That 90's Show"},
		{"/wiki/Lilo_&_Stitch:_The_Series", "Lilo & Stitch: The Series"},
		{"//en.wikipedia.org/wiki/File:Flag_of_France.svg", ""},
		{"/wiki/Help:IPA/English", ""},
		{"/wiki/Category:Living_people", ""},
		{"/wiki/Talk:Foo", ""},
		{"#cite_note-10", ""},
		{"//en.wikipedia.org/w/index.php?title=Foo_Bar&action=edit&redlink=1", ""},
		{"http://www.example.com/wiki/Foo", ""},
		{"//de.wikipedia.org/wiki/Foo", ""},
		{"", ""},
		{"/wiki/", ""},
		{"/wiki/AC/DC", "AC/DC"},
		{"/wiki/?A_Quien_Le_Importa?", "?A Quien Le Importa?"},
		{"/wiki/Foo?oldid=12", "Foo"},
		{"/wiki/100%25_(album)", "100% (album)"},
	}
	for _, c := range cases {
		if got := Title(c.in); got != c.want {
			t.Errorf("Title(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Brian Schmidt", "https://en.wikipedia.org/wiki/Brian_Schmidt"},
		{"Café", "https://en.wikipedia.org/wiki/Café"},
		{"100% (album)", "https://en.wikipedia.org/wiki/100%25_(album)"},
		{"", ""},
	}
	for _, c := range cases {
		got := URL(c.in)
		if got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
		if c.in != "" && Title(got) != c.in {
			t.Errorf("Title(URL(%q)) = %q", c.in, Title(got))
		}
	}
}

func TestDetokenize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Eek ! The Cat", "Eek! The Cat"},
		{"2003 , 2008", "2003, 2008"},
		{"That 90 's Show", "That 90's Show"},
		{"Laureate ( s )", "Laureate (s)"},
		{"Gov . Bibb Graves", "Gov. Bibb Graves"},
		{"Ph.D. , 1890 ; LL.D. , 1915", "Ph.D., 1890; LL.D., 1915"},
		{"Episode : Tank : Experiment 586", "Episode: Tank: Experiment 586"},
		{"he said \" hello \" twice", "he said \"hello\" twice"},
		{"do n't", "don't"},
		{"I 'm Gon na Git You Sucka", "I'm Gonna Git You Sucka"}, {"Wan na Be", "Wanna Be"}, {"Got ta Go", "Gotta Go"}, {"Tuna na Bay", "Tuna na Bay"},
		{"Returning to the ' A '", "Returning to the 'A'"},
		{"http : //www.promilux.lu/", "http://www.promilux.lu/"},
		{"Temple of Ba ` alat Gebal", "Temple of Ba`alat Gebal"}, {"Gardner-Webb Runnin ' Bulldogs", "Gardner-Webb Runnin' Bulldogs"}, {"Murang ' a United", "Murang'a United"}, {"DID Li ' l Masters", "DID Li'l Masters"}, {"Disc 4 : `` The Early Daze ''", "Disc 4: \"The Early Daze\""},
		{"the Williams ' house", "the Williams' house"}, {"Egremont Rangers ' A '", "Egremont Rangers 'A'"}, {"Kells ' A '", "Kells 'A'"},
		{"as of 2007 [ update ]", "as of 2007 [update]"},
		{"plain text", "plain text"},
		{"  padded  ", "padded"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Detokenize(c.in); got != c.want {
			t.Errorf("Detokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// readAll reads paths and returns the tables, passages and skips.
func readAll(t *testing.T, opts *Options, paths ...string) (tables []*Table, passages []*Passage, skips []*ParseError) {
	t.Helper()
	err := Read(context.Background(), paths, opts, func(it Item) error {
		n := 0
		if it.Table != nil {
			tables = append(tables, it.Table)
			n++
		}
		if it.Passage != nil {
			passages = append(passages, it.Passage)
			n++
		}
		if it.Skip != nil {
			skips = append(skips, it.Skip)
			n++
		}
		if n != 1 {
			t.Errorf("item with %d fields set", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return
}

func one(t *testing.T, path string) *Table {
	t.Helper()
	tables, _, skips := readAll(t, nil, path)
	if len(tables) != 1 || len(skips) != 0 {
		t.Fatalf("%s: %d tables, skips %v", path, len(tables), skips)
	}
	return tables[0]
}

func texts(row []Cell) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = c.Text
	}
	return out
}

func TestHTMLFragments(t *testing.T) {
	type cell struct {
		row, col int
		text     string
		links    []string
		spanned  bool
	}
	cases := []struct {
		file, title, section, caption string
		index, rows                   int
		header                        []string
		headerLinks                   map[int][]string
		cells                         []cell
		absent                        []string // never in any cell or header
	}{
		{
			file: "200-csv/0", title: "Renaissance (band)", section: "Discography | Studio albums", index: 0,
			header:      []string{"Year", "Title", "Chart-Positions UK", "Chart-Positions US", "Chart-Positions NL", "Comments"},
			headerLinks: map[int][]string{2: {"UK Albums Chart"}, 4: {"Gesellschaft für Konsumforschung"}},
			cells: []cell{
				{0, 0, "1969", nil, false},
				{0, 1, "Renaissance", []string{"Renaissance (Renaissance album)"}, false},
				{1, 5, "1976 (UK)", nil, false},
			},
			absent: []string{"[9]", "9]", "[10]"},
		},
		{
			file: "200-csv/1", title: "Mischa Barton", section: "Filmography | Film", index: 0,
			header: []string{"Year", "Title", "Role", "Notes"},
			cells: []cell{
				{0, 0, "1995", nil, false},
				{0, 1, "Polio Water", nil, false},
				{2, 1, "Lawn Dogs", []string{"Lawn Dogs"}, false},
			},
			absent: []string{"Sixth Sense, The", "Ring of Endless Light, A"},
		},
		{
			file: "200-csv/11", title: "The French Connection (film)", section: "Awards and nominations", index: 0,
			header: []string{"Award", "Category", "Nominee", "Result"},
			cells: []cell{
				{0, 0, "Academy Awards, 1972", []string{"44th Academy Awards"}, false},
				{1, 0, "Academy Awards, 1972", []string{"44th Academy Awards"}, true},
				{1, 2, "William Friedkin", nil, false},
			},
			absent: []string{"[20]", "[21]"},
		},
		{
			file: "202-csv/37", title: "Abel Prize", section: "Laureates", index: 0,
			caption: "List of winners of each year, their citizenship, institutions they attended and the justified citation.",
			header:  []string{"Year", "Laureate(s)", "Citizenship", "Institution", "Citation", "Ref"},
			cells: []cell{
				// a leading <th scope="row"> in a data row is a data cell
				{0, 0, "2003", nil, false},
				{0, 1, "Jean-Pierre Serre", []string{"Jean-Pierre Serre"}, false},
				{1, 1, "Michael Atiyah; Isadore Singer", []string{"Michael F. Atiyah", "Isadore M. Singer"}, false},
			},
		},
		{
			file: "203-csv/437", title: "List of Nobel laureates affiliated with the University of Pennsylvania", section: "Laureates", index: 0,
			header: []string{"Year", "Image", "Laureate", "Relation", "Category", "Rationale"},
			cells: []cell{
				{0, 0, "1922", nil, false},
				{0, 1, "", nil, false}, // image only: alt text dropped
				{0, 2, "Otto Fritz Meyerhof", []string{"Otto Fritz Meyerhof"}, false},
				{0, 4, "Physiology or Medicine", []string{"Nobel Prize in Physiology or Medicine"}, false},
			},
		},
		{
			file: "203-csv/113", title: "Shooting at the 1988 Summer Olympics", section: "Medal summary | Medal table", index: 0, rows: 20,
			header: []string{"Rank", "Nation", "Gold", "Silver", "Bronze", "Total"},
			cells: []cell{
				{0, 1, "Soviet Union (URS)", []string{"Soviet Union at the 1988 Summer Olympics"}, false},
				{0, 5, "11", nil, false},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			n, k, _ := strings.Cut(c.file, "-csv/")
			tb := one(t, filepath.Join(corpus, "wtq/csv", n+"-csv", k+".html"))
			if tb.Format != FormatHTML || tb.PageTitle != c.title || tb.PageURL != URL(c.title) || tb.Section != c.section || tb.Index != c.index {
				t.Errorf("got format %q title %q url %q section %q index %d", tb.Format, tb.PageTitle, tb.PageURL, tb.Section, tb.Index)
			}
			if !strings.HasPrefix(tb.PageURL, "https://en.wikipedia.org/wiki/") {
				t.Errorf("page url %q not canonical", tb.PageURL)
			}
			if c.caption != "" && tb.Caption != c.caption {
				t.Errorf("caption %q, want %q", tb.Caption, c.caption)
			}
			if !slices.Equal(tb.Header, c.header) {
				t.Errorf("header %q, want %q", tb.Header, c.header)
			}
			for col, want := range c.headerLinks {
				if !slices.Equal(tb.HeaderLink[col], want) {
					t.Errorf("header links[%d] = %q, want %q", col, tb.HeaderLink[col], want)
				}
			}
			if c.rows > 0 && len(tb.Rows) != c.rows {
				t.Errorf("%d rows, want %d", len(tb.Rows), c.rows)
			}
			for _, want := range c.cells {
				got := tb.Rows[want.row][want.col]
				if got.Text != want.text || !slices.Equal(got.Links, want.links) || got.Spanned != want.spanned {
					t.Errorf("cell %d,%d = %+v, want %+v", want.row, want.col, got, want)
				}
			}
			for _, r := range tb.Rows {
				if len(r) != len(tb.Header) {
					t.Errorf("row width %d, header %d", len(r), len(tb.Header))
				}
				for _, cl := range r {
					for _, a := range c.absent {
						if strings.Contains(cl.Text, a) {
							t.Errorf("cell %q holds %q", cl.Text, a)
						}
					}
				}
			}
		})
	}
}

func TestAllFragments(t *testing.T) {
	tables, _, skips := readAll(t, nil, filepath.Join(corpus, "wtq/csv"))
	if len(tables) != 38 || len(skips) != 0 {
		t.Fatalf("%d tables, skips %v; want 38, none", len(tables), skips)
	}
	for _, tb := range tables {
		if tb.PageTitle == "" || tb.Index < 0 || len(tb.Header) == 0 || len(tb.Rows) == 0 {
			t.Errorf("%s: title %q index %d header %q rows %d", tb.Source, tb.PageTitle, tb.Index, tb.Header, len(tb.Rows))
		}
		for _, r := range tb.Rows {
			for _, c := range r {
				if strings.Contains(c.Text, "[edit]") || strings.Contains(c.Text, "\u00a0") {
					t.Errorf("%s: cell %q", tb.Source, c.Text)
				}
			}
		}
	}
}

func TestHTMLPages(t *testing.T) {
	tables, _, skips := readAll(t, nil, filepath.Join(corpus, "wtq/pages-html.tar.gz"))
	if len(skips) != 0 || len(tables) < 10 {
		t.Fatalf("%d tables, skips %v", len(tables), skips)
	}
	byPage := map[string][]*Table{}
	for _, tb := range tables {
		if !strings.Contains(tb.Source, "pages-html.tar.gz!page/") {
			t.Errorf("source %q", tb.Source)
		}
		byPage[tb.PageTitle] = append(byPage[tb.PageTitle], tb)
	}
	if len(byPage) != 10 {
		t.Errorf("%d pages, want 10: %v", len(byPage), byPage)
	}
	// The table of each fragment is found again in its whole page, with
	// the same content, so the same Key.
	frags, _, _ := readAll(t, nil, filepath.Join(corpus, "wtq/csv"))
	matched := 0
	for _, f := range frags {
		pts, ok := byPage[f.PageTitle]
		if !ok {
			continue
		}
		if f.Index >= len(pts) {
			t.Errorf("%s: index %d, page has %d wikitables", f.Source, f.Index, len(pts))
			continue
		}
		p := pts[f.Index]
		if !slices.Equal(p.Header, f.Header) || len(p.Rows) != len(f.Rows) {
			t.Errorf("%s: page table %q %d rows, fragment %q %d rows", f.Source, p.Header, len(p.Rows), f.Header, len(f.Rows))
			continue
		}
		if p.Section != f.Section {
			t.Errorf("%s: page section %q, fragment %q", f.Source, p.Section, f.Section)
		}
		if p.Key() != f.Key() {
			t.Errorf("%s: keys differ", f.Source)
		}
		matched++
	}
	if matched < 8 {
		t.Errorf("only %d fragments matched their page", matched)
	}
}

func TestWikiTables(t *testing.T) {
	tables, _, skips := readAll(t, nil, filepath.Join(corpus, "ottqa/tables.jsonl.gz"))
	if len(tables) != 37 || len(skips) != 0 {
		t.Fatalf("%d tables, skips %v", len(tables), skips)
	}
	tb := tables[0]
	if tb.PageTitle != `"Weird Al" Yankovic` || tb.PageURL != `https://en.wikipedia.org/wiki/"Weird_Al"_Yankovic` ||
		tb.Section != "Filmography | Television" || tb.Index != 2 || tb.Format != FormatWikiTables ||
		!strings.HasSuffix(tb.Source, "tables.jsonl.gz#line 1") || !strings.HasPrefix(tb.Context, "Alfred Matthew") {
		t.Errorf("got %q %q %q %d %q %q", tb.PageTitle, tb.PageURL, tb.Section, tb.Index, tb.Format, tb.Source)
	}
	if !slices.Equal(tb.Header, []string{"Year", "Title", "Role", "Notes"}) {
		t.Errorf("header %q", tb.Header)
	}
	if got := tb.Rows[0][1]; got.Text != "Eek! The Cat" || !slices.Equal(got.Links, []string{"Eek! The Cat"}) {
		t.Errorf("cell %+v", got)
	}
	if got := tb.Rows[1][0].Text; got != "2003, 2008" {
		t.Errorf("cell %q", got)
	}
	if got := tb.Rows[1][3]; got.Text != "Eps. Three Gays of the Condo, That 90's Show" || !slices.Equal(got.Links, []string{"Three Gays of the Condo", "That 90's Show"}) {
		t.Errorf("cell %+v", got)
	}
	var nobel int
	for _, tb := range tables {
		if slices.Equal(tb.Header, []string{"Year", "Laureate", "Relation", "Category", "Rationale"}) {
			nobel++
		}
	}
	if nobel != 3 {
		t.Errorf("%d Nobel tables, want 3", nobel)
	}
}

func TestPassages(t *testing.T) {
	_, passages, skips := readAll(t, nil, filepath.Join(corpus, "ottqa/passages.jsonl.gz"))
	if len(passages) != 1138 || len(skips) != 0 {
		t.Fatalf("%d passages, skips %v", len(passages), skips)
	}
	byTitle := map[string]*Passage{}
	for _, p := range passages {
		byTitle[p.Title] = p
	}
	p := byTitle["Eek! The Cat"]
	if p == nil || strings.Contains(p.Text, " , ") || strings.Contains(p.Text, " .") {
		t.Errorf("passage %+v", p)
	}
	// every link of the sample tables has its passage, by title
	tables, _, _ := readAll(t, nil, filepath.Join(corpus, "ottqa/tables.jsonl.gz"))
	missing := 0
	for _, tb := range tables {
		for _, r := range tb.Rows {
			for _, c := range r {
				for _, l := range c.Links {
					if byTitle[l] == nil {
						missing++
					}
				}
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d links without a passage", missing)
	}
}

func TestTabEL(t *testing.T) {
	tables, _, skips := readAll(t, nil, filepath.Join(corpus, "tabel"))
	if len(tables) != 3 || len(skips) != 0 {
		t.Fatalf("%d tables, skips %v", len(tables), skips)
	}
	abel, nobel, medals := tables[0], tables[1], tables[2]
	if abel.PageTitle != "Abel Prize" || abel.Caption != "List of winners of each year" || abel.Index != -1 ||
		!slices.Equal(abel.Header, []string{"Year", "Laureate(s)", "Citizenship", "Institution"}) ||
		!slices.Equal(abel.Rows[0][3].Links, []string{"Collège de France"}) || abel.Format != FormatTabEL {
		t.Errorf("abel %+v", abel)
	}
	if nobel.Section != "Laureates" || nobel.Index != 0 || !slices.Equal(nobel.Rows[1][1].Links, []string{"Richard Kuhn"}) ||
		!slices.Equal(nobel.Header, []string{"Year", "Laureate", "Relation", "Category", "Rationale"}) {
		t.Errorf("nobel %+v", nobel)
	}
	if !slices.Equal(medals.Header, []string{"Rank", "Nation", "Medals Gold", "Medals Silver", "Medals Bronze", "Medals Total"}) ||
		medals.Ragged != 1 || len(medals.Rows[2]) != 6 || medals.Index != 1 {
		t.Errorf("medals %q ragged %d", medals.Header, medals.Ragged)
	}
}

func TestCSV(t *testing.T) {
	tables, _, skips := readAll(t, &Options{Titles: map[string][3]string{
		"Shooting_at_the_1988_Summer_Olympics.csv": {"Shooting at the 1988 Summer Olympics", "https://en.wikipedia.org/wiki/Shooting_at_the_1988_Summer_Olympics", "Men 's events -- Medal table"},
	}}, filepath.Join(corpus, "csv"))
	if len(tables) != 2 || len(skips) != 0 {
		t.Fatalf("%d tables, skips %v", len(tables), skips)
	}
	nobel, shoot := tables[0], tables[1]
	if nobel.PageTitle != "List of Nobel laureates affiliated with the University of Pennsylvania" ||
		!slices.Equal(nobel.Header, []string{"Year", "Laureate", "Relation", "Category", "Rationale"}) ||
		nobel.Rows[0][1].Text != "Otto Fritz Meyerhof" || nobel.Ragged != 0 {
		t.Errorf("nobel %q %q", nobel.PageTitle, nobel.Header)
	}
	if shoot.PageTitle != "Shooting at the 1988 Summer Olympics" || shoot.Section != "Men's events | Medal table" || nobel.Section != "" || len(shoot.Rows) != 20 ||
		!slices.Equal(texts(shoot.Rows[0]), []string{"1", "Soviet Union (URS)", "4", "1", "6", "11"}) {
		t.Errorf("shoot %q %v", shoot.PageTitle, shoot.Rows[0])
	}
	// delimiters, lax quotes, ragged rows
	for _, delim := range []string{",", "\t", ";", "|", "#"} {
		in := strings.ReplaceAll("Name,Country,Year\nAda \"the\" Lovelace,UK,1815\n\"Turing, Alan\",UK\nX,Y,Z,W\n", ",", delim)
		if delim != "," {
			in = strings.ReplaceAll(in, "Turing"+delim+" Alan", "Turing, Alan")
		}
		tb, err := ParseCSV("List_of_X.csv", strings.NewReader(in), nil)
		if err != nil {
			t.Fatalf("%q: %v", delim, err)
		}
		if tb.PageTitle != "List of X" || !slices.Equal(tb.Header, []string{"Name", "Country", "Year"}) || tb.Ragged != 2 ||
			tb.Rows[0][0].Text != `Ada "the" Lovelace` || tb.Rows[1][0].Text != "Turing, Alan" || tb.Rows[1][2].Text != "" || len(tb.Rows[2]) != 3 {
			t.Errorf("%q: %q %v ragged %d", delim, tb.PageTitle, tb.Rows, tb.Ragged)
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(corpus, "ottqa/tables.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	validLine := `{"url": "/wiki/X", "title": "X", "header": [["A", []]], "data": [[["1", []]]]}`
	cases := []struct {
		name    string
		data    []byte
		reason  string
		line    int
		records int // tables or passages read before/around the bad part
	}{
		{"truncated.jsonl.gz", good[:len(good)/2], "truncated", 19, -1},
		{"invalid.jsonl", []byte(validLine + "\n{\"header\": [[\n" + validLine + "\n"), "invalid json", 2, 2},
		{"notable.html", []byte("<html><body><h2>Nothing</h2><p>no tables here</p></body></html>"), "no table", 0, 0},
		{"empty.csv", []byte(" \n\n"), "empty", 0, 0},
		{"zero.json", nil, "empty", 0, 0},
		{"binary.bin", []byte("\x00\x01\x02\x03PK\x00\x00garbage"), "binary", 0, 0},
		{"unknown.dat", []byte("just some words without structure\n"), "unknown format", 0, 0},
		{"unknownjson.json", []byte(`{"foo": 1, "bar": [2]}` + "\n"), "unknown format", 0, 0},
		{"badgz.jsonl.gz", []byte("\x1f\x8b\x08garbage"), "truncated", 0, 0},
		{"badtar.tar.gz", gz(append(make([]byte, 257), []byte("ustar\x0000garbage")...)), "truncated", 0, 0},
		{"passage.jsonl", []byte(`{"url": "http://example.com/x", "text": "t"}` + "\n"), "no title", 1, 0},
		// A WikiTableQuestions fragment without its page/*.json sidecar,
		// and a record without title or URL, name no page.
		{"fragment.html", []byte(`<table class="wikitable"><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>`), "no page", 0, 0},
		{"untitled.jsonl", []byte(`{"url": "", "title": "", "header": [["A", []]], "data": [[["1", []]]]}` + "\n"), "no page", 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(c.name, c.data)
			tables, passages, skips := readAll(t, nil, p)
			if len(skips) != 1 || skips[0].Reason != c.reason || skips[0].File != p || skips[0].Line != c.line || skips[0].Msg == "" {
				t.Fatalf("skips %v, want one %q at line %d", skips, c.reason, c.line)
			}
			n := len(tables) + len(passages)
			if c.records >= 0 && n != c.records {
				t.Errorf("%d records, want %d", n, c.records)
			}
			if c.records < 0 && n == 0 {
				t.Errorf("no records before the truncation")
			}
		})
	}
	// A bad file does not stop the walk of the others.
	tables, _, skips := readAll(t, nil, dir, filepath.Join(corpus, "csv"), filepath.Join(dir, "missing.csv"))
	if len(tables) < 4 || len(skips) != len(cases)+1 || skips[len(skips)-1].Reason != "open" {
		t.Errorf("%d tables, %d skips", len(tables), len(skips))
	}
}

func TestReadStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := Read(context.Background(), []string{corpus}, nil, func(Item) error {
		n++
		if n == 5 {
			return stop
		}
		return nil
	})
	if err != stop || n != 5 {
		t.Errorf("err %v after %d items", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	err = Read(ctx, []string{corpus}, nil, func(Item) error {
		n++
		if n == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n > 3 {
		t.Errorf("err %v after %d items", err, n)
	}
}

// TestDeterministic reads the sample with one and with several workers and
// expects the same items in the same order, each table's Key stable.
func TestDeterministic(t *testing.T) {
	seq := func(workers int) []string {
		var out []string
		err := Read(context.Background(), []string{corpus}, &Options{Workers: workers}, func(it Item) error {
			switch {
			case it.Table != nil:
				out = append(out, it.Table.Source+" "+it.Table.Key())
			case it.Passage != nil:
				out = append(out, it.Passage.Source)
			default:
				out = append(out, it.Skip.Error())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := seq(1), seq(4)
	if !slices.Equal(a, b) || len(a) < 1200 {
		t.Errorf("%d and %d items differ", len(a), len(b))
	}
	for _, s := range a {
		if strings.Contains(s, "LICENSE") || strings.Contains(s, "README") || strings.Contains(s, "table-metadata") || strings.Contains(s, "-page/") && !strings.Contains(s, "!") {
			t.Errorf("sidecar or licence read: %s", s)
		}
	}
}

func TestKey(t *testing.T) {
	a := one(t, filepath.Join(corpus, "wtq/csv/203-csv/113.html"))
	b := one(t, filepath.Join(corpus, "wtq/csv/203-csv/113.html"))
	if a.Key() != b.Key() || len(a.Key()) != 32 {
		t.Fatalf("keys %q %q", a.Key(), b.Key())
	}
	b.Source, b.Section, b.Caption, b.Context = "elsewhere", "x", "y", "z"
	if a.Key() != b.Key() {
		t.Errorf("key depends on source or context")
	}
	b.Rows[3][2].Text = "9"
	if a.Key() == b.Key() {
		t.Errorf("key ignores a cell")
	}
	c := one(t, filepath.Join(corpus, "wtq/csv/203-csv/165.html"))
	if a.Key() == c.Key() {
		t.Errorf("two tables share a key")
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name, head string
		want       Format
	}{
		{"x", `{"uid": "A_0", "url": "u", "header": [["A", []]], "data": []}`, FormatWikiTables},
		{"x", `{"url": "/wiki/A", "text": "t"}`, FormatPassages},
		{"x", `{"pgTitle": "A", "tableData": []}`, FormatTabEL},
		{"x", `{"_id": "1-0", "numCols": 2, "tableHeaders": [[{"text": "A"}]]}`, FormatTabEL},
		{"x.json", "[\n {\"headers\": [], \"rows\": []}\n]", FormatTabEL},
		{"x", "<table class=\"wikitable\"><tr><td>1</td></tr></table>", FormatHTML},
		{"x.csv", "a,b\n1,2\n", FormatCSV},
		{"x", "a\tb\n1\t2\n", FormatCSV},
		{"x.csv.gz", "a;b\n", FormatCSV},
		{"x", "\x00\x01binary", ""},
		{"x.json", `{"title": "t", "tableIndex": 0}`, ""},
	}
	for _, c := range cases {
		if got := Detect(c.name, []byte(c.head)); got != c.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", c.name, c.head, got, c.want)
		}
	}
}

// TestHTMLHeaderWithSpacer: a two-row header whose first row holds an empty
// td spacer (a rowspan="100" gap between column groups, as on Wikipedia's
// championship pages) is still two header rows, joined into column names;
// its second row is not read as data.
func TestHTMLHeaderWithSpacer(t *testing.T) {
	const page = `<html><head><title>Cup - Wikipedia</title></head><body><h1>Cup</h1>
<table class="wikitable">
<tr><th rowspan="2">Year</th><th rowspan="2">Host</th><td rowspan="100"></td><th colspan="2">Final</th></tr>
<tr><th>Champions</th><th>Runners-up</th></tr>
<tr><td>1954</td><td>Belgium</td><td>Italy</td><td>Spain</td></tr>
<tr><td>1955</td><td>Spain</td><td>Spain</td><td>Germany</td></tr>
</table></body></html>`
	tables, err := ParseHTML("cup.html", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := tables[0]
	want := []string{"Year", "Host", "", "Final Champions", "Final Runners-up"}
	if !slices.Equal(tb.Header, want) {
		t.Errorf("header %q, want %q", tb.Header, want)
	}
	if len(tb.Rows) != 2 || tb.Rows[0][0].Text != "1954" {
		t.Errorf("%d rows, first %v", len(tb.Rows), tb.Rows[0])
	}
}

// TestHTMLImageLinks: a flag's link is no link of a rider whose own article
// does not exist (the cell would name France for Clément Dunikowski); it is
// the cell's link when the cell is the flag alone or says the same; an
// external link's autonumber ("[8]") is not text.
func TestHTMLImageLinks(t *testing.T) {
	const flag = `<span class="flagicon"><a href="/wiki/France" title="France"><img alt="France" src="f.png"></a></span>`
	const page = `<html><head><title>Race - Wikipedia</title></head><body><h1>Race</h1>
<table class="wikitable">
<tr><th>Rider</th><th>Nation</th><th>Federation</th></tr>
<tr><td>` + flag + ` <a href="/w/index.php?title=Cl%C3%A9ment_Dunikowski&action=edit&redlink=1" class="new">Clément Dunikowski</a></td><td>` + flag + `</td><td>Fédération Française des Échecs <a rel="nofollow" class="external autonumber" href="http://www.echecs.asso.fr">[26]</a></td></tr>
<tr><td>` + flag + ` <a href="/wiki/Alain_Prost" title="Alain Prost">Alain Prost</a></td><td>` + flag + ` France</td><td>x</td></tr>
<tr><td>Wild Oats</td><td>` + flag + ` (NSW)</td><td>y</td></tr>
</table></body></html>`
	tables, err := ParseHTML("race.html", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := tables[0].Rows
	for _, c := range []struct {
		got   Cell
		text  string
		links []string
	}{
		{r[0][0], "Clément Dunikowski", nil},
		{r[0][1], "", []string{"France"}},
		{r[0][2], "Fédération Française des Échecs", nil},
		{r[1][0], "Alain Prost", []string{"Alain Prost"}},
		{r[1][1], "France", []string{"France"}},
		{r[2][1], "(NSW)", []string{"France"}},
	} {
		if c.got.Text != c.text || !slices.Equal(c.got.Links, c.links) {
			t.Errorf("cell %q %q, want %q %q", c.got.Text, c.got.Links, c.text, c.links)
		}
	}
}

// TestPageMetaTitleUnescaped: WikiTableQuestions' metadata writes titles
// HTML-escaped ("Lilo &amp; Stitch"); the page's title is the text.
func TestPageMetaTitleUnescaped(t *testing.T) {
	page := `<table class="wikitable"><tr><th>Name</th><th>Year</th></tr><tr><td>Stitch</td><td>2002</td></tr></table>`
	tables, err := ParseHTML("5.html", strings.NewReader(page), &PageMeta{Title: "List of experiments from Lilo &amp; Stitch", Index: -1})
	if err != nil || len(tables) != 1 {
		t.Fatalf("%d tables, %v", len(tables), err)
	}
	if got, want := tables[0].PageTitle, "List of experiments from Lilo & Stitch"; got != want {
		t.Errorf("PageTitle = %q, want %q", got, want)
	}
}

// TestBrLines: a cell's lines that each name a thing are a list; a name
// wrapped over two lines, or a line qualifying the one above, is one text.
func TestBrLines(t *testing.T) {
	for in, want := range map[string]string{
		"Austin Walker \ue000 Sam S. Griffin":              "Austin Walker; Sam S. Griffin",
		"Germany \ue000 Tino Edelmann \ue000 Eric Frenzel": "Germany; Tino Edelmann; Eric Frenzel",
		"Frank L. Messa Rink at \ue000 Achilles Center":    "Frank L. Messa Rink at Achilles Center",
		"Meehan Auditorium \ue000 (1962)":                  "Meehan Auditorium (1962)",
		"The Lord of the Rings: \ue000 The Return":         "The Lord of the Rings: The Return",
		"Plain": "Plain",
	} {
		if got := brLines(in); got != want {
			t.Errorf("brLines(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTableStartingOver: a table that starts over under a header of its
// own is read as two, each captioned by the title row above its header; a
// footer of figures in th cells and a group's spanning sub-header are not
// headers.
func TestTableStartingOver(t *testing.T) {
	page := `<html><head><title>Coaches</title></head><body><table class="wikitable">
<tr><th colspan="3">Off-season</th></tr>
<tr><th>Date</th><th>Team</th><th>Interim coach</th></tr>
<tr><td>April 15</td><td>Thunder</td><td>Scott Brooks</td></tr>
<tr><td>May 9</td><td>Suns</td><td>Alvin Gentry</td></tr>
<tr><th colspan="3">In-season</th></tr>
<tr><th>Date</th><th>Outgoing coach</th><th>Reason</th></tr>
<tr><td>November 29</td><td>Lawrence Frank</td><td>Fired after a 0–16 start</td></tr>
<tr><th>Total</th><th>2</th><th>3</th></tr>
<tr><th colspan="2">England</th><th>League</th></tr>
<tr><td>December 1</td><td>Kim Hughes</td><td>Resigned</td></tr>
</table></body></html>`
	ts, err := ParseHTML("coaches.html", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 {
		t.Fatalf("%d tables, want 2", len(ts))
	}
	if ts[0].Caption != "Off-season" || ts[0].Header[2] != "Interim coach" || len(ts[0].Rows) != 2 {
		t.Errorf("first table: %q %q, %d rows", ts[0].Caption, ts[0].Header, len(ts[0].Rows))
	}
	if ts[1].Caption != "In-season" || ts[1].Header[1] != "Outgoing coach" || len(ts[1].Rows) != 4 {
		t.Errorf("second table: %q %q, %d rows", ts[1].Caption, ts[1].Header, len(ts[1].Rows))
	}
}

// TestSubHeading: a sub-heading an OTT-QA section text keeps with its
// edit link names the table's subsection.
func TestSubHeading(t *testing.T) {
	for text, want := range map[string]string{
		"Grasses [ edit ]":                          "Grasses",
		"Some prose about plants. Legumes [ edit ]": "Legumes",
		"No heading here.":                          "",
		"A very long sentence that is certainly not any kind of heading at all [ edit ]": "",
	} {
		if got := subHeading(text); got != want {
			t.Errorf("subHeading(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestAlphabeticHead: 19 rows running from A to L by their first letters
// are the head of a longer list; a list running to Z is whole.
func TestAlphabeticHead(t *testing.T) {
	rows := func(first ...string) [][]Cell {
		var out [][]Cell
		for _, f := range first {
			out = append(out, []Cell{{Text: f}, {Text: "x"}})
		}
		return out
	}
	if !alphabeticHead(rows("A Coruña", "Algeciras", "Albacete", "Badajoz", "Córdoba", "Lleida")) {
		t.Error("A to L is a head")
	}
	if alphabeticHead(rows("Albacete", "Madrid", "Zaragoza")) {
		t.Error("A to Z is whole")
	}
	if alphabeticHead(rows("Zaragoza", "Albacete")) {
		t.Error("unsorted is no head")
	}
}

// TestPartOfTitle: a section's text saying its table lists a part of
// what its title names.
func TestPartOfTitle(t *testing.T) {
	for txt, want := range map[string]bool{
		"The following table lists those entries which finished fifth or higher at Eurovision :": true,
		"This table lists the top ten players with the best bowling figures":                     true,
		"The table below lists all the winners since 1960.":                                      false,
		"Norway has won it three times.":                                                         false,
		"These are the top ten skaters based on points .":                                        true,
		"These are the clubs of the 2012 season.":                                                false,
	} {
		if got := partOfTitle.MatchString(txt); got != want {
			t.Errorf("partOfTitle(%q) = %v, want %v", txt, got, want)
		}
	}
}

// TestHTMLNoteAnchor: a link to the page's own note, marked by a figure,
// is no part of the cell ("1939" with note 3 is not "19393").
func TestHTMLNoteAnchor(t *testing.T) {
	const page = `<html><head><title>Records - Wikipedia</title></head><body><h1>Records</h1>
<table class="wikitable">
<tr><th>Player</th><th>Date</th></tr>
<tr><td>Jim Tabor</td><td>July 4, <a href="/wiki/1939_in_baseball">1939</a><a href="#Notes"><sup>3</sup></a></td></tr>
<tr><td>Tony Lazzeri</td><td>May 24, 1936 <a href="#See_also">see also</a></td></tr>
</table></body></html>`
	tables, err := ParseHTML("records.html", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := tables[0].Rows
	if got := rows[0][1].Text; got != "July 4, 1939" {
		t.Errorf("date %q, want July 4, 1939", got)
	}
	if got := rows[1][1].Text; got != "May 24, 1936 see also" {
		t.Errorf("a link of words stays: %q", got)
	}
}

// TestHTMLSquaredUnit: a superscript 2 after a unit squares it ("817
// km²", "Area (km²)"); after a name it stays a figure.
func TestHTMLSquaredUnit(t *testing.T) {
	const page = `<html><head><title>Lakes - Wikipedia</title></head><body><h1>Lakes</h1>
<table class="wikitable">
<tr><th>Lake</th><th>Area (km<sup>2</sup>)</th><th>Volume</th><th>Note</th></tr>
<tr><td>Atatürk</td><td>817&#160;km<sup>2</sup></td><td>48.7 km<sup>3</sup></td><td>Phase<sup>2</sup></td></tr>
</table></body></html>`
	tables, err := ParseHTML("lakes.html", strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	row := tables[0].Rows[0]
	if got := tables[0].Header[1]; got != "Area (km²)" {
		t.Errorf("header %q, want Area (km²)", got)
	}
	for i, want := range []string{"", "817 km²", "48.7 km³", "Phase2"} {
		if i > 0 && row[i].Text != want {
			t.Errorf("cell %d %q, want %q", i, row[i].Text, want)
		}
	}
}

// TestPartLine: a short line naming one season or round above a table is
// its title; a sentence is not.
func TestPartLine(t *testing.T) {
	for txt, want := range map[string]bool{
		"Season 1: 1965-66": true, "Group B": true, "Round 3": true,
		"Culp as writer": false, "The season began in August and ended in May with the final.": false, "Season": false,
	} {
		if got := partLine.MatchString(txt); got != want {
			t.Errorf("partLine(%q) = %v, want %v", txt, got, want)
		}
	}
}

// TestCutByLead: a page whose lead counts more players than its one table
// of players holds lists a part; tables one per round are each whole.
func TestCutByLead(t *testing.T) {
	table := func(rows int) string {
		var b strings.Builder
		b.WriteString(`<table class="wikitable"><tr><th>Player</th><th>Pick</th></tr>`)
		for i := range rows {
			fmt.Fprintf(&b, "<tr><td>P%d</td><td>%d</td></tr>", i, i+1)
		}
		b.WriteString("</table>")
		return b.String()
	}
	lead := "<html><head><title>1959 NBA draft</title></head><body><p>The draft consisted of 14 rounds comprising 85 players selected.</p>"
	for _, c := range []struct {
		name, page string
		want       bool
	}{
		{"one table of a part", lead + "<h2>Draft</h2>" + table(38) + "</body></html>", true},
		{"one whole table", lead + "<h2>Draft</h2>" + table(85) + "</body></html>", false},
		{"a table per round", lead + "<h2>Round 1</h2>" + table(10) + "<h2>Round 2</h2>" + table(10) + "</body></html>", false},
		{"no count in the lead", "<html><body><p>A draft.</p><h2>Draft</h2>" + table(38) + "</body></html>", false},
	} {
		ts, err := ParseHTML("p.html", strings.NewReader(c.page), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := ts[0].Cut; got != c.want {
			t.Errorf("%s: Cut = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPartText: a section's text of one line naming its table's part
// (the men's race, the players in) is that part; other short texts are
// not.
func TestPartText(t *testing.T) {
	for in, want := range map[string]string{
		"Elite Men [ 9 ]": "Elite Men", "Women 's": "Women's", "In": "In", "Out :": "Out",
		"Running order": "", "[ 2 ]": "", "Key": "", "Men 's results are below .": "",
	} {
		if got := partText(in); got != want {
			t.Errorf("partText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCountsMore: a section's text counting more of what its table lists
// than the table's rows marks it cut; a count of other things, or as
// many, does not.
func TestCountsMore(t *testing.T) {
	line := func(text string, rows int) []byte {
		var data []string
		for i := range rows {
			data = append(data, fmt.Sprintf(`[["City %d",[]],["Chubu",[]]]`, i))
		}
		return []byte(`{"uid":"Special_cities_of_Japan_0","url":"/wiki/Special_cities_of_Japan","title":"Special cities of Japan",` +
			`"section_title":"List of special cities","section_text":"` + text + `","intro":"",` +
			`"header":[["Name",[]],["Region",[]]],"data":[` + strings.Join(data, ",") + `]}`)
	}
	for _, c := range []struct {
		text string
		rows int
		want bool
	}{
		{"As of 1 April 2019 , 27 cities have been designated special cities :", 16, true},
		{"As of 1 April 2019 , 16 cities have been designated special cities :", 16, false},
		{"The 27 regions of Japan", 16, false},
		{"", 16, false},
	} {
		tb, err := ParseWikiTablesLine(line(c.text, c.rows))
		if err != nil {
			t.Fatal(err)
		}
		if tb.Cut != c.want {
			t.Errorf("%q over %d rows: Cut = %v, want %v", c.text, c.rows, tb.Cut, c.want)
		}
	}
}

// TestLeadCountsMore: a page's lead counting more than the rows of a
// table under a section that only says where it stands ("List") marks it
// cut; a lead over a table of a named section, or counting as many, does
// not.
func TestLeadCountsMore(t *testing.T) {
	for _, c := range []struct {
		lead, section string
		rows          int
		want          bool
	}{
		{"This list only includes significant summits . There are over 50 such summits in the canton of St. Gallen .", "List", 18, true},
		{"There are over 50 such summits in the canton .", "", 18, true},
		{"There are over 50 such summits in the canton .", "Glarus Alps", 18, false},
		{"There are 18 summits in the canton .", "List", 18, false},
		{"The canton has 50 summits .", "List", 18, false},
	} {
		if got := leadCountsMore(c.lead, "List of mountains of the canton of St. Gallen", c.section, c.rows); got != c.want {
			t.Errorf("%q over %d rows under %q: %v, want %v", c.lead, c.rows, c.section, got, c.want)
		}
	}
}

// TestLetterHead: a letter's table the crawl kept near its cap that stops
// in the first half of its letter is cut; one that runs on is not.
func TestLetterHead(t *testing.T) {
	rows := func(names ...string) [][]Cell {
		var out [][]Cell
		for _, n := range names {
			out = append(out, []Cell{{Text: n}, {Text: "novelist"}})
		}
		return out
	}
	head := rows("Tom Rachman", "Ernest Raddall", "Thomas Raddall", "Craig Raine", "Jane Rule A", "Paul Rabe", "Rick Rabel",
		"Ann Rae", "Bob Rafe", "Sue Rahm", "Jim Ramsay", "Kim Rand", "Lee Rankin", "Al Reaney", "Zalika Reid-Benta")
	head[4][0].Text = "Ray Reed" // every surname in Ra–Re
	if !letterHead("Writers | R", head) {
		t.Error("15 writers from Rachman to Reid-Benta are the head of R")
	}
	whole := rows("Tom Rachman", "Ernest Raddall", "Thomas Raddall", "Craig Raine", "Ray Reed", "Paul Rabe", "Rick Rabel",
		"Ann Rae", "Bob Rafe", "Sue Rahm", "Mordecai Richler", "Gabrielle Roy", "Lee Rankin", "Al Reaney", "Zalika Reid-Benta")
	if letterHead("R", whole) {
		t.Error("writers running on to Roy are the whole of R")
	}
	if letterHead("Writers", head) {
		t.Error("no letter's section, no letter's head")
	}
}

// TestSomeOf: a section that says it holds a part of what it lists ("Some
// of the monument aux morts in the Aisne region") is read as cut in a
// sample of the article's tables; one naming its set is not.
func TestSomeOf(t *testing.T) {
	for sec, want := range map[string]bool{
		"Some of the monument aux morts in the Aisne region": true,
		"A few of the clubs":      true,
		"Selected filmography":    false,
		"Partial list of members": true,
		"Members":                 false,
		"Somerset County":         false,
		"Notable alumni":          false,
	} {
		if got := someOf.MatchString(sec); got != want {
			t.Errorf("someOf(%q) = %v, want %v", sec, got, want)
		}
	}
	line := []byte(`{"uid":"War_memorials_(Aisne)_0","url":"https://en.wikipedia.org/wiki/War_memorials_(Aisne)","title":"War memorials (Aisne)","section_title":"Some of the monument aux morts in the Aisne region","section_text":"","intro":"","header":[["Work",[]],["Location",[]]],"data":[[["The monument aux morts at Achery",[]],["Achery",[]]],[["The monument aux morts at Guise",[]],["Guise",[]]]]}`)
	tb, err := ParseWikiTablesLine(line)
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Cut {
		t.Errorf("a table under %q is not marked cut", tb.Section)
	}
}
