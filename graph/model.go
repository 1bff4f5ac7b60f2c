package graph

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dustin/go-humanize"

	"github.com/leaper-dev/leaper/internal/textnorm"
)

// Datatype is the type of a value: of an entity, of a relation's objects, of
// a tree's key column.
type Datatype string

// Datatypes. An entity is a linked Wikipedia article; the others are
// literal values identified by their normalised form.
const (
	TypeEntity Datatype = "entity"
	TypeText   Datatype = "text"
	TypeNumber Datatype = "number"
	TypeYear   Datatype = "year"
	TypeDate   Datatype = "date"
)

// Entity is a node of the graph: a Wikipedia article or a literal value.
type Entity struct {
	ID uint32 `json:"id"`
	// Key identifies the entity across tables: "w:Title" for an article,
	// "t:normalised text", "n:number", "y:year", "d:YYYY-MM-DD" for values.
	Key     string   `json:"key"`
	Name    string   `json:"name"`
	Type    Datatype `json:"type"`
	URL     string   `json:"url,omitempty"` // article URL, for TypeEntity
	Aliases []string `json:"aliases,omitempty"`
}

// Relation is a standardised column relation, has_<snake_case header>.
// Relations are identified by name, datatype and domain together.
type Relation struct {
	ID       uint32   `json:"id"`
	Name     string   `json:"name"`
	Datatype Datatype `json:"datatype"`
	Domain   string   `json:"domain"`
	Headers  []string `json:"headers,omitempty"` // surface headers seen, first few
}

// Key is the identity of a relation: name, datatype and domain.
func (r *Relation) Key() string { return r.Name + "|" + string(r.Datatype) + "|" + r.Domain }

// Column is a layer-3 column of a tree.
type Column struct {
	Header   string   `json:"header"`
	Relation uint32   `json:"relation"`
	Name     string   `json:"name"` // the relation's name, has_<snake>
	Datatype Datatype `json:"datatype"`
	Domain   string   `json:"domain"`
}

// Row is one subtree: the key entity (layer 2) and, per column, the value
// entities (layer 3). A cell linking several articles holds several values;
// an empty cell holds none.
type Row struct {
	Key    uint32     `json:"key"`
	Values [][]uint32 `json:"values"`
}

