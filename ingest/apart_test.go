package ingest

import "testing"

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
