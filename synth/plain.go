package synth

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
)

// A task asks for a table's keys by what they are and for their values
// by their headers' words: readers stumbled most over keys that are no
// names (dates, ranks, a statistic's category, a pick number), headers
// that are no noun ("Venue/Event", "Change, reason", "Year (Ceremony)"),
// cells that carry the export's marks ("PARI:", "/ Michael Haneke", "35.",
// "Russia; Astrakhan") and clues or filters a person reads otherwise than
// the store ("Defense" for "Defence", "French, Hebrew" for French). The
// checks here keep Basic keys and columns, and the union variants'
// columns, pivots, clues and filters, to what a person can ask about in
// words and answer as the tables write it.

// notNameKeys are key headers whose cells are not names of things but
// positions, times or labels of a row ("Category" of a team's leaders,
// "Dates" of a convention's editions, "Pick" of a draft).
var notNameKeys = map[string]bool{
	"date": true, "dates": true, "year": true, "years": true, "season": true, "seasons": true,
	"category": true, "categories": true, "rank": true, "ranking": true, "no": true, "number": true,
	"round": true, "pick": true, "result": true, "results": true, "score": true, "total": true,
	"time": true, "period": true, "status": true, "type": true, "position": true, "pos": true,
	"edition": true, "week": true, "game": true, "match": true, "event": true, "events": true,
	"record": true, "records": true, "stage": true, "heat": true, "place": true, "order": true,
	// A medal's column keys its winners as "golds", often a country and
	// its athletes run together in one cell.
	"gold": true, "silver": true, "bronze": true,
	// A match's report link, a catalogue or serial code: no names.
	"report": true, "reports": true, "match report": true, "source": true, "sources": true, "ref": true,
	"notes": true, "note": true, "catalog number": true, "catalogue number": true, "catalog": true,
	"catalogue": true, "catalog no": true, "cat no": true, "isbn": true, "code": true, "id": true,
	// One side of a fixture: a team plays many.
	"team 1": true, "team 2": true, "team a": true, "team b": true, "home team": true, "away team": true,
	"home": true, "away": true, "visitor": true, "visitors": true, "host": true,
	// A fighter's or a team's opponents: the rows are its bouts and
	// games, whose record and result are its own.
	"opponent": true, "opponents": true, "opposition": true, "opposing team": true, "vs": true, "versus": true,
	// A podium's lower places: "list the thirds" of a race's editions.
	"second": true, "third": true, "runner-up": true, "runners-up": true, "third place": true, "fourth place": true,
}

// plainKeys reports whether the keys of t read as the names of the
// things a question asks for: a header that is a noun (no "/", ",", "("),
// not a date or a row's label, and cells that are names, not numbers,
// codes or marked text.
func (s *synth) plainKeys(t *graph.Tree) bool {
	if t.KeyDomain == "time" || !plainHeader(t.KeyHeader, false) || t.SeveralKeys > 0 {
		return false
	}
	// A pedigree's columns are generations headed by an ancestor's name
	// ("Northern Dancer"): its rows are no things with attributes.
	if strings.Contains(strings.ToLower(t.PageTitle+" "+t.Section+" "+t.Caption), "pedigree") {
		return false
	}
	// "Network (s)": a cell may hold several, each a key of its own.
	if strings.Contains(t.KeyHeader, "(s)") || strings.Contains(t.KeyHeader, "(es)") {
		return false
	}
	// A key headed like a dropped duplicate ("Color" of a tip and of a
	// ring), headers carrying a section row, or a key that is a row's
	// attribute: a reader takes other rows or another column.
	if twiceHeaded(t, t.KeyHeader) || sectionSuffix(t) || attributeKey(t) {
		return false
	}
	if notNameKeys[strings.ToLower(strings.Trim(words(t.KeyHeader), " ."))] {
		return false
	}
	// "Director" beside "Title": the rows are films, named by another
	// column than the key.
	if rowsNamedElsewhere(t) || s.mislinkedKey(t) {
		return false
	}
	// "Exited administration", "Elected": when something happened to
	// the row, not what it names.
	if fs := strings.Fields(strings.ToLower(t.KeyHeader)); len(fs) > 0 && participle(fs[0]) {
		return false
	}
	// A roster whose position column lists a coach: its "players" are
	// not all players.
	for c, col := range t.Columns {
		if h := strings.ToLower(words(col.Header)); h != "position" && h != "pos" && h != "role" {
			continue
		}
		for _, r := range t.Rows {
			for _, v := range r.Values[c] {
				switch strings.ToLower(s.shownText(t, v)) {
				case "coach", "head coach", "manager", "assistant coach", "trainer":
					return false
				}
			}
		}
	}
	// "Christians (86)" over a table of ten Methodists: the section
	// counts more than the table holds, which is one of its parts.
	if n, ok := sectionCount(t); ok && n != len(t.Rows) {
		return false
	}
	// "2010 transfers in/out": the section held an In and an Out table,
	// of which the source kept one; "all" its players are the two.
	if sec := strings.ToLower(t.Section + " " + t.Caption); strings.Contains(sec, "in/out") || strings.Contains(sec, "in and out") || strings.Contains(sec, "ins and outs") {
		return false
	}
	// Every key a name: one that is not ("Semifinal losers United States
	// Germany", "Wayne Ferreira 6–0 7–5") would be an answer's row. A few
	// short codes ("MOE", a program) may be names.
	codes := 0
	for _, r := range t.Rows {
		n := s.shownText(t, r.Key)
		switch {
		case memo(&s.nameCells, n, nameCell):
		case code(n):
			codes++
		default:
			return false
		}
	}
	return len(t.Rows) > 0 && 10*codes < len(t.Rows)
}

// mislinkedKey reports whether a key cell of t links an article that
// another cell of its row names, and shares no word with the key cell's
// text: "Sergio Gutierrez" linking the Idaho Court of Appeals, his
// notability; "Saltery Bay Span" linking Powell River, its city. The
// row's entity is then not the thing its cell names ("Diddy" linking
// Sean Combs is).
func (s *synth) mislinkedKey(t *graph.Tree) bool {
	for _, r := range t.Rows {
		if !slices.ContainsFunc(r.Values, func(vs []uint32) bool { return slices.Contains(vs, r.Key) }) {
			continue
		}
		sh, ok := t.Shown[r.Key]
		if !ok {
			return true // the table writes the article two ways: its key cell, and another
		}
		words := map[string]bool{}
		for _, w := range strings.Fields(graph.NormText(sh)) {
			if len(w) >= 3 {
				words[w] = true
			}
		}
		shared := len(words) == 0
		for _, w := range strings.Fields(graph.NormText(s.display(r.Key))) {
			shared = shared || words[w]
		}
		if !shared {
			return true
		}
	}
	return false
}

// roleKeys are key headers naming a team's people or partners, whose rows
// are the team's when a Team column is beside them.
var roleKeys = map[string]bool{
	"captain": true, "manager": true, "head coach": true, "coach": true, "chairman": true, "president": true,
	"owner": true, "sponsor": true, "shirt sponsor": true, "kit manufacturer": true, "kit maker": true,
	"team captain": true, "head coach/manager": true, "manager/head coach": true, "outgoing manager": true,
}

// seasonArticle matches the title of a show's season ("Dancing with the
// Stars (U.S. season 19)"), a link's target where the cell shows "19".
var seasonArticle = regexp.MustCompile(`(?i)\bseason \d+\)$`)

// rankedTop reports whether t is a ranking of its keys from 1 to as many
// as it has rows ("Position" 1st to 10th of a province's cities): a top
// list, whose keys are not "all" of what its page is about unless a
// section or caption says what it ranks.
func (s *synth) rankedTop(t *graph.Tree) bool {
	for c, col := range t.Columns {
		switch headerKey(col.Header) {
		case "rank", "pos", "position", "place", "ranking", "number", "#":
			if s.ranksRows(t, c) {
				return true
			}
		}
	}
	return false
}

// numberedRows reports whether cleaning dropped a column of t that
// numbered or ranked its rows ("#" 1 to 10): under a title that states
// more of them, the first of a ranking.
func numberedRows(t *graph.Tree) bool {
	for _, d := range t.Dropped {
		if strings.HasSuffix(d, ": "+graph.DropSerial) || strings.HasSuffix(d, ": "+graph.DropRank) {
			return true
		}
	}
	return false
}

