package synth

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// noun is how a question names the key entities.
type noun struct{ one, many string }

// genericKeys are key headers that say nothing about what the keys are;
// the key domain names them instead.
var genericKeys = map[string]bool{"name": true, "names": true, "title": true, "key": true, "entry": true, "item": true, "": true}

var domainNouns = map[string]noun{
	"person": {"person", "people"},
	"place":  {"place", "places"},
	"org":    {"organisation", "organisations"},
	"work":   {"work", "works"},
	"event":  {"event", "events"},
	"time":   {"date", "dates"},
}

// domainNoun names t's keys by their domain, unless the domain comes only
// from the word "name": a Name column of companies or buildings is no list
// of people.
func domainNoun(t *graph.Tree) (noun, bool) {
	n, ok := domainNouns[t.KeyDomain]
	if !ok {
		return noun{}, false
	}
	var ws []string
	for _, w := range strings.FieldsFunc(strings.ToLower(t.KeyHeader), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if w != "name" && w != "names" {
			ws = append(ws, w)
		}
	}
	if graph.Domain(strings.Join(ws, " "), t.KeyDatatype) != t.KeyDomain {
		return noun{}, false
	}
	return n, true
}

// genericKey reports whether t's key header names no kind of thing:
// "Name", "Title"; "Name on the Register", "Title (English)" (a name is no
// noun for what it names); "English title", "Official name" (the thing
// named is not said).
func genericKey(t *graph.Tree) bool {
	h := words(t.KeyHeader)
	lh := strings.ToLower(h)
	if namedThing.MatchString(lh) || nameOf.MatchString(lh) {
		return false
	}
	named := strings.HasPrefix(lh, "name ") || strings.HasPrefix(lh, "title ") ||
		strings.HasSuffix(lh, " title") || strings.HasSuffix(lh, " name")
	// "Miss Northern Ireland" over the titleholders of the page so named:
	// the page's name, not what its rows are ("every miss northern
	// ireland of Miss Northern Ireland", round 192).
	own := strings.EqualFold(strings.Join(strings.Fields(h), " "), strings.Join(strings.Fields(t.PageTitle), " "))
	return genericKeys[lh] || named || own || len(h) > 30
}

// keyNoun names the keys of a tree from its key header, or its domain when
// the header is generic.
func keyNoun(t *graph.Tree) noun {
	h := words(t.KeyHeader)
	lh := strings.ToLower(h)
	// "Film title used in nomination", "School name", "Name of ship": the
	// thing named
	if m := namedThing.FindStringSubmatch(lh); m != nil {
		return noun{m[1], plural(m[1])}
	}
	if m := nameOf.FindStringSubmatch(lh); m != nil {
		return noun{m[1], plural(m[1])}
	}
	if genericKey(t) {
		// The table's own title first ("Contestants" of a list of
		// episodes), then what a list page lists ("List of newspapers in
		// Spain": newspapers, more than "works" says), then the domain.
		if n, ok := titleNoun(t); ok {
			return n
		}
		if televisionWorks(t) {
			return noun{"television work", "television works"}
		}
		if strings.HasPrefix(t.PageTitle, "List of ") {
			if n, ok := pageNoun(t.PageTitle); ok {
				return n
			}
		}
		// "Liberal Party of Canada candidates in the 2011 …" lists
		// candidates, where the domain says only "people".
		if n, ok := pageNoun(t.PageTitle); ok && roleNouns[n.many] != "" {
			return n
		}
		if n, ok := domainNoun(t); ok {
			return n
		}
		if n, ok := pageNoun(t.PageTitle); ok {
			return n
		}
		if eventNoun(t) {
			return noun{"athlete", "athletes"}
		}
		return noun{"entry", "entries"}
	}
	h = lowerFirst(h)
	// "Airlines": a header that is already plural names each by its
	// singular
	if pluralWord(h) && !uncountable[strings.ToLower(h)] && !upperFirst(h) {
		return noun{singular(h), h}
	}
	return noun{h, plural(h)}
}

// uncountable are words in -s that are no plural.
var uncountable = map[string]bool{
	"series": true, "species": true, "news": true, "athletics": true, "politics": true, "economics": true,
	"headquarters": true, "means": true, "gymnastics": true, "physics": true, "mathematics": true,
	"aquatics": true, "electronics": true, "status": true, "campus": true, "bus": true, "class": true,
}

// roleNouns are plurals a table's title uses for what its rows are
// ("Past winners", "Players In", "Current teams"), with their singular.
var roleNouns = map[string]string{
	"players": "player", "teams": "team", "clubs": "club", "winners": "winner", "members": "member",
	"contestants": "contestant", "candidates": "candidate", "finalists": "finalist", "scorers": "scorer",
	"goalscorers": "goalscorer", "drivers": "driver", "riders": "rider", "athletes": "athlete",
	"coaches": "coach", "managers": "manager", "presidents": "president", "mayors": "mayor",
	"governors": "governor", "stations": "station", "schools": "school", "universities": "university",
	"colleges": "college", "films": "film", "albums": "album", "singles": "single", "songs": "song",
	"episodes": "episode", "books": "book", "novels": "novel", "ships": "ship", "buildings": "building",
	"bridges": "bridge", "museums": "museum", "parks": "park", "airports": "airport", "cities": "city",
	"towns": "town", "villages": "village", "municipalities": "municipality", "districts": "district",
	"counties": "county", "provinces": "province", "regions": "region", "countries": "country",
	"nations": "nation", "companies": "company", "characters": "character", "actors": "actor",
	"peaks": "peak", "mountains": "mountain", "lakes": "lake", "rivers": "river", "islands": "island",
	"lighthouses": "lighthouse", "castles": "castle", "churches": "church", "hospitals": "hospital",
	"stadiums": "stadium", "venues": "venue", "arenas": "arena", "hotels": "hotel", "theatres": "theatre",
	"theaters": "theater", "inmates": "inmate", "champions": "champion", "medalists": "medalist",
	"medallists": "medallist", "recipients": "recipient", "laureates": "laureate", "inductees": "inductee",
	"nominees": "nominee", "picks": "pick", "representatives": "representative", "senators": "senator",
	"judges": "judge", "officials": "official", "referees": "referee", "artists": "artist",
	"singers": "singer", "writers": "writer", "directors": "director",
	"justices": "justice", "ambassadors": "ambassador", "alumni": "alumnus", "boxers": "boxer",
	"victims": "victim", "delegates": "delegate", "legislators": "legislator", "ministers": "minister",
	"astronauts": "astronaut", "cyclists": "cyclist", "swimmers": "swimmer", "skaters": "skater",
	"wrestlers": "wrestler", "jockeys": "jockey", "horses": "horse", "volcanoes": "volcano",
	"tributaries": "tributary", "craters": "crater", "councillors": "councillor", "councilors": "councilor",
	"bishops": "bishop", "generals": "general", "admirals": "admiral", "commanders": "commander",
	"chairmen": "chairman", "chairpersons": "chairperson", "premiers": "premier", "monarchs": "monarch",
	"barons": "baron", "baronies": "barony", "earls": "earl", "earldoms": "earldom", "viscounts": "viscount",
	"dukes": "duke", "dukedoms": "dukedom", "marquesses": "marquess", "baronetcies": "baronetcy", "peerages": "peerage",
}

