package audit

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/memo"
	"github.com/leaper-dev/leaper/internal/textnorm"
)

// The rules below say what a true task may contain. The auditor applies
// them to a finished task; synth consults the same rules while drafting,
// so that it proposes little the auditor then refuses. They are policy,
// not derivation: the auditor's reading of the tables is its own.

// intrinsic are the words of an attribute that belongs to an entity itself
// rather than to an event, a season or a table it sits in: read beyond a
// task's tables, such an attribute means the same wherever it is stated.
// A header is intrinsic when one of its words is.
var intrinsic = map[string]bool{
	"nationality": true, "born": true, "birth": true, "birthplace": true, "birthdate": true,
	"hometown": true, "died": true, "death": true, "citizenship": true, "gender": true, "sex": true,
	"alma": true, "college": true, "university": true, "school": true, "education": true,
	"founded": true, "established": true, "founder": true, "opened": true, "built": true,
	"headquarters": true, "genre": true, "genres": true, "language": true, "author": true,
	"director": true, "directed": true, "architect": true, "designer": true, "developer": true,
	"publisher": true, "manufacturer": true, "county": true, "state": true, "province": true,
	"country": true, "capital": true, "continent": true, "region": true, "parish": true,
	"municipality": true, "district": true, "location": true, "city": true, "town": true,
	"elevation": true, "height": true, "length": true, "area": true, "origin": true,
	"nickname": true, "mascot": true, "colors": true, "colours": true, "religion": true,
	"denomination": true, "affiliation": true, "conference": true, "type": true, "species": true,
	"family": true, "order": true, "label": true, "nation": true, "country of origin": true,
}

// eventWords mark a header whose value belongs to an occasion (a race, a
// season, an election) even when another of its words is intrinsic
// ("Birth of the season's champion" is rare; "Host city" is the event's).
var eventWords = map[string]bool{
	"host": true, "venue": true, "winner": true, "champion": true, "result": true, "score": true,
	"record": true, "rank": true, "time": true, "votes": true, "attendance": true, "round": true,
	"pick": true, "position": true, "pos": true, "place": true, "points": true, "last": true,
	"first": true, "previous": true, "next": true, "current": true, "season": true, "final": true,
	"kit": true, "jersey": true, "shirt": true, "sponsor": true, "coach": true, "captain": true,
	"manager": true,
}

// lasting are the words of an attribute that an occasion's table (a
// season's clubs, an edition's teams) may state of a thing without it
// being the occasion's: where it is, not its kit maker, coach or captain
// of that season, nor its colours (a season's kit: Dublin's "Navy and
// blue" of 1996 is "sky blue and navy" on its own page).
var lasting = map[string]bool{
	"city": true, "town": true, "state": true, "country": true, "county": true, "province": true,
	"region": true, "location": true, "municipality": true, "district": true, "capital": true,
	"hometown": true, "nationality": true, "born": true, "birth": true,
	"birthplace": true, "founded": true, "established": true,
	// A person's schooling, death and origin, a place's elevation and
	// area: the thing's own wherever a table of an occasion states them
	// (a draft's colleges).
	"college": true, "university": true, "school": true, "alma": true, "education": true,
	"died": true, "death": true, "citizenship": true, "origin": true, "elevation": true, "area": true,
}

// Lasting reports whether an intrinsic header names an attribute that a
// season's or an edition's table states of a thing as its own (see
// lasting).
func Lasting(header string) bool {
	if !Intrinsic(header) {
		return false
	}
	for _, w := range headerWords(header) {
		if lasting[w] {
			return true
		}
	}
	return false
}

// personal reports whether a header names a person's lasting attribute
// (schooling, birth, death, nationality): lasting of a person, but in an
// occasion's table keyed by a team the pick's ("Bakersfield Jam | … |
// College/From: Phoenix Suns" in a draft round). A team's hometown is its
// own.
func personal(header string) bool {
	for _, w := range headerWords(header) {
		switch w {
		case "college", "alma", "education", "nationality", "citizenship", "born", "birth", "birthplace", "died", "death":
			return true
		}
	}
	return false
}

// venueOf reports whether a header names where something took place
// (location, venue, city, stadium...): of a person, a row's event's place,
// not the person's own; "Place of birth" and "Hometown" are his.
func venueOf(header string) bool {
	if personal(header) {
		return false
	}
	for _, w := range headerWords(header) {
		switch w {
		case "location", "venue", "place", "city", "site", "stadium", "ground", "arena", "circuit", "track":
			return true
		}
	}
	return false
}

// personKey reports whether t's key header names people by a word of
// their own ("Athlete", "Player"), not by "Name" alone, which the build
// takes for people where no other word says what is named (a list of air
// bases, of herbaria).
func personKey(t *graph.Tree) bool {
	var ws []string
	for _, w := range headerWords(t.KeyHeader) {
		if w != "name" && w != "names" {
			ws = append(ws, w)
		}
	}
	return len(ws) > 0 && graph.Domain(strings.Join(ws, " "), t.KeyDatatype) == "person"
}

// eventRows reports whether each row of t is an event's, dated by a
// column headed "Year", "Date", "Season" or "Edition" (not "Founded",
// "Opened": a thing's own year).
func eventRows(t *graph.Tree) bool {
	for _, c := range t.Columns {
		if ws := headerWords(c.Header); len(ws) == 1 {
			switch ws[0] {
			case "year", "date", "season", "edition":
				return true
			}
		}
	}
	return false
}

