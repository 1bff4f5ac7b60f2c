package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/leaper-dev/leaper/graph"
)

// TestPlainWords: the cells, headers and sections readers of Basic tasks
// stumbled over are told from those they read without a pause.
func TestPlainWords(t *testing.T) {
	for _, c := range []struct {
		v    string
		mark bool
	}{
		{"PARI:", true}, {"/ Michael Haneke", true}, {".660", true}, {"35.", true}, {"6.", true},
		{"± 20", true}, {"Baltimore Bullets*", true}, {"Herman C. Wallace †", true},
		{"align=right| 0", true}, {"20160227 February 27, 2016", true}, {"1955-11 November 1955", true},
		{"(fl. c. late-16th century BC)", true}, {"Baku Azerbaijani: Bakı", true}, {"No.", true},
		{"Michael Haneke", false}, {"79.9", false}, {"Star Wars: Episode I", false}, {"U.S. Route 1", false},
		{"Jr.", false}, {"1992 (65th)", false}, {"Dr. No", false},
		{"Everton Weekes (1/2)", true}, {"Pavie (A)", true}, {"Super Bowl (I)", false},
	} {
		if got := plainMark(c.v); got != c.mark {
			t.Errorf("plainMark(%q) = %v, want %v", c.v, got, c.mark)
		}
	}
	for _, c := range []struct {
		v    string
		code bool
	}{{"LT", true}, {"c", true}, {"C.T", true}, {"LW", true}, {"Yes", false}, {"SP19", false}, {"Tamil", false}, {"12", false}} {
		if got := code(c.v); got != c.code {
			t.Errorf("code(%q) = %v, want %v", c.v, got, c.code)
		}
	}
	for _, c := range []struct {
		h           string
		unit, plain bool
	}{
		{"Venue/Event", true, false}, {"Change, reason", true, false}, {"Year (Ceremony)", true, false},
		{"Height (m)", true, true}, {"Height (m)", false, false}, {"Population (2011)", true, true},
		{"Team (league)", false, false}, {"Party list seats Votes PSUV", true, false}, {"Pos", true, true},
		{"Date of birth", true, true}, {"#GM", true, false}, {"R.A. (J2000)", true, false},
		{"From", true, false}, {"Length km", true, false}, {"Area Ha", true, false}, {"Rainfall in", true, false},
		{"Catchment area mi2", true, false}, {"Length (km)", true, true}, {"Born in", true, false},
		{"P", true, false}, {"Pld", true, true}, {"Known for", true, false}, {"Named after", false, false},
		{"Team based", true, false}, {"Eliminated", true, false}, {"Opened", true, true}, {"Date opened", true, true}, {"Year built", true, true},
		{"Directed by", true, true}, {"Speed", true, true}, {"Lvl", true, true}, {"Seed", true, true},
	} {
		if got := plainHeader(c.h, c.unit); got != c.plain {
			t.Errorf("plainHeader(%q, %v) = %v, want %v", c.h, c.unit, got, c.plain)
		}
	}
	for _, c := range []struct {
		p, want string
		inline  bool
	}{
		{"Transfers", "transfers", true}, {"Current members", "current members", true},
		{"Kansas", "Kansas", false}, {"Regular season", "Regular season", false},
		{"Disc 3: Tweety and Sylvester and Friends", "Disc 3: Tweety and Sylvester and Friends", false},
		{"Super Series rankings", "Super Series rankings", false}, {"Results, men", "Results, men", false},
	} {
		if got, ok := sectionCase(c.p); got != c.want || ok != c.inline {
			t.Errorf("sectionCase(%q) = %q, %v, want %q, %v", c.p, got, ok, c.want, c.inline)
		}
	}
	for _, c := range []struct {
		h  string
		ok bool
	}{{"Winners", true}, {"Capacity", true}, {"Height (m)", true}, {"Champion", false}, {"Super region", false}, {"Gold", false}} {
		if got := measureHeader(c.h); got != c.ok {
			t.Errorf("measureHeader(%q) = %v, want %v", c.h, got, c.ok)
		}
	}
	if !seriesTitle("Cycling at the 1968 Summer Olympics", "Venues of the 1968 Summer Olympics") {
		t.Error("an event of the page's own Olympics is a link's target")
	}
	if seriesTitle("1968 Summer Olympics", "Venues of the 1968 Summer Olympics") || seriesTitle("Cycling", "Venues of the 1968 Summer Olympics") {
		t.Error("the edition itself, or a plain sport, is a value")
	}
}

// TestClueText: clue values compare as a reader compares them.
func TestClueText(t *testing.T) {
	for _, c := range [][2]string{{"Regina Pats (WHL)", "Regina Pats"}, {"Defense", "Defence"}, {"Centre", "center"}} {
		if clueText(c[0]) != clueText(c[1]) {
			t.Errorf("%q and %q read alike", c[0], c[1])
		}
	}
	if clueText("Regina Pats") == clueText("Regina") {
		t.Error("a shorter name is another value")
	}
}

func TestNameCell(t *testing.T) {
	for n, want := range map[string]bool{"vs. Saskatchewan Roughriders": false, "at Ottawa Rough Riders": false, "@ Boston": false,
		"Atlanta": true, "Regina Pats": true, "1985": false, "USA": false, "/ Michael Haneke": false,
		"30th": false, "2nd": false, "Apollo 11": true, "Dick Weber (16)": false} {
		if got := nameCell(n); got != want {
			t.Errorf("nameCell(%q) = %v, want %v", n, got, want)
		}
	}
}