// Tree is a reasoning tree built from one table (WebLeaper §3.1.1): question
// entities (layer 1), a key column whose values root the subtrees (layer 2),
// and the other columns' values as leaves (layer 3).
type Tree struct {
	ID         uint32 `json:"id"`
	TableKey   string `json:"table_key"` // content hash of the source table
	Source     string `json:"source"`
	PageTitle  string `json:"page_title"`
	PageURL    string `json:"page_url"`
	TableIndex int    `json:"table_index"`
	Section    string `json:"section,omitempty"`
	Caption    string `json:"caption,omitempty"`
	// Group names the isomorphism group: the sorted normalised header set.
	Group       string   `json:"group"`
	Question    []uint32 `json:"question"` // layer 1
	KeyHeader   string   `json:"key_header"`
	KeyDatatype Datatype `json:"key_datatype"`
	KeyDomain   string   `json:"key_domain"`
	Columns     []Column `json:"columns"`
	Rows        []Row    `json:"rows"`
	// Dropped lists the source columns removed by cleaning, "header: reason".
	Dropped []string `json:"dropped,omitempty"`
	// Untitled marks a tree whose page has no known title (a CSV file named
	// by ids): PageTitle is empty and task synthesis leaves the tree out,
	// so that no question names a file.
	Untitled bool `json:"untitled,omitempty"`
	// Cut marks a tree whose source kept only the table's first rows (the
	// WikiTables-WithLinks and OTT-QA releases keep 20), or whose
	// section's text says it lists a part of what its title names ("the
	// top ten players"): "all" of it is not on record, so task synthesis
	// leaves it out. Synthesis also leaves out a table its page's source
	// may have lost tables beside (audit.SourceGap, ExportGap).
	Cut bool `json:"cut,omitempty"`
	// TwinInText marks a tree whose section's text, as the source gives
	// it, holds another table under the same header (OTT-QA keeps one
	// table of a section and the others as text): a reader of the page
	// sees its twin.
	TwinInText bool `json:"twin_in_text,omitempty"`
	// Shown holds, for an article a table writes otherwise than its title
	// ("Drumcondra" linking "Drumcondra, Dublin", "Jim Thomas" linking
	// "Jimmy Thomas (American football)"), the text the table shows for
	// it (see Writes): its page and its tasks' answers give that text, as
	// the source does.
	Shown map[uint32]string `json:"shown,omitempty"`
	// Decimals holds, for a column of figures every cell of which writes
	// the same number of decimals ("2.0", "4.5" of rebounds per game), that
	// number, by relation name; Grouped the columns of figures every one
	// of which of four digits or more is written in groups of three
	// ("78,040"). Its page and its tasks' answers give each figure so
	// (FigureIn), where the figure's entity is shared with columns that
	// write it otherwise ("2" games started, a year 1990).
	Decimals map[string]int  `json:"decimals,omitempty"`
	Grouped  map[string]bool `json:"grouped,omitempty"`
	// Comma holds the columns of Decimals that write their decimals
	// after a comma ("47,7%", "52,0%" of a turnout): FigureIn writes
	// "47,7" and "52,0".
	Comma map[string]bool `json:"comma,omitempty"`
	// SeveralKeys counts the key cells that link several articles, each
	// a thing of its own ("Marcus Kinhult Linnea Ström": a mixed pair of
	// golfers): the key is their text, no one thing, so "all" the tree's
	// keys is not what its rows name.
	SeveralKeys int `json:"several_keys,omitempty"`
	// Stated holds, by relation name, the figure the table's own total
	// row states for a column ("Total | 109 | 100 | 120"), as written.
	// The build drops that row, as it is no key; a sum the rows give
	// otherwise (Thailand's silver medals at the 2011 Southeast Asian
	// Games add up to 96, the row says 100) is an error of the source, and
	// a reader may answer either: task synthesis asks no sum or average of
	// such a column, and the auditor flags one.
	Stated map[string]string `json:"stated,omitempty"`
}

// ShownName is what t shows for entity id named name: its Shown text when
// Shows holds, else name.
func (t *Tree) ShownName(id uint32, name string) string {
	if s, ok := t.Shown[id]; ok && Shows(name, s) {
		return s
	}
	return name
}

// FigureIn is the figure named name as t's column rel writes it, with the
// column's decimals ("2.0" for 2) and groups ("78,040" for 78040), and
// whether the column writes it otherwise than name.
func (t *Tree) FigureIn(rel, name string) (string, bool) {
	k, dec := t.Decimals[rel]
	if !dec && !t.Grouped[rel] || !plainNumber.MatchString(name) {
		return "", false
	}
	x, err := strconv.ParseFloat(name, 64)
	if err != nil {
		return "", false
	}
	s := name
	if dec {
		s = strconv.FormatFloat(x, 'f', k, 64)
		if y, err := strconv.ParseFloat(s, 64); err != nil || y != x {
			return "", false
		}
	}
	if t.Grouped[rel] {
		// in groups of three, with the decimals s has: "78,040", "12,345.50"
		_, frac, _ := strings.Cut(s, ".")
		s = humanize.FormatFloat("#,###."+strings.Repeat("#", len(frac)), x)
	} else if dec && t.Comma[rel] {
		s = strings.Replace(s, ".", ",", 1) // "47,7"
	}
	return s, s != name
}

// TotalOtherwise reports whether t's own total row states for column rel
// another total than sum, the sum of the column's rows, and returns what
// it states. The row agrees when it writes the sum rounded to its own
// decimals ("12.3" for 12.34).
func (t *Tree) TotalOtherwise(rel string, sum float64) (string, bool) {
	st, ok := t.Stated[rel]
	st = strings.TrimSpace(st)
	n, fig := FigureName(st)
	if !ok || !fig {
		return "", false
	}
	x, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return "", false
	}
	half := 0.5
	if i := strings.LastIndexAny(st, ".,"); i >= 0 && (st[i] == '.' || commaDecimal.MatchString(st)) {
		half = 0.5 * math.Pow10(-(len(st) - i - 1))
	}
	return st, math.Abs(x-sum) > half+1e-9*math.Abs(x)
}