// rankedCount matches a page title that counts a ranking's places ("100
// Best Novels"), not a distance ("3000 metres"), nor a name ("Top 14", "21
// & Over").
var rankedCount = regexp.MustCompile(`(?i)\b\d+ (best|greatest|top|most|largest|highest|biggest)\b`)

// scoreSheet reports whether t holds a pageant's judged scores ("Interview",
// "Swimsuit", "Evening gown", "Average"): a sheet of the finalists, not of
// all who competed.
func scoreSheet(t *graph.Tree) bool {
	n := 0
	for _, col := range t.Columns {
		switch headerKey(col.Header) {
		case "interview", "swimsuit", "evening gown", "talent", "preliminary average", "semifinal average":
			n++
		}
	}
	return n >= 2
}

// formerList reports whether t lists things that are no more: a column
// of when each closed, dissolved or was demolished ("Year Closed" of
// Buffalo Public Schools' defunct schools). Unnamed by a section or a
// caption, it is not all of what its page is about.
func formerList(t *graph.Tree) bool {
	for _, col := range t.Columns {
		for _, w := range strings.Fields(headerKey(col.Header)) {
			switch w {
			case "closed", "defunct", "demolished", "dissolved", "abolished", "disbanded":
				return true
			}
		}
	}
	return false
}

// statedMore reports whether t's page title, section or caption counts
// more things than t has rows ("100 Best Novels" over ten): a year is no
// count.
func statedMore(t *graph.Tree) bool {
	for _, f := range strings.FieldsFunc(t.PageTitle+" "+t.Section+" "+t.Caption, func(r rune) bool { return !unicode.IsDigit(r) }) {
		n, err := strconv.Atoi(f)
		if err == nil && n > len(t.Rows) && n >= 10 && !(n >= 1000 && n <= 2100) {
			return true
		}
	}
	return false
}

// ranksRows reports whether column c of t numbers its rows from 1 ("1st",
// "T2", "3") to no more than it has.
func (s *synth) ranksRows(t *graph.Tree, c int) bool {
	seen := map[int]bool{}
	for _, r := range t.Rows {
		for _, v := range r.Values[c] {
			txt := strings.TrimRight(strings.TrimLeft(strings.TrimSpace(s.shownText(t, v)), "T="), "stndrh.")
			if n, err := strconv.Atoi(txt); err == nil {
				seen[n] = true
			}
		}
	}
	return len(seen) >= len(t.Rows)/2 && seen[1] && !seen[len(t.Rows)+1] && len(t.Rows) >= 5
}

// roundTop reports whether t ranks exactly a round number of rows (10,
// 20, 25, 50, 100) by a "Rank" column, under a title that does not say
// it is a top list: a page's "Medal count" of its top ten nations, which
// "all nations" would read as the whole medal table.
func (s *synth) roundTop(t *graph.Tree) bool {
	switch len(t.Rows) {
	case 10, 20, 25, 50, 100:
	default:
		return false
	}
	if topWords.MatchString(t.Section + " " + t.Caption) {
		return false // "Top 10 albums": the title says so
	}
	for c, col := range t.Columns {
		if headerKey(col.Header) == "rank" {
			return s.ranksRows(t, c)
		}
	}
	// The build drops a rank that only numbers the rows ("Rank: rank
	// only"). A multi-sport Games' page summarises its medal table
	// (a main article of its own) by its top ten nations.
	if len(t.Rows) != 10 || !gamesPage.MatchString(t.PageTitle) || !strings.Contains(strings.ToLower(t.Section+" "+t.Caption), "medal") {
		return false
	}
	for _, d := range t.Dropped {
		if h, reason, ok := strings.Cut(d, ": "); ok && reason == graph.DropRank && headerKey(h) == "rank" {
			return true
		}
	}
	return false
}

var gamesPage = regexp.MustCompile(`^\d{4} (?:Summer |Winter )?(?:Olympics|Paralympics|Youth Olympics|Asian Games|Commonwealth Games|Pan American Games)$`)

var topWords = regexp.MustCompile(`(?i)\b(top|leading|most|largest|biggest|highest|best|greatest|tallest|longest|busiest|oldest|youngest)\b`)

// placeKeys are key headers naming where a row's thing is.
var placeKeys = map[string]bool{"city": true, "location": true, "town": true, "country": true, "state": true, "province": true, "city/town": true}

// rowsNamedElsewhere reports whether a column of t other than its key is
// headed as the rows' own name ("Title", "Name", "Film"): the key is then
// one of their attributes.
func rowsNamedElsewhere(t *graph.Tree) bool {
	if genericKeys[strings.ToLower(t.KeyHeader)] {
		return false
	}
	// "Captain" of a kits table beside "Team": the kits are the team's;
	// "City" beside "Stadium": the capacity is the stadium's
	kh := strings.ToLower(strings.TrimSpace(t.KeyHeader))
	for _, col := range t.Columns {
		switch h := strings.ToLower(strings.TrimSpace(col.Header)); {
		case roleKeys[kh] && (h == "team" || h == "club" || h == "teams" || h == "clubs" || h == "school" || h == "franchise"):
			return true
		case placeKeys[kh] && (h == "stadium" || h == "arena" || h == "venue" || h == "ground" || h == "team" || h == "club" || h == "school" || h == "airport" || h == "station"):
			return true
		}
	}
	for _, col := range t.Columns {
		switch strings.ToLower(strings.TrimSpace(col.Header)) {
		case "title", "name", "film", "film title", "english title", "title (english)":
			return col.Header != t.KeyHeader
		}
	}
	return false
}

// standings reports whether t is a league table: a column "F" or "For"
// (goals or points for) or "D" (draws) beside its "A".
func standings(t *graph.Tree) bool {
	for _, col := range t.Columns {
		switch strings.ToLower(strings.TrimSpace(col.Header)) {
		case "f", "for", "d", "pf":
			return true
		}
	}
	return false
}

// runningOrder reports whether column c of t numbers its rows 1 to n,
// each once: an order, not a count.
func (s *synth) runningOrder(t *graph.Tree, c int) bool {
	seen := make([]bool, len(t.Rows)+1)
	for _, r := range t.Rows {
		if len(r.Values[c]) != 1 {
			return false
		}
		n, err := strconv.Atoi(strings.TrimSpace(s.name(r.Values[c][0])))
		if err != nil || n < 1 || n > len(t.Rows) || seen[n] {
			return false
		}
		seen[n] = true
	}
	return len(t.Rows) > 0
}

// electionFigures are the one-word headers of an election's figures that
// say what they count; any other ("Obama", "Romney", "Others") heads a
// candidate's share, which a question cannot name.
var electionFigures = map[string]bool{
	"votes": true, "total": true, "turnout": true, "majority": true, "margin": true, "swing": true,
	"seats": true, "electorate": true, "voters": true, "population": true, "rank": true, "year": true,
	"percentage": true, "share": true, "ballots": true, "registered": true, "district": true, "ward": true,
}

// candidateShare reports whether column c of an election's table is a
// number headed by one word that does not say what it counts: a
// candidate's or party's votes or share ("Obama", "Others").
func candidateShare(t *graph.Tree, c int) bool {
	col := t.Columns[c]
	if col.Datatype != graph.TypeNumber || !strings.Contains(strings.ToLower(t.PageTitle), "election") {
		return false
	}
	h := strings.TrimSpace(col.Header)
	return !strings.Contains(h, " ") && !electionFigures[strings.ToLower(h)]
}

// sectionCount is the count a section or caption of t gives in a closing
// parenthesis ("Christians (86)"), if any.
func sectionCount(t *graph.Tree) (int, bool) {
	for _, p := range []string{t.Caption, t.Section} {
		parts := strings.Split(p, "|")
		if m := countParen.FindStringSubmatch(strings.TrimSpace(parts[len(parts)-1])); m != nil {
			n, err := strconv.Atoi(m[1])
			return n, err == nil
		}
	}
	return 0, false
}

var countParen = regexp.MustCompile(`\((\d{1,3})\)$`)

// countOf matches a count with what it counts ("4 (1991, 1998, 2007,
// 2012)", "6 (2+4)"): a reader gives one or the other.
var countOf = regexp.MustCompile(`^\d[\d.,:]*\s*\(.+\)$`)

// cutByEtc reports whether a cell ends its list with "etc" ("Shahr-e
// Qods etc").
func cutByEtc(txt string) bool {
	t := strings.TrimSuffix(txt, ".")
	return len(t) > 4 && strings.EqualFold(t[len(t)-4:], " etc")
}