// workKinds are a section's words for the kind of work its table lists.
var workKinds = [][3]string{
	{"episode", "episode", "episodes"}, {"filmography", "film", "films"}, {"films", "film", "films"},
	{"track listing", "track", "tracks"}, {"tracklist", "track", "tracks"}, {"singles", "single", "singles"},
	{"albums", "album", "albums"}, {"novels", "novel", "novels"}, {"video games", "game", "games"},
}

// televisionWorks reports whether t's works are a person's or a
// company's television: its section or caption says television and no
// other medium ("Filmography | Television", not "Film and television"),
// or, with none said, a column names the channel each aired on ("Network",
// "Channel", "Broadcaster"), as a filmography's television part does
// where the export kept no section.
func televisionWorks(t *graph.Tree) bool {
	if t.KeyDomain != "work" {
		return false
	}
	sub := strings.ToLower(t.Section + " " + t.Caption)
	ws := strings.FieldsFunc(sub, func(r rune) bool { return !unicode.IsLetter(r) })
	tv, other := false, false
	for _, w := range ws {
		switch w {
		case "television", "tv":
			tv = true
		case "film", "films", "movies", "theatre", "theater", "stage", "radio", "video", "games", "web", "music", "discography":
			other = true
		}
	}
	if tv || other {
		return tv && !other
	}
	return slices.ContainsFunc(t.Columns, func(c graph.Column) bool {
		switch strings.ToLower(strings.TrimSpace(c.Header)) {
		case "network", "channel", "broadcaster", "tv network", "tv channel", "original network", "original channel":
			return true
		}
		return false
	})
}

// airDate reports whether a header gives the date a broadcast first
// aired ("Original air date", "Airdate", "First aired").
func airDate(h string) bool {
	h = strings.ToLower(strings.Join(strings.Fields(h), " "))
	return strings.Contains(h, "air date") || strings.Contains(h, "airdate") || strings.Contains(h, "aired") || strings.Contains(h, "airing")
}

// rankPrefix are words that make a role another ("lieutenant governor",
// "vice president", "assistant coach").
var rankPrefix = map[string]bool{"lieutenant": true, "vice": true, "assistant": true, "deputy": true, "associate": true, "co": true}

// titleNoun names t's keys by the one plural of roleNouns its caption or
// section says ("Past winners": winners); with none, or two ("Clubs
// Stadiums"), there is no such name.
func titleNoun(t *graph.Tree) (noun, bool) {
	if t.KeyDatatype == graph.TypeNumber || t.KeyDatatype == graph.TypeYear || t.KeyDatatype == graph.TypeDate {
		return noun{}, false
	}
	sub := t.Caption
	if sub == "" {
		sub = t.Section
	}
	parts := strings.Split(sub, "|")
	// "Episode list", "Filmography", "Track listing": a work's kind
	// Not a medium's part of a filmography ("Filmography | Theatre":
	// plays, not films).
	if ls := strings.ToLower(sub); t.KeyDomain == "work" &&
		!slices.ContainsFunc([]string{"television", "tv", "theatre", "theater", "stage", "radio"}, func(m string) bool { return strings.Contains(ls, m) }) {
		// the last named: "Filmography | Video games" lists games
		best, at := -1, -1
		for i, k := range workKinds {
			if j := strings.LastIndex(ls, k[0]); j > at {
				best, at = i, j
			}
		}
		if best >= 0 {
			return noun{workKinds[best][1], workKinds[best][2]}, true
		}
		// "Season 1: 1965-66" of I Spy, its titles beside their air
		// dates: episodes, not "works"
		if slices.ContainsFunc(t.Columns, func(c graph.Column) bool { return airDate(c.Header) }) {
			return noun{"episode", "episodes"}, true
		}
	}
	found, team, rank := "", false, ""
	prev := ""
	ws := strings.FieldsFunc(strings.ToLower(parts[len(parts)-1]), func(r rune) bool { return !unicode.IsLetter(r) })
	other := "" // "Naval Bases and Stations": bases as well as stations
	for i, w := range ws {
		if w == "with" {
			// "non-single guest appearances, with other performing
			// artists" (Saigon's songs): what comes with the rows
			break
		}
		if one := roleNouns[w]; one != "" && w != found {
			if found != "" {
				return noun{}, false
			}
			found = w
			if rankPrefix[prev] {
				rank = prev + " " // "Lieutenant governors" are no governors
			}
			if i >= 2 && ws[i-1] == "and" && pluralWord(ws[i-2]) {
				other = ws[i-2]
			} else if i+2 < len(ws) && ws[i+1] == "and" && pluralWord(ws[i+2]) {
				other = ws[i+2]
			}
		}
		// "All-Americans" of a College Baseball All-America Team: the
		// team's players
		team = team || w == "roster" || w == "squad" || w == "lineup" || w == "americans" && prev == "all"
		prev = w
	}
	switch {
	case found != "" && other != "":
		return noun{singular(other) + " or " + roleNouns[found], other + " and " + found}, true
	case found != "":
		return noun{rank + roleNouns[found], rank + found}, true
	case team && t.KeyDomain == "person":
		return noun{"player", "players"}, true // "Roster", "Squad": a team's list of its players
	}
	return noun{}, false
}

// nameOf matches a header naming a kind of thing by its name ("Name of
// ship", "Name of the cemetery").
var nameOf = regexp.MustCompile(`^name of (?:the )?([a-z]{3,})$`)

// notRows are plurals a list's title ends on that are not what its rows
// are: a list of a club's "records" lists players, one of "rosters" players,
// one of "losses" ships.
var notRows = map[string]bool{
	"records": true, "statistics": true, "rosters": true, "squads": true, "transfers": true, "results": true,
	"lists": true, "seasons": true, "standings": true, "rankings": true, "losses": true, "awards": true,
	"nominations": true, "honours": true, "honors": true, "appearances": true, "details": true, "events": true,
	"matches": true, "games": true, "others": true, "numbers": true, "items": true, "entries": true,
	"things": true, "achievements": true, "milestones": true, "leaders": true, "changes": true,
	"names": true, "titles": true, "works": true, "deaths": true, "births": true, "attacks": true,
}

// titleLinks are the words that close a list title's head noun ("towns in
// Saskatchewan", "players who have converted").
var titleLinks = map[string]bool{
	"in": true, "of": true, "at": true, "for": true, "by": true, "from": true, "who": true, "that": true,
	"to": true, "with": true, "on": true, "and": true, "served": true, "named": true, "under": true,
	"since": true, "before": true, "after": true, "during": true, "owned": true, "operated": true,
}

// pageNoun names a Name column's keys by the plural its page's title
// lists: "List of towns in Saskatchewan" lists towns, "List of Medal of
// Honor recipients for World War II" recipients, "Members of the Western
// Australian Legislative Council" members. A title listing two things
// ("atheists and agnostics"), none, or what its rows are not ("records")
// names none.
func pageNoun(title string) (noun, bool) {
	rest, list := strings.CutPrefix(title, "List of ")
	ws := strings.Fields(rest)
	head := -1
	for i, w := range ws {
		lw := strings.ToLower(w)
		if strings.HasPrefix(w, "(") {
			break
		}
		// "Medal of Honor recipients": "of" inside a name links no head
		if titleLinks[lw] && !(i > 0 && i+1 < len(ws) && upperFirst(ws[i-1]) && !pluralWord(ws[i-1]) && upperFirst(ws[i+1]) && lw != "and") {
			if lw == "and" {
				return noun{}, false
			}
			break
		}
		head = i
	}
	if head < 0 {
		return noun{}, false
	}
	w := ws[head]
	lw := strings.ToLower(w)
	switch {
	case !pluralWord(lw) || notRows[lw]:
		return noun{}, false
	case head > 0 && upperFirst(w): // "Bolton Wanderers": a name
		return noun{}, false
	case !list && roleNouns[lw] == "": // "Swiss Air Force aircraft squadrons"
		return noun{}, false
	}
	if !list || !upperFirst(w) || head > 0 {
		w = lw
	}
	return noun{singular(w), w}, true
}