// nonPerson are key domains of things that are no person.
var nonPerson = map[string]bool{"organization": true, "place": true, "event": true, "work": true}

// workWords are the words of a key header whose rows are works (a film, a
// song, a book): what an occasion's table (a ceremony's submissions, a
// festival's entries) states of one is the work's own, made once.
var workWords = map[string]bool{
	"film": true, "films": true, "movie": true, "title": true, "song": true, "songs": true,
	"album": true, "single": true, "track": true, "book": true, "novel": true, "game": true,
	"episode": true, "work": true, "play": true, "show": true, "series": true, "programme": true,
	"program": true, "painting": true, "opera": true, "musical": true, "poem": true,
}

// OccasionBound reports whether what a row of tree t states under header
// may be the occasion's rather than the key's own: the table is of an
// occasion (its page carries a year or an ordinal, or the row links an
// occasion's article, "1964 Summer Olympics"), the key is no work, and
// the header is no lasting attribute (Lasting: where a thing is, its
// nationality, its founding). A club's kit maker in a season's table, a
// rider's manufacturer in a race's, a singer's language in a contest's
// are the occasion's; a film's director in a ceremony's list is the
// film's. Of a person, or of a row dated as an event's (eventRows), where
// something took place (venueOf) is the event's. name gives an entity's
// name and whether it is an article.
func OccasionBound(t *graph.Tree, row graph.Row, header string, name func(uint32) (string, bool)) bool {
	if venueOf(header) && (personKey(t) || t.KeyDomain != "place" && eventRows(t)) {
		// "84.62 m | Igor Astapkovich | Seville": where a mark was set,
		// not where he is from; "1998 | Bangkok | Yayuk Basuki": where
		// the Games were held
		return true
	}
	if Lasting(header) && !(personal(header) && nonPerson[t.KeyDomain]) {
		return false
	}
	for _, w := range headerWords(t.KeyHeader) {
		if workWords[w] {
			return false
		}
	}
	if IsOccasion(t.PageTitle) {
		return true
	}
	for _, vs := range row.Values {
		for _, v := range vs {
			if n, article := name(v); article && IsOccasion(n) {
				return true
			}
		}
	}
	return false
}

// WritesTitle reports whether text, as a table writes a linked thing,
// reads as its title: each of its words begins a word of the title,
// disambiguator and all ("Drumcondra" of "Drumcondra, Dublin", "Jim
// Thomas" of "Jimmy Thomas (American football)"). "NLB banka", linking
// Nova Ljubljanska banka from the list of Serbia's banks, does not: the
// row is of another thing of the name (the Serbian subsidiary), and what
// it states is not the title's.
func WritesTitle(text, title string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	tw := split(title)
	for _, w := range split(text) {
		if !slices.ContainsFunc(tw, func(t string) bool { return strings.HasPrefix(t, w) }) {
			return false
		}
	}
	return true
}

// RowWritesOtherwise reports whether row of t writes its key, or the one
// value of its column c, otherwise than the linked article's title
// (WritesTitle): what it states may be another thing's of the name.
// name gives an entity's name and whether it is an article.
func RowWritesOtherwise(t *graph.Tree, row graph.Row, c int, name func(uint32) (string, bool)) bool {
	ids := []uint32{row.Key}
	if c >= 0 && c < len(row.Values) && len(row.Values[c]) == 1 {
		ids = append(ids, row.Values[c][0])
	}
	for _, id := range ids {
		sh, ok := t.Shown[id]
		if !ok {
			continue
		}
		if n, article := name(id); article && !WritesTitle(sh, n) {
			return true
		}
	}
	return false
}

// Competition reports whether a name is a competition's ("Campeonato
// Carioca", "Serie A", "FA Cup"): what links a team or a player to one
// (its champion, its league) is a season's, not the thing's own.
func Competition(name string) bool {
	for _, w := range strings.FieldsFunc(Fold(name), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "championship", "championships", "campeonato", "cup", "copa", "coppa", "coupe", "tournament", "trophy",
			"olympics", "games", "prix", "league", "liga", "serie", "division", "premiership", "bundesliga":
			return true
		}
	}
	return false
}

// LikeHeaders reports whether two column headers may name one attribute
// for a reader: the same words, or one the other's letters in capitals
// ("HQ" of "Headquarters", "GP" of "Games played"). It is loose: what it
// joins is only checked to agree.
func LikeHeaders(a, b string) bool {
	na, nb := strings.Join(headerWords(a), " "), strings.Join(headerWords(b), " ")
	if na == "" || nb == "" {
		return false
	}
	if na == nb {
		return true
	}
	short := func(x, y string) bool {
		x = strings.TrimSpace(x)
		if n := utf8.RuneCountInString(x); n < 2 || n > 4 || strings.ToUpper(x) != x || !strings.ContainsFunc(x, unicode.IsLetter) {
			return false
		}
		lx, ly := strings.ToLower(x), strings.ToLower(y)
		if ly == "" || lx[0] != ly[0] {
			return false
		}
		j := 0
		for _, r := range lx {
			k := strings.IndexRune(ly[j:], r)
			if k < 0 {
				return false
			}
			j += k + utf8.RuneLen(r)
		}
		return true
	}
	return short(a, b) || short(b, a)
}