// stackedRecords matches a cell of records one after another ("6-0
// 6-0"), each a row's of a merged cell.
var stackedRecords = regexp.MustCompile(`^\d+\s*[-–]\s*\d+(?:\s*[-–]\s*\d+)?(?:\s+\d+\s*[-–]\s*\d+(?:\s*[-–]\s*\d+)?)+$`)

// stacked matches a cell of numbers one after another, from rows a merged
// key cell spans or a footnote after a figure.
var stacked = regexp.MustCompile(`^\d[\d,.]*(\s+\d[\d,.]*)+$`)

// nameCell reports whether a key cell reads as a name: it has letters,
// begins with a letter or a digit and is not a code or a long text.
func nameCell(n string) bool {
	if gameCell.MatchString(n) {
		return false // "vs. Saskatchewan Roughriders", "at Ottawa": a game, not a team
	}
	// "9 July 2002 Became Airdrie United": a date and a note; "Rosenborg
	// (22), Freidig (1)": a city's clubs, counted; "Clara
	// 3-20": a winner and its score; "Minuscule 2298?": a doubt;
	// "Kahlil Gibran, Lebanese American poet and artist": a name and
	// what he was.
	if notNameCell.MatchString(strings.TrimSpace(n)) || described(n) || strings.Contains(n, "; ") || strings.Count(n, ", ") >= 2 || twoNamed.MatchString(n) {
		// "Austin Walker; Sam S. Griffin": two lines, two names; "Málaga,
		// Recreativo, Sevilla": three; "Peter Cassar & Aaron McDonald":
		// two coaches ("Simon & Garfunkel" is one duo)
		return false
	}
	rs := []rune(strings.TrimSpace(n))
	if len(rs) < 2 || len(rs) > 60 || plainMark(n) {
		return false
	}
	if !unicode.IsLetter(rs[0]) && !unicode.IsDigit(rs[0]) {
		return false
	}
	letters := 0
	for _, r := range rs {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2 && !code(n)
}

// twoNamed matches two full names joined by "&" or "and".
var twoNamed = regexp.MustCompile(`^\p{Lu}\S*\s+\p{Lu}\S*(?:\s+\p{Lu}\S*)?\s+(?:&|and)\s+\p{Lu}\S*\s+\p{Lu}\S*(?:\s+\p{Lu}\S*)?$`)

var notNameCell = regexp.MustCompile(`\(\s*\d+\s+each\s*\)$|\(\s*\d+\s*\)\s*(?:,|and\s)|^\d[\d,.]*\s*(?:km/h|mph|km|mi|m|ft|kg|lb|cm|mm)\b|^\d+\.\d+\s|\s(?:vs\.?|v\.?)\s|^\d{1,2} [A-Z][a-z]+ \d{4}\b|^[A-Z][a-z]+ \d{1,2}, \d{4}\b|\s\d{1,2}\s*[-–]\s*\d{1,2}$|\d+\s*[-–]\s*\d+\s*[-–]\s*\d+$|,\s*\d{4}\.$|→|\?$|^\d+(?:st|nd|rd|th)$|\S\s*\(\d{1,3}\)$`)

// described reports whether a cell gives a name and then, after a comma,
// what the named is: words of which one is lowercase ("Percy Grainger,
// Australian composer"), not a place's state ("Paris, Texas") or a
// suffix ("Jr.").
func described(n string) bool {
	_, rest, ok := strings.Cut(n, ", ")
	if !ok {
		return false
	}
	fs := strings.Fields(rest)
	if len(fs) < 2 {
		return false
	}
	for _, f := range fs {
		if r := []rune(f); unicode.IsLower(r[0]) && f != "de" && f != "la" && f != "von" && f != "van" && f != "of" && f != "the" {
			return true
		}
	}
	return false
}

// plainHeader reports whether a header reads as a noun in a question
// once spelled out: no "/", ",", ";", ":", "%" or "#", and a parenthesis
// only for a unit or a year ("Height (m)", "Population (2011)"); value
// headers (unit true) may keep such a parenthesis, key headers may not.
func plainHeader(h string, unit bool) bool {
	w := words(h)
	if audit.RawHeader(h) || strings.ContainsAny(w, "/,;:%#&+=\\[]{}") || len(strings.Fields(w)) > 5 {
		return false
	}
	// "ISN": a code of capitals the question cannot spell out ("GP" and
	// "ERA" it does: games played, earned run average)
	if t := strings.TrimSpace(h); len(t) <= 4 && strings.ToUpper(t) == t && !strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) && audit.Words(t) == t {
		return false
	}
	// "Further information": see-also links, each an article's title.
	switch strings.ToLower(w) {
	case "further information", "see also", "main article", "main articles", "more information":
		return false
	}
	// "Party list seats Votes PSUV": a table's header rows joined.
	fs := strings.Fields(w)
	if len(fs) > 3 && titleCase(fs[1:]) {
		return false
	}
	// "From", "To", "Vs": no noun to ask for. "Length km", "Rainfall in":
	// a unit row joined to its header, read as words ("length km").
	if len(fs) == 1 && prepositions[strings.ToLower(fs[0])] || len(fs) > 1 && (unitWords[fs[len(fs)-1]] || unitWords[strings.ToLower(fs[len(fs)-1])]) {
		return false
	}
	// "Known for", "Named after", "Team based", "Eliminated": a verb's
	// phrase, no noun ("give their known for"); when something happened
	// ("Opened", "Year built") reads as its date (colWord).
	last := strings.ToLower(fs[len(fs)-1])
	spelled := audit.Words(h) != h // "Pld": "games played"
	when := timeParticiples[last] && (len(fs) == 1 || len(fs) == 2 && (strings.EqualFold(fs[0], "date") || strings.EqualFold(fs[0], "year")))
	if len(fs) > 1 && prepositions[last] || !spelled && participle(last) && !when {
		return false
	}
	if i := strings.IndexByte(w, '('); i >= 0 {
		j := strings.IndexByte(w, ')')
		if !unit || j < i || j != len(w)-1 || !unitParen(w[i+1:j]) {
			return false
		}
	}
	return !strings.ContainsRune(w, '.') || audit.Words(h) != h
}

// prepositions are headers that name no thing: the column's relation
// to the key is its word alone ("From" a college, "To" a club).
var prepositions = map[string]bool{"from": true, "to": true, "vs": true, "vs.": true, "versus": true,
	"with": true, "against": true, "at": true, "in": true, "for": true, "by": true, "of": true, "via": true,
	"after": true, "as": true, "under": true}

// participle reports whether a header's word is a verb's past
// participle ("eliminated", "based"), not a noun that ends so ("speed",
// "hundred", "seed").
func participle(w string) bool {
	if len(w) < 5 || !strings.HasSuffix(w, "ed") {
		return false
	}
	switch w {
	case "hundred", "speed", "breed", "creed", "steed", "tweed", "bred", "seed", "embed":
		return false
	}
	return true
}

// unitWords are units a header row writes under a header ("Length" over
// "km"), as the last word of the joined header.
var unitWords = map[string]bool{"km": true, "mi": true, "m": true, "ft": true, "in": true, "cm": true,
	"mm": true, "kg": true, "lb": true, "lbs": true, "km2": true, "mi2": true, "km²": true, "mi²": true,
	"ha": true, "acres": true, "sq": true, "mph": true, "km/h": true, "t": true, "MW": true, "GW": true,
	"cfs": true, "m3/s": true, "m³/s": true}