// FigureName is the name the build gives the figure a column writes as
// text (FigureIn's inverse: "78,040" → "78040", "2.0" → "2"), and whether
// text is such a figure.
func FigureName(text string) (string, bool) {
	if groupedNumber.MatchString(text) {
		text = strings.ReplaceAll(text, ",", "")
	} else if commaDecimal.MatchString(text) {
		text = strings.Replace(text, ",", ".", 1) // "47,7": a decimal comma
	}
	if !plainNumber.MatchString(text) {
		return "", false
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatFloat(x, 'f', -1, 64), true
}

// groupedNumber matches a figure written in groups of three ("78,040").
var groupedNumber = regexp.MustCompile(`^-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?$`)

var plainNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// commaDecimal matches a figure written with a decimal comma ("47,7",
// "52,0"); three figures after it are a group ("5,288").
var commaDecimal = regexp.MustCompile(`^-?[0-9]+,[0-9]{1,2}$`)

// decimalComma matches a cell's figure so written, with a percent or not.
var decimalComma = regexp.MustCompile(`^-?[0-9]+,[0-9]{1,2}\s?%?$`)

// Shows reports whether a tree's Shown text for an entity named name is
// the text to give: one Writes takes for an article's title, or the
// table's own case of a text another table named first ("Blood" of a
// song, where "blood" was a plague's; "RICHMOND" of a seat), or a code
// the build recorded for a column other than places' ("QPR"). The build
// records case alone only for texts (Builder.AddTree).
func Shows(name, text string) bool {
	return Writes(name, text) || tableCode(name, text) || text != name && NormText(text) == NormText(name) || ValueForm(name, text) ||
		text == name && KeepsQualifier(name, text)
}

// KeepsQualifier reports whether text, a cell linking the article titled
// name, writes the title whole, its closing parenthesis a name
// ("Al-Hilal ( Kadougli )" linking Al-Hilal (Kadougli), beside "Al-Hilal
// (Port Sudan)"): the answer keeps the parenthesis, which tells the club
// from its namesakes, where a title's disambiguator is otherwise left
// out ("Hereafter (film)"). A kind or a year ("(film)", "(1997 album)",
// "(TV series)") the answer still leaves out (NamingQualifier).
func KeepsQualifier(name, text string) bool {
	i := strings.LastIndex(name, " (")
	squeeze := func(s string) string { return strings.ReplaceAll(NormText(s), " ", "") }
	if i <= 0 || !strings.HasSuffix(name, ")") || squeeze(text) != squeeze(name) {
		return false
	}
	return NamingQualifier(name[i+2 : len(name)-1])
}

// NamingQualifier reports whether a title's closing parenthesis p is a
// name ("Kadougli", "Port Sudan", "IPL", "Yale University"): its first
// and last words begin in upper case. A kind is not, whatever its first
// word ("TV series", "South Korean TV series", "American football"):
// a CSV export, which writes every linked cell as its title, writes "Dong
// Yi (TV series)" whole, and the answer still leaves its kind out.
func NamingQualifier(p string) bool {
	ws := strings.Fields(p)
	if len(ws) == 0 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(ws[0])
	last, _ := utf8.DecodeRuneInString(ws[len(ws)-1])
	return unicode.IsUpper(first) && (unicode.IsUpper(last) || unicode.IsDigit(last))
}

// ValueForm reports whether text is the form a table writes for the date
// or number named name: "10 June 2015" or "June 10, 2015" for 2015-06-10
// (the build names a date by ISO 8601), "52.60" for 52.6 (a number by its
// shortest form). An answer gives the table's form, as its page does.
// Only a decimal's trailing zeros: a sign, a currency, a percent or
// thousands separators are marks of a column, not of the number (a
// column that groups every figure keeps its groups: FigureIn).
func ValueForm(name, text string) bool {
	if text == name || text == "" {
		return false
	}
	if isoDate.MatchString(name) {
		return len(text) <= 24 && strings.Contains(text, name[:4]) && !strings.ContainsAny(text, "()")
	}
	if !decimal.MatchString(text) {
		return false
	}
	x, err1 := strconv.ParseFloat(name, 64)
	y, err2 := strconv.ParseFloat(text, 64)
	return err1 == nil && err2 == nil && x == y
}

var (
	isoDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$`)
	decimal = regexp.MustCompile(`^-?[0-9]+\.[0-9]*0$`)
)

// RaisedInitial reports whether name, an article's title, is surface
// with its first letter raised, as MediaWiki raises every title's:
// "EXistenZ" for eXistenZ, "IPod" for iPod. The cell writes the thing's
// own name, which the answer gives. A first word in lower case
// throughout ("guitar" linking Guitar, "will.i.am") is no sign: the
// title is as good a name, and a table may write a word in lower case
// that its article does not.
func RaisedInitial(name, surface string) bool {
	r, n := utf8.DecodeRuneInString(surface)
	t, m := utf8.DecodeRuneInString(name)
	if !unicode.IsLower(r) || t != unicode.ToUpper(r) || t == r || name[m:] != surface[n:] {
		return false
	}
	first, _, _ := strings.Cut(surface[n:], " ")
	return strings.ContainsFunc(first, unicode.IsUpper)
}

// Writes reports whether surface, the text of a cell linking the article
// titled name, is a name an answer should give as the table does: the
// title without its qualifier ("Drumcondra" for "Drumcondra, Dublin",
// "Cork" for "Cork (city)") or another name of the thing ("Jim Thomas",
// "Great Britain" for "United Kingdom", "North Jay" for "Jay, Maine").
// Not a surname for a full name ("Golding" for "William Golding": the
// title is the better answer; "Khurshid Anwar" for "Khawaja Khurshid
// Anwar" is a name the table writes), not a code of three letters or fewer
// ("c", "USA"), not a text with a parenthesis of its own ("Jeff Miller
// (R)": a party, a country code). A longer text is the table's name for
// the row ("Carbon County Section of the Lehigh Canal" linking Lehigh
// Canal, "Au Sable Light Station"); the build has already made text of
// cells whose link is only a part ("Toronto, Ontario", "Sport
// (Finland)").
func Writes(name, surface string) bool {
	n, s := NormText(name), NormText(surface)
	if shortQualifier(name, surface) || stateCoded(name, surface) {
		return true
	}
	if siteCoded(name, surface) {
		return true
	}
	if len(s) <= 3 && !capitalWord(strings.TrimSpace(surface)) || len(s) < 3 || s == n || strings.HasSuffix(strings.TrimSpace(surface), ")") {
		return false
	}
	// "Blithe" of River Blithe, "Tahoe" of Lake Tahoe: a river's or a
	// lake's name without its kind, as a list of tributaries writes it,
	// not a surname of a person-like title (personLike, below).
	for _, kind := range []string{"river ", "lake "} {
		if rest, ok := strings.CutPrefix(n, kind); ok && rest == s {
			return true
		}
	}
	if rest, ok := strings.CutSuffix(n, " river"); ok && rest == s {
		return true
	}
	// "Border - Gavaskar Trophy" of Border–Gavaskar Trophy: the crawl's
	// spacing of the title's dash ("Bora-Hansgrohe" is the table's own
	// writing); `Charles "Bud" Wilkinson` of Bud Wilkinson: a name with
	// the nickname the table adds. The title answers.
	if strings.Contains(s, " - ") && textnorm.FoldDashes(s) == textnorm.FoldDashes(n) || unnicknamed(surface) != surface {
		return false
	}
	// "John Murtha (D) 73.48% Bill Choby (R) 26.52%": a cell of results
	// that links a candidate, not a name of him.
	if len(s) > len(n) && strings.ContainsAny(surface, "(%") {
		return false
	}
	if i := strings.Index(name, ", "); i > 0 && s == NormText(name[:i]) {
		return true // "Aguascalientes" for "Aguascalientes, Aguascalientes": the title without its qualifier
	}
	if i := strings.Index(name, " ("); i > 0 {
		n = NormText(name[:i]) // "Egan" for "Joe Egan (rugby league)": a surname all the same
	}
	// A name's last words with a figure are no surname: "2008-09" for
	// Eurocup 2008-09, the season the table writes.
	return !strings.HasSuffix(n, " "+s) || !personLike(n) || clubInitials(name) || strings.Contains(s, " ") || commonWords(name) || strings.ContainsFunc(s, unicode.IsDigit)
}

// clubInitials reports whether a title opens with a club's initials, three
// capitals or more ("ASPTT Albi", "AFC Ajax", "SSC Napoli"): no person's
// name, so the town after them is the club's short name ("Albi"), no
// surname. Two ("CC Sabathia") may be a person's.
func clubInitials(name string) bool {
	f, _, ok := strings.Cut(name, " ")
	return ok && utf8.RuneCountInString(f) >= 3 && !strings.ContainsFunc(f, func(r rune) bool { return !unicode.IsUpper(r) })
}

// siteCoded reports whether surface is the title name with a code of
// capitals and digits in parentheses: "Baker Site (15MU12)" linking Baker
// Site, the site's number in the state's survey, which the list writes as
// part of its name.
func siteCoded(name, surface string) bool {
	q, ok := strings.CutPrefix(strings.TrimSpace(surface), name+" (")
	if !ok || !strings.HasSuffix(q, ")") {
		return false
	}
	q = strings.TrimSpace(q[:len(q)-1])
	return len(q) >= 4 && strings.ContainsFunc(q, unicode.IsDigit) && strings.ContainsFunc(q, unicode.IsUpper) &&
		!strings.ContainsFunc(q, func(r rune) bool { return !unicode.IsDigit(r) && !unicode.IsUpper(r) && r != '-' })
}

// shortQualifier reports whether surface writes the title name with its
// parenthesis cut short: "Gilbert High School (SC)" linking Gilbert High
// School (South Carolina), "Trinity (CT)" linking Trinity College
// (Connecticut). The text the table writes tells which, as the title
// does; the title without its parenthesis would name another school. One
// letter ("Albirex Niigata (S)") reads as a mark.
func shortQualifier(name, surface string) bool {
	if !strings.HasSuffix(name, ")") || !strings.HasSuffix(strings.TrimSpace(surface), ")") {
		return false
	}
	sm, nm := qualified.FindStringSubmatch(strings.TrimSpace(surface)), qualified.FindStringSubmatch(name)
	if sm == nil || nm == nil {
		return false
	}
	sb, nb := NormText(sm[1]), NormText(nm[1])
	if sb != nb && !strings.HasPrefix(nb, sb+" ") {
		return false
	}
	short := strings.ReplaceAll(sm[2], ".", "")
	if len(short) < 2 || strings.ContainsFunc(short, func(r rune) bool { return !unicode.IsUpper(r) }) {
		return false
	}
	full := strings.Fields(nm[2])
	if r, _ := utf8.DecodeRuneInString(full[0]); !unicode.IsUpper(r) {
		return false // a kind ("cricketer") is not what a table cuts short
	}
	if len(full) == 1 {
		return short != full[0] && abbreviates(short, strings.ToUpper(full[0]))
	}
	return Initials(short, nm[2])
}

// stateCoded reports whether surface is a short name of the article
// titled name with a place's code after it, a name the table gives it:
// "Miami (OH)" of Miami University, "St. Mary's (CA)" of Saint Mary's
// College of California: a state's or province's postal code. A party's
// mark ("Jeff Miller (R)"), a nation's code ("Argentina (ARG)" of
// Argentina at the 2008 Summer Olympics, which answers "Argentina") or
// a party's acronym ("Welfare Party (RP)") is none; a title with a
// parenthesis of its own is shortQualifier's.
func stateCoded(name, surface string) bool {
	if strings.HasSuffix(name, ")") || !strings.HasSuffix(strings.TrimSpace(surface), ")") {
		return false
	}
	m := qualified.FindStringSubmatch(strings.TrimSpace(surface))
	if m == nil || !stateCode[m[2]] {
		return false
	}
	title := strings.Fields(NormText(name))
	for _, w := range strings.Fields(NormText(m[1])) {
		if utf8.RuneCountInString(w) > 3 && slices.Contains(title, w) {
			return true
		}
	}
	return false
}

// stateCode are the postal codes of the United States' states and
// districts and of Canada's provinces and territories.
var stateCode = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT
		NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR
		AB BC MB NB NL NS NT NU ON PE QC SK YT`) {
		stateCode[c] = true
	}
}

