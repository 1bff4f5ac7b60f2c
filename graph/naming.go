package graph

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/internal/textnorm"
)

// The naming rules of the graph: how a header names a relation and what
// domain it has, and the identity of unlinked text. Package ingest's
// cleaning names columns by them; queries and synthesis read relations
// by them.

var (
	reFootnote = regexp.MustCompile(`\[[^\]]{0,12}\]`)
)

func cleanHeader(h string) string {
	h = reFootnote.ReplaceAllString(h, "")
	return strings.TrimSpace(textnorm.SqueezeSpaces(h))
}

func normHeader(h string) string { return strings.ToLower(cleanHeader(h)) }

// RelationName standardises a header into has_<snake_case>.
func RelationName(header string, idx int) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(cleanHeader(header)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		} else {
			under = true
		}
	}
	if b.Len() == 0 {
		return fmt.Sprintf("has_column_%d", idx+1)
	}
	return "has_" + b.String()
}

var domainWords = []struct {
	domain string
	words  []string
}{
	{"person", []string{"player", "laureate", "author", "writer", "artist", "actor", "actress", "driver", "rider", "winner", "recipient", "candidate", "director", "coach", "manager", "president", "member", "athlete", "composer", "singer", "leader", "governor", "mayor", "senator", "representative", "chairman", "holder", "champion", "nominee", "producer", "captain", "head coach", "incumbent", "person", "pilot", "skater", "swimmer", "wrestler", "boxer", "cyclist", "runner", "jockey", "golfer", "minister", "monarch", "king", "queen", "pope", "bishop", "architect", "designer", "scientist", "poet", "novelist", "relation", "spouse", "partner", "opponent", "opponents", "husband", "wife", "father", "mother"}},
	{"work", []string{"title", "film", "album", "song", "single", "book", "novel", "work", "show", "series", "episode", "game", "movie", "play", "opera", "track", "program", "programme", "role", "character", "publication", "painting", "release"}},
	{"place", []string{"country", "nation", "city", "venue", "location", "state", "province", "town", "place", "stadium", "ground", "arena", "county", "district", "region", "municipality", "hometown", "birthplace", "nationality", "born", "circuit", "track", "island", "territory", "capital", "constituency", "site", "village", "destination", "origin", "station", "airport", "route", "address"}},
	{"organization", []string{"team", "club", "party", "company", "school", "college", "university", "network", "label", "publisher", "studio", "manufacturer", "constructor", "franchise", "organisation", "organization", "affiliation", "institution", "broadcaster", "channel", "airline", "operator", "owner", "band", "group", "league", "conference", "entrant", "sponsor", "brand", "employer", "agency"}},
	{"event", []string{"event", "competition", "tournament", "election", "race", "championship", "award", "category", "season", "edition", "battle", "war", "match", "cup", "prize", "festival", "olympics", "games"}},
	{"time", []string{"year", "date", "born", "died", "season", "period", "years", "term", "from", "to", "start", "end", "opened", "founded", "established", "released", "time", "decade", "era", "duration"}},
	{"measure", []string{"score", "points", "goals", "votes", "population", "area", "height", "length", "weight", "total", "gold", "silver", "bronze", "wins", "losses", "apps", "appearances", "capacity", "attendance", "rating", "sales", "gross", "budget", "result", "margin", "%", "percentage", "share", "km", "mi", "speed", "elevation", "depth", "age", "laps", "record", "pts"}},
}

// Domain classifies a column by its header words, falling back on its
// datatype. Two relations or key columns agree when name, datatype and
// domain agree; the domain lets Authors unite with Writers.
func Domain(header string, typ Datatype) string {
	words := strings.FieldsFunc(normHeader(header), func(r rune) bool { return !unicode.IsLetter(r) && r != '%' })
	named := slices.ContainsFunc(words, func(w string) bool { return w == "name" || w == "names" })
	for _, d := range domainWords {
		for _, w := range words {
			for _, k := range d.words {
				if rest, ok := strings.CutPrefix(w, k); ok && (rest == "" || rest == "s" || rest == "es") {
					if named && (d.domain == "time" || d.domain == "measure") {
						// "Name and birth year", "Metropolitan area
						// name": a name is never a date or a number.
						return "person"
					}
					return d.domain
				}
			}
		}
	}
	// "Name" says person only when no other word says what is named
	// ("Team name" is an organisation, "Name of the stadium" a place).
	if named {
		return "person"
	}
	switch typ {
	case TypeYear, TypeDate:
		return "time"
	case TypeNumber:
		return "measure"
	}
	return "thing"
}

// LastSection is the last heading of a section path, whose headings are
// joined by " | " (Tree.Section): "Round summaries | Third round" →
// "Third round".
func LastSection(section string) string {
	if i := strings.LastIndex(section, " | "); i >= 0 {
		return section[i+3:]
	}
	return section
}

// NormText is the identity of unlinked text: case-folded, with punctuation
// at the edges and repeated spaces removed.
func NormText(s string) string {
	s = strings.ToLower(textnorm.SqueezeSpaces(strings.TrimSpace(s)))
	return strings.Trim(s, " \"'“”‘’.,;:*†‡§")
}

// CleanHeader is a header without footnote marks and repeated spaces: the
// text RelationName and Domain read.
func CleanHeader(h string) string { return cleanHeader(h) }

// PlainName returns a person's name without the nickname a table writes
// in quotes ("Sune Andersson" of Sune "Mona-Lisa" Andersson) or the title
// of address before it ("Carina Autengruber" of Ms Carina Autengruber),
// and whether it had either.
func PlainName(name string) (string, bool) {
	plain := honorific.ReplaceAllString(unnicknamed(name), "")
	if plain == name || !personName.MatchString(plain) || !personLike(NormText(plain)) || possessive.MatchString(plain) {
		return "", false
	}
	return plain, true
}

// possessive matches a word in the possessive ("Mrs Brown's Boys" is
// no Mrs Brown).
var possessive = regexp.MustCompile(`['’]s\b`)

// honorific matches a title of address before a name.
var honorific = regexp.MustCompile(`^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame)\.? +`)

// personName matches two to four capitalised words.
var personName = regexp.MustCompile(`^\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*){1,3}$`)