// unitParen reports whether a header's parenthesis gives a unit or a
// year: "m", "MW", "km²", "2011", "US$".
func unitParen(p string) bool {
	if p == "" || len(p) > 5 {
		return len(p) == 4 && strings.IndexFunc(p, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
	}
	return !strings.ContainsRune(p, ' ')
}

// plainColumn reports whether column c of t may be asked for of keys:
// a plain header, and in every row of a key one value that a person can
// give as the table writes it (no mark of the export, no code, no cell
// listing several things).
func (s *synth) plainColumn(t *graph.Tree, c int, keys []uint32) bool {
	h := strings.ToLower(strings.TrimSpace(t.Columns[c].Header))
	if !plainHeader(t.Columns[c].Header, true) || h == "name" || h == "names" || twiceHeaded(t, t.Columns[c].Header) {
		return false // "give the name" of a club: whose name? "Home" of W, D, L: which?
	}
	if audit.CountsOther(t.Columns[c].Header, t.Section, t.Caption) {
		return false // "Goals" of the top assistants: their assists
	}
	switch strings.Join(strings.Fields(strings.NewReplacer(".", " ").Replace(h)), " ") {
	case "no", "number", "nos", "sl no", "s no", "sr no", "serial no", "serial number":
		return false // a shirt's or a list's number, read as a count
	case "until", "till", "since", "from", "to", "before", "after", "used", "in service", "in use", "active", "overall",
		"last", "first", "second", "third", "fourth", "fifth", "latest", "best", "next", "previous", "current",
		"high", "low", "highest", "lowest", "peak":
		return false // "give their until", "their last", "their high": a preposition or adjective is no attribute's name
	case "to par", "+/-", "+/– par":
		return false // "+14" over par, read as 14
	case "season", "week", "game", "match", "round", "year", "league", "cup", "fa cup", "league cup", "europe", "continental",
		"playoffs", "play-offs", "postseason", "finals", "masters", "nationals", "worlds", "olympics", "regular season":
		if t.Columns[c].Datatype == graph.TypeNumber {
			return false // "their season": a season's attendance; "their league", "the playoffs": goals there
		}
	case "draw", "drawn", "represent", "order":
		if s.runningOrder(t, c) {
			return false // "Draw" 1 to 12: a contest's running order, not draws
		}
	case "area":
		if dt := t.Columns[c].Datatype; dt == graph.TypeText || dt == graph.TypeEntity {
			return false // "give the area": a region, read as a size
		}
	case "a":
		if standings(t) {
			return false // "A" beside "F" and "D": goals against, not assists
		}
	case "champion", "champions", "winner", "winners", "runner-up", "runners-up", "runner up", "runners up",
		"finalist", "finalists", "third place", "fourth place", "semi-finalist", "semi-finalists":
		if t.Columns[c].Datatype == graph.TypeNumber {
			return false // "give their champion": a count of titles, read as a name
		}
	}
	if candidateShare(t, c) {
		return false
	}
	in := make(map[uint32]bool, len(keys))
	for _, k := range keys {
		in[k] = true
	}
	codes, n := 0, 0
	most := 0.0 // the largest figure
	for _, r := range t.Rows {
		if !in[r.Key] {
			continue
		}
		if len(r.Values[c]) > 1 {
			return false
		}
		for _, v := range r.Values[c] {
			txt := s.shownText(t, v)
			if v == r.Key || seriesTitle(txt, t.PageTitle) || placeholder(txt) || strings.EqualFold(strings.TrimSpace(txt), strings.TrimSpace(t.Columns[c].Header)) ||
				strings.HasSuffix(txt, ")") && seasonArticle.MatchString(txt) {
				return false // a cell linking the key itself, an event of the page's own series, its header ("Description")
			}
			if s.refusedText(txt) || (h == "time" || h == "year" || postHeader[h]) && yearSpan.MatchString(txt) {
				// "2003-14" under "Year": a span of years, not "their year";
				// "1886–1901" under "Office": a term, not "their office"
				return false
			}
			if len(h) <= 4 && strings.HasPrefix(txt, strings.ToUpper(h)+" ") && strings.ToUpper(h) != h {
				return false // "isn" over "ISN 36": a code the question cannot spell out
			}
			n++
			if code(txt) {
				codes++
			}
			if f, err := strconv.ParseFloat(txt, 64); err == nil {
				most = max(most, f)
			}

		}
	}
	if gendered[h] && t.Columns[c].Datatype == graph.TypeNumber && most < 1000 {
		return false // "their number of women": 16 of a conference's titles won by its women's teams
	}
	// "Rignt wing" beside "Right wing": the misprint would be an answer
	return 5*codes < max(n, 1) && !s.misprinted(t, c) && !s.runTogether(t, c)
}

// articleNamed reports whether an article of the store is named txt, or
// has it for another name: "Texas Southern" beside "Texas" and "Southern"
// in a draft's colleges is one college.
func (s *synth) articleNamed(txt string) bool {
	if s.g == nil {
		return false
	}
	ids, err := s.g.FindEntities(txt, 8)
	if err != nil {
		return false
	}
	es, err := s.entities(ids)
	return err == nil && slices.ContainsFunc(ids, func(id uint32) bool { return es[id] != nil && strings.HasPrefix(es[id].Key, "w:") })
}

// hasKey reports whether m has k, whatever its value.
func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// runTogether reports whether a text of column c of t is two others of
// the column run together ("Natural Artificial" beside "Natural" and
// "Artificial": a club's two grounds, until 2018 and from 2019), which
// says neither.
func (s *synth) runTogether(t *graph.Tree, c int) bool {
	if dt := t.Columns[c].Datatype; dt != graph.TypeText && dt != graph.TypeEntity {
		return false
	}
	have := map[string]bool{} // a text → whether it is a cell's text, no article's title
	for _, r := range t.Rows {
		if len(r.Values[c]) == 1 {
			v := r.Values[c][0]
			es, err := s.entities([]uint32{v})
			linked := err == nil && es[v] != nil && strings.HasPrefix(es[v].Key, "w:")
			txt := s.shownText(t, v)
			have[txt] = have[txt] || !linked
		}
	}
	for txt, unlinked := range have {
		if !unlinked {
			continue // "Texas Southern" beside "Texas" and "Southern": one college, its own article
		}
		for i, r := range txt {
			if r != ' ' || i < 3 || len(txt)-i-1 < 3 {
				continue
			}
			a, b := txt[:i], txt[i+1:]
			// Names of two words or more each ("John Cromwell A. Edward
			// Sutherland"), or kinds of a column of few ("Natural
			// Artificial"); not "Texas Southern" among many colleges.
			if hasKey(have, a) && hasKey(have, b) && (strings.Contains(a, " ") && strings.Contains(b, " ") || len(have) <= 4) && !s.articleNamed(txt) {
				return true
			}
		}
	}
	return false
}

// postHeader are headers naming a post, which a column of years under
// them does not give: the terms served in it.
var postHeader = map[string]bool{"office": true, "post": true, "position": true, "role": true, "title": true}

// gendered are headers of figures told by sex: people where the figures
// are a population's (thousands), else something the men or women won or
// played, which "number of women" would misread.
var gendered = map[string]bool{"men": true, "women": true, "boys": true, "girls": true, "male": true, "female": true, "males": true, "females": true}

// misprinted reports whether two values of column c of t, among its first
// 200 distinct ones, are misspelt one of the other; computed once a column.
func (s *synth) misprinted(t *graph.Tree, c int) bool {
	k := [2]uint32{t.ID, uint32(c)}
	if v, ok := s.misprints[k]; ok {
		return v
	}
	var texts []string // folded
	for _, r := range t.Rows {
		for _, v := range r.Values[c] {
			txt := s.shownText(t, v)
			if len(texts) < 200 && len(txt) >= 5 && !hasDigit(txt) {
				if f := audit.Fold(txt); !slices.Contains(texts, f) {
					texts = append(texts, f)
				}
			}
		}
	}
	found := slices.ContainsFunc(texts, func(a string) bool {
		return slices.ContainsFunc(texts, func(b string) bool { return a < b && misspelt(a, b) })
	})
	if s.misprints == nil {
		s.misprints = map[[2]uint32]bool{}
	}
	s.misprints[k] = found
	return found
}

// garbled matches what an export lost of a cell: an ordinal's suffix
// without its number ("Eliminated (Day 28) th on October 16"), a
// fraction's slash without its numerator ("5 ft 11 ⁄ 4 in"). The page
// shows the loss too; no reader can give the value as the table meant it.
var garbled = regexp.MustCompile(`(?:^|[\s()])(?:st|nd|rd|th)\s|(?:^|\s)⁄|⁄(?:\s|$)`)

// designations matches a cell of several model designations run
// together ("RA-5C TA-3B TA-4J", three aircraft a line each): a list, not
// one value.
var designations = regexp.MustCompile(`^[A-Z]{1,4}-\d+[A-Z]?(?:\s+[A-Z]{1,4}-\d+[A-Z]?)+$`)

// notePhrase matches a parenthesis that starts a phrase in lower case: a
// note on the value ("(traded to New Orleans)", "(in Japan)"), not a
// qualifier ("(film)", "(Finland)").
var notePhrase = regexp.MustCompile(`\(\s*\p{Ll}+\s+\S`)

// datedFacts reports whether a text states several dated facts: two
// years or more with words beside them ("1878 built, 1975 NRHP-listed",
// "1981-1991, United States House of Representatives"). A span
// ("2001–2008", "1990–present") is one.
func datedFacts(txt string) bool {
	if len(txt) < 10 || strings.Count(txt, " ") == 0 || len(yearIn.FindAllStringIndex(txt, 3)) < 2 {
		return false
	}
	rest := yearIn.ReplaceAllString(txt, "")
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch strings.ToLower(w) {
		case "present", "to", "and", "c", "ca", "s":
		default:
			return true
		}
	}
	return false
}