// individualEvent matches the title of one event of a championship that
// individuals compete in ("2006 European Athletics Championships – Men's
// high jump"), and teamEvent one that teams or pairs do.
var (
	individualEvent = regexp.MustCompile(`\s[–-]\s(?:Men's|Women's|Boys'|Girls'|Mixed)\s`)
	teamEvent       = regexp.MustCompile(`(?i)relay|team|doubles|pairs|synchroni[sz]ed|fours|eights|duet|tandem|coxed|coxless`)
)

// eventNoun reports whether t lists the athletes of an individual event:
// its Name column names the competitors.
func eventNoun(t *graph.Tree) bool {
	return individualEvent.MatchString(t.PageTitle) && !teamEvent.MatchString(t.PageTitle)
}

// upperFirst reports whether w starts with a capital.
func upperFirst(w string) bool {
	for _, r := range w {
		return unicode.IsUpper(r)
	}
	return false
}

// singular undoes a plural's usual endings.
func singular(w string) string {
	lw := strings.ToLower(w)
	switch {
	case uncountable[lw]:
		return w // "species", not "specy"
	case lw == "people":
		return w[:len(w)-6] + "person"
	case strings.HasSuffix(lw, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(lw, "ches"), strings.HasSuffix(lw, "shes"), strings.HasSuffix(lw, "xes"), strings.HasSuffix(lw, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(lw, "s"):
		return w[:len(w)-1]
	}
	return w
}

// namedThing matches a header that names a kind of thing by its title or
// name ("film title used in nomination", "school name").
var namedThing = regexp.MustCompile(`^(film|song|album|book|novel|ship|station|team|club|player|school|building|company|game|show|series|episode|artist|band|play|opera|church|hospital|park|bridge|airport|stadium|venue|hotel|restaurant|character|candidate|horse|car|aircraft)s? (?:title|name)s?\b`)

// words turns a header or relation into natural words: "Date of birth",
// "has_date_of_birth" → "date of birth".
func words(h string) string {
	h = strings.TrimPrefix(h, "has_")
	h = strings.ReplaceAll(h, "_", " ")
	h = strings.ReplaceAll(h, "(s)", "")
	h = strings.ReplaceAll(h, "(es)", "")
	fs := strings.Fields(h)
	// "Total Total Cards": a group's header over its sub-header's, read once
	fs = slices.CompactFunc(fs, strings.EqualFold)
	return audit.Words(strings.Join(fs, " "))
}

// lowerFirst lowers capitalised words (not acronyms such as GDP), as a
// header's title case reads oddly mid-sentence.
func lowerFirst(s string) string {
	fs := strings.Fields(s)
	for i, f := range fs {
		rs := []rune(f)
		if properAdjective[f] {
			continue // "English title", "Kazakh title": a tongue's or a nation's name keeps its capital
		}
		if len(rs) > 1 && unicode.IsUpper(rs[0]) && !unicode.IsDigit(rs[1]) && !strings.ContainsFunc(string(rs[1:]), unicode.IsUpper) {
			rs[0] = unicode.ToLower(rs[0])
			fs[i] = string(rs)
		}
	}
	return strings.Join(fs, " ")
}

// properAdjective are the names of tongues and nations a header opens
// with ("English title", "Arabic title", "Kazakh title"), written with a
// capital in any sentence.
var properAdjective = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`English French German Spanish Italian Portuguese Dutch Swedish Norwegian Danish
		Finnish Icelandic Polish Czech Slovak Slovene Slovenian Hungarian Romanian Bulgarian Serbian Croatian Bosnian
		Macedonian Albanian Greek Turkish Russian Ukrainian Belarusian Georgian Armenian Azerbaijani Kazakh Kyrgyz Uzbek
		Tajik Mongolian Arabic Hebrew Persian Pashto Dari Urdu Hindi Bengali Punjabi Tamil Telugu Kannada Malayalam Marathi
		Gujarati Nepali Sinhala Burmese Thai Khmer Lao Vietnamese Chinese Mandarin Cantonese Japanese Korean Indonesian
		Malay Filipino Tagalog Latin Irish Welsh Scottish Gaelic Catalan Basque Galician Estonian Latvian Lithuanian
		Maltese Yiddish Sanskrit Tibetan Amharic Swahili Afrikaans Maori Hawaiian American British Canadian Australian`) {
		properAdjective[w] = true
	}
}

// pluralWord reports whether a one-word header reads as a plural count
// ("winners", "goals", "men"): it then takes "number of".
func pluralWord(h string) bool {
	if strings.Contains(h, " ") {
		return false
	}
	l := strings.ToLower(h)
	switch l {
	case "men", "women", "people", "children":
		return true
	}
	return strings.HasSuffix(l, "s") && !strings.HasSuffix(l, "ss") && !strings.HasSuffix(l, "us") && !strings.HasSuffix(l, "is") && len(l) > 3
}

// pluralHead reports whether a header of several words ends in a plural
// noun that heads it: "field goals", "home runs", not "number of goals"
// or "goals against average".
func pluralHead(h string) bool {
	i := strings.LastIndexByte(h, ' ')
	return i > 0 && !strings.Contains(h, " of ") && pluralWord(h[i+1:])
}

// pluralNoun reports whether header h is a plural noun that takes "are"
// ("dates", "field goals"), not one that ends in s but is one thing
// ("series", "species").
func pluralNoun(h string) bool {
	f := strings.Fields(strings.ToLower(h))
	if len(f) == 0 || singularS[f[len(f)-1]] {
		return false
	}
	return pluralWord(h) || pluralHead(h)
}

// singularS are nouns ending in s that a header uses for one thing.
var singularS = map[string]bool{
	"series": true, "species": true, "news": true, "means": true, "headquarters": true, "athletics": true,
	"gymnastics": true, "aquatics": true, "politics": true, "physics": true, "mathematics": true, "economics": true,
	"genus": true, "status": true, "canvas": true, "chassis": true, "corps": true, "whereabouts": true,
}