// abbreviates reports whether short is word cut short: its first letter
// and others of it in order ("CT" of CONNECTICUT).
func abbreviates(short, word string) bool {
	if short == "" || word == "" || short[0] != word[0] {
		return false
	}
	i := 0
	for _, r := range word {
		if i < len(short) && rune(short[i]) == r {
			i++
		}
	}
	return i == len(short)
}

var qualified = regexp.MustCompile(`^(.*\S)\s*\(\s*([^()]*[^()\s])\s*\)$`)

// commonWords reports whether a title has a word in lower case other than
// a name's particle ("Association football", "Ice hockey"), or a ship's
// prefix: a thing's name, not a person's, whose last word the table may
// write for it.
func commonWords(name string) bool {
	if i := strings.IndexAny(name, "(,"); i >= 0 {
		name = name[:i] // "Joe Egan (rugby league)": the qualifier aside
	}
	words := strings.Fields(name)
	if len(words) > 1 && shipPrefix[words[0]] {
		return true // "Balmoral" for MV Balmoral (2008): a ship
	}
	if len(words) > 1 && slices.ContainsFunc(words, clubAbbrev) {
		return true // "Bobruisk" for FC Bobruisk, "Chalatenango" for C.D. Chalatenango: a club
	}
	if len(words) > 1 && slices.ContainsFunc(words, func(w string) bool { return clubWord[w] }) {
		return true // "Alumni" for Asociación Alumni, "Newman" for Club Newman
	}
	if len(words) > 1 && qualifierWord[words[0]] {
		return true // "Alaska" for Southeast Alaska, "Hindi" for Standard Hindi: a region's or a form's name
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsLower(r) && !particle[w] {
			return true
		}
	}
	return false
}