var yearIn = regexp.MustCompile(`\b(?:1[5-9]\d\d|20\d\d)\b`)

var yearSpan = regexp.MustCompile(`^\d{4}\s*[-–—]`)

// minHeaderPages is the fewest pages (of different series: pageStem)
// whose tables must head a column as a Basic task's column is headed: a header only its own page uses
// ("Used", "Until", "2012 season", "Christianity" over shares) is the
// table's shorthand, which a question cannot ask by.
const minHeaderPages = 3

// minStems is the fewest series (pageStem) a store's tables must come
// from for a header's use to be counted: in a small store every header is
// rare, and commonHeader says nothing.
const minStems = 500

// headerKey is how headers compare across tables: their words, spelled
// out, in lower case.
func headerKey(h string) string {
	return strings.ToLower(strings.Join(strings.Fields(words(h)), " "))
}

// countHeaders fills s.headerPages.
func (s *synth) countHeaders() {
	s.headerPages = map[string]int{}
	seen := map[[2]string]bool{} // header and page stem
	stems := map[string]bool{}
	for _, t := range s.trees {
		stem := pageStem(t.PageTitle)
		stems[stem] = true
		for _, c := range t.Columns {
			k := headerKey(c.Header)
			if hp := [2]string{k, stem}; !seen[hp] {
				seen[hp] = true
				s.headerPages[k]++
			}
		}
	}
	s.countsHeaders = len(stems) >= minStems
}

// pageStem is a page title without what numbers its edition or names
// its event: the pages of one series ("2001–02 Reading F.C. season",
// "Miss Teen USA 1989", "2006 European Athletics Championships – Men's
// high jump") count once.
func pageStem(title string) string {
	if i := strings.Index(title, " – "); i > 0 {
		title = title[:i]
	}
	var b strings.Builder
	last := 0
	for _, sp := range audit.Editions(title) {
		b.WriteString(title[last:sp[0]])
		last = sp[1]
	}
	b.WriteString(title[last:])
	return strings.ToLower(strings.Join(strings.Fields(b.String()), " "))
}

// commonHeader reports whether column c of t is headed as the tables of
// minHeaderPages pages or more head a column.
func (s *synth) commonHeader(t *graph.Tree, c int) bool {
	return !s.countsHeaders || s.headerPages[headerKey(t.Columns[c].Header)] >= minHeaderPages
}

// commonKeyNoun reports whether kn, the noun naming t's keys, is one
// people name such things by: a role (roleNouns), a noun not taken from
// the key header, or a key header other pages' tables use too
// ("Candidate's Name", "ROSTER", "Official Name" are one table's
// shorthand).
func (s *synth) commonKeyNoun(t *graph.Tree, kn noun) bool {
	if roleNouns[strings.ToLower(kn.many)] != "" || !strings.EqualFold(kn.one, words(t.KeyHeader)) {
		return true
	}
	return !s.countsHeaders || s.headerPages[headerKey(t.KeyHeader)] >= minHeaderPages
}

// askable reports whether a Basic task may ask column c of t for keys:
// a plain column (plainColumn), telling the keys apart (informative),
// headed as other pages head such columns (commonHeader).
func (s *synth) askable(t *graph.Tree, c int, keys []uint32) bool {
	return s.plainColumn(t, c, keys) && s.informative(t, c, keys) && s.commonHeader(t, c) && !sharedHead(t, c) && !eventsPlace(t, c) && !appearanceText(t, c)
}

// appearanceText reports whether column c of t says in words what a
// person appeared in ("Appearance" of a filmography: an episode's title,
// "66 episodes", "Series regular"): "with the appearance of each" (rounds
// 164, 166) says not which. A count of appearances is a number.
func appearanceText(t *graph.Tree, c int) bool {
	switch headerKey(t.Columns[c].Header) {
	case "appearance", "appearances":
		return t.Columns[c].Datatype != graph.TypeNumber
	}
	return false
}

// eventsPlace reports whether column c of t places the event of a row its
// key won: "Country" of the 2005 UCI Women's Road World Cup's races, keyed
// by their winners, is where each race was held, not the winner's own
// country ("Giorgia Bronzini (ITA)" won in Germany).
func eventsPlace(t *graph.Tree, c int) bool {
	if !winnerKeys[headerKey(t.KeyHeader)] || t.Columns[c].Domain != "place" && !placeKeys[headerKey(t.Columns[c].Header)] {
		return false
	}
	return slices.ContainsFunc(t.Columns, func(col graph.Column) bool { return eventHeaders[headerKey(col.Header)] })
}

var (
	winnerKeys   = map[string]bool{"winner": true, "winners": true, "champion": true, "champions": true, "winning rider": true, "first place": true, "gold": true}
	eventHeaders = map[string]bool{"event": true, "race": true, "tournament": true, "competition": true, "stage": true, "meeting": true, "rally": true, "grand prix": true}
)

// sharedHead reports whether column c's header is a word two other
// headers of t qualify ("Points" beside "Points defending", "Points won"
// and "New points"): "their number of points" may mean any of them.
func sharedHead(t *graph.Tree, c int) bool {
	h := headerKey(t.Columns[c].Header)
	if h == "" || strings.Contains(h, " ") {
		return false
	}
	n := 0
	for j, col := range t.Columns {
		if j != c && slices.Contains(strings.Fields(headerKey(col.Header)), h) {
			n++
		}
	}
	return n >= 2
}

// informative reports whether column c of t gives the keys more than one
// value: "Ontario" for every mine of the Ontario table, "First Team" for
// every signing, the same value for five keys or more, tells nothing; nor
// does a column that repeats the key in half its rows or more.
func (s *synth) informative(t *graph.Tree, c int, keys []uint32) bool {
	in := make(map[uint32]bool, len(keys))
	for _, k := range keys {
		in[k] = true
	}
	seen, n, same := map[uint32]bool{}, 0, 0
	for _, r := range t.Rows {
		if in[r.Key] {
			for _, v := range r.Values[c] {
				seen[v] = true
				n++
				if v == r.Key || graph.NormText(s.shownText(t, v)) == graph.NormText(s.shownText(t, r.Key)) {
					same++
				}
			}
		}
	}
	// "Original title" of films most of which are titled so at home: the
	// answer would give each key twice.
	if 2*same >= n && n > 0 {
		return false
	}
	return n < 5 || len(seen) > 1
}

// refusedText reports whether a cell's text is no value a person gives as
// written, whatever its column: refusedCell, kept per text, since the
// column walk is synthesis's hottest loop and asks of the same texts again
// and again.
func (s *synth) refusedText(txt string) bool { return memo(&s.refused, txt, refusedCell) }

// refusedCell reports whether txt is a mark, a garble, a list, a note or
// several facts rather than one value. Each regexp runs only on a text
// that could match it.
func refusedCell(txt string) bool {
	upper, digit, paren := txt != "" && txt[0] >= 'A' && txt[0] <= 'Z', txt != "" && txt[0] >= '0' && txt[0] <= '9', strings.HasSuffix(txt, ")")
	if plainMark(txt) || garbled.MatchString(txt) || upper && designations.MatchString(txt) || strings.Contains(txt, "; ") || strings.Contains(txt, " / ") || len(txt) > 60 || strings.Count(txt, ",") > 3 || strings.HasSuffix(txt, "?") {
		return true
	}
	// A web address the cell writes for a place ("https://en.m.wikipedia.org/wiki/Camden,
	// _Arkansas"), or a cell of bulleted items ("• Ashiq Ho To Aisa Ho • Uske
	// Khel Nirale"): no value a person gives as written.
	if strings.Contains(txt, "://") || strings.HasPrefix(strings.ToLower(txt), "www.") || strings.ContainsAny(txt, "•·") {
		return true
	}
	// "Shahr-e Qods etc": a list the cell cuts short; "6-0 6-0":
	// two co-champions' records in one cell.
	if cutByEtc(txt) || digit && strings.IndexByte(txt, ' ') > 0 && stackedRecords.MatchString(txt) {
		return true
	}
	// "11 1 12": rows of a merged cell; "2008 1": a footnote; "Oklahoma
	// City Thunder (traded to New Orleans)": a note; "Eriksdalshallen (Main
	// venue) Skanstullshallen (Second venue)", "1878 built, 1975
	// NRHP-listed": several facts
	return digit && stacked.MatchString(txt) || digit && paren && countOf.MatchString(txt) || strings.Contains(txt, "(") && notePhrase.MatchString(txt) ||
		strings.Count(txt, "(") > 1 || datedFacts(txt) || strings.Contains(txt, "NRHP")
}

