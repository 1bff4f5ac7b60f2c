package graph

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestWrites(t *testing.T) {
	for _, c := range []struct {
		name, surface string
		want          bool
	}{
		{"Drumcondra, Dublin", "Drumcondra", true},
		{"River Blithe", "Blithe", true},
		{"ASPTT Albi", "Albi", true},
		{"Baker Site", "Baker Site (15MU12)", true},
		{"Andy Gibson", "Andy Gibson (shipwreck)", false},
		{"Jeff Miller", "Jeff Miller (R)", false},
		{"CC Sabathia", "Sabathia", false},
		{"Colorado River", "Colorado", true},
		{"Cork (city)", "Cork", true},
		{"Nike, Inc.", "Nike", true},
		{"Hereafter (film)", "hereafter", true},
		{"Jimmy Thomas (American football)", "Jim Thomas", true},
		{"Jay, Maine", "North Jay", true},
		{"United Kingdom", "Great Britain", true},
		{"William Golding", "Golding", false},      // a surname: the title is the better answer
		{"Association football", "Football", true}, // no person: a word in lower case
		{"Joe Egan (rugby league)", "Egan", false}, // the qualifier's words aside
		{"Vincent van Gogh", "Gogh", false},        // a particle
		{"MV Balmoral (2008)", "Balmoral", true},   // a ship
		{"FC Bobruisk", "Bobruisk", true},          // a club
		{"C.D. Chalatenango", "Chalatenango", true},
		{"J. R. R. Tolkien", "Tolkien", false},             // initials, no club
		{"Khawaja Khurshid Anwar", "Khurshid Anwar", true}, // a name of two words
		{"University of Pittsburgh", "Pittsburgh", true},   // a draft's college column
		{"United States", "USA", false},                    // a code
		{"Centre (ice hockey)", "c", false},
		{"Ray County, Missouri", "Ray", true}, // a name of three letters
		{"Czech Republic", "CZE", false},
		{"Paris", "PARIS", false},
		{"Cork (city)", "", false},
		{"Finland", "Sport (Finland)", false},                               // the link is part of the text
		{"Lehigh Canal", "Carbon County Section of the Lehigh Canal", true}, // the table's name for its row
		{"Jeff Miller (politician)", "Jeff Miller (R)", false},
		{"Miami University", "Miami (OH)", true}, // a school's short name and its state's code
		{"Saint Mary's College of California", "St. Mary's (CA)", true},
		{"Jeff Miller", "Jeff Miller (R)", false},                           // a party's mark
		{"Miami University", "Ohio (OH)", false},                            // no word of the title
		{"Argentina at the 2008 Summer Olympics", "Argentina (ARG)", false}, // a nation's code: the nation answers
		{"Welfare Party", "Welfare Party (RP)", false},                      // a party's acronym
		{"Aguascalientes, Aguascalientes", "Aguascalientes", true},          // the title without its qualifier
		{"Asociación Alumni", "Alumni", true},                               // a club, not a surname
		{"Eurocup 2008-09", "2008-09", true},                                // a season, not a surname
		{"Southeast Alaska", "Alaska", true},                                // a region, not a surname
		{"Standard Hindi", "Hindi", true},
		{"Scuderia Ferrari", "Ferrari", true}, // a team, not a surname
		{"Pallacanestro Treviso", "Treviso", true},
		{"John Murtha", "John Murtha (D) 73.48% Bill Choby (R) 26.52%", false},
		{"Gilbert High School (South Carolina)", "Gilbert High School (SC)", true}, // the qualifier cut short
		{"Albirex Niigata FC (Singapore)", "Albirex Niigata (S)", false},           // one letter: a mark
		{"Trinity College (Connecticut)", "Trinity (CT)", true},
		{"John Smith (cricketer)", "John Smith (C)", false}, // a captain's mark
		{"Trinity College (Connecticut)", "Trinity (TX)", false},
		{"Border–Gavaskar Trophy", "Border - Gavaskar Trophy", false}, // the crawl's spacing: the title answers
		{"Ted Hendricks", `Ted "The Mad Stork" Hendricks`, false},     // a nickname added: the title answers
		{"Bud Wilkinson", `Charles "Bud" Wilkinson`, false},
		{"Bora–Hansgrohe", "Bora-Hansgrohe", true},               // the table's own hyphen
		{"El Zamalek", "Zamalek", true},                          // a name without its article
		{"Al Pacino", "Pacino", false},                           // a first name, not an article
		{"Trinity College (Connecticut)", "College (CT)", false}, // another name
	} {
		if got := Writes(c.name, c.surface); got != c.want {
			t.Errorf("Writes(%q, %q) = %v, want %v", c.name, c.surface, got, c.want)
		}
	}
}