func TestTypoOf(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"Rignt wing", "Right wing", true}, {"Light wing", "Right wing", true}, {"Right wing", "Right wing", false},
		{"Right wing", "Left wing", false}, {"Defence", "Defense", true}, {"Canada", "Canadas", true}, {"Iran", "Iraq", false}} {
		if got := typoOf(c.a, c.b); got != c.want {
			t.Errorf("typoOf(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"German Gothic", "Gothic", true}, {"Gothic Revival/Romanesque", "Gothic", true}, {"Liberal Republican", "Republican", true},
		{"Gothic", "Gothic", false}, {"Gothic", "German Gothic", false}, {"Visigothic", "Gothic", false}} {
		if got := kindOf(c.a, c.b); got != c.want {
			t.Errorf("kindOf(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestDatedFacts(t *testing.T) {
	for txt, want := range map[string]bool{
		"1878 built, 1975 NRHP-listed": true, "1981-1991, United States House of Representatives": true,
		"2001–2008": false, "1990–present": false, "1999 to 2003": false, "built 1902": false, "1950s and 1960s": false,
	} {
		if got := datedFacts(txt); got != want {
			t.Errorf("datedFacts(%q) = %v, want %v", txt, got, want)
		}
	}
}

func TestPlainHeaderCode(t *testing.T) {
	if plainHeader("ISN", true) {
		t.Error("ISN is a code no question spells out")
	}
	if !plainHeader("GP", true) || !plainHeader("Club", true) {
		t.Error("GP is spelled out, Club is a word")
	}
}

func TestStatedMore(t *testing.T) {
	rows := make([]graph.Row, 10)
	if !statedMore(&graph.Tree{PageTitle: "Modern Library 100 Best Novels", Section: "Editors' list", Rows: rows}) {
		t.Error("ten of the 100 best novels")
	}
	if statedMore(&graph.Tree{PageTitle: "1999 Tour de France", Section: "Top 10", Rows: rows}) {
		t.Error("a year counts nothing, ten is all of the top ten")
	}
}

// TestNumberedRows: a "#" or rank column that cleaning dropped still
// shows the rows were numbered; a note column does not.
func TestNumberedRows(t *testing.T) {
	if !numberedRows(&graph.Tree{Dropped: []string{"Notes: " + graph.DropNotes, "#: " + graph.DropSerial}}) {
		t.Error("the readers' list numbered its ten novels")
	}
	if numberedRows(&graph.Tree{Dropped: []string{"Notes: " + graph.DropNotes}}) {
		t.Error("a dropped note numbers nothing")
	}
	for title, want := range map[string]bool{"Modern Library 100 Best Novels": true, "Top 14": false, "Men's 3000 metres": false, "21 & Over (album)": false} {
		if got := rankedCount.MatchString(title); got != want {
			t.Errorf("rankedCount(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestMisspelt(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"rignt wing", "right wing", true}, {"master's l", "master's m", false}, {"left wing", "right wing", false}} {
		if got := misspelt(c.a, c.b); got != c.want {
			t.Errorf("misspelt(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	// A column of figures one digit apart has no misprint.
	names := map[uint32]*graph.Entity{1: {ID: 1, Name: "Rignt wing"}, 2: {ID: 2, Name: "Right wing"}, 3: {ID: 3, Name: "12.21"}, 4: {ID: 4, Name: "12.25"}}
	s := &synth{names: names}
	wings := &graph.Tree{ID: 1, Rows: []graph.Row{{Key: 10, Values: [][]uint32{{1}}}, {Key: 11, Values: [][]uint32{{2}}}}}
	times := &graph.Tree{ID: 2, Rows: []graph.Row{{Key: 10, Values: [][]uint32{{3}}}, {Key: 11, Values: [][]uint32{{4}}}}}
	if !s.misprinted(wings, 0) || s.misprinted(times, 0) {
		t.Error("misprinted: a misspelt word is, figures are not")
	}
}

func TestNotePhrase(t *testing.T) {
	for txt, want := range map[string]bool{
		"Oklahoma City Thunder (traded to New Orleans)": true, "Blue Ribbon Award (in Japan)": true,
		"Hereafter (film)": false, "Sport (Finland)": false, "Miami (OH)": false, "Javier Zanetti (c)": false,
	} {
		if got := notePhrase.MatchString(txt); got != want {
			t.Errorf("notePhrase(%q) = %v, want %v", txt, got, want)
		}
	}
}

func TestGarbled(t *testing.T) {
	for txt, want := range map[string]bool{
		"Eliminated (Day 28) th on October 16, 2011": true, "Eliminated (Day 7) st on September 25": true,
		"1.82 m (5 ft 11 ⁄ 4 in)": true, "5 ft 11 3⁄4 in": false, "28th on October 16": false,
		"St Kilda": false, "Dunstable Town": false, "4th": false,
	} {
		if got := garbled.MatchString(txt); got != want {
			t.Errorf("garbled(%q) = %v, want %v", txt, got, want)
		}
	}
	for txt, want := range map[string]bool{"RA-5C TA-3B TA-4J": true, "A-4 F-8": true, "RA-5C": false, "Boeing 747-400": false} {
		if got := designations.MatchString(txt); got != want {
			t.Errorf("designations(%q) = %v, want %v", txt, got, want)
		}
	}
	for txt, want := range map[string]bool{} {
		if got := garbled.MatchString(txt); got != want {
			t.Errorf("garbled(%q) = %v, want %v", txt, got, want)
		}
	}
}

func TestHeadNoun(t *testing.T) {
	if headNoun("Main Language (s)") != headNoun("Language (s)") || headNoun("Languages") != headNoun("Language") {
		t.Error("one column to a reader")
	}
	if headNoun("Language") == headNoun("Original title") {
		t.Error("two columns")
	}
}

func TestClueHeader(t *testing.T) {
	for h, want := range map[string]string{"Languages": "language", "Director (s)": "director", "Goals": "goals", "Nationality": "nationality"} {
		if got := clueHeader(h); got != want {
			t.Errorf("clueHeader(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestAttributeKey(t *testing.T) {
	roster := &graph.Tree{KeyHeader: "High School", Columns: []graph.Column{{Header: "Name"}, {Header: "Height"}}}
	crews := &graph.Tree{KeyHeader: "Drivers", KeyDomain: "person", Columns: []graph.Column{{Header: "Team"}}}
	players := &graph.Tree{KeyHeader: "Player", KeyDomain: "person", Columns: []graph.Column{{Header: "Name"}, {Header: "Club"}}}
	medals := &graph.Tree{KeyHeader: "Nation", Columns: []graph.Column{{Header: "Gold"}}}
	for tr, want := range map[*graph.Tree]bool{roster: true, crews: true, players: false, medals: false} {
		if got := attributeKey(tr); got != want {
			t.Errorf("attributeKey(%q) = %v, want %v", tr.KeyHeader, got, want)
		}
	}
}

// TestConceptSection: a section its page's name already says is left out
// only when the page has no other table ("Draft" of "1947 BAA draft"
// beside its "Other picks").
func TestConceptSection(t *testing.T) {
	tr := &graph.Tree{PageTitle: "1947 BAA draft", Section: "Draft"}
	for seed := uint64(0); seed < 6; seed++ {
		if got := concept(tr, true, "", rand.New(rand.NewPCG(seed, 0))); got != "1947 BAA draft" {
			t.Errorf("alone: concept = %q", got)
		}
		if got := concept(tr, false, "", rand.New(rand.NewPCG(seed, 0))); got != "1947 BAA draft (Draft)" {
			t.Errorf("beside another table: concept = %q lacks its section", got)
		}
	}
}

// TestConceptColon: a caption's colon is written as a sentence writes it,
// not spaced off as the crawl gives it; a table's number and a footnote's
// mark are left out.
func TestConceptColon(t *testing.T) {
	tr := &graph.Tree{PageTitle: "2008 Harlequins Rugby League season", Caption: "2008 Season Players : Current to Round 19"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, " : ") || !strings.Contains(got, "Players: Current") {
		t.Errorf("concept = %q", got)
	}
	tr = &graph.Tree{PageTitle: "Australian Dung Beetle Project", Caption: "Table 1: Species of introduced dung beetle that have established in Australia§"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, "1:") || strings.Contains(got, "§") {
		t.Errorf("concept = %q keeps the table's number or mark", got)
	}
	tr = &graph.Tree{PageTitle: "Dorado Group", Caption: "Members (with strikeouts for ones dropped by Maia et al. in 1989)"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, "strikeouts") || !strings.Contains(strings.ToLower(got), "members") {
		t.Errorf("concept = %q keeps the caption's note on its layout", got)
	}
}

// TestConceptNamedCaption: a caption that names its page reads as a noun
// phrase ("the cities within … Central Asia"), and one that restates the
// keys' noun ("Winners of the Florida Derby …") gives way to what they
// are of.
func TestConceptNamedCaption(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Central Asia", Caption: "Cities within the regular definition of Central Asia and Afghanistan"}
	if got := concept(tr, true, "cities", rand.New(rand.NewPCG(1, 0))); got != "the cities within the regular definition of Central Asia and Afghanistan" {
		t.Errorf("concept = %q", got)
	}
	tr = &graph.Tree{PageTitle: "Florida Derby", Caption: "Winners of the Florida Derby since 1952"}
	if got := concept(tr, true, "winners", rand.New(rand.NewPCG(1, 0))); got != "the Florida Derby since 1952" {
		t.Errorf("concept = %q", got)
	}
	// A list's part that names the list's set is no concept alone: "the
	// Improvisational theatre companies in the United Kingdom" would ask
	// for every one there is (round 171).
	tr = &graph.Tree{PageTitle: "List of improvisational theatre companies", Section: "Improvisational theatre companies in the United Kingdom"}
	for seed := uint64(0); seed < 8; seed++ {
		if got := concept(tr, true, "companies", rand.New(rand.NewPCG(seed, 0))); !strings.Contains(got, "the list of improvisational theatre companies") {
			t.Errorf("concept = %q: the list not named", got)
		}
	}
	if got := namedRoot("Teams in the Chinese Volleyball Super League (2018–2019)", "teams", []string{"Men's Super League"}); got != "the Chinese Volleyball Super League (2018–2019) (Men's Super League)" {
		t.Errorf("namedRoot = %q", got)
	}
	if got := namedRoot("Members of the 2. Bundesliga (2019–20 season)", "teams", nil); got != "the 2. Bundesliga (2019–20 season)" {
		t.Errorf("namedRoot = %q: the members of a league are its teams (not \"teams in the members of\")", got)
	}
	if got := namedRoot("Kansas City Royals roster", "players", nil); got != "the Kansas City Royals roster" {
		t.Errorf("namedRoot = %q: a name's first word is no common noun", got)
	}
}

// TestConceptThe: a page whose title has its article is not read "the
// The".
func TestConceptThe(t *testing.T) {
	tr := &graph.Tree{PageTitle: "The Silent Force (TV series)", Section: "Episodes"}
	for seed := uint64(0); seed < 12; seed++ {
		for _, alone := range []bool{true, false} {
			if got := concept(tr, alone, "", rand.New(rand.NewPCG(seed, 0))); strings.Contains(got, "the The") {
				t.Errorf("concept = %q", got)
			}
		}
	}
}

// TestConceptNarrows: a section naming one of the two sets a page title
// joins is kept even when its table is the page's only one.
func TestConceptNarrows(t *testing.T) {
	tr := &graph.Tree{PageTitle: "List of United States national lakeshores and seashores", Section: "National Seashores"}
	for seed := uint64(0); seed < 6; seed++ {
		if got := concept(tr, true, "", rand.New(rand.NewPCG(seed, 0))); !strings.Contains(got, "National Seashores") && !strings.Contains(got, "national seashores") {
			t.Errorf("concept = %q lacks its section", got)
		}
	}
	both := &graph.Tree{PageTitle: "List of lakes and rivers", Section: "Lakes and rivers"}
	if got := concept(both, true, "", rand.New(rand.NewPCG(1, 0))); got != "the list of lakes and rivers" {
		t.Errorf("concept = %q, want the page alone", got)
	}
}

// TestConceptList: a section "List" of a list page is the page itself.
func TestConceptList(t *testing.T) {
	tr := &graph.Tree{PageTitle: "List of counties in North Carolina", Section: "List"}
	for seed := uint64(0); seed < 4; seed++ {
		if got := concept(tr, false, "", rand.New(rand.NewPCG(seed, 0))); strings.Contains(strings.ToLower(got), "list of the list") || strings.Count(strings.ToLower(got), "list") > 1 {
			t.Errorf("concept = %q", got)
		}
	}
}

// TestConceptLetter: a section of one letter is an alphabetical part.
// TestConceptListOf: a section "List of X" on a page about X adds
// nothing.
func TestConceptListOf(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Special cities of Japan", Section: "List of special cities"}
	if got := concept(tr, true, "", rand.New(rand.NewPCG(1, 0))); got != "Special cities of Japan" {
		t.Errorf("concept = %q", got)
	}
}

// TestConceptOwnParenthesis: a page whose title ends in a parenthesis
// takes no second one: "the former members of West Region (WFTDA)", the
// section named in quotes where it is no noun.
func TestConceptOwnParenthesis(t *testing.T) {
	for _, c := range []struct{ page, section, want string }{
		{"West Region (WFTDA)", "Former members", "the former members of West Region (WFTDA)"},
		{"Outback (region)", "Largest towns", `the "Largest towns" section of Outback (region)`}, // "Largest" may begin a name
		{"Every Little Thing (band)", "", `the "singles, with selected chart positions" list of Every Little Thing (band)`},
		{"North Down (Assembly constituency)", "Elections|1973", `the "Elections, 1973" section of North Down (Assembly constituency)`},
		{"1995 U.S. Open (golf)", "Round summaries|Second round", `the "Round summaries, Second round" section of 1995 U.S. Open (golf)`},
	} {
		tr := &graph.Tree{PageTitle: c.page, Section: c.section}
		if c.section == "" {
			tr.Caption = "List of singles, with selected chart positions" // a caption: the list
		}
		for seed := range uint64(4) {
			if got := concept(tr, false, "", rand.New(rand.NewPCG(seed, 0))); got != c.want {
				t.Errorf("concept(%q, %q) = %q, want %q", c.page, c.section, got, c.want)
			}
		}
	}
}

func TestConceptLetter(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Utah Jazz all-time roster", Section: "C"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); !strings.Contains(got, "listed under C") {
		t.Errorf("concept = %q", got)
	}
}

// TestListItems: a cell listing several things gives each, "Left/Right
// Wing" a left and a right wing.
func TestListItems(t *testing.T) {
	for v, want := range map[string][]string{
		"French, Hebrew":               {"French, Hebrew", "French", "Hebrew"},
		"Left/Right Wing":              {"Left/Right Wing", "Left", "Right Wing", "Left Wing", "Right Wing"},
		"Centre":                       {"Centre"},
		"Michael Jacobs & April Kelly": {"Michael Jacobs & April Kelly", "Michael Jacobs", "April Kelly"},
	} {
		if got := listItems(v); !slices.Equal(got, want) {
			t.Errorf("listItems(%q) = %q, want %q", v, got, want)
		}
	}
	for n, want := range map[string]bool{
		"9 July 2002 Became Airdrie United": false, "Clara 3-20": false, "Minuscule 2298?": false,
		"Kahlil Gibran, Lebanese American poet and artist": false, "Paris, Texas": true,
		"Washington, D.C.": true, "Percy Grainger": true, "Route 66": true, "164 km/h (102 mph)": false,
		"3 Doors Down": true, "10,000 Maniacs": true, "Slovenia vs Lithuania": false, "Austin Walker; Sam S. Griffin": false, "Cruzeiro Independiente (2 each)": false, "16.1 MeTV 16.2 JUCE TV": false,
		"Rosenborg (22), Freidig (1)": false, "AFA 11–7–1": false, "Polytechnic of Namibia, 2005.": false, "El Al — 432 AMS → ZRH → TLV": false, "Málaga, Recreativo, Sevilla": false, "Peter Cassar & Aaron McDonald": false, "Simon & Garfunkel": true, "Procter & Gamble": true, "Larvik Turn (3) and Fram Larvik (1)": false, "Queen (band)": true,
	} {
		if got := nameCell(n); got != want {
			t.Errorf("nameCell(%q) = %v, want %v", n, got, want)
		}
	}
}

// TestShortened: a word cut short is no clue; names with dots are.
func TestShortened(t *testing.T) {
	for v, want := range map[string]bool{"Proto.": true, "Unmod.": true, "Jr.": false, "U.S.": false, "Active": false, "St. Louis": false} {
		if got := shortened(v); got != want {
			t.Errorf("shortened(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestPlaceholdersAndStacks: a quoted "TBA" and Wikipedia's missing-data
// template are placeholders; stacked figures are no one value.
func TestPlaceholdersAndStacks(t *testing.T) {
	for v, want := range map[string]bool{`"TBA"`: true, "[Data unknown/missing. You can help!]": true, "Tumon": false} {
		if got := placeholder(v); got != want {
			t.Errorf("placeholder(%q) = %v, want %v", v, got, want)
		}
	}
	for v, want := range map[string]bool{"11 1 12": true, "2008 1": true, "2008": false, "1,200": false, "3 Doors": false} {
		if got := stacked.MatchString(v); got != want {
			t.Errorf("stacked(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestConceptNamesPage: a section naming the page itself is the concept,
// and a subsection after it still tells which table.
func TestConceptNamesPage(t *testing.T) {
	tr := &graph.Tree{PageTitle: "List of Michelin 3-star restaurants", Section: "List of Michelin 3-star restaurants by country in the latest version | Hong Kong and Macau"}
	want := "the Michelin 3-star restaurants by country in the latest version (Hong Kong and Macau)"
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); got != want {
		t.Errorf("concept = %q, want %q", got, want)
	}
}

// TestSectionCount: a section's count in parentheses is read.
func TestSectionCount(t *testing.T) {
	for _, c := range []struct {
		section string
		n       int
		ok      bool
	}{{"Christians (86)", 86, true}, {"Senators | Christians (86)", 86, true}, {"Results (2011)", 0, false}, {"Results", 0, false}} {
		n, ok := sectionCount(&graph.Tree{Section: c.section})
		if n != c.n || ok != c.ok {
			t.Errorf("sectionCount(%q) = %d, %v; want %d, %v", c.section, n, ok, c.n, c.ok)
		}
	}
}

// TestConceptFootnote: a heading's footnote mark is no part of it.
func TestConceptFootnote(t *testing.T) {
	tr := &graph.Tree{PageTitle: "2013 Rali Vinho da Madeira", Section: "Results[1]"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); strings.Contains(got, "[1]") || !strings.Contains(got, "Results") && !strings.Contains(got, "results") {
		t.Errorf("concept = %q", got)
	}
}

// TestCountOf: a count with what it counts is no one value.
func TestCountOf(t *testing.T) {
	for v, want := range map[string]bool{"4 (1991, 1998, 2007, 2012)": true, "6 (2+4)": true, "0 (1)": true, "4": false, "Route 66 (US)": false} {
		if got := countOf.MatchString(v); got != want {
			t.Errorf("countOf(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestPlainClueScore: a score is no clue; a season is.
func TestPlainClueScore(t *testing.T) {
	for v, want := range map[string]bool{"2–3": false, "4-1 (a.e.t.)": false, "1974–75": true, "Chelsea": true, "DNF": false, "dns": false,
		"1 season, 10 episodes": false, "CL1, 1st": false, "Paris, Texas": true, "Route 66, Arizona": true, "August 2, 1824": true,
		"1R": false, "QF": false, "Q2": false, "R1": false, "Round 1": true,
		"NA , EU": false, "JP/NA": false, "NA, EU, JP": false, "EU": true, "Lyon, France": true} {
		if got := plainClue(v); got != want {
			t.Errorf("plainClue(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestStandingsAndShares: "A" of a league table is goals against, and an
// election's one-word figures name candidates, not what they count.
func TestStandingsAndShares(t *testing.T) {
	league := &graph.Tree{Columns: []graph.Column{{Header: "Club"}, {Header: "W"}, {Header: "D"}, {Header: "L"}, {Header: "F"}, {Header: "A"}}}
	skaters := &graph.Tree{Columns: []graph.Column{{Header: "Player"}, {Header: "GP"}, {Header: "G"}, {Header: "A"}, {Header: "Pts"}}}
	if !standings(league) || standings(skaters) {
		t.Errorf("standings: league %v, skaters %v", standings(league), standings(skaters))
	}
	el := &graph.Tree{PageTitle: "United States presidential election in California, 2012", Columns: []graph.Column{
		{Header: "County"}, {Header: "Obama", Datatype: graph.TypeNumber}, {Header: "Votes", Datatype: graph.TypeNumber},
		{Header: "Others", Datatype: graph.TypeNumber}, {Header: "Party"}, {Header: "Obama votes", Datatype: graph.TypeNumber}}}
	for c, want := range []bool{false, true, false, true, false, false} {
		if got := candidateShare(el, c); got != want {
			t.Errorf("candidateShare(%q) = %v, want %v", el.Columns[c].Header, got, want)
		}
	}
	other := &graph.Tree{PageTitle: "2012 NBA draft", Columns: []graph.Column{{Header: "Pick", Datatype: graph.TypeNumber}}}
	if candidateShare(other, 0) {
		t.Error("a figure of no election is no candidate's share")
	}
}

// TestConceptTally: a section's count of finals is left out.
func TestConceptTally(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Karolina Šprem", Section: "ITF Circuit finals | Singles: 14 (10–4)"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); got != "Karolina Šprem (ITF Circuit finals, Singles)" {
		t.Errorf("concept = %q", got)
	}
}

// TestConceptRestates: a section restating the page title is said once.
func TestConceptRestates(t *testing.T) {
	tr := &graph.Tree{PageTitle: "Ohio House of Representatives membership, 125th General Assembly",
		Section: "Members of the Ohio House of Representatives, 125th General Assembly"}
	if got := concept(tr, false, "", rand.New(rand.NewPCG(1, 0))); got != tr.PageTitle {
		t.Errorf("concept = %q", got)
	}
}

// TestKeyNounPlural: a plural key header names each key by its singular.
func TestKeyNounPlural(t *testing.T) {
	for h, want := range map[string]noun{"Airlines": {"airline", "airlines"}, "Series": {"series", "series"}, "Team": {"team", "teams"}} {
		tr := &graph.Tree{KeyHeader: h, KeyDatatype: graph.TypeEntity}
		if got := keyNoun(tr); got != want {
			t.Errorf("keyNoun(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestMislinkedKey: a key cell linking what another cell of its row names,
// in no word of its own, is no key of that thing; a stage name is.
func TestMislinkedKey(t *testing.T) {
	s := &synth{names: map[uint32]*graph.Entity{
		1: {ID: 1, Name: "Idaho Court of Appeals"}, 2: {ID: 2, Name: "Sean Combs"}, 3: {ID: 3, Name: "1980"},
	}}
	court := &graph.Tree{Shown: map[uint32]string{1: "Sergio Gutierrez"}, Rows: []graph.Row{{Key: 1, Values: [][]uint32{{3}, {1}}}}}
	if !s.mislinkedKey(court) {
		t.Error("a judge linked to his court is no key of the court")
	}
	stage := &graph.Tree{Shown: map[uint32]string{2: "Diddy"}, Rows: []graph.Row{{Key: 2, Values: [][]uint32{{3}}}}}
	if s.mislinkedKey(stage) {
		t.Error("a stage name linking the artist is his key")
	}
	twoWays := &graph.Tree{Rows: []graph.Row{{Key: 1, Values: [][]uint32{{1}}}}}
	if !s.mislinkedKey(twoWays) {
		t.Error("a row whose key is its own value, written two ways, is mislinked")
	}
}

// TestRunningOrder: a "Draw" numbering its rows 1 to n is an order; one
// of counts is not.
func TestRunningOrder(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	var order, counts []graph.Row
	for i := 1; i <= 4; i++ {
		id := uint32(100 + i)
		names[id] = &graph.Entity{ID: id, Name: strconv.Itoa(5 - i)}
		order = append(order, graph.Row{Key: uint32(i), Values: [][]uint32{{id}}})
		counts = append(counts, graph.Row{Key: uint32(i), Values: [][]uint32{{101}}})
	}
	s := &synth{names: names}
	if !s.runningOrder(&graph.Tree{Rows: order}, 0) {
		t.Error("4, 3, 2, 1 is an order")
	}
	if s.runningOrder(&graph.Tree{Rows: counts}, 0) {
		t.Error("4, 4, 4, 4 is no order")
	}
}

// TestRankedTop: a table ranking its rows from the first to the last is a
// top list; a column of shirt positions is no ranking.
func TestRankedTop(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	var rows, roster []graph.Row
	for i := 1; i <= 10; i++ {
		id := uint32(100 + i)
		names[id] = &graph.Entity{ID: id, Name: fmt.Sprintf("%d%s", i, map[bool]string{true: "st", false: "th"}[i == 1])}
		rows = append(rows, graph.Row{Key: uint32(i), Values: [][]uint32{{id}}})
		roster = append(roster, graph.Row{Key: uint32(i), Values: [][]uint32{{200}}})
	}
	names[200] = &graph.Entity{ID: 200, Name: "Forward"}
	s := &synth{names: names}
	if !s.rankedTop(&graph.Tree{Columns: []graph.Column{{Header: "Position"}}, Rows: rows}) {
		t.Error("1st to 10th is a top ten")
	}
	if s.rankedTop(&graph.Tree{Columns: []graph.Column{{Header: "Position"}}, Rows: roster}) {
		t.Error("a roster's positions are no ranking")
	}
	medals := &graph.Tree{Section: "Medal count", Columns: []graph.Column{{Header: "Rank", Name: "has_rank"}}, Rows: rows}
	if !s.roundTop(medals) {
		t.Error("a medal count ranking ten nations is a top ten")
	}
	dropped := &graph.Tree{PageTitle: "2004 Summer Paralympics", Section: "Medal count", Rows: rows, Dropped: []string{"Rank: " + graph.DropRank}}
	if !s.roundTop(dropped) {
		t.Error("a medal count whose rank the build dropped is a top ten")
	}
	medals.Section = "Top 10 nations"
	if s.roundTop(medals) {
		t.Error("a title saying top ten asks no more")
	}
	if !seasonArticle.MatchString("Dancing with the Stars (U.S. season 19)") || seasonArticle.MatchString("1999–2000 season") {
		t.Error("seasonArticle")
	}
}

// TestGendered: a "Women" column of a few titles is not asked as a number
// of women; one of a population's thousands is.
func TestGendered(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	tree := func(figs ...string) *graph.Tree {
		tr := &graph.Tree{KeyHeader: "School", Columns: []graph.Column{{Header: "Women", Name: "has_women", Datatype: graph.TypeNumber}}}
		for i, f := range figs {
			id := uint32(100*len(figs[0]) + i)
			names[id] = &graph.Entity{ID: id, Name: f, Key: "n:" + f}
			tr.Rows = append(tr.Rows, graph.Row{Key: uint32(i + 1), Values: [][]uint32{{id}}})
		}
		return tr
	}
	s := &synth{names: names}
	keys := []uint32{1, 2, 3}
	if s.plainColumn(tree("16", "9", "2"), 0, keys) {
		t.Error("16, 9, 2 women's titles asked as a number of women")
	}
	if !s.plainColumn(tree("162641", "202202", "300000"), 0, keys) {
		t.Error("a region's women are a number of women")
	}
}

// TestDescribedKey: a key of addresses, or of the mayors of a list of
// cities, says where or whose a row's thing is; a list of mayors is keyed
// by them.
func TestDescribedKey(t *testing.T) {
	for _, c := range []struct {
		page, header string
		want         bool
	}{
		{"National Register of Historic Places listings in Jefferson County", "Location", true},
		{"List of cities in Italy", "Mayor", true},
		{"List of mayors of Rome", "Mayor", false},
		{"Premier League", "Manager", true},
		{"List of Manchester United F.C. managers", "Manager", false},
		{"List of airports in Cambodia", "Airport", false},
	} {
		if got := describedKey(&graph.Tree{PageTitle: c.page, KeyHeader: c.header}); got != c.want {
			t.Errorf("describedKey(%q, %q) = %v, want %v", c.page, c.header, got, c.want)
		}
	}
}

// TestCrawlShort: a crawled table of 19 rows may be the head of a longer
// one; a page's table of 19 is whole.
func TestCrawlShort(t *testing.T) {
	rows := make([]graph.Row, 19)
	if !crawlShort(&graph.Tree{Source: "tables.jsonl.gz#line 6845", Rows: rows}) {
		t.Error("19 crawled rows not short")
	}
	if crawlShort(&graph.Tree{Source: "pages-html.tar.gz!page/203-page/33.html#table 0", Rows: rows}) {
		t.Error("a page's table of 19 rows short")
	}
	if crawlShort(&graph.Tree{Source: "tables.jsonl.gz#line 1", Rows: rows[:18]}) {
		t.Error("18 crawled rows short")
	}
}

// TestPersonPage: a person's page is named as the concept, not a place
// things appear in.
func TestPersonPage(t *testing.T) {
	for title, want := range map[string]bool{
		"Kristýna Plíšková": true, "Wentworth Miller": true, "Sean Murphy (photographer)": true,
		"Big East Conference": false, "2012 K-League": false, "List of lemur species": false, "Ford of Europe": false,
	} {
		if got := personPage(title); got != want {
			t.Errorf("personPage(%q) = %v, want %v", title, got, want)
		}
	}
}

// TestHoldsAll: a cell listing every producer of a filter's list, and
// more, holds it; one missing an item, or in another spelling, does not.
func TestHoldsAll(t *testing.T) {
	want := listItems("E-Swift, King Tee")[1:]
	for cell, ok := range map[string]bool{
		"King Tee, E-Swift, Tha Alkaholiks": true,
		"King Tee and E-Swift":              true,
		"King Tee, Tha Alkaholiks":          false,
		"DJ Muggs":                          false,
	} {
		if got := holdsAll(listItems(cell)[1:], want, clueText); got != ok {
			t.Errorf("holdsAll(%q, %q) = %v, want %v", cell, want, got, ok)
		}
	}
}

// TestValueWords: a bare header reads by what its column holds: "Lap" of
// lap times, a loan's "Start" of dates, a "Field" of grass, a medal
// table's "Total", a "2012 season" of places; a "Heat" of heat numbers and a "Field" of study stay.
func TestValueWords(t *testing.T) {
	names := map[uint32]*graph.Entity{
		1: {ID: 1, Name: "1:22.129"}, 2: {ID: 2, Name: "1:23.5"}, 3: {ID: 3, Name: "Grass"},
		4: {ID: 4, Name: "Artificial turf"}, 5: {ID: 5, Name: "3"}, 6: {ID: 6, Name: "Physics"},
		7: {ID: 7, Name: "2013-01-25"}, 8: {ID: 8, Name: "12"}, 9: {ID: 9, Name: "6th"}, 10: {ID: 10, Name: "CL1, 1st"},
		11: {ID: 11, Name: "50.39"}, 12: {ID: 12, Name: "51.4"},
	}
	s := &synth{names: names}
	tree := func(typ graph.Datatype, vals ...uint32) []*graph.Tree {
		tr := &graph.Tree{Columns: []graph.Column{{Name: "has_c", Datatype: typ}}}
		for _, v := range vals {
			tr.Rows = append(tr.Rows, graph.Row{Values: [][]uint32{{v}}})
		}
		return []*graph.Tree{tr}
	}
	medal := tree(graph.TypeNumber, 8)
	medal[0].Columns = append(medal[0].Columns, graph.Column{Name: "has_gold", Header: "Gold", Datatype: graph.TypeNumber})
	for _, c := range []struct {
		w    string
		ts   []*graph.Tree
		want string
	}{
		{"lap", tree(graph.TypeText, 1, 2), "lap time"},
		{"run 1", tree(graph.TypeText, 1), "run 1 time"},
		{"run 1", tree(graph.TypeNumber, 11, 12), "run 1 time"}, // seconds
		{"total", tree(graph.TypeNumber, 11, 12), "total"},      // points, perhaps
		{"heat", tree(graph.TypeNumber, 5), "heat"},
		{"lap", tree(graph.TypeText, 1, 5), "lap"},
		{"start", tree(graph.TypeDate, 7), "start date"},
		{"field", tree(graph.TypeText, 3, 4), "playing surface"},
		{"field", tree(graph.TypeText, 3, 6), "field"},
		{"total", medal, "total number of medals"},
		{"total", tree(graph.TypeNumber, 8), "total"},
		{"2012 season", tree(graph.TypeText, 9, 10), "position in the 2012 season"},
		{"2011–12", tree(graph.TypeText, 9), "position in 2011–12"},
		{"2012 season", tree(graph.TypeText, 9, 6), "2012 season"},
	} {
		cols := []column{{rel: "has_c"}}
		if got := s.valueWords(cols, c.ts, []string{c.w})[0]; got != c.want {
			t.Errorf("%q: %q, want %q", c.w, got, c.want)
		}
	}
}

func TestMentioned(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	for id, n := range map[uint32]string{1: "Nominated", 2: "Not Nominated", 3: "Won Academy Award", 4: "Italy", 5: "Denmark United States", 6: "United States"} {
		names[id] = &graph.Entity{ID: id, Name: n}
	}
	names[7] = &graph.Entity{ID: 7, Name: "French language", Aliases: []string{"French"}}
	names[8] = &graph.Entity{ID: 8, Name: "French, Hebrew"}
	names[9] = &graph.Entity{ID: 9, Name: "Swedish language", Aliases: []string{"Swedish"}}
	names[11] = &graph.Entity{ID: 11, Name: "Cleveland, Ohio", Aliases: []string{"Cleveland"}}
	names[12] = &graph.Entity{ID: 12, Name: "Cleveland Heights, Ohio"}
	s := &synth{names: names}
	tr := &graph.Tree{Columns: []graph.Column{{Name: "has_result"}, {Name: "has_country"}, {Name: "has_language"}, {Name: "has_city"}},
		Rows: []graph.Row{
			{Key: 10, Values: [][]uint32{{1}, {4}, {7}, {11}}},
			{Key: 11, Values: [][]uint32{{2}, {5}, {8}, {12}}},
			{Key: 12, Values: [][]uint32{{3}, {6}, {9}, {11}}},
		}}
	for _, c := range []struct {
		rel  string
		v    uint32
		want bool
	}{
		{"has_result", 1, true},  // "Not Nominated" names "Nominated"
		{"has_result", 2, false}, // no other cell names "Not Nominated"
		{"has_result", 3, false},
		{"has_country", 6, true}, // "Denmark United States"
		{"has_country", 4, false},
		{"has_coach", 4, false},   // no such column
		{"has_language", 7, true}, // "French, Hebrew" names French language by the text "French"
		{"has_language", 9, false},
		{"has_city", 11, false}, // "Cleveland Heights, Ohio" is no list naming Cleveland
	} {
		if got := s.mentioned([]*graph.Tree{tr}, c.rel, c.v); got != c.want {
			t.Errorf("mentioned(%s, %q) = %v, want %v", c.rel, names[c.v].Name, got, c.want)
		}
	}
}

// TestPlainColumnURLs: a column with a web address or a cell of bulleted
// items for a value is not asked; one of plain places is.
func TestPlainColumnURLs(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	tree := func(cells ...string) *graph.Tree {
		tr := &graph.Tree{KeyHeader: "Chapter", Columns: []graph.Column{{Header: "Location", Name: "has_location", Datatype: graph.TypeText}}}
		for i, c := range cells {
			id := uint32(1000*len(cells[len(cells)-1]) + i)
			names[id] = &graph.Entity{ID: id, Name: c, Key: "t:" + c}
			tr.Rows = append(tr.Rows, graph.Row{Key: uint32(i + 1), Values: [][]uint32{{id}}})
		}
		return tr
	}
	s := &synth{names: names}
	cities := []string{"Dallas", "Austin", "Houston", "Waco", "Tyler", "Denton", "Lubbock", "Abilene", "Beaumont", "Killeen"}
	keys := []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if !s.plainColumn(tree(append(cities, "Camden, Arkansas")...), 0, keys) {
		t.Error("a column of cities is asked")
	}
	if s.plainColumn(tree(append(cities, "https://en.m.wikipedia.org/wiki/Camden, _Arkansas")...), 0, keys) {
		t.Error("a web address asked as a location")
	}
	if s.plainColumn(tree(append(cities, "• Ashiq Ho To Aisa Ho • Uske Khel Nirale")...), 0, keys) {
		t.Error("a cell of bulleted songs asked as one value")
	}
	if s.plainColumn(tree(append(cities, "Shahr-e Qods etc")...), 0, keys) {
		t.Error("a list cut short by etc asked as one value")
	}
	if s.plainColumn(tree(append(cities, "6-0 6-0")...), 0, keys) {
		t.Error("two records in one cell asked as one value")
	}
	if !s.plainColumn(tree(append(cities, "6-0")...), 0, keys) {
		t.Error("a record is a value")
	}
}

// TestPlainColumnTerms: a column of year spans under "Office" holds terms,
// not offices ("give the office": 1886–1901); under "Term" it is asked.
func TestPlainColumnTerms(t *testing.T) {
	names := map[uint32]*graph.Entity{}
	tree := func(header string) *graph.Tree {
		tr := &graph.Tree{KeyHeader: "Mayor", Columns: []graph.Column{{Header: header, Name: "has_x", Datatype: graph.TypeText}}}
		for i := range 10 {
			id := uint32(100 + i)
			span := fmt.Sprintf("%d–%d", 1880+2*i, 1881+2*i)
			names[id] = &graph.Entity{ID: id, Name: span, Key: "t:" + span}
			tr.Rows = append(tr.Rows, graph.Row{Key: uint32(i + 1), Values: [][]uint32{{id}}})
		}
		return tr
	}
	s := &synth{names: names}
	keys := []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if s.plainColumn(tree("Office"), 0, keys) {
		t.Error("terms asked as the office")
	}
	if !s.plainColumn(tree("Term"), 0, keys) {
		t.Error("terms not asked as the term")
	}
}

// TestSharedHead: "Points" beside three other points columns is not
// asked; "Goals" beside one "Goals per game" is.
func TestSharedHead(t *testing.T) {
	tr := &graph.Tree{Columns: []graph.Column{{Header: "Points"}, {Header: "Points defending"}, {Header: "Points won"}, {Header: "New points"}, {Header: "Status"}}}
	if !sharedHead(tr, 0) || sharedHead(tr, 1) || sharedHead(tr, 4) {
		t.Error("only the bare \"Points\" is ambiguous")
	}
	tr = &graph.Tree{Columns: []graph.Column{{Header: "Goals"}, {Header: "Goals per game"}}}
	if sharedHead(tr, 0) {
		t.Error("one qualified column leaves \"Goals\" clear")
	}
}

// TestEventsPlace: the country of a race keyed by its winner is the
// race's, not asked of the winner; a country beside no event is the key's.
func TestEventsPlace(t *testing.T) {
	tr := &graph.Tree{KeyHeader: "Winner", Columns: []graph.Column{{Header: "Date"}, {Header: "Event"}, {Header: "Country", Domain: "place"}}}
	if !eventsPlace(tr, 2) || eventsPlace(tr, 0) {
		t.Error("the race's country is not the winner's; its date is asked")
	}
	tr = &graph.Tree{KeyHeader: "Winner", Columns: []graph.Column{{Header: "Year"}, {Header: "Country", Domain: "place"}}}
	if eventsPlace(tr, 1) {
		t.Error("a winner's country beside no event is the winner's")
	}
}

// TestRefusedCell: marks, lists, notes and several facts in one cell are
// no value; a name or a figure is.
func TestRefusedCell(t *testing.T) {
	for txt, want := range map[string]bool{
		"11 1 12": true, "6-0 6-0": true, "Oklahoma City Thunder (traded to New Orleans)": true,
		"1878 built, 1975 NRHP-listed": true, "https://example.org": true, "Shahr-e Qods etc": true,
		"Barcelona": false, "45,000": false, "Al-Hilal (Kadougli)": false,
	} {
		if got := refusedCell(txt); got != want {
			t.Errorf("refusedCell(%q) = %v, want %v", txt, got, want)
		}
	}
	s := &synth{}
	if !s.refusedText("11 1 12") || !s.refusedText("11 1 12") || s.refusedText("Barcelona") {
		t.Error("the kept answer differs from refusedCell's")
	}
}

// TestYearWords: a header of a time over a column of years asks for the
// year ("year opened"), not a date the table does not give.
func TestYearWords(t *testing.T) {
	tr := &graph.Tree{Columns: []graph.Column{{Name: "has_opened", Header: "Opened", Datatype: graph.TypeYear}, {Name: "has_born", Header: "Born", Datatype: graph.TypeDate}}}
	cols := []column{{rel: "has_opened", header: "Opened"}, {rel: "has_born", header: "Born"}}
	got := colWords(cols, []*graph.Tree{tr})
	if got[0] != "year opened" || got[1] != "date of birth" {
		t.Errorf("colWords = %q, want year opened, date of birth", got)
	}
}

// TestRunTogether: a cell that is two other cells of its column run
// together ("Natural Artificial", "John Cromwell A. Edward Sutherland")
// says neither, and its column is not asked; a name of two words, or a
// cell linking its own article ("Texas Southern"), is no such cell.
func TestRunTogether(t *testing.T) {
	names := map[uint32]*graph.Entity{
		1: {ID: 1, Name: "Natural"}, 2: {ID: 2, Name: "Artificial"}, 3: {ID: 3, Name: "Natural Artificial"},
		4: {ID: 4, Name: "John Cromwell"}, 5: {ID: 5, Name: "New York"}, 6: {ID: 6, Name: "Boston"},
		7: {ID: 7, Name: "Texas", Key: "w:Texas"}, 8: {ID: 8, Name: "Southern", Key: "w:Southern"}, 9: {ID: 9, Name: "Texas Southern", Key: "w:Texas Southern"},
	}
	s := &synth{names: names}
	col := func(vals ...uint32) *graph.Tree {
		tr := &graph.Tree{Columns: []graph.Column{{Name: "has_c", Datatype: graph.TypeText}}}
		for _, v := range vals {
			tr.Rows = append(tr.Rows, graph.Row{Values: [][]uint32{{v}}})
		}
		return tr
	}
	if !s.runTogether(col(1, 2, 3, 1), 0) {
		t.Error("Natural Artificial beside Natural and Artificial: not run together")
	}
	if s.runTogether(col(1, 2, 5, 6), 0) {
		t.Error("New York beside Natural, Artificial and Boston: run together")
	}
	if s.runTogether(col(7, 8, 9), 0) {
		t.Error("Texas Southern, a college's own article, beside Texas and Southern: run together")
	}
}

// TestNeededClues: a clue the others imply is left out ("whose result
// is Not Nominated and whose director is Tomotaka Tasaka", where the
// director alone names one film); clues that single out the anchor only
// together are all kept.
func TestNeededClues(t *testing.T) {
	space := roaring.BitmapOf(1, 2, 3, 4, 5)
	fits := map[string]*roaring.Bitmap{
		"result":   roaring.BitmapOf(1, 2, 3), // Not Nominated
		"language": roaring.BitmapOf(1, 4),    // Japanese
		"director": roaring.BitmapOf(1),       // Tomotaka Tasaka
		"country":  roaring.BitmapOf(1, 5),
	}
	holders := func(f clueFact) (*roaring.Bitmap, error) { return fits[f.rel], nil }
	clue := func(rels ...string) []clueFact {
		var cs []clueFact
		for _, r := range rels {
			cs = append(cs, clueFact{rel: r})
		}
		return cs
	}
	rels := func(cs []clueFact) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.rel)
		}
		return out
	}
	for _, c := range []struct{ in, want []string }{
		{[]string{"result", "language", "director"}, []string{"director"}},
		{[]string{"result", "language"}, []string{"result", "language"}},
		{[]string{"result", "country"}, []string{"result", "country"}},
		{[]string{"language", "result", "country"}, []string{"result", "country"}},
		{[]string{"director"}, []string{"director"}},
	} {
		got, err := neededClues(space, clue(c.in...), holders)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rels(got), c.want) {
			t.Errorf("neededClues(%v) = %v, want %v", c.in, rels(got), c.want)
		}
	}
}

// TestTwoNames: a clue cell naming two people joined by "&" is said as
// two ("whose directors are Philippe Arthuys and Jean-Louis
// Levi-Alvarès"); a firm's or a duo's name is one.
func TestTwoNames(t *testing.T) {
	for in, want := range map[string]bool{
		"Philippe Arthuys & Jean-Louis Levi-Alvarès": true, "Philippe Boon & Laurent Brandenbourger": true,
		"Procter & Gamble": false, "Simon & Garfunkel": false, "Marks & Spencer plc": false, "Arkansas AM&N": false,
	} {
		if got := twoNames.MatchString(in); got != want {
			t.Errorf("twoNames(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestKindFirst: a title whose disambiguator names a kind is said with
// the kind first; any other title as it is.
func TestKindFirst(t *testing.T) {
	for in, want := range map[string]string{
		"Theofilos (film)":               "the film Theofilos",
		"Larry Smith (footballer)":       "the footballer Larry Smith",
		"Le Chant du monde (film)":       "the film Le Chant du monde",
		"Jim Thomas (American football)": "Jim Thomas (American football)",
		"Get Free (1997 song)":           "Get Free (1997 song)",
		"Al-Hilal (Kadougli)":            "Al-Hilal (Kadougli)",
		"Ingmar Bergman":                 "Ingmar Bergman",
		"Those Wonderful Movie Cranks":   "Those Wonderful Movie Cranks",
	} {
		if got := kindFirst(in); got != want {
			t.Errorf("kindFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKindSaid: an expansion names the row key it describes by with its
// table's noun, unless the noun says nothing or the title has a kind.
func TestKindSaid(t *testing.T) {
	film := idFact{noun: noun{"film", "films"}}
	for _, c := range []struct {
		title string
		f     idFact
		want  string
	}{
		{"The Spring Festival", film, "the film The Spring Festival"},
		{"Theofilos (film)", film, "the film Theofilos"},
		{"The Spring Festival", idFact{subj: true, noun: noun{"film", "films"}}, "The Spring Festival"},
		{"Rabbit of Seville", idFact{noun: noun{"work", "works"}}, "Rabbit of Seville"},
		{"Robert L. Butler", idFact{noun: noun{"mayor", "mayors"}}, "the mayor Robert L. Butler"},
		{"Achimota School", idFact{noun: noun{"school", "schools"}}, "Achimota School"},
		{"Friends and Family (Burn Notice)", idFact{noun: noun{"episode", "episodes"}}, "the Burn Notice episode Friends and Family"},
		{"Eddie Hinton (American football)", idFact{noun: noun{"player", "players"}}, "the American football player Eddie Hinton"},
		{"Southwestern University (Philippines)", idFact{noun: noun{"school", "schools"}}, "the school Southwestern University (Philippines)"},
		{"KFNB", idFact{noun: noun{"call sign", "call signs"}}, "the station KFNB"},
		{"San Bernardo (Railway station)", idFact{noun: noun{"station", "stations"}}, "the railway station San Bernardo"},
		{"Pilot (Burn Notice episode)", idFact{noun: noun{"episode", "episodes"}}, "the Burn Notice episode Pilot"},
		{"KFNB", idFact{noun: noun{"channel name", "channel names"}}, "KFNB"},
	} {
		if got := kindSaid(c.title, c.f); got != c.want {
			t.Errorf("kindSaid(%q, %+v) = %q, want %q", c.title, c.f, got, c.want)
		}
	}
}

// TestPairHeader: "City, State" is said "city and state".
func TestPairHeader(t *testing.T) {
	for in, want := range map[string]string{"city, state": "city and state", "city , state": "city and state", "city or town": "city or town", "location": "location"} {
		if got := pairHeader.ReplaceAllString(in, "$1 and $2"); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// TestOneOrMany: "capital city or cities" is said "capital city".
func TestOneOrMany(t *testing.T) {
	for in, want := range map[string]string{"capital city or cities": "capital city", "city or town": "city or town", "location": "location", "team or teams": "team"} {
		if got := oneOrMany(in); got != want {
			t.Errorf("oneOrMany(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSpanCell: a cell that spans figures is no filter value.
func TestSpanCell(t *testing.T) {
	for in, want := range map[string]bool{"Series 3-4": true, "1992–1995": true, "3 - 4": true, "Series 3": false, "A-ha": false, "Jean-Louis": false, "B-52": false} {
		if got := spanCell.MatchString(in); got != want {
			t.Errorf("spanCell(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestAppearanceText: a filmography's "Appearance" in words is not asked;
// a count of appearances is.
func TestAppearanceText(t *testing.T) {
	tr := &graph.Tree{Columns: []graph.Column{
		{Header: "Appearance", Datatype: graph.TypeText}, {Header: "Appearances", Datatype: graph.TypeNumber}, {Header: "Role", Datatype: graph.TypeText},
	}}
	for c, want := range []bool{true, false, false} {
		if got := appearanceText(tr, c); got != want {
			t.Errorf("appearanceText(%q) = %v, want %v", tr.Columns[c].Header, got, want)
		}
	}
}

// TestCodeList: a cell listing codes ("NA , EU", Gaijinworks' regions in
// OTT-QA line 3007, round 191) is a code, neither a clue nor an answer
// value a question asks for; a name with a comma is not.
func TestCodeList(t *testing.T) {
	for v, want := range map[string]bool{"NA , EU": true, "NA, EU": true, "JP/NA": true, "LW": true,
		"North America": false, "Paris, Texas": false, "SCEI, Arc Entertainment": false} {
		if got := code(v); got != want {
			t.Errorf("code(%q) = %v, want %v", v, got, want)
		}
	}
}