// clubAbbrev reports whether w is a club's or company's abbreviation in
// its name: two capitals or more with dots ("C.D.", "A.F.C."), or two to
// four capitals ("FC", "AFC", "SK"); not a person's initial ("J.") nor a
// Roman numeral ("II").
func clubAbbrev(w string) bool {
	caps, dots := 0, 0
	for _, r := range w {
		switch {
		case r == '.':
			dots++
		case unicode.IsUpper(r):
			caps++
		default:
			return false
		}
	}
	if dots > 0 {
		return caps >= 2
	}
	return caps >= 2 && caps <= 4 && strings.Trim(w, "IVXLC") != ""
}

// clubWord are the words of clubs' names that no person's name has.
var clubWord = map[string]bool{
	"Club": true, "Clube": true, "Asociación": true, "Associação": true, "Association": true, "Sociedad": true,
	"Sporting": true, "Atlético": true, "Athletic": true, "Deportivo": true, "Deportes": true, "Racing": true,
	"Unión": true, "Olympique": true, "Sportivo": true, "Esporte": true, "Sportclub": true, "Verein": true,
	"Scuderia": true, "Équipe": true, "Écurie": true, "Pallacanestro": true, "Pallavolo": true, "Polisportiva": true,
	"Calcio": true, "Basket": true, "Futebol": true, "Fútbol": true, "Futbol": true,
}