// plainMark matches what an export leaves in a cell that no one would
// give as a value: a leading mark ("/ Michael Haneke", ".660", "^"), a
// trailing colon ("PARI:"), a number ending in a dot ("35.", "6."), an
// error bar ("± 20"), a bare "No." or "Yes.", and the raw cells audit
// knows (coordinates, lost text).
var plainMarkRe = regexp.MustCompile(`^[\s/.,;:^*†‡§#|–-]+\S|\S:$|^\d+\.$|±|\^|[*†‡§|]|align=|^\d{8}\s|^\d{4}-\d{2}(-\d{2})?\s+\S|^\(.*\)$|\(\d+/\d+\)|\s\([A-HJ-UWYZ]\)$|^(No|Yes)\.$|\b[A-Z][a-z]+ian:|[A-Z][a-z]+i:\s`)

func plainMark(v string) bool {
	v = strings.TrimSpace(v)
	return mayMark(v) && plainMarkRe.MatchString(v) || audit.RawValue(v)
}

// mayMark reports whether plainMarkRe can match v: each of its patterns
// needs a mark, a colon, a parenthesis, an equals sign or a final dot
// somewhere, or a leading digit. Most cells have none, and the pattern,
// unanchored in part, is costly to try at every offset.
func mayMark(v string) bool {
	r, _ := utf8.DecodeRuneInString(v)
	switch {
	case v == "":
		return false
	case unicode.IsDigit(r) || unicode.IsSpace(r) || strings.ContainsRune("/.,;:^*†‡§#|–-(", r):
		return true
	}
	return strings.ContainsAny(v, ":(±^*†‡§|=") || strings.HasSuffix(v, ".")
}

// code reports whether a value is a short code ("LT", "MM", "C.T", "c",
// "LW") rather than a word: at most three letters, no digit, not a
// known word; or a list of codes ("NA , EU").
func code(v string) bool {
	v = strings.TrimSpace(v)
	if codeList.MatchString(v) {
		return true // "NA , EU": regions as codes
	}
	letters := 0
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			return false
		}
	}
	if letters == 0 || letters > 3 {
		return false
	}
	switch strings.ToLower(v) {
	case "yes", "no", "won", "out", "red", "tie", "win", "men", "all", "new", "old", "sea", "air", "art", "tv":
		return false
	}
	return true
}

// commonSections are one-word sections and captions that are common
// nouns, lowered mid-sentence ("the transfers of 2010 Santos FC
// season"); any other one-word section may be a name ("Kansas") and is
// kept as written.
var commonSections = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`results standings transfers roster squad statistics awards
		discography filmography films winners members champions medalists medallists schedule
		personnel players teams clubs venues stadiums singles albums records rankings season
		seasons draft nominations finals history overview events participants candidates
		elections coaches staff owners episodes cast songs works publications books television
		accolades honours honors achievements career competitions tournaments matches fixtures
		summary notes list buildings stations locations facilities programs programmes shows
		releases recordings videography bibliography appearances statistics scorers leaders
		managers presidents chairmen captains drivers riders entrants nominees recipients
		laureates winners qualifiers qualification classification rosters selections picks
		men women boys girls juniors seniors current former past present future retired
		active defunct national international domestic regional local`) {
		commonSections[w] = true
	}
}

// sectionCase returns a section or caption part as it reads mid-sentence,
// and whether it does: sentence case has its first word lowered ("Regular
// season" → "regular season"), a known common word too ("Transfers");
// anything else keeps its case ("Disc 3: Tweety and Sylvester and
// Friends", "Kansas") and reads only in parentheses.
func sectionCase(p string) (string, bool) {
	fs := strings.Fields(p)
	if len(fs) == 0 {
		return p, false
	}
	first := []rune(fs[0])
	if !unicode.IsUpper(first[0]) || (len(first) > 1 && strings.ContainsFunc(string(first[1:]), unicode.IsUpper)) {
		return p, len(fs) > 1 && !titleCase(fs[1:]) // "2015", "iPhone", "NHL"
	}
	// Only a common word is lowered: "Pliocene (5.3 – 2.58 million years
	// old)" and "Kansas" are names, "Transfers" and "Current members" are
	// not.
	if !commonSections[strings.ToLower(fs[0])] || titleCase(fs[1:]) || strings.ContainsAny(p, ",:") {
		return p, false
	}
	fs[0] = string(unicode.ToLower(first[0])) + string(first[1:])
	return strings.Join(fs, " "), true
}

// titleCase reports whether some word of ws other than a short function
// word is capitalised while not an acronym: Title Case or a name.
func titleCase(ws []string) bool {
	for _, w := range ws {
		rs := []rune(strings.Trim(w, "(),;:'\"’"))
		if len(rs) < 2 {
			continue
		}
		if unicode.IsUpper(rs[0]) && !strings.ContainsFunc(string(rs[1:]), unicode.IsUpper) {
			return true
		}
	}
	return false
}

// plainClue reports whether a value reads as a clue in words: a name of
// at most six words, without a disambiguator, a sentence or a mark.
func plainClue(v string) bool {
	if _, ok := audit.Disambiguated(v); ok {
		return false
	}
	// "DNF": a result's code, which a question says in words
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "DNF", "DNS", "DSQ", "DQ", "NM", "DNQ", "DNP", "RET", "WD", "NC", "DNC", "NH", "NT":
		return false
	}
	// "1R", "2Q", "QF": a round's code ("whose round is 1R": the first
	// round)
	if roundCode.MatchString(strings.TrimSpace(v)) {
		return false
	}
	// "1 season, 10 episodes", "CL1, 1st": a cell's shorthand of
	// counts or codes, which a question would say in words
	// ("August 2, 1824" is a date)
	if before, after, ok := strings.Cut(v, ", "); ok && strings.ContainsFunc(before, unicode.IsDigit) && strings.ContainsFunc(after, unicode.IsDigit) && !yearOnly.MatchString(strings.TrimSpace(after)) {
		return false
	}
	// "NA , EU": a cell listing codes (Gaijinworks' regions, round 191),
	// which a question would say in words ("released in North America
	// and Europe")
	if codeList.MatchString(strings.TrimSpace(v)) {
		return false
	}
	// "2–3": a score, which no one asks "whose home is"
	return len(strings.Fields(v)) <= 6 && !strings.Contains(v, ". ") && !strings.ContainsAny(v, "/;") && !plainMark(v) && !shortened(v) &&
		!scoreClue.MatchString(strings.TrimSpace(v))
}

// codeList matches a list of codes of two or three capitals: "NA , EU",
// "JP/NA".
var codeList = regexp.MustCompile(`^[A-Z]{2,3}(?:\s*[,/&]\s*[A-Z]{2,3})+$`)

// roundCode matches a competition round as a table's code writes it.
var roundCode = regexp.MustCompile(`^(?:[1-9](?:R|Q|QR)|Q?R[1-9]|Q[1-9]|QF|SF|R16|R32|R64|GS|PO|KO)$`)

// yearOnly matches a year alone, the end of a date ("August 2, 1824").
var yearOnly = regexp.MustCompile(`^\d{4}$`)

// scoreClue matches a score or a record ("2–3", "4-1 (a.e.t.)").
var scoreClue = regexp.MustCompile(`^\d{1,3}\s*[–—-]\s*\d{1,3}\b`)

// shortened reports whether a value is one word cut short ("Proto.",
// "Unmod."): the table's legend spells it out, the question cannot.
func shortened(v string) bool {
	v = strings.TrimSpace(v)
	if strings.Contains(v, " ") || !strings.HasSuffix(v, ".") || len(v) < 3 {
		return false
	}
	switch strings.ToLower(v) {
	case "jr.", "sr.", "inc.", "ltd.", "co.", "corp.", "bros.", "st.":
		return false
	}
	return !strings.Contains(v[:len(v)-1], ".") // "U.S." is a name
}

