package graph

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph/table"
)

func TestWrites(t *testing.T) {
	for _, c := range []struct {
		name, surface string
		want          bool
	}{
		{"Drumcondra, Dublin", "Drumcondra", true},
		{"Cork (city)", "Cork", true},
		{"Nike, Inc.", "Nike", true},
		{"Hereafter (film)", "hereafter", true},
		{"Jimmy Thomas (American football)", "Jim Thomas", true},
		{"Jay, Maine", "North Jay", true},
		{"United Kingdom", "Great Britain", true},
		{"William Golding", "Golding", false}, // a surname: the title is the better answer
		{"United States", "USA", false},       // a code
		{"Centre (ice hockey)", "c", false},
		{"Paris", "PARIS", false},
		{"Cork (city)", "", false},
		{"Finland", "Sport (Finland)", false}, // the link is part of the text
		{"Jeff Miller (politician)", "Jeff Miller (R)", false},
	} {
		if got := Writes(c.name, c.surface); got != c.want {
			t.Errorf("Writes(%q, %q) = %v, want %v", c.name, c.surface, got, c.want)
		}
	}
}

func TestTrailingLink(t *testing.T) {
	for _, c := range []struct {
		text, title string
		want        bool
	}{
		{"Toronto, Ontario", "Ontario", true},
		{"George Brown & Co. , Greenock", "Greenock", true},
		{"Mukesh , Vyjayanthimala", "Vyjayanthimala", true},
		{"Toronto, Ontario", "Toronto", false},
		{"Washington, D.C.", "Washington, D.C.", false},
		{"Sir John Cornforth", "John Cornforth", false},
		{"Georgia Coliseum ( Stegeman Coliseum )", "Stegeman Coliseum", false},
	} {
		if got := trailingLink(c.text, c.title); got != c.want {
			t.Errorf("trailingLink(%q, %q) = %v, want %v", c.text, c.title, got, c.want)
		}
	}
}

// TestShownTexts: a table that writes an article otherwise than its title
// keeps its text in the tree, renders it on the page, and decodes it on
// the fast path; a surname for a full title and a multi-link cell keep the
// title.
func TestShownTexts(t *testing.T) {
	tb := &table.Table{
		PageTitle: "League of Ireland", PageURL: table.URL("League of Ireland"),
		Header: []string{"Team", "Home city", "Manager"},
		Rows: [][]table.Cell{
			{{Text: "Cork City", Links: []string{"Cork City F.C."}}, {Text: "Cork", Links: []string{"Cork (city)"}}, {Text: "Golding", Links: []string{"William Golding"}}},
			{{Text: "Shelbourne", Links: []string{"Shelbourne F.C."}}, {Text: "Drumcondra", Links: []string{"Drumcondra, Dublin"}}, {Text: "Ann Smith", Links: []string{"Ann Smith"}}},
			{{Text: "Bray", Links: []string{"Bray Wanderers A.F.C."}}, {Text: "Bray and Greystones", Links: []string{"Bray, County Wicklow", "Greystones"}}, {Text: "Bo Li", Links: []string{"Bo Li"}}},
		},
	}
	for i := 0; i < 8; i++ {
		n := "Club " + string(rune('A'+i))
		tb.Rows = append(tb.Rows, []table.Cell{{Text: n, Links: []string{n}}, {Text: "Town " + n, Links: []string{"Town " + n}}, {Text: "Boss " + n, Links: []string{"Boss " + n}}})
	}
	sh, rej := Shape(tb, DefaultCleanOptions())
	if rej != nil {
		t.Fatal(rej)
	}
	ids := map[string]uint32{}
	tr := &Tree{PageTitle: tb.PageTitle, PageURL: tb.PageURL, KeyHeader: sh.KeyHeader, Columns: sh.Columns}
	id := func(v Value) uint32 {
		if _, ok := ids[v.Key]; !ok {
			ids[v.Key] = uint32(len(ids))
		}
		return ids[v.Key]
	}
	for i, k := range sh.Keys {
		row := Row{Key: id(k), Values: make([][]uint32, len(sh.Columns))}
		tr.show(row.Key, k)
		for j, vs := range sh.Values[i] {
			for _, v := range vs {
				row.Values[j] = append(row.Values[j], id(v))
				if len(vs) == 1 {
					tr.show(id(v), v)
				}
			}
		}
		tr.Rows = append(tr.Rows, row)
	}
	want := map[uint32]string{ids["w:Cork (city)"]: "Cork", ids["w:Drumcondra, Dublin"]: "Drumcondra",
		ids["w:Cork City F.C."]: "Cork City", ids["w:Shelbourne F.C."]: "Shelbourne", ids["w:Bray Wanderers A.F.C."]: "Bray"}
	if !reflect.DeepEqual(tr.Shown, want) {
		t.Fatalf("Shown = %v, want %v", tr.Shown, want)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var fast Tree
	if err := fast.fast(b); err != nil {
		t.Fatalf("fast decode of %s: %v", b, err)
	}
	if !reflect.DeepEqual(fast.Shown, want) {
		t.Fatalf("fast decode: Shown = %v, want %v", fast.Shown, want)
	}
	if got := tr.ShownName(ids["w:Cork (city)"], "Cork (city)"); got != "Cork" {
		t.Errorf("ShownName = %q", got)
	}
	if got := tr.ShownName(ids["w:Cork (city)"], "CORK"); got != "CORK" {
		t.Errorf("ShownName of another name = %q", got)
	}
	// The page shows what the table writes.
	ents := newEntDict(nil, 1<<20)
	names := map[uint32]string{}
	for key, id := range ids {
		names[id] = strings.TrimPrefix(key, "w:")
	}
	for id := uint32(0); id < uint32(len(ids)); id++ {
		ents.put(&Entity{ID: id, Key: "w:" + names[id], Name: names[id], Type: TypeEntity})
	}
	var page []string
	for _, s := range RenderTree(tr, ents, 0) {
		page = append(page, s.Text)
	}
	text := strings.Join(page, "\n")
	for _, w := range []string{"| Cork City | Cork |", "| Drumcondra |", "| William Golding |", "Bray, County Wicklow, Greystones"} {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q:\n%s", w, text)
		}
	}
}