// qualifierWord are first words that make a region of a place or a form
// of a language, which no person's first name is.
var qualifierWord = map[string]bool{
	"Southeast": true, "Southwest": true, "Northeast": true, "Northwest": true, "Northern": true, "Southern": true,
	"Eastern": true, "Western": true, "Central": true, "Upper": true, "Lower": true, "Greater": true, "Inner": true,
	"Outer": true, "Standard": true, "Modern": true, "Classical": true, "Ancient": true, "Middle": true,
}

// shipPrefix are the prefixes of ships' names.
var shipPrefix = map[string]bool{
	"MV": true, "MS": true, "SS": true, "RMS": true, "HMS": true, "USS": true, "HMAS": true, "HMCS": true, "HMNZS": true,
	"USNS": true, "USCGC": true, "SV": true, "PS": true, "TS": true, "MY": true, "RV": true, "NS": true, "INS": true,
}

// particle are the lower-case words of people's names.
var particle = map[string]bool{
	"de": true, "da": true, "di": true, "do": true, "dos": true, "das": true, "del": true, "della": true, "der": true, "den": true,
	"van": true, "von": true, "la": true, "le": true, "du": true, "bin": true, "ibn": true, "al": true, "y": true, "e": true, "ter": true, "ten": true, "zu": true,
}