// shownText is how tree t writes entity id (Tree.Shown), else its name
// as displayed.
func (s *synth) shownText(t *graph.Tree, id uint32) string {
	if sh, ok := t.Shown[id]; ok {
		return sh
	}
	return s.display(id)
}

// measures are the headers a lower bound reads well on ("whose capacity
// is at least 3400"); other numbers ("whose champion is at least 7",
// "whose super region is at least 2") are no quantity of the key.
var measures = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`capacity population height length area elevation attendance
		gross revenue budget votes points goals wins losses seats apps appearances caps titles
		medals score age weight distance depth width speed members
		employees students enrollment enrolment tonnage displacement floors storeys stories
		runs wickets assists rebounds yards touchdowns saves games matches starts podiums poles
		championships trophies awards nominations viewers rating ratings density income gdp
		emissions production output power value price cost salary sales copies circulation
		passengers ridership traffic visitors spectators crowd km miles metres meters feet`) {
		measures[w] = true
	}
}

// measureHeader reports whether a number column's header names a
// quantity of its key: a plural count ("winners") or a measure.
func measureHeader(h string) bool {
	if pluralWord(h) {
		return true
	}
	ws := strings.Fields(strings.ToLower(strings.Trim(h, " .")))
	if len(ws) == 0 {
		return false
	}
	last := strings.Trim(ws[len(ws)-1], "()")
	if i := strings.IndexByte(strings.ToLower(h), '('); i > 0 { // "Height (m)"
		f := strings.Fields(strings.ToLower(h[:i]))
		if len(f) > 0 {
			last = f[len(f)-1]
		}
	}
	return measures[last]
}

// seriesTitle reports whether a value is the title of an event of the
// page's own edition ("Cycling at the 1968 Summer Olympics" in "Venues of
// the 1968 Summer Olympics"): a link's target where the table writes
// "Cycling".
func seriesTitle(v, page string) bool {
	loc := yearRe.FindStringIndex(v)
	if loc == nil || loc[0] == 0 {
		return false
	}
	tail := v[loc[0]:]
	return len(strings.Fields(tail)) >= 2 && strings.Contains(page, tail)
}

var yearRe = regexp.MustCompile(`\b(1[5-9]|20)\d{2}\b`)

// plainPivot reports whether relation rel reads as a Reverse-Union pivot
// in every tree of ts that has it, for every key of space: "the same
// type" of a list whose types are "1." and "1, 2, 6" is no question.
func (s *synth) plainPivot(ts []*graph.Tree, rel string, space *roaring.Bitmap) bool {
	var keys []uint32
	for _, t := range ts {
		c := colIndex(t, rel)
		if c < 0 {
			continue
		}
		// A pivot's space holds every row of its trees, most often: the
		// column's verdict is then the same for every anchor, kept.
		k := [2]uint32{t.ID, uint32(c)}
		all := !slices.ContainsFunc(t.Rows, func(r graph.Row) bool { return !space.Contains(r.Key) })
		if v, ok := s.plainCols[k]; ok && all {
			if !v {
				return false
			}
			continue
		}
		if keys == nil {
			keys = space.ToArray()
		}
		v := s.plainColumn(t, c, keys)
		if all {
			if s.plainCols == nil {
				s.plainCols = map[[2]uint32]bool{}
			}
			s.plainCols[k] = v
		}
		if !v {
			return false
		}
	}
	return true
}

// markedKeys reports whether a key of some tree of ts is written with a
// mark of the export ("Robert James†", "Baltimore Bullets*"), which an
// answer would then have to copy, or a key cell links several articles
// (graph.Tree.SeveralKeys).
func (s *synth) markedKeys(ts []*graph.Tree) bool {
	for _, t := range ts {
		m, ok := s.marked[t.ID]
		if !ok {
			m = t.SeveralKeys > 0 || // a key cell of two golfers
				slices.ContainsFunc(t.Rows, func(r graph.Row) bool { return plainMark(s.shownText(t, r.Key)) })
			if s.marked == nil {
				s.marked = map[uint32]bool{}
			}
			s.marked[t.ID] = m
		}
		if m {
			return true
		}
	}
	return false
}

// uniqueByText reports whether no key of space but anchor has, for every
// clue, a value that reads as the clue's: by its title, the texts the
// trees ts write for it ("Hebrew" for the link "Hebrew language"), or an
// item of a cell listing several ("French, Hebrew").
func (s *synth) uniqueByText(ts []*graph.Tree, space *roaring.Bitmap, anchor uint32, clues []clueFact) (bool, error) {
	want := make([]map[string]bool, len(clues))
	// A reader takes "Language (s)" of one table and "Main language (s)"
	// of another for one column: the clue must single out the anchor
	// across both.
	kin := make([][]string, len(clues))
	for i, f := range clues {
		kin[i] = []string{f.rel}
		for _, t := range ts {
			for _, c := range t.Columns {
				if c.Name != f.rel && !slices.Contains(kin[i], c.Name) && headNoun(c.Header) == headNoun(f.header) {
					kin[i] = append(kin[i], c.Name)
				}
			}
		}
	}
	for i, f := range clues {
		want[i] = map[string]bool{}
		for _, t := range s.texts(ts, f.v) {
			want[i][s.clue(t)] = true
		}
	}
	it := space.Iterator()
	for it.HasNext() {
		k := it.Next()
		if k == anchor {
			continue
		}
		all := true
		for i := range clues {
			var vs []uint32
			for _, rel := range kin[i] {
				v, err := s.objects(rel, k)
				if err != nil {
					return false, err
				}
				vs = append(vs, v...)
			}
			hit := false
			for _, v := range vs {
				for _, t := range s.texts(ts, v) {
					for _, part := range s.listItems(t) {
						hit = hit || want[i][s.clue(part)]
					}
				}
			}
			if !hit {
				all = false
				break
			}
		}
		if all {
			return false, nil
		}
	}
	return true, nil
}

// texts are the names a reader may see for entity id: its title, as
// displayed, and what each tree of ts writes for it.
func (s *synth) texts(ts []*graph.Tree, id uint32) []string {
	out := []string{s.name(id), s.display(id)}
	for _, t := range ts {
		if sh, ok := t.Shown[id]; ok {
			out = append(out, sh)
		}
	}
	return out
}

// listItems splits a cell listing several things ("Spanish, English,
// Italian", "French and Hebrew", "Michael Jacobs & April Kelly") into its
// items, the whole cell first.
func listItems(v string) []string {
	out := []string{v}
	f := func(r rune) bool { return r == ',' || r == ';' || r == '/' || r == '&' }
	for _, p := range strings.FieldsFunc(strings.ReplaceAll(v, " and ", ","), f) {
		if p = strings.TrimSpace(p); p != "" && p != v {
			out = append(out, p)
		}
	}
	// "Left/Right Wing": a left wing and a right wing.
	if !strings.Contains(v, "/") {
		return out
	}
	if m := slashPair.FindStringSubmatch(v); m != nil {
		out = append(out, m[1]+" "+m[3], m[2]+" "+m[3])
	}
	return out
}

var slashPair = regexp.MustCompile(`^(\S+)/(\S+)\s+(.+)$`)

// clueText is a value as a reader compares it: folded, without a
// trailing parenthesis ("Regina Pats (WHL)"), British and American
// spellings alike ("Defense", "Center"), and a goalie by any of its
// names ("Goaltender", "Goalkeeper").
// clue is clueText(v), computed once per text.
func (s *synth) clue(v string) string { return memo(&s.clueTexts, v, clueText) }

func clueText(v string) string {
	if i := strings.LastIndex(v, " ("); i > 0 && strings.HasSuffix(v, ")") {
		v = v[:i]
	}
	v = audit.Fold(audit.TrimCorp(v))
	return spelling.Replace(v)
}

var spelling = strings.NewReplacer("defense", "defence", "offense", "offence", "center", "centre", "color", "colour", "theater", "theatre", "goaltender", "goalie", "goalkeeper", "goalie")

// gameCell matches a schedule's opponent cell, which names a game.
var gameCell = regexp.MustCompile(`^(?i:vs\.?|v\.|at|@)\s`)

// mixedKeys reports whether some trees of a union key their rows by an
// original-language title or name while others do not ("Original title"
// of the Venezuelan submissions, "Film title used in nomination" of the
// others): the answer's key column would mix two things under one header.
func mixedKeys(ts []*graph.Tree) bool {
	orig := 0
	for _, t := range ts {
		h := strings.ToLower(t.KeyHeader)
		if strings.Contains(h, "original") || strings.Contains(h, "native") {
			orig++
		}
	}
	return orig > 0 && orig < len(ts)
}