// Intrinsic reports whether a column header names an attribute of the key
// entity itself, which may be read beyond the task's tables.
func Intrinsic(header string) bool {
	ws := headerWords(header)
	if len(ws) == 0 {
		return false
	}
	// "Location of directorate" of a voivodeship in the table of a rail
	// company's regional offices is the office's location, not the
	// voivodeship's; "Place of birth" is the key's.
	if i := slices.Index(ws, "of"); i >= 0 && i+1 < len(ws) && !ownOf[ws[i+1]] {
		return false
	}
	ok := false
	for _, w := range ws {
		if eventWords[w] {
			return false
		}
		if intrinsic[w] {
			ok = true
		}
	}
	return ok
}

// ownOf are the words after "of" in a header of the key's own attribute
// ("Place of birth", "Country of origin", "City of license").
var ownOf = map[string]bool{
	"birth": true, "death": true, "origin": true, "foundation": true, "founding": true, "establishment": true,
	"residence": true, "citizenship": true, "incorporation": true, "formation": true, "license": true, "licence": true,
	"construction": true, "completion": true, "opening": true, "manufacture": true,
}

func headerWords(h string) []string {
	return strings.FieldsFunc(strings.ToLower(h), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// linkLabels are cell texts that label a link instead of stating a value:
// an answer holding one holds nothing.
var linkLabels = map[string]bool{
	"website": true, "official website": true, "official site": true, "homepage": true,
	"home page": true, "report": true, "details": true, "link": true, "links": true,
	"source": true, "ref": true, "references": true, "here": true, "web": true, "site": true,
	"profile": true, "summary": true, "recap": true, "boxscore": true, "box score": true,
}

// LinkLabel reports whether a value is a link's label ("Website",
// "report", "details"), or a link target standing for the cell's text (a
// list page: "National Register of Historic Places listings in Niagara
// County, New York").
func LinkLabel(name string) bool { return linkLabel.Get(name) }

var linkLabel = memo.New(func(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	if linkLabels[n] {
		return true
	}
	return strings.HasPrefix(n, "list of ") || strings.HasPrefix(n, "lists of ") ||
		strings.Contains(n, " listings in ") || strings.HasPrefix(n, "index of ") ||
		yearArticle.MatchString(n)
})

// SubPage reports whether a value names a page of its own table's page
// series ("Belarus in the Junior Eurovision Song Contest 2019" in a table
// of "Belarus in the Junior Eurovision Song Contest"): a cell linking its
// year's page where the table's value (an artist, a song) should be.
func SubPage(value, page string) bool {
	return page != "" && len(value) > len(page) && strings.HasPrefix(value, page+" ")
}

// yearArticle matches the articles a cell links where it shows a year or a
// team: "1982 in film", "1978 Los Angeles Rams season", "2005 Northern
// Illinois Huskies football team".
var yearArticle = regexp.MustCompile(`^(1[0-9]|20)\d{2}(\s*[–-]\s*\d{2,4})? (in [a-z]|.+ (season|team|squad)$)`)

var fileTitle = regexp.MustCompile(`(?i)^\s*\d+(-\d+)+(\.html?|\.csv|\.json)?\s*$|\?curid=|\.html?\b|\.csv\b`)

// IsFileTitle reports whether a page title is a file's name or id
// ("1-16423070-4.html", "?curid=12") rather than a page's.
func IsFileTitle(title string) bool { return fileTitle.MatchString(title) }

var disambig = regexp.MustCompile(`^(.*\S)\s+\(([^()]+)\)$`)

// Disambiguated returns a linked entity's name without Wikipedia's
// disambiguator ("Hereafter (film)" → "Hereafter"), and whether it had
// one. A name whose parenthesis is its own (a score, a code) is not
// passed here: only article titles carry disambiguators.
func Disambiguated(name string) (string, bool) {
	base, p, ok := SplitParen(name)
	if !ok || !disambiguator(p) || graph.Initials(p, base) {
		return name, false
	}
	return base, true
}

// SplitParen splits a title into its name and its closing parenthesis
// ("Theofilos (film)" → "Theofilos", "film"), whether or not the
// parenthesis is a disambiguator, and reports whether it has one.
func SplitParen(title string) (name, paren string, ok bool) {
	if !strings.HasSuffix(title, ")") {
		return title, "", false // what disambig needs, without running it
	}
	m := disambig.FindStringSubmatch(title)
	if m == nil {
		return title, "", false
	}
	return m[1], m[2], true
}

// disambiguator reports whether a title's closing parenthesis reads as
// Wikipedia's disambiguator: a kind ("film", "1997 album", "basketball"),
// a place ("Dover, New Hampshire", "Queensland"); not a part of the name
// ("Moons Milk (In Four Phases)").
func disambiguator(p string) bool {
	r := []rune(strings.TrimSpace(p))
	switch {
	case len(r) == 0 || numberedPart.MatchString(p):
		return false // "Dance India Dance (season 5)": one of the show's seasons
	case teamOf[strings.ToLower(strings.TrimSpace(p))]:
		return false // "En Avant de Guingamp (Ladies)": another team than the men's
	case unicode.IsLower(r[0]) || unicode.IsDigit(r[0]) || strings.Contains(p, ","):
		return true
	}
	fs := strings.Fields(p)
	// "Communist Party of India (Marxist)": a creed is part of the name.
	if l := strings.ToLower(fs[0]); len(fs) == 1 && (strings.HasSuffix(l, "ist") || strings.HasSuffix(l, "ists") || strings.HasSuffix(l, "ism") || partyQualifier[l]) {
		return false // "Janata Dal (Secular)": another party than Janata Dal
	}
	// "(American football)", "(The Vines song)": a class word closes it.
	last := []rune(fs[len(fs)-1])
	return len(fs) == 1 || unicode.IsLower(last[0])
}

// CountsOther reports whether a table titled title (its section, its
// caption) counts, under the
// header, what its title names instead: the "Goals" column of the Iran Pro
// League's "Top Goalassistants" counts assists, and "their number of
// goals" would ask for another figure than the one it holds.
func CountsOther(header string, title ...string) bool {
	switch strings.ToLower(strings.TrimSpace(header)) {
	case "goals", "goal", "gls":
		return slices.ContainsFunc(title, func(t string) bool { return strings.Contains(strings.ToLower(t), "assist") })
	}
	return false
}

// teamOf are the parentheses that name a club's other team, part of its
// name.
var teamOf = map[string]bool{"women": true, "ladies": true, "women's team": true, "reserves": true}

// partyQualifier are the words a party's or body's name closes on in
// parentheses, which are its name, not Wikipedia's disambiguator.
var partyQualifier = map[string]bool{
	"secular": true, "democratic": true, "united": true, "revolutionary": true, "progressive": true, "official": true,
	"provisional": true, "reformed": true, "liberal": true, "popular": true, "unity": true, "renewal": true,
	"pluralist": true, "orthodox": true, "continuing": true, "anti-treaty": true, "pro-treaty": true,
}

// numberedPart matches a parenthesis numbering a part of a series.
var numberedPart = regexp.MustCompile(`(?i)^\s*(?:season|series|cycle|part|volume|vol\.|book|episode)\s+\d+\s*$`)

// abbrev matches a header that is an abbreviation, a symbol or empty
// ("GP", "A", "#GM", "Q1 order", "GER"): a question built on it cannot be
// read without the table.
var abbrev = regexp.MustCompile(`^(?:[A-Z0-9#+/.%-]{1,4}|[A-Z]{1,3}\d*\s+\w+|\W*)$`)

// abbrevs are the headers' common abbreviations and the words they stand
// for: a question says the words.
// Abbreviations that stand for several things ("R": runs or rank, "T":
// ties or total, "H": hits or home, "PPG": points per game or power-play
// goals, "SO": strikeouts or shutouts, "AST": assists or assisted
// tackles) are not spelled: a header of one is raw.
var abbrevs = map[string]string{
	"pos": "position", "pos.": "position", "conf": "conference", "conf.": "conference",
	"pts": "points", "pts.": "points", "gp": "games played", "pld": "games played",
	"no": "number", "no.": "number", "nat": "nationality", "nat.": "nationality", "w": "wins",
	"l": "losses", "d": "draws", "gf": "goals for", "ga": "goals against",
	"gd": "goal difference", "apps": "appearances", "ht": "height", "wt": "weight",
	"dob": "date of birth", "yr": "year", "yrs": "years", "lga": "local government area",
	"pct": "percentage", "pct.": "percentage", "avg": "average", "avg.": "average",
	"min": "minutes", "mins": "minutes",
	"ref": "referee", "tv": "television network", "cap": "capacity", "est": "established",
	"est.": "established", "pop": "population", "pop.": "population", "elev": "elevation",
	"dist": "district", "dist.": "district", "nrhp": "NRHP listing", "fg": "field goals",
	"rpg": "rebounds per game", "apg": "assists per game",
	"a": "assists", "gs": "games started", "ab": "at bats", "hr": "home runs",
	"rbi": "runs batted in", "era": "earned run average", "ip": "innings pitched",
	"bb": "walks", "sv": "saves", "pim": "penalty minutes",
	"res": "result", "res.": "result", "pens": "penalties", "sub": "substitute appearances",
	"ret": "retired", "dnf": "did not finish", "lvl": "level", "lvl.": "level",
	"1st pref": "first-preference votes", "1st pref.": "first-preference votes",
	"freq": "frequency", "freq.": "frequency", "pdef": "passes defended", "tfl": "tackles for loss", "desig": "designation", "desig.": "designation", "fin": "finish", "fin.": "finish",
	"rnd": "round", "rnd.": "round", "agg": "aggregate score", "agg.": "aggregate score", "bldg": "building", "bldg.": "building", "react": "reaction time", "conv": "conversions",
	"directed by": "director", "written by": "writer", "produced by": "producer",
	"composed by": "composer", "designed by": "designer", "owned by": "owner",
}

// ambiguous are abbreviations of several things (see abbrevs), raw
// headers whatever their case ("Ast" of a basketball or a football
// table; "Ret" retired from a race, or return touchdowns), and headers
// that say only that a column is the rest: "Other" of the 1960 College
// Football All-America Team holds the selectors outside the NCAA's list
// ("CP, Time, WC"), which "the other of each" does not ask (round 190).
var ambiguous = map[string]bool{"ast": true, "so": true, "ppg": true, "r": true, "t": true, "h": true, "ret": true, "ret.": true,
	"other": true, "others": true, "other(s)": true, "misc": true, "misc.": true, "miscellaneous": true, "etc": true, "etc.": true}

// Words is a header as a question says it: an abbreviation ("Pos",
// "GP") spelled out, anything else unchanged.
func Words(h string) string {
	if w, ok := abbrevs[strings.ToLower(strings.TrimSpace(h))]; ok {
		return w
	}
	// "Parish est", "Current bldg begun": an abbreviation of three letters
	// or more among words is spelled out too (not "A" of "Group A").
	fs := strings.Fields(h)
	if len(fs) < 2 {
		return h
	}
	changed := false
	for i, f := range fs {
		l := strings.ToLower(f)
		n := len(strings.TrimSuffix(l, "."))
		// "GP Regular season": two capitals stand for words too.
		upper := n == 2 && strings.ToUpper(f) == f && l != "tv" && l != "no"
		// "First cap", "Min", "Era", "Sub": words of their own among
		// others.
		if w, ok := abbrevs[l]; ok && (n >= 3 || upper) && l != "min" && l != "era" && l != "sub" && l != "cap" {
			fs[i], changed = w, true
		}
	}
	if !changed {
		return h
	}
	return strings.Join(fs, " ")
}

// RawHeader reports whether a column header cannot be read as words in a
// question, once a known abbreviation is spelled out (Words): empty, an
// abbreviation or code ("GER", "#GM", "Q1 order", "P Regular season"), or
// symbols.
func RawHeader(h string) bool { return rawHeaders.Get(h) }

// YearColumn reports whether a column holds years: typed so, or headed so
// (YearHeader) whatever its cells link. A column of amounts the build
// typed as years by their figures ("Total Points": 1258, 1861) is none.
func YearColumn(c graph.Column) bool {
	return c.Datatype == graph.TypeYear && c.Domain != "measure" || YearHeader(c.Header)
}

// YearHeader reports whether a column's header says its figures are years
// ("Year", "Year of birth", "Founded", "Opened", "First season"), which no
// one adds up, whatever the cells link to ("1999" linking "1999 in film").
func YearHeader(h string) bool {
	all := strings.Fields(strings.ToLower(h))
	if n := len(all); n > 0 && n <= 2 && all[n-1] == "season" {
		return true // "First season" (1908 linking its season), not "Goals 2014-15 season"
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "year", "born", "founded", "established", "opened", "built", "formed", "debut", "completed", "introduced", "inaugurated", "incorporated":
			return true
		}
	}
	return false
}

// OrdinalHeader reports whether a column of figures numbers a place in an
// order (a rank, a pick, a position, a seed, a round, "No.") or labels its
// row (a production code, a ZIP code): its highest is no amount ("the
// highest pick" is the first chosen, and a round's pick 30 is not above
// another round's 7), and its figures are not added. "Number of seats" is
// an amount.
func OrdinalHeader(h string) bool {
	ws := strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '#' })
	for i, w := range ws {
		switch w {
		case "rank", "ranking", "rk", "pick", "pos", "position", "place", "placing", "seed", "seeding", "round", "rd",
			"overall", "draw", "lane", "bib", "heat", "week", "episode", "order", "pl",
			"code", "id", "zip", "postcode", "isbn", "serial", "catalog", "catalogue":
			return true
		case "no", "number", "#", "nr":
			if i+1 >= len(ws) || ws[i+1] != "of" {
				return true
			}
		}
	}
	return false
}

