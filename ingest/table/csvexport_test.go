package table

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render writes a table compactly: title, header, rows, links as [text→title].
func render(t *Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s\ntitle %q url %q untitled %v fixes %+v ragged %d\nheader %q\n",
		filepath.Base(t.Source), t.PageTitle, t.PageURL, t.Untitled, t.Fixes, t.Ragged, t.Header)
	for _, r := range t.Rows {
		parts := make([]string, len(r))
		for i, c := range r {
			parts[i] = c.Text
			if len(c.Links) > 0 {
				parts[i] = "[" + c.Text + "→" + strings.Join(c.Links, ";") + "]"
			}
		}
		b.WriteString("  " + strings.Join(parts, " | ") + "\n")
	}
	return b.String()
}

// TestCSVExport reads real tables of the sts-csv export: titles as links,
// header rows, template remnants, untitled files.
func TestCSVExport(t *testing.T) {
	files, err := filepath.Glob("testdata/sts-csv/*.csv")
	if err != nil || len(files) == 0 {
		t.Fatalf("samples: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := ParseCSV(f, in, nil)
		in.Close()
		var pe *ParseError
		if errors.As(err, &pe) {
			// A file without a header row (its first row links the
			// medallists of a weight class) is skipped with its reason.
			fmt.Fprintf(&all, "%s: skipped: %s: %s\n", f, pe.Reason, pe.Msg)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all.WriteString(render(tb))
	}
	golden := "testdata/sts-csv.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if all.String() != string(want) {
		t.Errorf("tables differ from %s (go test -run TestCSVExport -update to accept):\n%s", golden, all.String())
	}
}

func TestCSVExportRules(t *testing.T) {
	in := "Club,Season,League,League\nClub,Season,Division,Apps\n" +
		"Chester_City_F.C.,2001_Season,Football_Conference,{{yes}}[1]\n" +
		"Club,Season,League,League\n" +
		"Wrexham_A.F.C.,2002_Season,Football_League,{{sort|2|Two}}\n" +
		"Plain text club,2003,{{flagicon|ENG}} [[Football League|FL]],3{{efn|a note}}\n"
	tb, err := ParseCSVWith("dir/123-456.csv", strings.NewReader(in), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tb.Header, "|"); got != "Club|Season|League Division|League Apps" {
		t.Errorf("header %q", got)
	}
	if len(tb.Rows) != 3 {
		t.Fatalf("%d rows, want 3 (the repeated header is no row):\n%s", len(tb.Rows), render(tb))
	}
	if c := tb.Rows[0][0]; c.Text != "Chester City F.C." || len(c.Links) != 1 || c.Links[0] != "Chester City F.C." {
		t.Errorf("title cell read as %+v, want the linked entity Chester City F.C.", c)
	}
	if c := tb.Rows[2][0]; len(c.Links) != 0 {
		t.Errorf("text cell %+v got a link", c)
	}
	if c := tb.Rows[2][2]; c.Text != "FL" || len(c.Links) != 1 || c.Links[0] != "Football League" {
		t.Errorf("wiki link cell %+v", c)
	}
	if tb.Rows[0][3].Text != "Yes" || tb.Rows[1][3].Text != "Two" || tb.Rows[2][3].Text != "3" {
		t.Errorf("templates: %q %q %q", tb.Rows[0][3].Text, tb.Rows[1][3].Text, tb.Rows[2][3].Text)
	}
	want := Fixes{HeaderRows: 2, Templates: 3, Footnotes: 2, Links: 6}
	if tb.Fixes != want {
		t.Errorf("fixes %+v, want %+v", tb.Fixes, want)
	}
	if !tb.Untitled || tb.PageTitle != "" || tb.PageURL != "https://en.wikipedia.org/?curid=123" {
		t.Errorf("untitled %v title %q url %q", tb.Untitled, tb.PageTitle, tb.PageURL)
	}
	// A title's disambiguator is not what the page shows; a capitalised
	// parenthesis is a name's own.
	// A place's or a call sign's is no name's own (sts-csv, round 172),
	// nor a body's of several words (round 197: "Berkeley College (Yale
	// University)"); a song's own words are ("Put a Ring on It").
	films, _ := ParseCSVWith("x.csv", strings.NewReader("Title,Club,Year\nArie_(film),Albirex_Niigata_(S),2004\nNight_Watch_(2004_film),Chester_City_F.C.,2004\n"+
		"WNIN_(TV),Olympiastadion_(Berlin),2005\nRadio_(USA),Club_(FM),2006\nPeter_King_(Australian_politician),Kilkenny_(New_York),2007\n"+
		"Single_Ladies_(Put_a_Ring_on_It),Berkeley_College_(Yale_University),2008\nRoyalty_(Chris_Brown_album),Kid_A,2009\n"), nil, &CSVOptions{Links: LinksTitles})
	for i, want := range [][2]string{{"Arie", "Arie (film)"}, {"Albirex Niigata (S)", "Albirex Niigata (S)"}, {"Night Watch", "Night Watch (2004 film)"}, {"Chester City F.C.", "Chester City F.C."},
		{"WNIN", "WNIN (TV)"}, {"Olympiastadion", "Olympiastadion (Berlin)"}, {"Radio (USA)", "Radio (USA)"}, {"Club", "Club (FM)"}, {"Peter King", "Peter King (Australian politician)"}, {"Kilkenny", "Kilkenny (New York)"},
		{"Single Ladies (Put a Ring on It)", "Single Ladies (Put a Ring on It)"}, {"Berkeley College", "Berkeley College (Yale University)"}, {"Royalty", "Royalty (Chris Brown album)"}, {"Kid A", "Kid A"}} {
		if c := films.Rows[i/2][i%2]; c.Text != want[0] || len(c.Links) != 1 || c.Links[0] != want[1] {
			t.Errorf("title cell read as %+v, want %q linking %q", c, want[0], want[1])
		}
	}
	// A title disambiguated after a comma, as two of the column are and
	// most are not, is shown by its name (sts-csv's San Sebastián
	// metropolitan area, round 171); a name's suffix is kept.
	towns, _ := ParseCSVWith("x.csv", strings.NewReader("Municipality,Shire\nSan_Sebastián,Donostialdea\nIrun,Bidasoa\nErrenteria,Donostialdea\n"+
		"\"Hernani,_Spain\",Donostialdea\nLasarte-Oria,Donostialdea\n\"Lezo,_Spain\",Donostialdea\n\"Sammy_Davis,_Jr.\",Donostialdea\n\"Tolosa,_Gipuzkoa\",Tolosaldea\nPasaia,Donostialdea\nHondarribia,Bidasoa\nAndoain,Donostialdea\nOiartzun,Donostialdea\n"), nil, nil)
	for i, want := range [][2]string{{"Hernani", "Hernani, Spain"}, {"Lezo", "Lezo, Spain"}, {"Sammy Davis, Jr.", "Sammy Davis, Jr."}, {"Tolosa, Gipuzkoa", "Tolosa, Gipuzkoa"}} {
		if c := towns.Rows[[]int{3, 5, 6, 7}[i]][0]; c.Text != want[0] || len(c.Links) != 1 || c.Links[0] != want[1] {
			t.Errorf("title cell read as %+v, want %q linking %q", c, want[0], want[1])
		}
	}
	// The titles among plain names count with them (sts-csv's football
	// stadiums in Denmark): a plain cell's comma is the page's own.
	stadia, _ := ParseCSVWith("x.csv", strings.NewReader("Club,City\nF.C._Copenhagen,\"Østerbro, Copenhagen\"\nFC_Midtjylland,Herning\nVejle_Boldklub,Vejle\n"+
		"Viborg_FF,\"Viborg,_Denmark\"\nSkive_IK,\"Skive,_Denmark\"\nRanders_FC,Randers\nAC_Horsens,Horsens\nHobro_IK,Hobro\nOdense_BK,Odense\nKolding_IF,Kolding\nEsbjerg_fB,Esbjerg\nAaB_Fodbold,Aalborg\n"), nil, nil)
	for i, want := range []string{"Østerbro, Copenhagen", "Viborg", "Skive"} {
		if c := stadia.Rows[[]int{0, 3, 4}[i]][1]; c.Text != want {
			t.Errorf("city read as %+v, want %q", c, want)
		}
	}
	// A year's link to its edition shows the year (sts-csv's Färjestad
	// BK players drafted, round 171); elsewhere the edition's title.
	drafts, _ := ParseCSVWith("x.csv", strings.NewReader("Player,Year,Round,Event\nA B,1977_NHL_Amateur_Draft,007th,1977_NHL_Amateur_Draft\nC D,1992–93_NHL_season,003rd,Alpha\nE F,1981_NHL_Entry_Draft,001st,Beta\n"), nil, nil)
	for i, want := range []string{"1977", "7th", "1977 NHL Amateur Draft", "1992–93", "3rd"} {
		r, j := []int{0, 0, 0, 1, 1}[i], []int{1, 2, 3, 1, 2}[i]
		if c := drafts.Rows[r][j]; c.Text != want {
			t.Errorf("cell (%d, %d) read as %+v, want %q", r, j, c, want)
		}
	}
	none, _ := ParseCSVWith("List_of_X.csv", strings.NewReader(in), nil, &CSVOptions{Links: LinksNone})
	if c := none.Rows[0][0]; c.Text != "Chester_City_F.C." || len(c.Links) != 0 || none.Untitled || none.PageTitle != "List of X" {
		t.Errorf("--links none: %+v, title %q", c, none.PageTitle)
	}
	// One underscored title among plain words: auto reads it alone as a
	// link (no text is so written), titles the whole column.
	in2 := "Name,Result,Year\nAlpha,Won,2001\nBeta,Lost,2002\nGamma,Won,2003\nDelta_Epsilon,Lost,2004\nZeta,Won,2005\nEta,Lost,2006\n"
	auto, _ := ParseCSVWith("x.csv", strings.NewReader(in2), nil, nil)
	titles, _ := ParseCSVWith("x.csv", strings.NewReader(in2), nil, &CSVOptions{Links: LinksTitles})
	if auto.Fixes.Links != 1 || titles.Fixes.Links != 6 || auto.Rows[3][0].Text != "Delta Epsilon" || auto.Rows[0][0].Links != nil {
		t.Errorf("links: auto %d (want 1), titles %d (want 6)", auto.Fixes.Links, titles.Fixes.Links)
	}
}

// TestCSVExportCells: what an export's cells show, as the page shows them.
func TestCSVExportCells(t *testing.T) {
	for _, c := range []struct{ in, text, link string }{
		{"{{sortname|The|First Wives Club}}", "The First Wives Club", "The First Wives Club"},
		{"{{sortname|David|Dallas}}", "David Dallas", "David Dallas"},
		{"{{sortname|Nenad|Krstić|Nenad Krstić (basketball)}}", "Nenad Krstić", "Nenad Krstić (basketball)"},
		{"{{sortname|Jo|Bloggs|nolink=1}}", "Jo Bloggs", ""},
		{"{{dts||June|22}}", "June 22", ""},
		{"{{dts|2009|6|05}}", "June 5, 2009", ""},
		{"Kristina Grozeva, {{ill|Petar Valchanov|fr|Petar Valchanov|bg|Петър Вълчанов}}", "Kristina Grozeva, Petar Valchanov", ""},
		// A template's tail whose head the export lost (sts-csv's most
		// lethal American battles, round 171): the text after it.
		{"Germany}}Germany", "Germany", ""},
		{"Empire}}Germany", "Germany", ""},
		{"Salvador}}", "", ""},
		{"{{flagicon|Empire of Japan}}Japan", "Japan", ""},
	} {
		var fx Fixes
		text, links := cleanWikitext(c.in, &fx)
		if text != c.text || c.link == "" && len(links) > 0 || c.link != "" && (len(links) != 1 || links[0] != c.link) {
			t.Errorf("%s: %q linking %q, want %q linking %q", c.in, text, links, c.text, c.link)
		}
	}
	for in, want := range map[string]string{
		"gomezSelena Gomez": "Selena Gomez", "symoneRaven-Symoné": "Raven-Symoné", "allstarAllstar Weekend": "Allstar Weekend",
		"macOS": "macOS", "iPhone": "iPhone", "vonBraun": "vonBraun", "eBay": "eBay",
	} {
		if got := unglued(in); got != want {
			t.Errorf("unglued(%q) = %q, want %q", in, got, want)
		}
	}
	in := "Race,Winner,Region\nA,Dover_International_Speedway#Indy_Racing_League_results,Japan\nB,Texas_Motor_Speedway,North_America\n" +
		"C,Phoenix,Europe\nD,Phoenix,Asia\nE,Phoenix,Africa\nF,Phoenix,Oceania\n"
	tb, err := ParseCSVWith("x.csv", strings.NewReader(in), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := tb.Rows[0][1]; c.Text != "Dover International Speedway" || len(c.Links) != 1 {
		t.Errorf("section link read as %+v", c)
	}
	if c := tb.Rows[1][2]; c.Text != "North America" || len(c.Links) != 1 {
		t.Errorf("underscored title in a column of words read as %+v", c)
	}
	if c := tb.Rows[0][2]; len(c.Links) != 0 {
		t.Errorf("a word read as a link: %+v", c)
	}
}

// TestCSVExportShape: pipes inside templates and links delimit no
// column; a first row of linked names over rows of linked names is data,
// while one linking candidates over rows of figures is a header.
func TestCSVExportShape(t *testing.T) {
	in := "Rank,\"Country{{efn|Although [[Ethiopia]] was a [[Italian East Africa|colony]] and [[Eritrea|its coast]]}}\",Power\n" +
		"1,{{Flag|Liberia}},{{Flag|United States|1846}}\n2,{{Flag|South Africa|1910}},{{Flag|United Kingdom}}\n3,{{Flag|Egypt}},{{Flag|United Kingdom|1882}}\n"
	if d := sniffDelim([]byte(in)); d != ',' {
		t.Errorf("delimiter %q, want ','", d)
	}
	poll := "Polling firm,Fieldwork date,[[Nathalie Arthaud|Arthaud]],[[Philippe Poutou|Poutou]],[[Jean Lassalle|Lassalle]]\n" +
		"Ifop,1 May,1%,2%,1%\nElabe,2 May,0.5%,1.5%,1%\nIpsos,3 May,1%,1%,2%\n"
	if _, err := ParseCSV("poll.csv", strings.NewReader(poll), nil); err != nil {
		t.Errorf("a poll's header linking its candidates: %v", err)
	}
	medals := "48 kg,[[Ann Lee]],[[Bo Ray]],[[Cy Dee]]\n52 kg,[[Di Fox]],[[Ed Gu]],[[Flo Ho]]\n56 kg,[[Gi Ip]],[[Ho Jo]],[[Io Ka]]\n"
	var pe *ParseError
	if _, err := ParseCSV("medals.csv", strings.NewReader(medals), nil); !errors.As(err, &pe) || pe.Reason != "no header" {
		t.Errorf("a weight class's medallists over the others': %v, want a skip for no header", err)
	}
}

// TestCSVExportNative: a column of names in their own language or
// original form, where the export wrote a linked name as the English
// article's title (Super Chinese's "Japanese Title" column, sts-csv
// 5399968-73137, rounds 171–177), is not read at all: a blank key would
// drop its row, a blank value would be false. A column of Japanese voice
// actors keeps its links.
func TestCSVExportNative(t *testing.T) {
	in := "Japanese Title,Original title,Japanese,Release\n" +
		"\"Chinese Hero\nSuper Chinese\",Cheers,Minami_Takayama,1984\n" +
		"Super_Ninja_Boy,Jalal's_Story,Wakana_Yamazaki,1991\n" +
		"Ninja_Boy_II,Cane_(TV_series),Rikiya_Koyama,1991\n"
	tb, err := ParseCSVWith("x.csv", strings.NewReader(in), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tb.Rows {
		for j := 0; j < 2; j++ {
			if c := r[j]; c.Text != "" || len(c.Links) != 0 {
				t.Errorf("row %d, %s: read as %+v, want blank", i, tb.Header[j], c)
			}
		}
		if c := r[2]; len(c.Links) != 1 || strings.Contains(c.Text, "_") {
			t.Errorf("row %d: a voice actor read as %+v", i, c)
		}
	}
	if tb.Fixes.Unshown != 6 {
		t.Errorf("cells left blank: %d, want 6", tb.Fixes.Unshown)
	}
	// A call sign linked to its station's brand ("Triple_J" for 2JJJ)
	// leaves its column unread; call signs linked to their own articles
	// keep their links.
	for in, want := range map[string]string{
		"Call sign,City\nWNIN_(TV),Evansville\nTriple_J,Sydney\n2GB,Sydney\n":  "[] [] []",
		"Call sign,City\nWNIN_(TV),Evansville\n2GB,Sydney\nKROQ-FM,Pasadena\n": "WNIN[WNIN (TV)] 2GB[2GB] KROQ-FM[KROQ-FM]",
	} {
		if tb, err = ParseCSVWith("x.csv", strings.NewReader(in), nil, nil); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range tb.Rows {
			got = append(got, fmt.Sprintf("%s%v", r[0].Text, r[0].Links))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("call signs read as %q, want %q", strings.Join(got, " "), want)
		}
	}
	// Beside a column of Cyrillic titles, the page's own form of the
	// names, a column headed "Original title" shows its articles'
	// English titles (Bulgaria's Academy Award submissions, sts-csv
	// 17747785-100450): its links are kept.
	in = "Year,Original title,Film title used in nomination,Director(s)\n" +
		"1971,Porcupines_Are_Born_Without_Bristles,Таралежите се раждат без бодли,Dimitar_Petrov\n" +
		"1972,The_Goat_Horn,Козият рог,Metodi_Andonov\n" +
		"1974,The_Last_Summer_(1974_film),Последно лято,Christo_Christov\n"
	if tb, err = ParseCSVWith("x.csv", strings.NewReader(in), nil, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range tb.Rows {
		got = append(got, fmt.Sprintf("%s%v", r[1].Text, r[1].Links))
	}
	if want := "Porcupines Are Born Without Bristles[Porcupines Are Born Without Bristles] The Goat Horn[The Goat Horn] The Last Summer[The Last Summer (1974 film)]"; strings.Join(got, " ") != want {
		t.Errorf("original titles beside Cyrillic ones read as %q, want %q", strings.Join(got, " "), want)
	}
	for h, want := range map[string]bool{
		"Japanese Title": true, "Original title": true, "Romaji": true, "Title (native)": true, "Chinese name": true,
		"Japanese": false, "Original air date": false, "Original artist": false, "Title": false, "Local government area": false,
	} {
		if got := nativeHeader.MatchString(h); got != want {
			t.Errorf("nativeHeader(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestCSVExportLines: the lines of a data cell, the page's line breaks,
// are parted as an HTML page's are: by "; " where they list two things
// (sts-csv's "B93", "BK Skjold", two clubs of one ground, round 177),
// by a space where a line goes on from the one before; a header's lines
// are one heading's.
func TestCSVExportLines(t *testing.T) {
	in := "Club,\"Year\n(Ceremony)\",\"Post\nNotes\"\n" +
		"\"B93\nBK Skjold\",\"1988\n(61st)\",\"Solar,\nSpace Track\"\n" +
		"\"Dennis Wilson\nJohn Hanlon\nGregg Jakobson\",1990,\"2.60-1\nfavorite\"\n" +
		"Club,\"Year\n(Ceremony)\",\"Post\nNotes\"\n" +
		"\"Invercargill\n{{coord|46.4045|S|168.3451|E}}\",1991,\"Santa Cruz Island.\nProtected.\"\n"
	tb, err := ParseCSVWith("x.csv", strings.NewReader(in), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range tb.Rows {
		for _, c := range r {
			got = append(got, c.Text)
		}
	}
	want := []string{"B93; BK Skjold", "1988 (61st)", "Solar, Space Track",
		"Dennis Wilson; John Hanlon; Gregg Jakobson", "1990", "2.60-1 favorite",
		"Invercargill", "1991", "Santa Cruz Island.; Protected."}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("cells read as\n%q, want\n%q", got, want)
	}
	if h := strings.Join(tb.Header, " | "); h != "Club | Year (Ceremony) | Post Notes" {
		t.Errorf("header read as %q", h)
	}
	if tb.Fixes.HeaderRows != 1 {
		t.Errorf("repeated header rows: %d, want 1", tb.Fixes.HeaderRows)
	}
}
