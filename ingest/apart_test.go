package ingest

import (
	"testing"

	"github.com/leaper-dev/leaper/ingest/table"
)

func TestRunApart(t *testing.T) {
	for _, c := range []struct {
		text  string
		links []string
		want  string
	}{
		{"Merian C. Cooper Ernest B. Schoedsack Lothar Mendes", []string{"Merian C. Cooper", "Ernest B. Schoedsack"},
			"Merian C. Cooper, Ernest B. Schoedsack, Lothar Mendes"},
		{"Milan Paris Saint-Germain", []string{"A.C. Milan", "Paris Saint-Germain F.C."}, "Milan, Paris Saint-Germain"},
		{"Eriksdalshallen (Main venue) Skanstullshallen (Second venue)", []string{"Eriksdalshallen", "Skanstullshallen"},
			"Eriksdalshallen (Main venue), Skanstullshallen (Second venue)"},
		{"Hector Cardenas (5 IP) Kevin Thomas (2 IP)", []string{"Hector Cardenas", "Innings pitched", "Kevin Thomas", "Innings pitched"},
			"Hector Cardenas (5 IP), Kevin Thomas (2 IP)"},
		{"Kezar Stadium San Francisco", []string{"Kezar Stadium", "San Francisco"}, "Kezar Stadium, San Francisco"},
		{"Jack Winfield Tommy Kay Ernie Harper", []string{"Jack Winfield", "Ernie Harper (athlete)"}, "Jack Winfield, Tommy Kay, Ernie Harper"},
		{"COEX Mall Bongeunsa Temple Garosu-gil", []string{"COEX Mall", "Bongeunsa", "Garosu-gil"}, "COEX Mall Bongeunsa Temple Garosu-gil"},
		{"Basil Heatley Fred Norris Harry Minshall Stanley Eldon Gerry North", []string{"Basil Heatley", "Fred Norris (athlete)"},
			"Basil Heatley Fred Norris Harry Minshall Stanley Eldon Gerry North"},
		{"Pat Killeen Tom O'Riordan Sean O'Sullivan", []string{"Tom O'Riordan", "Sean O'Sullivan"}, "Pat Killeen Tom O'Riordan Sean O'Sullivan"},
		{"Morondava - Belo-sur-Tsiribihina - Bekopaka", []string{"Morondava", "Belo-sur-Tsiribihina", "Bekopaka"}, "Morondava - Belo-sur-Tsiribihina - Bekopaka"},
		{"8.1 NBC 8.2 This TV", []string{"NBC", "This TV"}, "8.1 NBC 8.2 This TV"},
		// Already apart, or one name found: as written.
		{"Buckwild, Prestige", []string{"Buckwild", "Prestige (producer)"}, "Buckwild, Prestige"},
		{"Trinidad and Tobago", []string{"Trinidad", "Tobago"}, "Trinidad and Tobago"},
		{"RA-5C TA-3B TA-4J", []string{"RA-5C", "Douglas A-3 Skywarrior", "Douglas A-4 Skyhawk"}, "RA-5C TA-3B TA-4J"},
		{"Sir Alex Ferguson", []string{"Knight Bachelor", "Alex Ferguson"}, "Sir Alex Ferguson"},
		{"Boston Red Sox", []string{"Boston", "Boston Red Sox"}, "Boston Red Sox"},
		{"Frederick Gowland Hopkins (shared with Christiaan Eijkman)", []string{"Frederick Gowland Hopkins", "Christiaan Eijkman"},
			"Frederick Gowland Hopkins (shared with Christiaan Eijkman)"},
		{"Tom Jones featuring Mousse T", []string{"Tom Jones (singer)", "Mousse T"}, "Tom Jones featuring Mousse T"},
		{"Bob Smith", []string{"Bob Smith"}, "Bob Smith"},
	} {
		if got := runApart(c.text, c.links); got != c.want {
			t.Errorf("runApart(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestRowLinks: of two cells of a row linking one article, the one that
// names it otherwise ("Palaeopropithecidae" beside "Sloth lemurs", both
// linking Sloth lemur) is its text.
func TestRowLinks(t *testing.T) {
	l := func(text, link string) table.Cell { return table.Cell{Text: text, Links: []string{link}} }
	rows := [][]table.Cell{
		{l("Archaeoindris fontoynonti", "Archaeoindris"), l("Sloth lemurs", "Sloth lemur"), l("Palaeopropithecidae", "Sloth lemur")},
		{l("Paris", "Paris"), l("Paris", "Paris"), l("Ville Lumière", "Paris (band)")},
		{l("Lyon", "Lyon"), l("Lugdunum", "Lyon")},
	}
	orig := rows[0]
	rowLinks(rows)
	got := func(r, c int) bool { return len(rows[r][c].Links) == 1 }
	if !got(0, 0) || !got(0, 1) || got(0, 2) || !got(1, 0) || !got(1, 1) || !got(1, 2) || !got(2, 0) || got(2, 1) {
		t.Errorf("links kept: %v", rows)
	}
	if len(orig[2].Links) != 1 {
		t.Error("rowLinks changed the table's own row")
	}
}

// TestForeignMonths: a date whose month the page writes in another
// language is a date; other texts are not.
func TestForeignMonths(t *testing.T) {
	for s, want := range map[string]string{
		"23 settembre 1981": "1981-09-23", "2 maggio 1983": "1983-05-02", "14 juillet 1789": "1789-07-14",
		"5 de mayo 1862": "", "23 September 1981": "1981-09-23", "Mai Tai 1944": "",
	} {
		got, _ := parseDate(s)
		if got != want {
			t.Errorf("parseDate(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestDoubled: a cell that writes one text twice is two rows in one.
func TestDoubled(t *testing.T) {
	for s, want := range map[string]bool{
		"Carrara Carrara": true, "Carrara Stadium Carrara Stadium": true, "AFL NEAFL": false,
		"Walla Walla": true, "Bora Bora Airport": false, "1 1": false, "": false,
	} {
		if got := doubled(s); got != want {
			t.Errorf("doubled(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestWholeRows: the state and the nation ranked by income among a
// state's counties, unnumbered, are wholes; an unranked county is not.
func TestWholeRows(t *testing.T) {
	row := func(rank, name, pop string) []table.Cell {
		return []table.Cell{{Text: rank}, {Text: name}, {Text: pop}}
	}
	rows := [][]table.Cell{
		row("1", "McCone", "1,734"), row("2", "Gallatin", "89,513"), row("", "United States", "308,745,538"),
		row("3", "Yellowstone", "147,972"), row("", "Montana", "259,109"), row("4", "Glacier", "13,399"), row("5", "Blaine", "6,491"),
	}
	got := wholeRows(rows)
	if len(got) != 2 || rows[got[0]][1].Text != "United States" || rows[got[1]][1].Text != "Montana" {
		t.Errorf("wholeRows = %v", got)
	}
	rows[4] = row("", "Petroleum", "494")
	if got := wholeRows(rows); len(got) != 1 {
		t.Errorf("an unranked county taken for a whole: %v", got)
	}
}