var rawHeaders = memo.New(rawHeader)

func rawHeader(h string) bool {
	if ambiguous[strings.ToLower(strings.TrimSpace(h))] {
		return true
	}
	h = strings.TrimSpace(Words(h))
	if h == "" || strings.ContainsAny(h, "#") {
		return true
	}
	letters := 0
	for _, r := range h {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 3 {
		return true
	}
	// "PDef": a code with a capital inside
	if fs := strings.Fields(h); len(fs) == 1 && len(h) <= 5 && strings.ContainsFunc(h[1:], unicode.IsUpper) && strings.ContainsFunc(h[1:], unicode.IsLower) {
		return true
	}
	// "Pass Defense QBH": a code closing words
	if fs := strings.Fields(h); len(fs) > 1 {
		last := fs[len(fs)-1]
		if len(last) >= 2 && len(last) <= 4 && strings.ToUpper(last) == last && strings.ContainsFunc(last, unicode.IsLetter) &&
			strings.ContainsFunc(fs[0], unicode.IsLower) {
			if _, known := abbrevs[strings.ToLower(last)]; !known {
				return true
			}
		}
	}
	// "P Regular season": a letter over its part of a header, points or
	// played.
	if fs := strings.Fields(h); len(fs) > 1 && len(fs[0]) == 1 && fs[0][0] >= 'A' && fs[0][0] <= 'Z' {
		return true
	}
	return abbrev.MatchString(h)
}

var coord = regexp.MustCompile(`\d+\s*°|°\s*[NSEW]\b|\b\d{1,3}\.\d{3,}\s*[;,]\s*-?\d{1,3}\.\d{3,}`)

// RawValue reports whether a value can only be copied, not said: a
// coordinate string, or a text the export lost.
func RawValue(v string) bool {
	// Each pattern needs a degree sign, a decimal point beside a
	// separator, or a question mark: most values have none.
	if (strings.ContainsRune(v, '°') || strings.Contains(v, ".") && strings.ContainsAny(v, ";,")) && coord.MatchString(v) {
		return true
	}
	// "110.3 km (42.6 sq mi)": an area whose "²" the export lost
	if strings.Contains(v, "sq mi") && lostSquare.MatchString(v) {
		return true
	}
	return (strings.Contains(v, "?") || strings.HasSuffix(strings.TrimSpace(v), "10")) && lost.MatchString(v)
}

// lost matches a value whose text was lost in the export ("??" where a
// name in another script stood; "1 × 10", a power of ten without its
// exponent): no one can give it.
var lostSquare = regexp.MustCompile(`\d\s*km\s*\(\s*[\d.,]+\s*sq\s*mi\s*\)`)

var lost = regexp.MustCompile(`^\s*\?+\s*$|\d\s*[×xX]\s*10\s*$`)

// editionRe matches the parts of a page title that number an edition of a
// recurring theme: years, seasons, ordinals.
var editionRe = regexp.MustCompile(`\b(1[0-9]|20)\d{2}(\s*[–-]\s*(\d{2}|\d{4}))?\b|\b\d+(st|nd|rd|th)\b`)

// IsOccasion reports whether a name is of an occasion (a season, an
// edition: it carries a year or an ordinal), whose attributes belong to
// the occasion, not to the things that took part in it.
func IsOccasion(name string) bool { return editionRe.MatchString(name) }

// Editions returns where a title numbers an edition (years, seasons,
// ordinals), as [start, end) pairs: what a theme of editions varies in.
// A title's editions are asked of it again and again (each union drawn
// names its trees' themes), so they are kept; callers do not change them.
func Editions(title string) [][]int {
	if e, ok := editionsOf.Load(title); ok {
		return e.([][]int)
	}
	e := editionRe.FindAllStringIndex(title, -1)
	editionsOf.Store(title, e)
	return e
}

var editionsOf sync.Map // title → [][]int

// withoutEditions is title with each edition (Editions) a space.
func withoutEditions(title string) string {
	locs := Editions(title)
	if len(locs) == 0 {
		return title
	}
	var b strings.Builder
	at := 0
	for _, l := range locs {
		b.WriteString(title[at:l[0]])
		b.WriteByte(' ')
		at = l[1]
	}
	b.WriteString(title[at:])
	return b.String()
}

// Theme is what the page titles of a union have in common: each title with
// its edition numbers (years, seasons, ordinals) taken out, and then the
// longest prefix and suffix all titles share. Fixed is the shared text
// ("International Cross Country Championships", "List of * submissions
// for the Academy Award for Best International Feature Film"), with "*"
// where the titles differ beyond their editions; ok is false when the
// titles share too little to name one concept: no content word, or under two fifths of the titles' length.
func Theme(titles []string) (fixed string, ok bool) {
	if len(titles) == 0 {
		return "", false
	}
	stems := make([]string, len(titles))
	for i, t := range titles {
		stems[i] = squeeze(withoutEditions(t))
	}
	pre, suf := Affixes(stems)
	same := true
	for _, s := range stems[1:] {
		if s != stems[0] {
			same = false
		}
	}
	if same {
		fixed = stems[0]
	} else if len(pre)+len(suf) >= len(stems[0]) {
		fixed = stems[0]
	} else {
		fixed = strings.TrimSpace(strings.TrimSpace(pre) + " * " + strings.TrimSpace(suf))
	}
	// The shared text must carry the titles: a common word or two of long
	// titles ("European *") is no theme.
	bare := strings.TrimSpace(strings.ReplaceAll(fixed, "*", " "))
	total := 0
	for _, s := range stems {
		total += len(s)
	}
	return fixed, contentWords(bare) >= 1 && 10*len(bare)*len(stems) >= 4*total
}

// stop are words that name no theme.
var stop = map[string]bool{
	"the": true, "of": true, "in": true, "and": true, "a": true, "an": true, "for": true, "to": true,
	"at": true, "on": true, "by": true, "list": true, "lists": true, "season": true, "results": true,
	"men's": true, "women's": true, "team": true, "teams": true, "–": true, "-": true, "at the": true,
	"de": true, "la": true, "le": true, "del": true, "y": true, "with": true,
}

func contentWords(s string) int {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, "()[],.:;'\"")
		if len(w) >= 2 && !stop[w] {
			n++
		}
	}
	return n
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// Affixes are the longest prefix and suffix of whole words that all of
// titles share ("National Register of Historic Places listings in " and
// ", Michigan" of two counties' listings).
func Affixes(titles []string) (pre, suf string) {
	if len(titles) == 0 {
		return "", ""
	}
	pre, suf = titles[0], titles[0]
	for _, t := range titles[1:] {
		pre = commonPrefix(pre, t)
		suf = commonSuffix(suf, t)
	}
	return wordCut(pre, false), wordCut(suf, true)
}