// TestShownTexts: a table that writes an article otherwise than its title
// keeps its text in the tree, renders it on the page, and decodes it on
// the fast path; a surname for a full title and a multi-link cell keep the
// title.
func TestShownTexts(t *testing.T) {
	link := func(text, title string) Value {
		return Value{Key: "w:" + title, Name: title, Type: TypeEntity, Surface: text}
	}
	keys := []Value{link("Cork City", "Cork City F.C."), link("Shelbourne", "Shelbourne F.C."), link("Bray", "Bray Wanderers A.F.C."),
		link("Georgetown", "Georgetown Hoyas"), link("Cedar Grove", "Cedar Grove"), link("The Exchange", "The Exchange"), link("La Grange", "La Grange")}
	values := [][][]Value{
		{{link("Cork", "Cork (city)")}, {link("Golding", "William Golding")}},
		{{link("Drumcondra", "Drumcondra, Dublin")}, {link("Ann Smith", "Ann Smith")}},
		{{link("Bray, County Wicklow", "Bray, County Wicklow"), link("Greystones", "Greystones")}, {link("Bo Li", "Bo Li")}},
		// One article written as a text and as a code keeps its title.
		{{link("Washington", "Washington, D.C.")}, {link("D.C.", "Washington, D.C.")}},
		// Written one way in two rows: that text.
		{{link("La Plata", "La Plata, Maryland")}, nil},
		// Written as two texts (a city, a state): no one text, the title.
		{{link("District of Columbia", "Washington, D.C.")}, nil},
		// "La Plata" twice alone: that text.
		{{link("La Plata", "La Plata, Maryland")}, nil},
	}
	ids := map[string]uint32{}
	tr := &Tree{PageTitle: "League of Ireland", KeyHeader: "Team", Columns: []Column{{Header: "Home city", Domain: "place"}, {Header: "Manager", Domain: "person"}}}
	id := func(v Value) uint32 {
		if _, ok := ids[v.Key]; !ok {
			ids[v.Key] = uint32(len(ids))
		}
		return ids[v.Key]
	}
	texts := cellTexts{}
	for i, k := range keys {
		row := Row{Key: id(k), Values: make([][]uint32, len(tr.Columns))}
		texts.add(row.Key, k, "organization")
		for j, vs := range values[i] {
			for _, v := range vs {
				row.Values[j] = append(row.Values[j], id(v))
				texts.add(id(v), v, tr.Columns[j].Domain)
			}
		}
		tr.Rows = append(tr.Rows, row)
	}
	tr.Shown = texts.shown()
	want := map[uint32]string{ids["w:Cork (city)"]: "Cork", ids["w:Drumcondra, Dublin"]: "Drumcondra",
		ids["w:Cork City F.C."]: "Cork City", ids["w:Shelbourne F.C."]: "Shelbourne", ids["w:Bray Wanderers A.F.C."]: "Bray",
		ids["w:Georgetown Hoyas"]: "Georgetown", ids["w:La Plata, Maryland"]: "La Plata"}
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
	// A name the table writes in another case is shown as the table
	// writes it (the build records case alone only for texts).
	if got := tr.ShownName(ids["w:Cork (city)"], "CORK"); got != "Cork" {
		t.Errorf("ShownName of the name in capitals = %q", got)
	}
	// A text another table named first is shown in this table's case.
	tt := cellTexts{}
	tt.addText(7, "blood", Value{Key: "t:blood", Name: "Blood", Type: TypeText, Surface: "Blood"})
	if sh := tt.shown(); sh[7] != "Blood" || !Shows("blood", "Blood") {
		t.Errorf("text case: Shown %v", sh)
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

// TestShownCodes: a code a table writes is its text, but in a column of
// places, where a country's code stands for its name.
func TestShownCodes(t *testing.T) {
	texts := cellTexts{}
	texts.add(1, Value{Key: "w:Queens Park Rangers F.C.", Name: "Queens Park Rangers F.C.", Type: TypeEntity, Surface: "QPR"}, "organization")
	texts.add(2, Value{Key: "w:United States", Name: "United States", Type: TypeEntity, Surface: "USA"}, "place")
	texts.add(3, Value{Key: "w:Center (gridiron football)", Name: "Center (gridiron football)", Type: TypeEntity, Surface: "C"}, "thing")
	if got := texts.shown(); !reflect.DeepEqual(got, map[uint32]string{1: "QPR", 3: "C"}) {
		t.Errorf("Shown = %v", got)
	}
	tr := &Tree{Shown: texts.shown()}
	if got := tr.ShownName(1, "Queens Park Rangers F.C."); got != "QPR" {
		t.Errorf("ShownName = %q, want the code the table writes", got)
	}
}

// TestShownOneWay: an article written as two texts, one holding the
// other, keeps its title: the more frequent would misname the other cells.
// TestShortQualified: a cell that tells a club from its namesake by its
// disambiguator written short ("Albirex Niigata (S)") shows the title
// whole; another parenthesis does not.
func TestShortQualified(t *testing.T) {
	texts := cellTexts{}
	texts.add(1, Value{Key: "w:a", Name: "Albirex Niigata FC (Singapore)", Type: TypeEntity, Surface: "Albirex Niigata (S)"}, "organization")
	texts.add(2, Value{Key: "w:b", Name: "Tampines Rovers FC", Type: TypeEntity, Surface: "Tampines Rovers (S)"}, "organization")
	if got := texts.shown(); got[1] != "Albirex Niigata FC (Singapore)" || got[2] == "Tampines Rovers (S)" {
		t.Errorf("Shown = %v", got)
	}
	for _, c := range []struct {
		name, surface string
		want          bool
	}{
		{"Albirex Niigata FC (Singapore)", "Albirex Niigata ( S )", true},
		{"Georgia (country)", "Georgia (c)", false},                  // a kind in lower case
		{"Albirex Niigata FC (Singapore)", "Albirex (Japan)", false}, // another place
		{"Albirex Niigata FC (Singapore)", "Cerezo (S)", false},      // another name
	} {
		if got := shortQualified(c.name, c.surface); got != c.want {
			t.Errorf("shortQualified(%q, %q) = %v, want %v", c.name, c.surface, got, c.want)
		}
	}
}

func TestShownOneWay(t *testing.T) {
	link := func(text string) Value {
		return Value{Key: "w:Mitsubishi Lancer", Name: "Mitsubishi Lancer", Type: TypeEntity, Surface: text}
	}
	texts := cellTexts{}
	for _, s := range []string{"Mitsubishi Lancer X R4", "Mitsubishi Lancer X R4", "Mitsubishi Lancer X"} {
		texts.add(7, link(s), "thing")
	}
	if got := texts.shown(); got[7] != "" {
		t.Errorf("Shown = %q, want the title", got[7])
	}
}

func TestNameBefore(t *testing.T) {
	for _, c := range []struct{ name, surface, want string }{
		{"Pukatja, South Australia", "Pukatja (Ernabella)", "Pukatja"},
		{"2002 Open Championship", "The Open Championship (British Open)", "The Open Championship"},
		{"Massively multiplayer online game", "Massively multiplayer online (MMO)", "Massively multiplayer online"},
		{"Imran Amirullah (footballer)", "Imran Amirullah (caretaker)", "Imran Amirullah"},
		{"Imran Amirullah", "Imran Amirullah (caretaker)", ""},          // the title answers
		{"Jeff Miller (politician)", "Jeff Miller (R)", ""},             // a party's code
		{"Chicago Bears", "Chicago Bears (2)", ""},                      // a figure
		{"Georgia (country)", "Georgia (country)", ""},                  // the title's own
		{"Finland", "Sport (Finland)", ""},                              // the link is the parenthesis
		{"Karl Smith", "Smith (footballer)", ""},                        // a surname
		{"University of Tennessee at Martin", "Tennessee (Martin)", ""}, // the parenthesis names which
	} {
		if got := nameBefore(c.name, c.surface); got != c.want {
			t.Errorf("nameBefore(%q, %q) = %q, want %q", c.name, c.surface, got, c.want)
		}
	}
}

// TestShownValueForms: a date or a decimal keeps the form its table
// writes ("10 June 2015", "52.60"), as its page and its answers give it;
// a form that is not the value's, or a column's mark, keeps the name.
func TestShownValueForms(t *testing.T) {
	texts := cellTexts{}
	date := Value{Key: "d:2015-06-10", Name: "2015-06-10", Type: TypeDate, Surface: "10 June 2015"}
	texts.addText(1, "2015-06-10", date)
	texts.addText(1, "2015-06-10", date)
	texts.addText(2, "52.6", Value{Key: "n:52.6", Name: "52.6", Type: TypeNumber, Surface: "52.60"})
	texts.addText(3, "1234", Value{Key: "n:1234", Name: "1234", Type: TypeNumber, Surface: "$1,234"})
	texts.addText(4, "45", Value{Key: "n:45", Name: "45", Type: TypeNumber, Surface: "45%"})
	texts.addText(5, "1981-09-23", Value{Key: "d:1981-09-23", Name: "1981-09-23", Type: TypeDate, Surface: "23 settembre 1981"})
	// 0 written "0.0" by two cells of averages and "0" by a count: no one form
	for _, sf := range []string{"0.0", "0.0", "0"} {
		texts.addText(6, "0", Value{Key: "n:0", Name: "0", Type: TypeNumber, Surface: sf})
	}
	got := texts.shown()
	want := map[uint32]string{1: "10 June 2015", 2: "52.60", 5: "23 September 1981"} // the month in English
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Shown = %v, want %v", got, want)
	}
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"2015-06-10", "10 June 2015", true},
		{"2015-06", "June 2015", true},
		{"1981-09-23", "23 settembre 1981", true},
		{"2015-06-10", "10 June 2015 (aged 35)", false},
		{"2015-06-10", "2015-06-10", false},
		{"52.6", "52.60", true},
		{"29", "29.0", true},
		{"52.6", "52.61", false},
		{"1234", "1,234", false},
		{"45", "45%", false},
		{"Paris", "Paris.0", false},
	} {
		if got := ValueForm(c.name, c.text); got != c.want {
			t.Errorf("ValueForm(%q, %q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestNamesakes: two keys a table writes alike ("HMAS Lae" of two ships)
// show their titles, which tell them apart; a key written alone keeps its
// text.
func TestNamesakes(t *testing.T) {
	names := map[uint32]string{1: "HMAS Lae (L-3035)", 2: "HMAS Lae (P 93)", 3: "HMAS Labuan (L 128)"}
	tr := &Tree{
		Rows:  []Row{{Key: 1}, {Key: 2}, {Key: 3}},
		Shown: map[uint32]string{1: "HMAS Lae", 2: "HMAS Lae", 3: "HMAS Labuan"},
	}
	namesakes(tr, func(id uint32) string { return names[id] })
	if want := map[uint32]string{3: "HMAS Labuan"}; !reflect.DeepEqual(tr.Shown, want) {
		t.Errorf("Shown = %v, want %v", tr.Shown, want)
	}
}

// TestFigureIn: a figure is written with its column's decimals and groups,
// and read back to its name.
func TestFigureIn(t *testing.T) {
	tr := &Tree{Decimals: map[string]int{"has_apg": 1, "has_avg": 2, "has_turnout": 1}, Grouped: map[string]bool{"has_att": true, "has_avg": true}, Comma: map[string]bool{"has_turnout": true}}
	for _, c := range []struct {
		rel, name, want string
		ok              bool
	}{
		{"has_apg", "2", "2.0", true},
		{"has_apg", "4.5", "4.5", false},
		{"has_apg", "2.25", "", false}, // no figure the column writes with one decimal
		{"has_att", "78040", "78,040", true},
		{"has_att", "812", "812", false},
		{"has_att", "-1234567", "-1,234,567", true},
		{"has_avg", "12345.5", "12,345.50", true},
		{"has_gp", "2", "", false},
		{"has_att", "Paris", "", false},
		{"has_turnout", "47.7", "47,7", true}, // a decimal comma
		{"has_turnout", "52", "52,0", true},
	} {
		got, ok := tr.FigureIn(c.rel, c.name)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("FigureIn(%q, %q) = %q, %v; want %q, %v", c.rel, c.name, got, ok, c.want, c.ok)
		}
		if ok {
			if back, _ := FigureName(got); back != c.name {
				t.Errorf("FigureName(%q) = %q, want %q", got, back, c.name)
			}
		}
	}
	if _, ok := FigureName("1,2,3"); ok {
		t.Error("a list of figures is no figure")
	}
}

// TestTotalOtherwise: a total row agrees with its rows when it writes
// their sum rounded to its own decimals.
func TestTotalOtherwise(t *testing.T) {
	tr := &Tree{Stated: map[string]string{"has_silver": "100", "has_share": "12.3", "has_pop": "1,234", "has_turnout": "47,7", "has_note": "n/a"}}
	for _, c := range []struct {
		rel   string
		sum   float64
		other bool
	}{
		{"has_silver", 96, true}, {"has_silver", 100, false}, {"has_silver", 100.4, false},
		{"has_share", 12.34, false}, {"has_share", 12.4, true},
		{"has_pop", 1234, false}, {"has_pop", 1243, true},
		{"has_turnout", 47.7, false}, {"has_turnout", 47.8, true},
		{"has_note", 5, false}, {"has_gold", 5, false},
	} {
		if _, got := tr.TotalOtherwise(c.rel, c.sum); got != c.other {
			t.Errorf("%s stated %q, sum %v: otherwise %v, want %v", c.rel, tr.Stated[c.rel], c.sum, got, c.other)
		}
	}
}

// TestKeepsQualifier: a cell that writes its article's title whole keeps
// a parenthesis that is a name, not one that is a kind, whatever its
// first word: a CSV export writes every linked cell as its title (round
// 183: "Kami no Shizuku (TV series)").
func TestKeepsQualifier(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"Al-Hilal (Kadougli)", "Al-Hilal ( Kadougli )", true},
		{"Al-Hilal (Port Sudan)", "Al-Hilal (Port Sudan)", true},
		{"Persija Jakarta (IPL)", "Persija Jakarta (IPL)", true},
		{"Berkeley College (Yale University)", "Berkeley College (Yale University)", true},
		{"Kami no Shizuku (TV series)", "Kami no Shizuku (TV series)", false},
		{"Cain and Abel (South Korean TV series)", "Cain and Abel (South Korean TV series)", false},
		{"Hereafter (film)", "Hereafter (film)", false},
		{"Thriller (1982 album)", "Thriller (1982 album)", false},
		{"Al-Hilal (Kadougli)", "Al-Hilal", false}, // not the title whole
	} {
		if got := KeepsQualifier(c.name, c.text); got != c.want {
			t.Errorf("KeepsQualifier(%q, %q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestRaisedInitial: a cell that writes a name whose first letter its
// article's title raises ("eXistenZ" linking EXistenZ, in Christopher
// Eccleston's filmography, WTQ's 203-page/782.html) shows the cell's name;
// a word in lower case throughout keeps the title.
func TestRaisedInitial(t *testing.T) {
	for _, c := range []struct {
		name, surface string
		want          bool
	}{
		{"EXistenZ", "eXistenZ", true},
		{"IPod Touch", "iPod Touch", true},
		{"EBay", "eBay", true},
		{"Guitar", "guitar", false},       // a word in lower case: the title is as good
		{"Will.i.am", "will.i.am", false}, // no capital after the first letter
		{"EXistenZ", "EXistenZ", false},   // the title itself
		{"EXistenZ (film)", "eXistenZ", false},
		{"Existenz", "eXistenZ", false}, // another writing
		{"Ébay", "ébay", false},
	} {
		if got := RaisedInitial(c.name, c.surface); got != c.want {
			t.Errorf("RaisedInitial(%q, %q) = %v, want %v", c.name, c.surface, got, c.want)
		}
	}
	texts := cellTexts{}
	texts.add(1, Value{Key: "w:EXistenZ", Name: "EXistenZ", Type: TypeEntity, Surface: "eXistenZ"}, "thing")
	texts.add(2, Value{Key: "w:Guitar", Name: "Guitar", Type: TypeEntity, Surface: "guitar"}, "thing")
	tr := &Tree{Shown: texts.shown()}
	if got := tr.ShownName(1, "EXistenZ"); got != "eXistenZ" {
		t.Errorf("ShownName of EXistenZ = %q, want eXistenZ", got)
	}
	if got := tr.ShownName(2, "Guitar"); got != "Guitar" {
		t.Errorf("ShownName of Guitar = %q, want the title", got)
	}
}

// TestCasedPage: a passage's URL leads to the source page its title names
// in another case or spelling of spaces, dots and dashes, unless that is
// itself, none, or two pages that fold alike (which of them it would name
// is not known).
func TestCasedPage(t *testing.T) {
	cased := map[string]string{}
	for _, u := range []string{
		"https://en.wikipedia.org/wiki/1973_Major_League_Baseball_draft",
		"https://en.wikipedia.org/wiki/Montreal_Impact_(1992–2011)",
		"https://en.wikipedia.org/wiki/M._Chinnaswamy_Stadium",
		"https://en.wikipedia.org/wiki/C++",
		"https://en.wikipedia.org/wiki/Castaway",
		"https://en.wikipedia.org/wiki/2009_K_League",
		"https://en.wikipedia.org/wiki/4_×_400_metres_relay",
		"https://en.wikipedia.org/wiki/Red_Hot",
		"https://en.wikipedia.org/wiki/Red_hot", // both hold tables
	} {
		addCased(cased, u)
	}
	for url, want := range map[string]string{
		"https://en.wikipedia.org/wiki/1973_Major_League_Baseball_Draft": "https://en.wikipedia.org/wiki/1973_Major_League_Baseball_draft",
		"https://en.wikipedia.org/wiki/1973_Major_League_Baseball_draft": "",
		"https://en.wikipedia.org/wiki/Montreal_Impact_(1992-2011)":      "https://en.wikipedia.org/wiki/Montreal_Impact_(1992–2011)",
		"https://en.wikipedia.org/wiki/M_Chinnaswamy_Stadium":            "https://en.wikipedia.org/wiki/M._Chinnaswamy_Stadium",
		"https://en.wikipedia.org/wiki/C":                                "",
		"https://en.wikipedia.org/wiki/Cast_Away":                        "",
		"https://en.wikipedia.org/wiki/4×400_metres_relay":               "https://en.wikipedia.org/wiki/4_×_400_metres_relay",
		"https://en.wikipedia.org/wiki/2009_K-League":                    "https://en.wikipedia.org/wiki/2009_K_League",
		"https://en.wikipedia.org/wiki/Red_HOT":                          "",
		"https://en.wikipedia.org/wiki/Long_Jump":                        "",
	} {
		if got := casedPage(cased, url); got != want {
			t.Errorf("casedPage(%s) = %q, want %q", url, got, want)
		}
	}
}