// article are the first words of names in other languages that are no
// person's first name ("Al" is).
var article = map[string]bool{"el": true, "la": true, "los": true, "las": true, "les": true, "il": true, "die": true, "der": true, "das": true}

// unnicknamed is a name without the nickname a table writes in quotes
// within it: `Ted "The Mad Stork" Hendricks` is Ted Hendricks; s when it
// has none.
func unnicknamed(s string) string {
	if !strings.ContainsAny(s, "\"“") {
		return s
	}
	if m := nickname.FindStringIndex(s); m != nil && m[0] > 0 && m[1] < len(s) {
		return s[:m[0]] + " " + s[m[1]:]
	}
	return s
}

var nickname = regexp.MustCompile(`\s+["“][^"“”]{2,40}["”](?:/["“][^"“”]{2,40}["”])*\s+`) // Nils "Lidas"/"Greven" Liedholm

// capitalWord reports whether w is one capitalised word ("Ray" of Ray
// County, Missouri), which a table writes as a name, not a code ("USA",
// "c").
func capitalWord(w string) bool {
	for i, r := range w {
		if i == 0 && !unicode.IsUpper(r) || i > 0 && !unicode.IsLower(r) {
			return false
		}
	}
	return w != ""
}

// personLike reports whether a normalised title may be a person's name,
// whose last word is a surname: no "of", "the", "at"... ("University of
// Pittsburgh" is written "Pittsburgh" by a draft's college column, a
// name the answer should give).
func personLike(n string) bool {
	if f := strings.Fields(n); len(f) > 1 && article[f[0]] {
		return false // "Zamalek" for El Zamalek: a name without its article
	}
	for _, w := range strings.Fields(n) {
		switch w {
		case "of", "the", "at", "in", "for", "and", "on":
			return false
		}
	}
	return true
}

// Title is a short human name for the tree: page title, then section or
// caption when there is one.
func (t *Tree) Title() string {
	s := t.PageTitle
	if t.Untitled || s == "" {
		s = "Untitled table"
	}
	if t.Caption != "" {
		s += " — " + t.Caption
	} else if t.Section != "" {
		s += " — " + t.Section
	}
	return s
}

// Segment is one unit of a page: a table row, a passage, a fact line. Pages
// are made of segments so the offline web knows exactly which entities an
// observation shows.
type Segment struct {
	Text     string      `json:"text"`
	Entities []uint32    `json:"entities,omitempty"`
	Kind     SegmentKind `json:"kind"`

	Block int `json:"block,omitempty"` // which table of the page, for heading, header and row
	// DocID is the corpus id of the document a passage came from
	// (wiki-18, BrowseComp-Plus, KILT; see Builder.AddDocument).
	DocID string `json:"doc_id,omitempty"`
}

// SegmentKind is what a segment is: SegPassage, SegHeading, SegHeader,
// SegRow or SegFact.
type SegmentKind string

// Segment kinds.
const (
	SegPassage SegmentKind = "passage"
	SegHeading             = "heading"
	SegHeader              = "header"
	SegRow                 = "row"
	SegFact                = "fact"
)

// PageKind is what a page is: PageTable or PageEntity.
type PageKind string

// Page kinds.
const (
	PageTable  PageKind = "table"  // a source page with its tables
	PageEntity PageKind = "entity" // a linked entity: passage and facts
)

// Page is a page of the offline web.
type Page struct {
	URL      string    `json:"url"`
	Title    string    `json:"title"`
	Kind     PageKind  `json:"kind"`
	Segments []Segment `json:"segments"`
	Years    []int     `json:"years,omitempty"`
}

// Shown is an entity a page shows, with its name, so that what an
// observation of the page shows can be told without reading the entities.
type Shown struct {
	ID   uint32 `json:"id"`
	Name string `json:"name"`
}