// plural makes a rough English plural of the last word, leaving phrases
// with "of" ("date of birth") pluralised on the head word.
func plural(s string) string {
	// "battle or siege": each noun ("battles or sieges")
	if a, b, ok := strings.Cut(s, " or "); ok && !strings.Contains(a, " ") && !strings.Contains(b, " ") {
		return plural(a) + " or " + plural(b)
	}
	// The head noun comes before a prepositional phrase or a participle:
	// "date of birth", "name on the register", "film title used in
	// nomination", "personal name westernized".
	for _, p := range []string{" of ", " on ", " in ", " for ", " at ", " by ", " used ", " from "} {
		if i := strings.Index(s, p); i > 0 {
			return plural(s[:i]) + s[i:]
		}
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 && strings.HasSuffix(s, "ed") {
		return plural(s[:i]) + s[i:]
	}
	if strings.HasSuffix(s, ")") {
		return s
	}
	ls := strings.ToLower(s)
	switch {
	case strings.HasSuffix(ls, "person"):
		return s[:len(s)-6] + "people"
	case strings.HasSuffix(ls, "man") && !strings.HasSuffix(ls, "human"):
		return s[:len(s)-3] + "men"
	case strings.HasSuffix(ls, "s"), strings.HasSuffix(ls, "x"), strings.HasSuffix(ls, "ch"), strings.HasSuffix(ls, "sh"):
		if strings.HasSuffix(ls, "ss") || !strings.HasSuffix(ls, "s") {
			return s + "es"
		}
		return s
	case strings.HasSuffix(ls, "y") && len(ls) > 1 && !strings.ContainsRune("aeiou", rune(ls[len(ls)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// the is x after "the", unless x has its own ("The Silent Force (TV
// series)": not "the The Silent Force").
func the(x string) string {
	if strings.HasPrefix(x, "The ") || strings.HasPrefix(x, "the ") {
		return x
	}
	return "the " + x
}

// concept describes the set a tree records the way a question names a
// concept (WebLeaper's "Nobel Prize winners in Literature"): from the
// entities of its page title and section or caption, never as "the table
// X on the page Y". Words such as "table" are left out of the section.
// many is the plural the question asks for ("stations"), or "".
func concept(t *graph.Tree, alone bool, many string, rng *rand.Rand) string {
	page := strings.Join(strings.Fields(t.PageTitle), " ")
	isList := false
	for _, p := range []string{"List of ", "list of ", "Lists of "} {
		if strings.HasPrefix(page, p) {
			page, isList = page[len(p):], true
		}
	}
	sub, what := t.Caption, "list" // a caption names the list ("table" names no concept: task.NamesTable)
	if sub == "" {
		sub, what = t.Section, "section"
	} else if t.Section != "" && len(strings.Fields(sub)) <= 2 && !slices.ContainsFunc(strings.Split(t.Section, "|"), layoutSection) {
		// "Assists" under "Franchise scoring leaders": a caption of a
		// word or two names the list only within its section.
		sub = t.Section + "|" + sub
	}
	var parts, orig []string
	var named string // a part that names the page itself
	inline := true
	for _, p := range strings.Split(sub, "|") {
		p = tableWord.ReplaceAllStringFunc(p, func(w string) string {
			if strings.HasPrefix(strings.ToLower(w), "medal") {
				return w // "Medal table": the section's name, which readers look for
			}
			return ""
		})
		p = strings.Trim(strings.Join(strings.Fields(p), " "), " ,;:-–")
		p = strings.ReplaceAll(p, " : ", ": ") // "2008 Season Players : Current to Round 19": the crawl's spacing
		// "Table 1: Species of … in Australia§": its number and its
		// footnote's mark are the article's layout, no name of the list.
		p = strings.TrimRight(tableNumber.ReplaceAllString(p, ""), "§†‡* ")
		p = strings.TrimSpace(layoutNote.ReplaceAllString(p, "")) // "(with strikeouts for ones dropped by …)"
		p = strings.TrimPrefix(p, "of ")                          // "Table of important tributaries"
		// "List of special cities" of "Special cities of Japan": the
		// words after "List of" say which list
		listed := false // the part is a list itself
		if l, ok := strings.CutPrefix(strings.ToLower(p), "list of "); ok && l != "" {
			p, listed = p[len(p)-len(l):], true
		}
		p = strings.TrimSpace(footnote.ReplaceAllString(p, "")) // "Results[1]"
		p = strings.TrimSpace(tally.ReplaceAllString(p, ""))    // "Singles: 14 (10–4)"
		p = finalsTally.ReplaceAllString(p, "$1")               // "Doubles (8–12)"
		if len(p) == 1 && p[0] >= 'A' && p[0] <= 'Z' {
			// "C" of an alphabetical roster: not the centers; read in
			// parentheses only. The section's letter, not a name's: a
			// list of awards sorts them by the honoree's surname.
			p, inline = "listed under "+p, false
		}
		switch {
		case p == "" || strings.EqualFold(p, "list") || strings.EqualFold(p, "the list"):
			// "List" of "List of counties in North Carolina": the page itself
		case layoutSection(p):
			// "Summary", "Overview": where the table stands, no set ("the
			// summary of the list of correctional facilities"); said, in
			// parentheses, only to tell it from the page's other tables.
			if !alone && !slices.Contains(orig, p) {
				parts = append(parts, p)
				orig = append(orig, p)
				inline = false
			}
		case wordsWithin(p, page) || restates(p, page):
			// "National monuments" of "National Monuments in County
			// Dublin" says nothing the page's name does not, when the
			// page has no other table; "Draft" of "1947 BAA draft" beside
			// its "Other picks" tells which table, as written.
			// "National Seashores" of "List of United States national
			// lakeshores and seashores" names one of the two.
			// "Members of the Ohio House of Representatives, 125th General
			// Assembly" of "Ohio House of Representatives membership,
			// 125th General Assembly" restates the page: said once (a
			// twin it leaves unnamed is the auditor's to refuse).
			if (!alone && !restates(p, page) || narrows(p, page)) && !slices.Contains(orig, p) {
				parts = append(parts, p)
				orig = append(orig, p)
				inline = false
			}
		case containsFold(p, page) && (!isList || listed):
			// A caption that names the page itself ("1996 Frankfurt Galaxy
			// World League draft selections" on "1996 Frankfurt Galaxy
			// season") is the concept, as written; a part after it ("Hong
			// Kong and Macau") still tells which table; so does a list's
			// part that is a list ("List of Michelin 3-star restaurants
			// by country …"). Not a list's other part ("Improvisational
			// theatre companies in the United Kingdom" of the list of
			// them): alone, it would ask for every such company there
			// is, not those the list holds.
			named = p
		case alone && many != "" && strings.EqualFold(p, many):
			// "Stations" of "Kibi Line", its one table: "every station of
			// Kibi Line", not "of the stations of Kibi Line"
		default:
			w, ok := sectionCase(p)
			if !slices.Contains(parts, w) {
				parts = append(parts, w)
				orig = append(orig, p)
				inline = inline && ok
			}
		}
	}
	parts, orig = narrowest(parts, orig)
	sub = strings.Join(parts, ", ")
	if named != "" {
		return namedRoot(named, many, orig)
	}
	if isList {
		page = "the list of " + page
	}
	if sub == "" {
		return page
	}
	// A page whose title ends in its own parenthesis does not take a
	// second: not "Outback (region) (Largest towns)" but "the largest
	// towns of Outback (region)", and not "North Down (Assembly
	// constituency) (Elections, 1973)" but the section (or the caption's
	// table) by its name.
	if strings.HasSuffix(page, ")") {
		if inline && len(parts) == 1 && nounBefore(sub) && !(many != "" && containsFold(sub, many)) {
			return the(sub) + " of " + page
		}
		return `the "` + strings.Join(orig, ", ") + `" ` + what + ` of ` + page
	}
	// A section path, or a section written as a name, reads only in
	// parentheses: "2007 BWF Super Series (Super Series rankings, Women's
	// singles)".
	if !inline || len(parts) > 1 {
		return sectionPath(page, len(parts), orig, isList)
	}
	// Not "the Counties of Denmark counties (1970–2006)" nor "the North
	// Carolina Court of Appeals current judges": a page's name before a
	// part reads as one noun only by chance. The part goes after ("the
	// current judges of …"), or in parentheses where it restates the
	// noun asked ("every station of the stations of …").
	restated := many != "" && containsFold(sub, many)
	switch rng.IntN(2) {
	case 0:
		if restated || !nounBefore(sub) {
			return page + inParens(parts)
		}
		if isList {
			return the(sub) + " of " + page
		}
		return the(sub) + " of " + strings.TrimPrefix(page, "the ")
	default:
		return page + inParens(parts)
	}
}

// inParens is a section path in parentheses after its page: "2007 BWF
// Super Series (Super Series rankings, Women's singles)". A part's own
// parenthesis reads as one more part, not a second pair ("(Holocene,
// 11,500 – 5,000 years old)", not "(Holocene (11,500 – 5,000 years
// old))").
func inParens(parts []string) string {
	flat := make([]string, len(parts))
	for i, p := range parts {
		if strings.Count(p, "(") == 1 && strings.Count(p, ")") == 1 && strings.Index(p, "(") < strings.Index(p, ")") {
			l, r, _ := strings.Cut(p, "(")
			in, after, _ := strings.Cut(r, ")")
			p = strings.TrimSpace(l) + ", " + strings.TrimSpace(in)
			if after = strings.TrimSpace(after); after != "" {
				p += ", " + after
			}
		}
		flat[i] = p
	}
	return " (" + strings.Join(flat, ", ") + ")"
}

// finalsTally matches the finals won and lost after a player's event
// ("Doubles (8–12)"), which says nothing of what the table is: tally's
// form without the count of finals.
var finalsTally = regexp.MustCompile(`(?i)^((?:mixed |men's |women's )?(?:singles|doubles))\s*\(\s*\d+\s*[–-]\s*\d+\s*\)$`)

// sectionPath is a page with its section path, in parentheses: "2007 BWF
// Super Series (Super Series rankings, Women's singles)". A leaders'
// list ("Individual all-time records, Most tries"), which "every player
// of Italy national rugby union team (…)" reads as the squad until its
// last words, is named as a list, where the page is not a list page
// itself: not 'the "Most wins" list of the list of VFL/AFL … premiers'.
// n is the number of parts the question says.
func sectionPath(page string, n int, orig []string, isList bool) string {
	if k := slices.IndexFunc(orig, leadersList.MatchString); k >= 0 && n > 1 && !isList {
		l := `the "` + strings.Join(orig[k:], ", ") + `" list of ` + page
		if k > 0 {
			l += inParens(orig[:k])
		}
		return l
	}
	return page + inParens(orig)
}

// layoutSection reports whether a section's name says where in the
// article a table stands ("Overview", "Statistics"), not what it lists.
func layoutSection(p string) bool {
	switch strings.ToLower(strings.TrimSpace(p)) {
	case "overview", "summary", "general", "introduction", "history", "statistics", "details", "notes", "list", "data":
		return true
	}
	return false
}

// layoutNote matches a caption's parenthesis about how the table marks
// its rows ("(with strikeouts for ones dropped by Maia et al. in 1989)",
// "(in bold: current)"), no part of what it lists.
var layoutNote = regexp.MustCompile(`(?i)\s*\([^()]*\b(strikeouts?|struck|bold|italics?|shaded|shading|highlighted|asterisks?)\b[^()]*\)`)

// tableNumber matches the number a caption's table had before its "Table"
// was taken out ("1: Species of …").
var tableNumber = regexp.MustCompile(`^\d+(\.\d+)?\s*[:.]\s+`)

// namedRoot is the set a caption names that names its page too: as a noun
// phrase ("the cities within the regular definition of Central Asia"), or,
// where it restates the keys' noun ("Winners of the Florida Derby since
// 1952", "Teams in the Chinese Volleyball Super League"), what they are
// of: "every winner of the Florida Derby since 1952", not "of the winners
// of". orig are the sections after it.
func namedRoot(named, many string, orig []string) string {
	fs := strings.Fields(named)
	if w := strings.ToLower(fs[0]); (commonSections[w] || pluralWord(w)) && !strings.ContainsFunc(fs[0][1:], unicode.IsUpper) &&
		len(fs) > 1 && !strings.ContainsFunc(fs[1][:1], unicode.IsUpper) {
		named = strings.ToLower(fs[0][:1]) + named[1:]
	}
	root := the(named)
	if len(fs) > 2 && many != "" && (strings.EqualFold(fs[0], many) || rosterNoun[strings.ToLower(fs[0])]) && (fs[1] == "of" || fs[1] == "in") {
		root = strings.Join(fs[2:], " ")
		if !strings.HasPrefix(root, "the ") {
			root = the(root)
		}
	}
	if len(orig) == 0 {
		return root
	}
	return root + inParens(orig)
}

// rosterNoun are nouns a caption names any set's keys by: the "Members
// of the 2. Bundesliga (2019–20 season)" are its teams, and "every team
// in the 2. Bundesliga (2019–20 season)" reads where "teams in the
// members of" does not.
var rosterNoun = map[string]bool{"members": true, "participants": true, "entrants": true, "competitors": true}

// leadersList matches a section naming a list of leaders ("Most tries",
// "All-time leaders", "Top scorers").
var leadersList = regexp.MustCompile(`(?i)^(most|top|leading|all-time leaders|career leaders|leaders)\b`)

// narrowest drops a section a later one of the path begins or ends with
// ("Current arenas" before "Current arenas that can be used for
// football", "Members" before "Former members"): the later says which
// table, and the two read as a union ("(Members, Former members)": the
// members and the former members). parts and orig are the path as the
// question writes it and as the page does, index for index.
func narrowest(parts, orig []string) ([]string, []string) {
	var p2, o2 []string
	for i := range orig {
		wider := false
		for j := i + 1; j < len(orig); j++ {
			o, w := strings.ToLower(orig[j]), strings.ToLower(orig[i])
			if len(o) > len(w) && (strings.HasPrefix(o, w+" ") || strings.HasSuffix(o, " "+w)) {
				wider = true
			}
		}
		if !wider {
			p2, o2 = append(p2, parts[i]), append(o2, orig[i])
		}
	}
	return p2, o2
}

// nounBefore reports whether a section reads as a noun before "of" ("the
// current judges of …", "the filmography of …", "the stadiums and
// locations of …"): at most four words, no figure or parenthesis, none a
// preposition or a verb's participle, and not ending in a word that only
// qualifies ("former", "women"). "Awards won by nationality", "Matches as
// captain", "17th century" and "Current (2019)" read only in parentheses.
func nounBefore(sub string) bool {
	words := strings.Fields(sub)
	if len(words) == 0 || len(words) > 4 || strings.ContainsFunc(sub, func(r rune) bool { return unicode.IsDigit(r) || r == '(' }) {
		return false
	}
	for _, w := range words {
		switch strings.ToLower(w) {
		case "by", "of", "as", "in", "for", "with", "from", "to", "at", "on", "won", "played", "held", "since", "per", "vs", "vs.":
			return false
		}
	}
	switch strings.ToLower(words[len(words)-1]) {
	case "current", "former", "past", "present", "future", "other", "women", "men", "male", "female", "senior", "junior",
		"final", "early", "late", "national", "international", "notable", "active", "defunct", "original", "new", "old":
		return false
	case "television", "film", "films", "radio", "theatre", "theater", "stage":
		return false // "the television of Athena Chu": a medium her works are in, no part of her
	case "appearances":
		return false // "Which players appear in the appearances of …": the section's name, in parentheses
	case "points", "tries", "goals", "caps", "assists", "wickets", "runs", "rebounds", "touchdowns", "yards", "receptions", "sacks", "interceptions", "strikeouts", "saves":
		// "Career points", "Most tries": a list of those who scored
		// them; "every player of the career points of …" reads as the
		// points of a list
		return false
	case "locations", "stadia", "grounds", "kits", "personnel", "career":
		// "every team of the stadiums and locations of …", "of the
		// personnel and kits of …": where they play, who runs them, no
		// set of them; "every work of the career of …"
		return false
	}
	return true
}

// wordsWithin reports whether every word of p is a word of page, case
// aside.
func wordsWithin(p, page string) bool {
	have := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(page)) {
		have[w] = true
	}
	for _, w := range strings.Fields(strings.ToLower(p)) {
		if !have[w] {
			return false
		}
	}
	return true
}

// restates reports whether p says the page title again: three content
// words or more, each a word of page, stems compared ("members",
// "membership").
func restates(p, page string) bool {
	stem := func(w string) string {
		w = strings.Trim(strings.ToLower(w), ",.;:()'\"")
		if r := []rune(w); len(r) > 5 {
			return string(r[:5])
		}
		return w
	}
	have := map[string]bool{}
	for _, w := range strings.Fields(page) {
		have[stem(w)] = true
	}
	n := 0
	for _, w := range strings.Fields(p) {
		switch sw := stem(w); sw {
		case "", "of", "the", "a", "an", "in", "and", "list":
		default:
			if !have[sw] {
				return false
			}
			n++
		}
	}
	return n >= 3
}

// narrows reports whether section p names one of two sets a page title
// joins with "and": the head word of one side ("lakeshores", before the
// "and") or of the other ("seashores", after it), not both.
func narrows(p, page string) bool {
	l, r, ok := strings.Cut(strings.ToLower(page), " and ")
	lw, rw := strings.Fields(l), strings.Fields(r)
	if !ok || len(lw) == 0 || len(rw) == 0 {
		return false
	}
	ws := strings.Fields(strings.ToLower(p))
	return slices.Contains(ws, lw[len(lw)-1]) != slices.Contains(ws, rw[0])
}

// containsFold reports whether s contains sub, case aside.
func containsFold(s, sub string) bool {
	return sub != "" && strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// tally matches a section's count of finals won and lost ("Singles: 14
// (10–4)", "Doubles: 10 (3 titles, 7 runner–ups)"), which says nothing of
// what the table is.
var tally = regexp.MustCompile(`\s*:\s*\d+\s*\(\s*\d+\s*(?:[–-]\s*\d+|titles?\s*,\s*\d+\s*runners?[\s–-]*ups?)\s*\)$`)

// footnote matches a footnote's mark a heading keeps ("Results[1]").
var footnote = regexp.MustCompile(`\s*\[\d{1,3}\]`)

// tableWord matches what names a table rather than what it records.
var tableWord = regexp.MustCompile(`(?i)\b(medal )?tables?\b`)

// NamesTable reports whether a question names a table or a page ("the
// table X on the page Y") rather than the concept it records
// (task.NamesTable).
func NamesTable(q string) bool { return task.NamesTable(q) }

// orList joins items as English alternatives: "a", "a or b", "a, b or c".
func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// allOf names every set: "both a and b", "each of a, b and c".
func allOf(items []string) string {
	if len(items) == 2 {
		return "both " + items[0] + " and " + items[1]
	}
	return "each of " + list(items)
}

// list joins items as English: "a", "a and b", "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// colWords are the columns as nouns of the answer; a plural header of
// figures in the trees ts is their number ("Members" of 15: "the number
// of members").
func colWords(cols []column, ts []*graph.Tree) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = colWord(c.header)
		if out[i] == "year" && datatype(ts, c.rel) == graph.TypeDate {
			out[i] = "date" // "Year" over "July 5, 1941": the answer gives the date
		}
		if rest, ok := strings.CutPrefix(out[i], "date "); ok && datatype(ts, c.rel) == graph.TypeYear {
			out[i] = "year " + rest // "Opened" over 1998: the year opened, no date
		}
		out[i] = venueCapacity(ts, out[i])
		if strings.EqualFold(out[i], "pick") && hasHeader(ts, "overall") {
			out[i] = "pick in the round" // beside "Overall": "the pick" may be either (round 167)
		}
		if many, ok := countNouns[out[i]]; ok && numeric(ts, c.rel) {
			out[i] = many // "Win", "Loss": a coach's wins and losses
		}
		if medals[strings.ToLower(out[i])] && numeric(ts, c.rel) {
			out[i] = "number of " + out[i] + " medals" // "give their silver", "give the gold medals" (the events?): the count
		}
		if pluralWord(out[i]) && !notCounted[strings.ToLower(out[i])] && numeric(ts, c.rel) {
			out[i] = "number of " + out[i]
		}
	}
	return out
}

// hasHeader reports whether a tree of ts has a column headed h, case
// aside.
func hasHeader(ts []*graph.Tree, h string) bool {
	for _, t := range ts {
		if slices.ContainsFunc(t.Columns, func(c graph.Column) bool { return strings.EqualFold(strings.TrimSpace(c.Header), h) }) {
			return true
		}
	}
	return false
}

// venueCapacity is w, a column's noun, as a question reads it of keys
// that play somewhere: a team's "capacity" is its stadium's ("stadium
// capacity"), where a column of ts names the venue and the keys are not
// the venues themselves.
func venueCapacity(ts []*graph.Tree, w string) string {
	if !strings.EqualFold(w, "capacity") {
		return w
	}
	for _, t := range ts {
		if venueWords[lastWord(headerKey(t.KeyHeader))] {
			return w
		}
	}
	for _, t := range ts {
		for _, c := range t.Columns {
			if v := lastWord(headerKey(c.Header)); venueWords[v] || strings.HasPrefix(headerKey(c.Header), "stadium") {
				if !venueWords[v] {
					v = "stadium"
				}
				return v + " " + w
			}
		}
	}
	return w
}

// venueWords are the headers' last words that name where a team plays.
var venueWords = map[string]bool{"stadium": true, "venue": true, "ground": true, "arena": true, "ballpark": true}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// valueWords refines the nouns ws of cols by what the columns of the
// trees ts hold, where a bare header does not say it: a "Lap" or "Run 1"
// of "1:22.129" is a time, a loan's "Start" of "2013-01-25" a date, a
// "Field" of "Grass" a playing surface, a medal table's "Total" its
// total medals.
func (s *synth) valueWords(cols []column, ts []*graph.Tree, ws []string) []string {
	for i, c := range cols {
		w := strings.ToLower(ws[i])
		switch {
		case w == "total" && numeric(ts, c.rel) && medalTable(ts):
			ws[i] = "total number of medals"
		case dateNouns[w] && datatype(ts, c.rel) == graph.TypeDate:
			ws[i] += " date"
		case timedHeader.MatchString(w):
			if txt := s.columnTexts(ts, c.rel); all(txt, clockTime.MatchString) || numberedRun.MatchString(w) && all(txt, seconds.MatchString) {
				ws[i] += " time" // "Run 1" of "50.39": the seconds it took
			}
		case seasonHeader.MatchString(w):
			// "2012 season" of "6th", "CL1, 1st": a club's place that season
			if all(s.columnTexts(ts, c.rel), ordinalPlace.MatchString) {
				ws[i] = "position in the " + w
				if !strings.HasSuffix(w, "season") {
					ws[i] = "position in " + w
				}
			}
		case surfaceHeaders[w]:
			if all(s.columnTexts(ts, c.rel), func(v string) bool { return surfaces[strings.ToLower(v)] }) {
				ws[i] = "playing surface"
			}
		}
	}
	return ws
}

// dateNouns are one-word headers of a day something began or ended that
// read as a date with "date" after them.
var dateNouns = map[string]bool{
	"start": true, "end": true, "debut": true, "arrival": true, "departure": true, "premiere": true,
	"release": true, "launch": true, "opening": true, "closure": true, "expiry": true, "signing": true,
}

// timedHeader matches the headers of a race's parts whose cells are times
// ("Lap", "Run 1", "Final", "Q2"); clockTime a time as a race gives it.
var (
	timedHeader = regexp.MustCompile(`^(lap|start|total|final|semifinal|semi-final|best|heat|qualifying|split|swim|bike|run|(run|leg|race|heat) \d|q\d)$`)
	clockTime   = regexp.MustCompile(`^(\d{1,2}:)?\d{1,2}:\d\d(\.\d+)?$`)
	// numberedRun is a race's numbered part, whose figures in seconds
	// ("50.39") are times too, where a "Total" of decimals may be points.
	numberedRun = regexp.MustCompile(`^(run|leg|heat) \d$`)
	seconds     = regexp.MustCompile(`^\d{1,3}\.\d{1,3}$`)
)

// seasonHeader matches a header naming a season ("2012 season",
// "2011–12"); ordinalPlace a cell giving a place in it ("6th", "CL1, 1st").
var (
	seasonHeader = regexp.MustCompile(`^\d{4}([–-]\d{2,4})?( season)?$`)
	ordinalPlace = regexp.MustCompile(`\b\d+(st|nd|rd|th)\b`)
)

// surfaceHeaders are headers that may hold a playing surface, and
// surfaces the values that show they do.
var (
	surfaceHeaders = map[string]bool{"field": true, "court": true, "pitch": true, "turf": true}
	surfaces       = map[string]bool{
		"grass": true, "natural grass": true, "artificial": true, "artificial turf": true, "artificial grass": true,
		"synthetic": true, "synthetic turf": true, "turf": true, "astroturf": true, "fieldturf": true,
		"clay": true, "hard": true, "carpet": true, "indoor": true,
	}
)

// medalTable reports whether some tree of ts counts gold, silver or
// bronze medals.
func medalTable(ts []*graph.Tree) bool {
	for _, t := range ts {
		for _, c := range t.Columns {
			if medals[strings.ToLower(c.Header)] && c.Datatype == graph.TypeNumber {
				return true
			}
		}
	}
	return false
}

// columnTexts are the displayed values of relation rel's columns in ts.
func (s *synth) columnTexts(ts []*graph.Tree, rel string) []string {
	var out []string
	for cc := range columnCells(ts, rel) {
		out = append(out, s.display(cc.value))
	}
	return out
}

// all reports whether vs is not empty and f holds for each of its values.
func all(vs []string, f func(string) bool) bool {
	return len(vs) > 0 && !slices.ContainsFunc(vs, func(v string) bool { return !f(v) })
}

// notCounted are plural headers of figures that are no count of things
// ("Ratings", "Winnings", "Hectares") or of an event's name ("Masters",
// "Playoffs": goals or wins there): "number of" would misread them.
var notCounted = map[string]bool{
	"others": true, "playoffs": true, "masters": true, "finals": true, "nationals": true, "worlds": true,
	"olympics": true, "ratings": true, "winnings": true, "earnings": true, "shares": true, "hectares": true,
	"acres": true, "miles": true, "kilometres": true, "kilometers": true, "metres": true, "meters": true,
	"dollars": true, "pounds": true, "euros": true, "sales": true, "proceeds": true, "receipts": true,
	"grosses": true, "revenues": true, "profits": true, "assets": true, "expenses": true, "costs": true,
}

// officeDates are headers of a term's dates written as verbs, and the
// noun a question asks them by.
var officeDates = map[string]string{
	"took office": "date of taking office", "left office": "date of leaving office",
	"assumed office": "date of assuming office", "entered office": "date of entering office",
	"term began": "start of term", "term ended": "end of term", "term start": "start of term", "term end": "end of term",
	"term expires": "end of term", "term expired": "end of term", "term ends": "end of term",
}

// draftOrder are the parts of a draft's "Draft order" header and the
// nouns a question asks them by.
var draftOrder = map[string]string{"round": "draft round", "choice": "draft pick", "pick": "draft pick", "overall": "overall pick"}

// lifeDates are participles of a life's ends and the nouns a question asks
// them by: "their date born" reads "their date of birth"; "their life"
// (a laureate's "1862–1934") reads "their lifespan".
var lifeDates = map[string]string{"born": "date of birth", "died": "date of death", "married": "date of marriage",
	"life": "lifespan", "lived": "lifespan", "life span": "lifespan"}

// medals are the headers of a medal table's counts.
var medals = map[string]bool{"gold": true, "silver": true, "bronze": true}

// countNouns are singular headers of counts and the plurals a question
// counts them by.
var countNouns = map[string]string{
	"win": "wins", "loss": "losses", "draw": "draws", "tie": "ties", "goal": "goals", "point": "points",
	"title": "titles", "cap": "caps", "appearance": "appearances", "assist": "assists", "medal": "medals",
	"start": "starts", "won": "wins", "lost": "losses", "drawn": "draws",
}

// numeric reports whether relation rel is a column of figures in ts.
func numeric(ts []*graph.Tree, rel string) bool { return datatype(ts, rel) == graph.TypeNumber }

// datatype is the datatype of relation rel's column in ts, "" when none
// has it.
func datatype(ts []*graph.Tree, rel string) graph.Datatype {
	for _, t := range ts {
		for _, c := range t.Columns {
			if c.Name == rel {
				return c.Datatype
			}
		}
	}
	return ""
}

// colWord is a header as a noun of the answer: "each one's opened" reads
// "each one's date opened".
func colWord(h string) string {
	w := lowerFirst(words(h))
	if p, ok := lifeDates[strings.ToLower(w)]; ok {
		return p
	}
	if p, ok := strings.CutPrefix(strings.ToLower(w), "draft order "); ok && draftOrder[p] != "" {
		return draftOrder[p] // "Draft order" over "Round", "Choice"
	}
	if timeParticiples[w] || w == "laid down" {
		return "date " + w
	}
	// "Qualified on": the date they qualified
	if p, ok := strings.CutSuffix(w, " on"); ok && (timeParticiples[p] || p == "qualified") {
		return "date " + p
	}
	if p, ok := officeDates[strings.ToLower(w)]; ok {
		return p // "their took office": the date they took it
	}
	if p, ok := strings.CutSuffix(w, " co."); ok {
		return p + " company" // "Production co.": the header's shorthand
	}
	return squared(w)
}

// squared gives an area's header the ² of its unit that the crawl lost:
// "area (km²)" for "Area ( km )".
func squared(h string) string {
	if m := lostSquare.FindStringSubmatch(h); m != nil {
		return m[1] + "(" + m[2] + "²)"
	}
	return h
}

// lostSquare matches an area's header whose unit lost its ² ("area (km)").
var lostSquare = regexp.MustCompile(`(?i)^(.*\barea\b.*?)\(\s*(km|mi)\s*\)$`)

// timeParticiples are one-word headers that name when something happened
// ("Opened", "Founded"); another participle ("Penanced": a count of
// people) is no date.
var timeParticiples = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`opened founded established built inducted commissioned
		completed launched released elected appointed died born formed created listed designated
		closed retired signed acquired joined started ended renamed discovered published married
		decommissioned demolished dissolved merged incorporated chartered debuted premiered aired
		consecrated dedicated installed introduced promoted relegated enacted awarded`) {
		timeParticiples[w] = true
	}
}

func pick(rng *rand.Rand, ts []string) string { return ts[rng.IntN(len(ts))] }

// fill replaces {name} fields of a template; {a_X} is X with its
// indefinite article ("an entry", "a player").
func fill(t string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		t = strings.ReplaceAll(t, "{a_"+kv[i]+"}", article(kv[i+1])+" "+kv[i+1])
	}
	for i := 0; i+1 < len(kv); i += 2 {
		t = strings.ReplaceAll(t, "{"+kv[i]+"}", kv[i+1])
	}
	return t
}

// basicTemplates put a filter ("whose elevation is at least 6721")
// right after the noun it qualifies, or after the set when the noun is
// read with it ("every peak of the list of Ultras … whose elevation …").
var basicTemplates = []string{
	"Which {many}{filter} appear in {root}? For each, give their {cols}.",
	"List every {one} of {root}{filter}, with the {cols} of each.",
	"Considering {root}, list the {many}{filter}. Please include their {cols}.",
	"Find all {many} in {root}{filter} and report each one's {cols}.",
	"I need the complete set of {many} from {root}{filter}: name each one and give the {cols}.",
}

// ownerTemplates are the basicTemplates that read where the root is a
// person whose works a table lists: "Considering Paul Reubens
// (Filmography, Film), list the films", not "films in Paul Reubens".
var ownerTemplates = []string{basicTemplates[1], basicTemplates[2]}

// namedSetTemplates ask for the members of a set whose name is the plural
// the question would ask for ("the New Democratic Party candidates, 2008
// Canadian federal election (Manitoba - 14 Seats)"): {root} is that set
// (setNamed), said once.
var namedSetTemplates = []string{
	"List all of {root}{filter}, with the {cols} of each.",
	"Find all of {root}{filter} and report each one's {cols}.",
	"I need the complete set of {root}{filter}: name each one and give the {cols}.",
	"Name every one of {root}{filter} and give their {cols}.",
}

// setNamed reports whether root, a Basic question's set (concept), names
// the plural many itself before any parenthesis ("New Democratic Party
// candidates, 2008 …", "Cities of East Asia (North Korea)", "the cities
// within the regular definition of Central Asia"), and returns it as the
// set a question asks all of: "the cities of East Asia (North Korea)".
// A list ("the list of schools in …") or a quoted section ("the
// "Chiller Films" section of …") is no such set: "every school of the
// list of schools" reads.
func setNamed(root, many string) (string, bool) {
	if many == "" || strings.Contains(root, `"`) || containsFold(root, "list of ") || containsFold(root, "lists of ") {
		return "", false
	}
	head, _, _ := strings.Cut(root, " (")
	fs := strings.Fields(head)
	of := -1 // the last "of" before the noun
	for i, f := range fs {
		w := strings.TrimRight(f, ",;:")
		if strings.EqualFold(w, "of") {
			of = i
		}
		if !strings.EqualFold(w, many) {
			continue
		}
		// "South Carolina House of Representatives", "Timeline of the
		// tallest buildings": the noun after "of" and words in lower case
		// is not the set; after a name ("Liberal Party of Canada
		// candidates") it is.
		if of >= 0 && !slices.ContainsFunc(fs[of+1:i], func(w string) bool { return unicode.IsUpper([]rune(w)[0]) }) {
			return "", false
		}
		// The noun heads its phrase: the head's last word, or before a
		// comma or a word in lower case ("candidates, 2008 …", "Primary
		// schools in Hertsmere"), not "Top Latin Albums Year-End Chart".
		if i+1 < len(fs) && w == f && !unicode.IsLower([]rune(fs[i+1])[0]) {
			return "", false
		}
		if i == 0 {
			root = strings.ToLower(root[:1]) + root[1:] // "Cities of East Asia": the noun, not a name
		}
		return the(root), true
	}
	return "", false
}

// filtered are the templates of tpls that read with a filter phrase:
// none that puts its relative clause between "Which" and the verb
// ("Which awards whose result is Nominated appear in …", which readers
// of rounds 137 and 138 stopped over), nor before a participle of the
// sets, which would then read as the clause's ("every film whose
// language is the language of Theofilos recorded in at least one of the
// lists": Theofilos is in none, rounds 151 and 152). Without a filter,
// all of them.
func filtered(tpls []string, filter string) []string {
	if filter == "" {
		return tpls
	}
	out := slices.DeleteFunc(slices.Clone(tpls), func(t string) bool {
		return strings.Contains(t, "{many}{filter} appear") || strings.Contains(t, "{filter} recorded in") || strings.Contains(t, "{filter} that appears in")
	})
	if len(out) == 0 {
		return tpls
	}
	return out
}

var unionTemplates = []string{
	"Which {many}{filter} appear in any of {sets}? For each, give their {cols}.",
	"Collect every {one}{filter} recorded in at least one of {sets}, with the {cols} of each.",
	"Across {sets}, list all {many}{filter} and report each one's {cols}.",
	"I need every {one}{filter} that appears in {sets}: name each one and give the {cols}.",
}

var intersectTemplates = []string{
	"Which {many} appear in {all}? For each, give their {cols}.",
	"Find the {many} that {sets} have in common, with their {cols}.",
	"List every {one} found in {all}; include the {cols} of each.",
	"Some {many} are recorded in {a} as well as in {rest}. Name all of them and give each one's {cols}.",
}

var differenceTemplates = []string{
	"Which {many} appear in {a} but not in {rest}? For each, give their {cols}.",
	"List the {many} of {a} that are absent from {rest}, with the {cols} of each.",
	"Find every {one} recorded in {a} that does not appear in {rest}, and report each one's {cols}.",
}

// reverseTemplates ask for the keys sharing the anchor's pivot, the anchor
// among them (readers asked whether "share its result" counts it), and
// say "that player's", not "its", of a person.
var reverseTemplates = []string{
	"There is {a_one} in {sets} whose {clues}. Which {many} listed there share that {one}'s {pivot}, that {one} included? Give each one's {cols}.",
	"Identify the {one} in {sets} whose {clues}; then list every {one} listed there that has the same {pivot}, that {one} included, and give their {cols}.",
	"Which {many} recorded in {sets} have the same {pivot} as the {one} whose {clues}, that {one} included? For each, report the {cols}.",
	"Start from the {one} in {sets} whose {clues}. Find all {many} listed there with the same {pivot}, that {one} included, and give their {cols}.",
}

// article is "an" before a vowel sound's letter, else "a".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an"
	}
	return "a"
}
