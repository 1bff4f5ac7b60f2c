package synth

import (
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/leaper-dev/leaper/graph"
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

// keyNoun names the keys of a tree from its key header, or its domain when
// the header is generic.
func keyNoun(t *graph.Tree) noun {
	h := words(t.KeyHeader)
	if genericKeys[strings.ToLower(h)] || len(h) > 30 {
		if n, ok := domainNouns[t.KeyDomain]; ok {
			return n
		}
		return noun{"entry", "entries"}
	}
	h = lowerFirst(h)
	return noun{h, plural(h)}
}

// words turns a header or relation into natural words: "Date of birth",
// "has_date_of_birth" → "date of birth".
func words(h string) string {
	h = strings.TrimPrefix(h, "has_")
	h = strings.ReplaceAll(h, "_", " ")
	h = strings.ReplaceAll(h, "(s)", "")
	h = strings.ReplaceAll(h, "(es)", "")
	h = strings.Join(strings.Fields(h), " ")
	return h
}

// lowerFirst lowers capitalised words (not acronyms such as GDP), as a
// header's title case reads oddly mid-sentence.
func lowerFirst(s string) string {
	fs := strings.Fields(s)
	for i, f := range fs {
		rs := []rune(f)
		if len(rs) > 1 && unicode.IsUpper(rs[0]) && !unicode.IsUpper(rs[1]) && !unicode.IsDigit(rs[1]) {
			rs[0] = unicode.ToLower(rs[0])
			fs[i] = string(rs)
		}
	}
	return strings.Join(fs, " ")
}

// plural makes a rough English plural of the last word, leaving phrases
// with "of" ("date of birth") pluralised on the head word.
func plural(s string) string {
	if i := strings.Index(s, " of "); i > 0 {
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

// root describes a tree the way a question opens on it: its page title
// and, when there is one, its section or caption.
func root(t *graph.Tree, rng *rand.Rand) string {
	page := t.PageTitle
	sub := t.Caption
	if sub == "" {
		sub = t.Section
	}
	var parts []string
	for _, p := range strings.Split(sub, "|") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			parts = append(parts, p)
		}
	}
	sub = strings.Join(parts, ", ")
	if sub != "" && !strings.EqualFold(sub, page) {
		switch rng.IntN(3) {
		case 0:
			return `the "` + sub + `" table of the Wikipedia article "` + page + `"`
		case 1:
			return `the ` + page + ` article's "` + sub + `" table`
		default:
			return `the table "` + sub + `" on the page ` + page
		}
	}
	if strings.HasPrefix(page, "List of ") || strings.HasPrefix(page, "list of ") {
		return "the " + lowerFirst(page)
	}
	switch rng.IntN(2) {
	case 0:
		return `the Wikipedia article "` + page + `"`
	default:
		return "the table on the page " + page
	}
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

func colWords(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = lowerFirst(words(c.header))
	}
	return out
}

func pick(rng *rand.Rand, ts []string) string { return ts[rng.IntN(len(ts))] }

// fill replaces {name} fields of a template.
func fill(t string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		t = strings.ReplaceAll(t, "{"+kv[i]+"}", kv[i+1])
	}
	return t
}

var basicTemplates = []string{
	"Which {many} are listed in {root}{filter}? For each, give their {cols}.",
	"List every {one} in {root}{filter}, with the {cols} of each.",
	"In {root}, which {many}{filter} appear? Please include their {cols}.",
	"Find all {many} of {root}{filter} and report each one's {cols}.",
	"I need the complete set of {many} from {root}{filter}: name each one and give the {cols}.",
	"Collect the {many} recorded in {root}{filter}. For every one of them, give the {cols}.",
}

var unionTemplates = []string{
	"Which {many} appear both in {a} and in {b}? For each, give their {cols}.",
	"Find the {many} that are listed in {a} and also in {b}{filter}, with their {cols}.",
	"List every {one} common to {a} and {b}{filter}; include the {cols} of each.",
	"Some {many} are recorded in {a} as well as in {b}. Name all of them{filter} and give each one's {cols}.",
	"Which {many}{filter} can be found in both {a} and {b}? Report their {cols}.",
}

var unionAnyTemplates = []string{
	"Which {many} appear in {a} or in {b}{filter}? For each, give their {cols}.",
	"Combine {a} with {b}: list every {one}{filter} that either of them records, with the {cols} of each.",
	"Across {a} and {b}, which {many}{filter} are listed? Include their {cols}.",
}

var reverseTemplates = []string{
	"There is a {one} in {space} whose {clues}. Which {many}{cond} have the same {pivot} as that {one}? Give each one's {cols}.",
	"Identify the {one} of {space} whose {clues}; then list every {one}{cond} that shares its {pivot}, with their {cols}.",
	"Which {many}{cond} share the {pivot} of the {one} in {space} whose {clues}? For each, report the {cols}.",
	"Start from the {one} listed in {space} whose {clues}. Find all {many}{cond} with the same {pivot}, and give their {cols}.",
}