func commonPrefix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

func commonSuffix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return a[len(a)-i:]
}

// wordCut trims a shared prefix (or suffix) back to whole words.
func wordCut(s string, suffix bool) string {
	if suffix {
		if i := strings.IndexByte(s, ' '); i >= 0 {
			return s[i:]
		}
		return ""
	}
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		return s[:i+1]
	}
	return ""
}

// Plain is a name as an answer gives it: without the disambiguator of an
// article's title (article: the name is a link's title), and without a
// register's reference number beside a value ("March 11, 1993
// (#93000159)"), which is the table's, not the value's.
func Plain(name string, article bool) string {
	if article && strings.Contains(name, " at the ") {
		// "East Germany at the 1972 Summer Olympics": the nation, as a
		// medal table writes it.
		if m := atGames.FindStringSubmatch(name); m != nil {
			return m[1]
		}
	}
	if !strings.HasSuffix(name, ")") {
		return name // both a disambiguator and a reference number end so
	}
	if i := strings.LastIndex(name, " ("); i > 0 && rowNotes[strings.ToLower(strings.TrimSpace(name[i+2:len(name)-1]))] {
		return strings.TrimSpace(name[:i]) // "La guerra de los gimnasios (short)": the row's note, not the film's name
	}
	if article {
		if b, ok := Disambiguated(name); ok {
			return b
		}
	}
	// A reference number: the anchored regexp reads only the name's last
	// "(#", not every position of it.
	if i := strings.LastIndex(name, "(#"); i > 0 && refNumber.MatchString(name[i:]) {
		if head := strings.TrimRight(name[:i], " \t\n\f\r"); head != "" {
			return head
		}
	}
	return name
}

