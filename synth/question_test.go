package synth

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/graph"
)

// TestKeyNouns: keys are "people" when their header says so, not because
// it says "name" (companies, buildings).
func TestKeyNouns(t *testing.T) {
	tree := func(h string) *graph.Tree {
		return &graph.Tree{KeyHeader: h, KeyDatatype: graph.TypeEntity, KeyDomain: graph.Domain(h, graph.TypeEntity)}
	}
	for _, c := range []struct {
		headers []string
		want    string
	}{
		{[]string{"Name"}, "entries"},
		{[]string{"Name on the Register", "Landmark name"}, "entries"},
		{[]string{"Winner", "Player"}, "people"},
		{[]string{"Name of the player who scored the goal"}, "people"},
		{[]string{"Name of the stadium where it was played"}, "places"},
		{[]string{"Title"}, "works"},
	} {
		var ts []*graph.Tree
		for _, h := range c.headers {
			ts = append(ts, tree(h))
		}
		if got := unionNoun(ts).many; got != c.want {
			t.Errorf("%q: %q, want %q", c.headers, got, c.want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{"Undisclosed": true, " Address restricted ": true, "—": true, "Toledo, Ohio": false, "Not Nominated": false} {
		if placeholder(s) != want {
			t.Errorf("placeholder(%q) = %v", s, !want)
		}
	}
}

func TestPlural(t *testing.T) {
	for in, want := range map[string]string{
		"date of birth":                 "dates of birth",
		"name on the register":          "names on the register",
		"film title used in nomination": "film titles used in nomination",
		"personal name westernized":     "personal names westernized",
		"team":                          "teams",
		"country":                       "countries",
		"class":                         "classes",
		"man":                           "men",
		"battle or siege":               "battles or sieges", // round 185
	} {
		if got := plural(in); got != want {
			t.Errorf("plural(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWordsRepeated: a group's header over its sub-header's word is read
// once.
func TestWordsRepeated(t *testing.T) {
	if got := words("Total Total Cards"); got != "Total Cards" {
		t.Errorf("words = %q", got)
	}
}

// TestTitleNoun: a Name column's keys are named by the one role its
// table's title gives them.
func TestTitleNoun(t *testing.T) {
	for sub, want := range map[string]string{
		"Past winners": "winners", "Transfers | Players In": "players", "Records | Top 10 goalscorers": "goalscorers",
		"Clubs Stadiums": "entries", "Statistics": "entries", "2009–10 Roster": "players",
		"Naval Bases and Stations": "bases and stations", "All-Americans": "players",
	} {
		tr := &graph.Tree{KeyHeader: "Name", KeyDatatype: graph.TypeEntity, KeyDomain: "person", Section: sub}
		if got := keyNoun(tr).many; got != want {
			t.Errorf("%q: %q, want %q", sub, got, want)
		}
	}
	// the kind of work the section names last; no role of people for
	// works (Saigon's songs, round 183)
	for sub, want := range map[string]string{"Filmography | Video games": "games", "Filmography": "films", "Episode list": "episodes",
		"Guest appearances | List of non-single guest appearances, with other performing artists": ""} {
		tr := &graph.Tree{KeyHeader: "Title", KeyDatatype: graph.TypeText, KeyDomain: "work", Section: sub}
		if got, _ := titleNoun(tr); got.many != want {
			t.Errorf("%q: %q, want %q", sub, got.many, want)
		}
	}
}

// TestPageNoun: a Name column on a list page is named by what the page's
// title lists, and by nothing when the title lists two things or what its
// rows are not.
func TestPageNoun(t *testing.T) {
	for title, want := range map[string]string{
		"List of towns in Saskatchewan":                         "towns",
		"List of Medal of Honor recipients for World War II":    "recipients",
		"List of University of Oxford people in public life":    "people",
		"List of content management systems":                    "systems",
		"List of Ambassadors of Russia to Austria":              "Ambassadors",
		"Members of the Western Australian Legislative Council": "members",
		"Primary schools in Hertsmere":                          "schools",
		"List of fictional atheists and agnostics":              "entries",
		"List of France national rugby union team records":      "entries",
		"List of Bolton Wanderers F.C. records and statistics":  "entries",
		"Swiss Air Force aircraft squadrons":                    "entries",
		"Kentucky Department of Corrections":                    "entries",
		"The World's Billionaires":                              "entries",
	} {
		tr := &graph.Tree{KeyHeader: "Name", KeyDatatype: graph.TypeEntity, PageTitle: title}
		if got := keyNoun(tr).many; got != want {
			t.Errorf("%q: %q, want %q", title, got, want)
		}
	}
	tr := &graph.Tree{KeyHeader: "Name of the cemetery", KeyDatatype: graph.TypeEntity, PageTitle: "List of cemeteries in South Africa"}
	if got := keyNoun(tr); got != (noun{"cemetery", "cemeteries"}) {
		t.Errorf("Name of the cemetery: %v", got)
	}
	if got := singular("people"); got != "person" {
		t.Errorf("singular(people) = %q", got)
	}
}

// TestWorkKinds: a section naming a kind of work names a Title column's
// keys by it, unless it is television.
func TestWorkKinds(t *testing.T) {
	for sec, want := range map[string]string{"Episode list": "episodes", "Filmography | Film": "films", "Filmography | Television": "television works",
		"Filmography | Film and television": "works", "Television": "television works", "Filmography | Theatre": "works"} {
		tr := &graph.Tree{KeyHeader: "Title", KeyDatatype: graph.TypeEntity, KeyDomain: "work", Section: sec}
		if got := keyNoun(tr).many; got != want {
			t.Errorf("%q: %q, want %q", sec, got, want)
		}
	}
}

// TestNamedThing: a header naming a kind of thing by its title names the
// keys by that kind.
func TestNamedThing(t *testing.T) {
	for h, want := range map[string]string{"Film title used in nomination": "films", "School name": "schools", "Title": "works", "English title": "works"} {
		tr := &graph.Tree{KeyHeader: h, KeyDatatype: graph.TypeEntity, KeyDomain: graph.Domain(h, graph.TypeEntity)}
		if got := keyNoun(tr).many; got != want {
			t.Errorf("%q: %q, want %q", h, got, want)
		}
	}
}

// TestColWord: a header naming when something happened reads as a date
// of it; other headers are their words.
func TestColWord(t *testing.T) {
	for h, want := range map[string]string{
		"Opened": "date opened", "Laid down": "date laid down", "Qualified on": "date qualified",
		"Took office": "date of taking office", "Capacity": "capacity", "Based on": "based on",
		"Born": "date of birth", "Died": "date of death", "Term expires": "end of term", "Life": "lifespan", "Lived": "lifespan",
		"Draft order Choice": "draft pick", "Production co.": "production company",
		"Area ( km )": "area (km²)", "Land area (mi)": "land area (mi²)", "Area (ha)": "area (ha)", "Diameter (km)": "diameter (km)",
	} {
		if got := colWord(h); got != want {
			t.Errorf("colWord(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestPluralHead(t *testing.T) {
	for h, want := range map[string]bool{
		"field goals":           true,
		"home runs":             true,
		"total appearances":     true,
		"goals":                 false, // one word: "whose number of goals"
		"number of goals":       false,
		"goals against average": false,
		"gross":                 false,
		"total gross":           false,
		"games status":          false,
	} {
		if got := pluralHead(h); got != want {
			t.Errorf("pluralHead(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestPluralNoun(t *testing.T) {
	for h, want := range map[string]bool{
		"dates":       true, // "whose dates are 1968-1975"
		"field goals": true,
		"series":      false, // "whose series is LT"
		"status":      false,
		"Species":     false,
		"position":    false,
		"genres":      true,
	} {
		if got := pluralNoun(h); got != want {
			t.Errorf("pluralNoun(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestNounBefore(t *testing.T) {
	for sub, want := range map[string]bool{
		"current judges":  true,  // "the current judges of …"
		"filmography":     true,  // "the filmography of Seth Gordon"
		"television":      false, // not "the television of Athena Chu"
		"film":            false,
		"notable":         false,
		"players by club": false,
		"appearances":     false, // not "the players who appear in the appearances of …"
		"career points":   false, // not "every player of the career points of …"
		"most tries":      false,
	} {
		if got := nounBefore(sub); got != want {
			t.Errorf("nounBefore(%q) = %v, want %v", sub, got, want)
		}
	}
}

// TestTally: a section's count of finals won and lost is cut from its
// name.
func TestTally(t *testing.T) {
	for in, want := range map[string]string{
		"Singles: 14 (10–4)":                   "Singles",
		"Doubles: 10 (3 titles, 7 runner–ups)": "Doubles",
		"Doubles: 1 (1 title, 0 runners-up)":   "Doubles",
		"Singles: 3 (2 titles, 1 runner-up)":   "Singles",
		"Results: 2012 (Olympics)":             "Results: 2012 (Olympics)",
	} {
		if got := tally.ReplaceAllString(in, ""); got != want {
			t.Errorf("tally(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestApart: two keys whose rows read alike (the Fifth Third Center of
// Columbus and of Cleveland) are given by their titles; a key alone keeps
// its text.
func TestApart(t *testing.T) {
	es := map[uint32]*graph.Entity{
		1: {ID: 1, Name: "Fifth Third Center (Columbus)", Key: "w:Fifth Third Center (Columbus)"},
		2: {ID: 2, Name: "Fifth Third Center (Cleveland)", Key: "w:Fifth Third Center (Cleveland)"},
		3: {ID: 3, Name: "Key Tower", Key: "w:Key Tower"},
	}
	es[10] = &graph.Entity{ID: 10, Name: "25", Key: "n:25"}
	es[11] = &graph.Entity{ID: 11, Name: "27", Key: "n:27"}
	tb := &table{keys: []uint32{1, 2, 3}, cells: [][][]uint32{{{10}}, {{11}}, {{10}}}}
	rows := tb.render(es, texts{})
	want := []string{"Fifth Third Center (Columbus)", "Fifth Third Center (Cleveland)", "Key Tower"}
	for i, w := range want {
		if rows[i][0] != w {
			t.Errorf("row %d = %q, want %q", i, rows[i][0], w)
		}
	}
	// The same floors: maybe one building linked two ways; left alike.
	tb = &table{keys: []uint32{1, 2}, cells: [][][]uint32{{{10}}, {{10}}}}
	if rows := tb.render(es, texts{}); rows[0][0] != rows[1][0] {
		t.Errorf("rows of the same values told apart: %q, %q", rows[0][0], rows[1][0])
	}
}

// TestAnswerHeader: a plural's "(s)" spaced off its word is joined to it;
// over times it is seconds, and stays.
func TestAnswerHeader(t *testing.T) {
	for h, want := range map[string]string{"Language (s)": "Language(s)", "Director (s)": "Director(s)", "Box (es)": "Box(es)", "Film (original title)": "Film (original title)"} {
		if got := answerHeader(h, false); got != want {
			t.Errorf("answerHeader(%q) = %q, want %q", h, got, want)
		}
	}
	if got := answerHeader("Time (s)", true); got != "Time (s)" {
		t.Errorf("a time in seconds became %q", got)
	}
	if got := answerHeader("Lap (s)", true); got != "Lap (s)" {
		t.Errorf("a lap in seconds became %q", got)
	}
	if got := answerHeader("Win (s)", true); got != "Win(s)" {
		t.Errorf("a count of wins: %q", got)
	}
}

// TestRenderDecimals: a figure is given with the decimals its row's
// column writes ("2.0" of assists per game), a count of the same figure
// elsewhere without them.
func TestRenderDecimals(t *testing.T) {
	es := map[uint32]*graph.Entity{
		1: {ID: 1, Name: "Ada Smith", Key: "w:Ada Smith"},
		2: {ID: 2, Name: "2", Key: "n:2"},
	}
	es[3] = &graph.Entity{ID: 3, Name: "78040", Key: "n:78040"}
	tr := &graph.Tree{Decimals: map[string]int{"has_apg": 1}, Grouped: map[string]bool{"has_att": true}}
	tb := &table{keys: []uint32{1}, vars: []string{"GP", "APG", "Att"}, cells: [][][]uint32{{{2}, {2}, {3}}}}
	rows := tb.render(es, texts{key: map[uint32]*graph.Tree{1: tr}, rels: []string{"has_gp", "has_apg", "has_att"}})
	if want := []string{"Ada Smith", "2", "2.0", "78,040"}; !slices.Equal(rows[0], want) {
		t.Errorf("row = %q, want %q", rows[0], want)
	}
}

// TestVenueCapacity: a team's capacity is its stadium's; a stadium's
// own capacity, or one without a venue beside it, stays.
func TestVenueCapacity(t *testing.T) {
	team := &graph.Tree{KeyHeader: "Team", Columns: []graph.Column{{Header: "Home ground"}, {Header: "Capacity"}}}
	venue := &graph.Tree{KeyHeader: "Stadium", Columns: []graph.Column{{Header: "City"}, {Header: "Capacity"}}}
	ride := &graph.Tree{KeyHeader: "Ride", Columns: []graph.Column{{Header: "Park"}, {Header: "Capacity"}}}
	for _, c := range []struct {
		t    *graph.Tree
		want string
	}{{team, "ground capacity"}, {venue, "capacity"}, {ride, "capacity"}} {
		if got := venueCapacity([]*graph.Tree{c.t}, "capacity"); got != c.want {
			t.Errorf("%s: %q, want %q", c.t.KeyHeader, got, c.want)
		}
	}
}

// TestUnionNoun: keys of a theme's trees, one headed "Title", are named by
// the noun the others' headers give.
func TestUnionNoun(t *testing.T) {
	tree := func(h string) *graph.Tree {
		return &graph.Tree{KeyHeader: h, KeyDatatype: graph.TypeEntity, KeyDomain: graph.Domain(h, graph.TypeEntity)}
	}
	if got := unionNoun([]*graph.Tree{tree("Title"), tree("Film title used in nomination"), tree("Film title used in nomination")}); got.many != "films" {
		t.Errorf("unionNoun = %v, want films", got)
	}
	if got := unionNoun([]*graph.Tree{tree("Title"), tree("Film title used in nomination"), tree("Album")}); got.many == "films" || got.many == "albums" {
		t.Errorf("unionNoun = %v: the headers disagree", got)
	}
}

// TestDoubleStop: a value ending in a stop at the end of a sentence is
// not followed by a second; an ellipsis stays.
func TestDoubleStop(t *testing.T) {
	for in, want := range map[string]string{
		"Which players whose hometown is New York, NY, U.S.. For each": "Which players whose hometown is New York, NY, U.S. For each",
		"whose hometown is U.S..":                                      "whose hometown is U.S.",
		"Wait... what":                                                 "Wait... what",
	} {
		if got := doubleStop.ReplaceAllString(in, "$1.$2"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestThemeLists: several list pages are "the lists of …"; a section
// their titles already say is left out where each is its page's only
// table, and kept where a page has others.
func TestThemeLists(t *testing.T) {
	ts := []*graph.Tree{
		{PageTitle: "List of Afghan submissions for the Academy Award for Best International Feature Film", Section: "Submissions"},
		{PageTitle: "List of Australian submissions for the Academy Award for Best International Feature Film", Section: "Submissions"},
	}
	yes := func(*graph.Tree) bool { return true }
	no := func(*graph.Tree) bool { return false }
	want := "the lists of Afghan or Australian submissions for the Academy Award for Best International Feature Film"
	if got, ok := themePhrase(ts, orList, yes); !ok || got != want {
		t.Errorf("alone: %q, want %q", got, want)
	}
	if got, _ := themePhrase(ts, orList, no); got != want+" (submissions)" {
		t.Errorf("beside other tables: %q", got)
	}
}

// TestRangeFilterFigures: a lower bound is written as its column writes
// its figures ("at least 3,000"), the constant kept by its name.
func TestRangeFilterFigures(t *testing.T) {
	tr := &graph.Tree{Columns: []graph.Column{{Name: "has_capacity", Header: "Capacity", Datatype: graph.TypeNumber}}, Grouped: map[string]bool{"has_capacity": true}}
	es := map[uint32]*graph.Entity{}
	by := map[uint32]int{}
	inKeys := map[uint32]bool{}
	var vals []uint32
	for i := uint32(1); i <= 8; i++ {
		v := 100 + i
		es[v] = &graph.Entity{ID: v, Name: strconv.Itoa(int(i) * 1000), Key: "n:" + strconv.Itoa(int(i)*1000)}
		tr.Rows = append(tr.Rows, graph.Row{Key: i, Values: [][]uint32{{v}}})
		vals = append(vals, v)
		by[v] = 1
		inKeys[i] = true
	}
	for seed := uint64(0); seed < 8; seed++ {
		f, ok := rangeFilter(tr, 0, "capacity", vals, es, by, inKeys, 8, rand.New(rand.NewPCG(seed, 0)))
		if !ok {
			continue
		}
		if !strings.Contains(f.phrase, ",000") || strings.Contains(strings.Join(f.triple.O.Consts, " "), ",") {
			t.Errorf("phrase %q, constants %q", f.phrase, f.triple.O.Consts)
		}
		return
	}
	t.Fatal("no filter drawn")
}

// TestSetNamed: a set whose name is the plural asked for is asked for
// once ("all of the New Democratic Party candidates, …"); a body, a list,
// a timeline or a chart that merely holds the word is not the set.
func TestSetNamed(t *testing.T) {
	for _, c := range []struct {
		root, many, want string
	}{
		{"New Democratic Party candidates, 2008 Canadian federal election (Manitoba - 14 Seats)", "candidates", "the New Democratic Party candidates, 2008 Canadian federal election (Manitoba - 14 Seats)"},
		{"Cities of East Asia (North Korea)", "cities", "the cities of East Asia (North Korea)"},
		{"the important tributaries of the Lahn", "tributaries", "the important tributaries of the Lahn"},
		{"Primary schools in Hertsmere (Bushey)", "schools", "the Primary schools in Hertsmere (Bushey)"},
		{"South Carolina House of Representatives (Composition, Current members)", "representatives", ""},
		{"the Timeline of the tallest buildings in Canada", "buildings", ""},
		{"the Top Latin Albums Year-End Chart of 2010", "albums", ""},
		{"the list of schools in the Northern Territory (State schools)", "schools", ""},
		{`the "Chiller Films" section of Chiller (TV network)`, "films", ""},
		{"Food Network Star (Season seven, Finalists)", "finalists", ""},
		{"Liberal Party of Canada candidates in the 2011 Canadian federal election (Saskatchewan - 14 seats)", "candidates", "the Liberal Party of Canada candidates in the 2011 Canadian federal election (Saskatchewan - 14 seats)"},
	} {
		got, ok := setNamed(c.root, c.many)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("setNamed(%q, %q) = %q, %v; want %q", c.root, c.many, got, ok, c.want)
		}
	}
}

// TestInParens: a section's own parenthesis reads as one more part of the
// path; a finals tally is left out of the section, in any form.
func TestInParens(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"Holocene (11,500 – 5,000 years old)"}, " (Holocene, 11,500 – 5,000 years old)"},
		{[]string{"Episodes", "Season 2 (2006-07)"}, " (Episodes, Season 2, 2006-07)"},
		{[]string{"Super Series rankings", "Women's singles"}, " (Super Series rankings, Women's singles)"},
	} {
		if got := inParens(c.parts); got != c.want {
			t.Errorf("inParens(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
	tr := &graph.Tree{PageTitle: "Anne Hobbs (tennis)", Section: "WTA Tour finals|Doubles (8–12)"}
	for seed := uint64(0); seed < 4; seed++ {
		if got := concept(tr, false, "tournaments", rand.New(rand.NewPCG(seed, 0))); strings.Contains(got, "8–12") || !strings.Contains(got, "Doubles") {
			t.Errorf("concept = %q: the finals tally stays", got)
		}
	}
}

// TestRangeFilterVerb: a header that is a verb and its object ("Took
// office") is said as a clause, not "with a took office from …", and so
// is a noun and its verb ("Term ends"), not "whose term ends is …".
func TestRangeFilterVerb(t *testing.T) {
	for h, want := range map[string]string{"Took office": " that took office between ", "Term ends": " whose term ends between "} {
		rangeFilterVerb(t, h, want)
	}
}

func rangeFilterVerb(t *testing.T, header, want string) {
	t.Helper()
	h := strings.ToLower(header)
	tr := &graph.Tree{Columns: []graph.Column{{Name: "has_" + strings.ReplaceAll(h, " ", "_"), Header: header, Datatype: graph.TypeYear}}}
	es := map[uint32]*graph.Entity{}
	by := map[uint32]int{}
	inKeys := map[uint32]bool{}
	var vals []uint32
	for i := uint32(1); i <= 8; i++ {
		v := 100 + i
		es[v] = &graph.Entity{ID: v, Name: strconv.Itoa(2000 + int(i)), Key: "y:" + strconv.Itoa(2000+int(i))}
		tr.Rows = append(tr.Rows, graph.Row{Key: i, Values: [][]uint32{{v}}})
		vals = append(vals, v)
		by[v] = 1
		inKeys[i] = true
	}
	drawn := false
	for seed := uint64(0); seed < 16; seed++ {
		f, ok := rangeFilter(tr, 0, h, vals, es, by, inKeys, 8, rand.New(rand.NewPCG(seed, 0)))
		if !ok {
			continue
		}
		drawn = true
		if !strings.HasPrefix(f.phrase, want) {
			t.Errorf("%s, seed %d: phrase %q", header, seed, f.phrase)
		}
	}
	if !drawn {
		t.Fatalf("%s: no filter drawn", header)
	}
}

// TestShortCaption: a caption of a word or two is read within its
// section ("Franchise scoring leaders, Assists"); a section that only
// says where the table stands ("Overview") is not said.
func TestShortCaption(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Edmonton Rush", Section: "Franchise scoring leaders", Caption: "Assists"}
	if got := concept(tr, false, "players", rand.New(rand.NewPCG(1, 0))); !strings.Contains(got, "Franchise scoring leaders") || !strings.Contains(got, "Assists") {
		t.Errorf("concept = %q, want the section and the caption", got)
	}
	tr = &graph.Tree{PageTitle: "Wikimania", Section: "Overview", Caption: "Wikimania conferences"}
	if got := concept(tr, true, "conferences", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, "Overview") {
		t.Errorf("concept = %q: a layout section", got)
	}
}

// TestLayoutSection: a section that says where a table stands
// ("Summary") is no set of the question: left out where the table is its
// page's only one, in parentheses beside others.
func TestLayoutSection(t *testing.T) {
	tr := &graph.Tree{PageTitle: "List of correctional facilities in New Zealand", Section: "Summary"}
	for seed := uint64(0); seed < 4; seed++ {
		if got := concept(tr, true, "facilities", rand.New(rand.NewPCG(seed, 0))); got != "the list of correctional facilities in New Zealand" {
			t.Errorf("alone: %q", got)
		}
		if got := concept(tr, false, "facilities", rand.New(rand.NewPCG(seed, 0))); got != "the list of correctional facilities in New Zealand (Summary)" {
			t.Errorf("beside others: %q", got)
		}
	}
}

// TestPhrasingFixes: the set a question names is no person's page ("the
// cities within … Central Asia"); a section of where teams play reads in
// parentheses; a page title's role noun names its keys before their
// domain ("candidates", not "people").
func TestPhrasingFixes(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Central Asia"}
	if ts, r := basicPhrasing(tr, "the cities within the regular definition of Central Asia and Afghanistan", "cities"); !slices.Equal(ts, namedSetTemplates) || r != "the cities within the regular definition of Central Asia and Afghanistan" {
		t.Errorf("basicPhrasing = %q, %q", ts, r)
	}
	for _, sec := range []string{"stadiums and locations", "personnel and kits", "career"} {
		if nounBefore(sec) {
			t.Errorf("nounBefore(%q): \"every team of the %s of …\"", sec, sec)
		}
	}
	cand := &graph.Tree{PageTitle: "Liberal Party of Canada candidates in the 2011 Canadian federal election", KeyHeader: "Name", KeyDatatype: graph.TypeEntity, KeyDomain: "person"}
	if got := keyNoun(cand).many; got != "candidates" {
		t.Errorf("keyNoun = %q, want candidates", got)
	}
}

// TestLeadersListed: a leaders' section of a team's page is named as a
// list ("the "Most tries" list of …"); on a list page, whose title names
// what it lists, it reads in parentheses, not "list of the list of".
func TestLeadersListed(t *testing.T) {
	team := &graph.Tree{PageTitle: "Italy national rugby union team", Section: "Individual all-time records|Most tries"}
	if got := concept(team, false, "players", rand.New(rand.NewPCG(1, 0))); !strings.HasPrefix(got, `the "Most tries" list of Italy`) {
		t.Errorf("team page: %q", got)
	}
	list := &graph.Tree{PageTitle: "List of VFL/AFL pre-season and night series premiers", Section: "Pre-season cup winners 1988–2013|Most pre-season cup competition wins 1988–2013"}
	if got := concept(list, false, "teams", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, "list of the list") || !strings.Contains(got, "Most pre-season cup competition wins") {
		t.Errorf("list page: %q", got)
	}
}

// TestLowerFirstProper: a header's words are lowered but for a tongue's
// or a nation's name ("Kazakh title" stays, "Original Title" lowers).
func TestLowerFirstProper(t *testing.T) {
	for in, want := range map[string]string{"Kazakh title": "Kazakh title", "Arabic Title": "Arabic title", "Original Title": "original title", "NFL Team": "NFL team"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFilteredTemplates: with a filter, no template puts its relative
// clause between "Which" and the verb ("Which awards whose result is
// Nominated appear in …"); without one, every template is drawn.
func TestFilteredTemplates(t *testing.T) {
	for _, tpls := range [][]string{basicTemplates, unionTemplates, ownerTemplates, namedSetTemplates} {
		for _, tpl := range filtered(tpls, " whose result is Nominated") {
			q := fill(tpl, "many", "awards", "one", "award", "filter", " whose result is Nominated", "root", "Kid Cudi (Other awards)", "sets", "Kid Cudi (Other awards)", "cols", "year")
			if strings.Contains(q, "Which awards whose") {
				t.Errorf("%q reads \"Which … whose … appear\"", q)
			}
			if strings.Contains(q, "Nominated recorded in") || strings.Contains(q, "Nominated that appears in") {
				t.Errorf("%q reads as if the filter's value were in the sets", q)
			}
		}
		if got := filtered(tpls, ""); !slices.Equal(got, tpls) {
			t.Errorf("filtered without a filter = %q, want all %d templates", got, len(tpls))
		}
	}
}

// TestNounOfColumn: a noun for keys that the key header does not give
// ("countries" of "List of Miss Earth countries", keyed by "National
// title") is refused where another column holds those things
// ("Country/Territory"); a column numbering the keys ("Episode") is none.
func TestNounOfColumn(t *testing.T) {
	pageant := &graph.Tree{KeyHeader: "National title", PageTitle: "List of Miss Earth countries", Columns: []graph.Column{
		{Header: "Country/Territory", Datatype: graph.TypeEntity}, {Header: "Debut", Datatype: graph.TypeEntity},
	}}
	if !nounOfColumn(pageant, noun{"country", "countries"}) {
		t.Error("Miss Earth's national titles taken for its countries")
	}
	episodes := &graph.Tree{KeyHeader: "Title", Columns: []graph.Column{
		{Header: "Episode", Datatype: graph.TypeNumber}, {Header: "Original air date", Datatype: graph.TypeDate},
	}}
	if nounOfColumn(episodes, noun{"episode", "episodes"}) {
		t.Error("episodes' titles refused for a column numbering them")
	}
	players := &graph.Tree{KeyHeader: "Player", Columns: []graph.Column{{Header: "Player number", Datatype: graph.TypeText}}}
	if nounOfColumn(players, noun{"player", "players"}) {
		t.Error("a key header's own noun refused")
	}
}

// TestPickBesideOverall: a draft table's "Pick" beside its "Overall" is
// asked as the pick in the round; alone, as the pick.
func TestPickBesideOverall(t *testing.T) {
	both := &graph.Tree{Columns: []graph.Column{{Header: "Pick", Name: "has_pick", Datatype: graph.TypeNumber}, {Header: "Overall", Name: "has_overall", Datatype: graph.TypeNumber}}}
	alone := &graph.Tree{Columns: []graph.Column{{Header: "Pick", Name: "has_pick", Datatype: graph.TypeNumber}}}
	cols := []column{{rel: "has_pick", header: "Pick"}}
	if got := colWords(cols, []*graph.Tree{both})[0]; got != "pick in the round" {
		t.Errorf("Pick beside Overall said %q", got)
	}
	if got := colWords(cols, []*graph.Tree{alone})[0]; got != "pick" {
		t.Errorf("Pick alone said %q", got)
	}
}

// TestKeyHeaderIsPage: a key header that is its page's own title ("Miss
// Northern Ireland" over the titleholders of sts-csv's Miss Northern
// Ireland page, round 192) does not name the rows: "every miss northern
// ireland of Miss Northern Ireland" is no question.
func TestKeyHeaderIsPage(t *testing.T) {
	tr := &graph.Tree{KeyHeader: "Miss Northern Ireland", KeyDatatype: graph.TypeEntity, KeyDomain: "person", PageTitle: "Miss Northern Ireland"}
	if !genericKey(tr) {
		t.Error("a header that is the page's title is not generic")
	}
	if got := keyNoun(tr).many; got == "miss northern irelands" || got == "miss northern ireland" {
		t.Errorf("keyNoun = %q", got)
	}
	tr.PageTitle = "Miss Northern Ireland 2010"
	if genericKey(tr) {
		t.Error("a header that is not the page's title is generic")
	}
}