// typoOf reports whether value v reads one letter off another value w of
// the same column ("Rignt wing" of "Right wing"): a clue a reader takes
// for the other, or a misprint no one can state.
func typoOf(v, w string) bool {
	return oneEdit([]rune(audit.Fold(v)), []rune(audit.Fold(w)))
}

// oneEdit reports whether a, of five letters or more, is one
// substitution, insertion or deletion away from b.
func oneEdit(a, b []rune) bool {
	if len(a) < 5 || string(a) == string(b) {
		return false
	}
	if d := len(a) - len(b); d > 1 || d < -1 {
		return false
	}
	// one substitution, insertion or deletion
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j, k := len(a)-1, len(b)-1
	for j >= i && k >= i && a[j] == b[k] {
		j--
		k--
	}
	return j-i < 1 && k-i < 1
}

// misspelt reports whether two values of a column, folded (audit.Fold)
// and with no figure in them, read alike but for one letter of one word of
// four letters or more ("rignt wing", "right wing"): one misprints the
// other. "master's l" and "master's m" are two values.
func misspelt(a, b string) bool {
	if d := len(a) - len(b); d < -4 || d > 4 || !oneEdit([]rune(a), []rune(b)) {
		return false
	}
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if wa[i] != wb[i] && (len([]rune(wa[i])) < 4 || len([]rune(wb[i])) < 4) {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool { return strings.ContainsFunc(s, unicode.IsDigit) }

// kindOf reports whether value v, another value of the column, names a
// kind of w in words of its own ("German Gothic", "Late Gothic Revival"
// of "Gothic"; "Liberal Republican" of "Republican"): asked for w, a
// reader counts v's rows in.
func kindOf(v, w string) bool {
	a, b := " "+audit.Fold(v)+" ", " "+audit.Fold(w)+" "
	return len(a) > len(b) && strings.Contains(a, b)
}

// typoClue reports whether clue f's value is one letter off a value of
// the same relation that another key of space has.
func (s *synth) typoClue(space *roaring.Bitmap, f clueFact) (bool, error) {
	name := s.name(f.v)
	it := space.Iterator()
	for it.HasNext() {
		vs, err := s.objects(f.rel, it.Next())
		if err != nil {
			return false, err
		}
		for _, v := range vs {
			if v != f.v && typoOf(name, s.name(v)) {
				return true, nil
			}
		}
	}
	return false, nil
}

// writtenAlike reports whether another value of vals is written like v in
// t ("Minneapolis Lakers" for the link to Los Angeles Lakers and for the
// one to Minneapolis Lakers), or as a name v goes by with a note ("Ind.
// (I-A)" as text beside the link to NCAA Division I FBS independent
// schools, known as "Ind."): a filter on v would leave out the rows a
// reader counts with it.
func (s *synth) writtenAlike(t *graph.Tree, vals []uint32, v uint32) bool {
	k := audit.NameKey(s.shownText(t, v))
	forms := map[string]bool{s.clue(s.shownText(t, v)): true}
	if es, err := s.entities([]uint32{v}); err == nil && es[v] != nil {
		forms[s.clue(es[v].Name)] = true
		for _, a := range es[v].Aliases {
			forms[s.clue(a)] = true
		}
	}
	return slices.ContainsFunc(vals, func(o uint32) bool {
		sh := s.shownText(t, o)
		return o != v && (audit.NameKey(sh) == k || forms[s.clue(sh)])
	})
}

// listedIn reports whether a row of keys in column c of t has another
// value whose text lists v's among other items ("French, Hebrew" for the
// link "French language", written "French"), or every item of v's list
// and more ("King Tee, E-Swift, Tha Alkaholiks" beside "E-Swift, King
// Tee"): a filter on v would leave that row out, which a person counts.
func (s *synth) listedIn(t *graph.Tree, c int, keys []uint32, v uint32) bool {
	want := map[string]bool{}
	var parts [][]string // a list's items ("E-Swift, King Tee")
	for _, x := range s.texts([]*graph.Tree{t}, v) {
		want[s.clue(x)] = true
		want[s.clue(strings.TrimSuffix(x, " language"))] = true
		if items := s.listItems(x); len(items) > 2 {
			parts = append(parts, items[1:])
		}
	}
	in := make(map[uint32]bool, len(keys))
	for _, k := range keys {
		in[k] = true
	}
	for _, r := range t.Rows {
		if !in[r.Key] {
			continue
		}
		for _, o := range r.Values[c] {
			if o == v {
				continue
			}
			for _, x := range s.texts([]*graph.Tree{t}, o) {
				items := s.listItems(x)
				for _, it := range items[1:] {
					if want[s.clue(it)] {
						return true
					}
				}
				// "King Tee, E-Swift, Tha Alkaholiks" lists both of
				// "E-Swift, King Tee": a reader counts its row in.
				for _, p := range parts {
					if len(items)-1 > len(p) && holdsAll(items[1:], p, s.clue) {
						return true
					}
				}
			}
		}
	}
	return false
}

// listItems is listItems(v), computed once per text. The items are
// shared: not to be changed.
func (s *synth) listItems(v string) []string { return memo(&s.itemLists, v, listItems) }

// holdsAll reports whether items hold every item of want, compared as
// clue reads them.
func holdsAll(items, want []string, clue func(string) string) bool {
	have := make(map[string]bool, len(items))
	for _, it := range items {
		have[clue(it)] = true
	}
	for _, w := range want {
		if !have[clue(w)] {
			return false
		}
	}
	return true
}

// twiceHeaded reports whether header h headed another column of t that
// the build dropped as a duplicate ("Home" over W, D and L; "Color" of a
// tip and of a ring): the column kept is one of several a reader sees.
func twiceHeaded(t *graph.Tree, h string) bool {
	for _, d := range t.Dropped {
		if dh, reason, ok := strings.Cut(d, ": "); ok && strings.EqualFold(dh, h) && reason == graph.DropDuplicateHeader {
			return true
		}
	}
	return false
}

// sectionSuffix reports whether every header of t ends with one word
// ("Pos WRC", "Driver WRC", "Co-driver WRC"): a section row of the table
// read into its header, whose rows then mix sections.
func sectionSuffix(t *graph.Tree) bool {
	hs := []string{t.KeyHeader}
	for _, c := range t.Columns {
		hs = append(hs, c.Header)
	}
	if len(hs) < 3 {
		return false
	}
	var last string
	for i, h := range hs {
		fs := strings.Fields(h)
		if len(fs) < 2 {
			return false
		}
		if w := fs[len(fs)-1]; i == 0 {
			last = w
		} else if w != last {
			return false
		}
	}
	return true
}

// headNoun is a header as a reader compares two tables' columns: lower
// case, without "(s)" or a plural s, and without qualifiers such as
// "main" or "original" ("Main Language (s)" and "Language (s)" are one).
func headNoun(h string) string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(words(h))) {
		switch w {
		case "main", "primary", "original", "official", "principal":
			continue
		}
		out = append(out, strings.TrimSuffix(w, "s"))
	}
	return strings.Join(out, " ")
}

// clueHeader is a header as a clue's subject, in the singular of one
// value: "whose language is French", not "whose languages is French".
func clueHeader(h string) string {
	w := lowerFirst(words(h))
	if pluralWord(w) && !measures[w] {
		w = strings.TrimSuffix(w, "s")
	}
	return w
}

// personHeaders name a column of the people a row is about.
var personHeaders = map[string]bool{"name": true, "player": true, "athlete": true, "driver": true, "rider": true, "member": true}

// attributeKey reports whether t's key is not what its rows are about: a
// roster keyed by "High School" while a "Name" or "Player" column holds
// the people (each school's "height" is its player's), or a key whose
// header is a plural of people ("Drivers": a cell names a crew).
func attributeKey(t *graph.Tree) bool {
	kh := strings.ToLower(strings.TrimSpace(words(t.KeyHeader)))
	if t.KeyDomain == "person" && pluralWord(kh) {
		return true
	}
	if personHeaders[kh] || personHeaders[strings.TrimSuffix(kh, "s")] {
		return false
	}
	for _, c := range t.Columns {
		if personHeaders[strings.ToLower(strings.TrimSpace(c.Header))] {
			return true
		}
	}
	return false
}