// Namesake reports whether article e's name as an answer gives it
// (Plain) leaves out a disambiguator that is a name
// (graph.NamingQualifier: "Persija Jakarta (IPL)", the club of the
// Indonesian Premier League) and is then the title of another article of
// g (Persija Jakarta): the answer gives its title whole, or it would name
// the other. A kind ("Hereafter (film)") is left out all the same.
func Namesake(g *graph.Store, e *graph.Entity) (bool, error) {
	if !strings.HasPrefix(e.Key, "w:") {
		return false, nil
	}
	d := Plain(e.Name, true)
	if d == e.Name {
		return false, nil
	}
	if _, p, ok := SplitParen(e.Name); !ok || !graph.NamingQualifier(p) {
		return false, nil
	}
	other, err := g.EntityByKey("w:" + d)
	switch {
	case errors.Is(err, graph.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return other.ID != e.ID, nil
}

// rowNotes are the notes a table writes in parentheses after a name, of
// the row rather than the thing: a short film, a voice role, a caretaker
// manager.
var rowNotes = map[string]bool{
	"short": true, "short film": true, "voice": true, "uncredited": true, "cameo": true, "caretaker": true,
	"interim": true, "archive footage": true, "segment": true, "tv movie": true, "tv film": true,
	"direct-to-video": true, "cameo appearance": true, "voice role": true,
}

var atGames = regexp.MustCompile(`^(.+?) at the (?:\d{4}(?:–\d{2,4})? )?(?:\S.* )?(?:Olympics|Paralympics|Games|Championships)$`)

var refNumber = regexp.MustCompile(`^\(#\s*\d+\)$`)

// NameKey is the identity of a name as a person reads it: case, spacing,
// edge punctuation and a Wikipedia disambiguator do not make two names
// differ.
func NameKey(s string) string { return nameKeys.Get(s) }

var nameKeys = memo.New(func(s string) string { return graph.NormText(TrimCorp(Plain(s, true))) })

// TrimCorp is a company's name without its legal form: "MBC Grand
// Broadcasting, Inc." and "MBC Grand Broadcasting" name one licensee.
func TrimCorp(s string) string {
	t := strings.TrimSpace(s)
	for _, suf := range corpForms {
		if len(t) > len(suf)+2 && strings.EqualFold(t[len(t)-len(suf):], suf) {
			return strings.TrimRight(strings.TrimSpace(t[:len(t)-len(suf)]), ",")
		}
	}
	return s
}

var corpForms = []string{" Inc.", " Inc", " LLC", " L.L.C.", " Ltd.", " Ltd", " Corp.", " Co.", " GmbH", " S.A.", " plc"}

// Mentions reports whether text names name as whole words among other
// words: "Not Nominated" names "Nominated", "French, Hebrew" names
// "French". Case, accents and punctuation are not read; a name under
// three letters is not looked for.
func Mentions(text, name string) bool {
	n := foldWords(name)
	if len(n) == 0 || len(strings.Join(n, " ")) < 3 {
		return false
	}
	t := foldWords(text)
	if len(t) <= len(n) {
		return false
	}
	for i := 0; i+len(n) <= len(t); i++ {
		if slices.Equal(t[i:i+len(n)], n) {
			return true
		}
	}
	return false
}

// NamesAmong reports whether a cell's text names a filter's value as
// whole words among other words, as Mentions does ("Music Box Winter
// Garden" names "Music Box": a play that moved), but not as its negation
// ("Not Nominated" is no "Nominated").
func NamesAmong(text, value string) bool {
	return !negated.MatchString(text) && Mentions(text, value)
}

var negated = regexp.MustCompile(`(?i)^(not|non|no|un)[\s-]`)

// Lists reports whether text lists name as one of several items:
// "French, Hebrew" lists "French", while "Cleveland Heights, Ohio" does
// not list "Cleveland". A name under three letters is not looked for.
func Lists(text, name string) bool {
	n := Fold(name)
	if len(n) < 3 {
		return false
	}
	items := listSep.Split(text, -1)
	return len(items) > 1 && slices.ContainsFunc(items, func(it string) bool { return Fold(it) == n })
}

var listSep = regexp.MustCompile(`\s*(?:[,;/&]|\band\b)\s*`)

// foldWords are the runs of letters and digits of Fold(s).
func foldWords(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Fold is a name with case, spacing, edge punctuation and accents taken
// out ("Nuța Olaru" → "nuta olaru"), for telling two records of one thing.
func Fold(s string) string { return folds.Get(s) }

var folds = memo.New(func(s string) string { return textnorm.FoldAccents(graph.NormText(s)) })

// Abbreviates reports whether two names are one written short where the
// other is written out, word for word: "W. Texas State" and "West Texas
// State", "St. Louis" and "Saint Louis". A reader takes them for one
// thing, so a clue or a shared value written one way is written the other
// way too. At least one word must agree in full; case and accents are
// not read.
func Abbreviates(x, y string) bool {
	if x == y || !strings.Contains(x, ".") && !strings.Contains(y, ".") {
		return false
	}
	// Not Fold: it trims a name's edge punctuation, and "St." must keep its stop.
	fold := func(s string) []string { return strings.Fields(strings.ToLower(textnorm.FoldAccents(s))) }
	wx, wy := fold(x), fold(y)
	if len(wx) != len(wy) || len(wx) < 2 {
		return false
	}
	short, full := 0, 0
	for i := range wx {
		a, b := strings.Trim(wx[i], ","), strings.Trim(wy[i], ",")
		switch {
		case a == b:
			full++
		case shortFor(a, b) || shortFor(b, a):
			short++
		default:
			return false
		}
	}
	return short > 0 && full > 0
}

// shortFor reports whether word a ("w.", "st.") is letters of word b in
// order, its first among them, with a stop: "West", "Saint", "State".
func shortFor(a, b string) bool {
	p, ok := strings.CutSuffix(a, ".")
	if !ok || p == "" || len(p) >= len(b) || p[0] != b[0] || strings.ContainsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	i := 0
	for _, r := range b {
		if i < len(p) && r == rune(p[i]) {
			i++
		}
	}
	return i == len(p)
}

// Sampled reports whether a table's source is a record of a JSON Lines
// release (OTT-QA's WikiTables-WithLinks: "tables.jsonl.gz#line 975"),
// which keeps a sample of an article's tables, not its whole page.
func Sampled(source string) bool {
	return strings.Contains(source, ".jsonl") && strings.Contains(source, "#line ")
}

// PageIndices are the table indices a page's sampled source gives: those
// of its trees and rejected tables from that source (another crawl of the
// page, a WikiTableQuestions table of it, numbers its tables otherwise).
// ok is false where a rejected table of the source has no index (a store
// built before rejected tables kept theirs): its gaps cannot be told.
func PageIndices(trees []*graph.Tree, rejected []graph.Rejected) (have map[int]bool, ok bool) {
	have = map[int]bool{}
	for _, t := range trees {
		if Sampled(t.Source) && t.TableIndex >= 0 {
			have[t.TableIndex] = true
		}
	}
	for _, r := range rejected {
		if !Sampled(r.Source) {
			continue
		}
		if r.Index == nil {
			return nil, false
		}
		have[*r.Index] = true
	}
	return have, true
}

// SplitSections reports whether a page's sampled source gives one
// section of the article in two tables or more, trees or rejected tables
// titled alike ("Family Pitheciidae" in two): the article's sections run
// over several tables, so its last one given may go on in a table the
// sample dropped (SourceGap).
func SplitSections(trees []*graph.Tree, rejected []graph.Rejected) bool {
	seen := map[[2]string]bool{}
	add := func(source, section, caption string) bool {
		if !Sampled(source) || section == "" {
			return false
		}
		k := [2]string{section, caption}
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	}
	for _, t := range trees {
		if add(t.Source, t.Section, t.Caption) {
			return true
		}
	}
	for _, r := range rejected {
		if add(r.Source, r.Section, r.Caption) {
			return true
		}
	}
	return false
}

// SourceGap is the index of a table beside table k of a page that the
// page's source lacks, where have are the indices it gives, or -1: the
// one before k, or the one after where a later one is given. A sample of
// an article's tables drops some: "2013 Division 1" keeps the Södra table
// (index 1) of a section whose Norra table (0) it dropped, and "every
// team" of the section is then not what the article lists. The table
// after the last one given cannot be told from the article's end, but
// where the page's sections run over several tables (split,
// SplitSections) the last one's may go on beyond it: "Family Atelidae" of
// the list of New World monkey species gives its howler monkeys, OTT-QA
// having kept no table after it, and the family's spider monkeys are
// lost.
func SourceGap(k int, have map[int]bool, split bool) int {
	if k > 0 && !have[k-1] {
		return k - 1
	}
	if !have[k+1] {
		for i := range have {
			if i > k+1 {
				return k + 1
			}
		}
		if split && have[k] {
			return k + 1
		}
	}
	return -1
}
