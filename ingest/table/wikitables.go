package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/leaper-dev/leaper/graph"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// wtCell is a WikiTables-WithLinks cell: [text, [links]].
type wtCell struct {
	Text  string
	Links []string
}

func (c *wtCell) UnmarshalJSON(b []byte) error {
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil {
		// Some releases have plain strings where a cell is expected.
		var s string
		if err2 := json.Unmarshal(b, &s); err2 == nil {
			c.Text = s
			return nil
		}
		return err
	}
	if len(parts) > 0 {
		if err := json.Unmarshal(parts[0], &c.Text); err != nil {
			c.Text = string(bytes.Trim(parts[0], `"`))
		}
	}
	if len(parts) > 1 {
		if err := json.Unmarshal(parts[1], &c.Links); err != nil {
			return fmt.Errorf("links: %w", err)
		}
	}
	return nil
}

type wtJSON struct {
	UID          string     `json:"uid"`
	URL          string     `json:"url"`
	Title        string     `json:"title"`
	SectionTitle string     `json:"section_title"`
	SectionText  string     `json:"section_text"`
	Intro        string     `json:"intro"`
	Header       []wtCell   `json:"header"`
	Data         [][]wtCell `json:"data"`
}

// ParseWikiTablesLine reads one WikiTables-WithLinks / HybridQA / OTT-QA
// table object: {uid, url, title, section_title, section_text, intro,
// header: [[text, [links]]], data: [[[text, [links]]]]}. Text is
// detokenised (see Detokenize), links become canonical titles, the section
// "A -- B" becomes "A | B", and Context is the section text or else the
// page intro. Index comes from the uid suffix ("Title_2" is table 2) or is
// -1. Source is left for the caller to set. Errors are *ParseError without
// File and Line.
func ParseWikiTablesLine(line []byte) (*Table, error) {
	var j wtJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	if j.Header == nil && j.Data == nil {
		return nil, &ParseError{Reason: "no table", Msg: "object has no header or data"}
	}
	t := &Table{Format: FormatWikiTables, Index: -1}
	t.PageTitle = Title(j.URL)
	if t.PageTitle == "" {
		t.PageTitle = canonical(strings.ReplaceAll(j.Title, "_", " "))
	}
	t.PageURL = URL(t.PageTitle)
	if i := strings.LastIndexByte(j.UID, '_'); i >= 0 {
		if n, err := strconv.Atoi(j.UID[i+1:]); err == nil && n >= 0 {
			t.Index = n
		}
	}
	t.Section = Detokenize(strings.ReplaceAll(j.SectionTitle, " -- ", " | "))
	if sub := subHeading(j.SectionText); sub != "" {
		t.Section += " | " + sub // "Eudicots" over its "Grasses [ edit ]"
	} else if p := partText(j.SectionText); p != "" {
		t.Section += " | " + p // "Elite Men [9]" over 2010 Chicago Marathon's men, its women's table not kept
	}
	t.Context = Detokenize(j.SectionText)
	if t.Context == "" {
		t.Context = Detokenize(j.Intro)
	}
	t.Header = make([]string, len(j.Header))
	hasLink := false
	links := make([][]string, len(j.Header))
	for i, h := range j.Header {
		t.Header[i] = dropMarks(Detokenize(h.Text))
		links[i] = titles(h.Links)
		hasLink = hasLink || len(links[i]) > 0
	}
	if hasLink {
		t.HeaderLink = links
	}
	t.Rows, t.Ragged = wtRows(j.Data, len(j.Header))
	t.Cut = len(j.Data) >= WikiTablesMaxRows || len(t.Rows) == WikiTablesMaxRows-1 && alphabeticHead(t.Rows) ||
		partOfTitle.MatchString(j.SectionText) || countsMore(Detokenize(j.SectionText), t.PageTitle, t.Section, t.Header, len(t.Rows)) ||
		letterHead(t.Section, t.Rows) || someOf.MatchString(graph.LastSection(t.Section)) ||
		leadCountsMore(Detokenize(j.Intro), t.PageTitle, t.Section, len(t.Rows))
	return t, nil
}

// leadCountsMore reports whether the page's lead counts more of what a
// table under a section that only says where it stands ("List") lists
// than it has rows: "There are over 50 such summits in the canton of St.
// Gallen" over 18 of its mountains. Such a table is the page's whole list
// to a reader, and the crawl kept a part of it. A lead over a table of a
// named section counts the whole page, not that section.
func leadCountsMore(lead, title, section string, rows int) bool {
	last := strings.ToLower(strings.TrimSpace(graph.LastSection(section)))
	switch last {
	case "", "list", "overview", "summary", "general", "data", strings.ToLower(title):
	default:
		return false
	}
	m := thereAre.FindStringSubmatch(lead)
	if m == nil || rows == 0 {
		return false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return err == nil && 10*rows < 9*n
}

// thereAre matches a lead's count of a page's things: "There are over 50
// such summits", "there were 21 members".
var thereAre = regexp.MustCompile(`\b[Tt]here (?:are|were) (?:currently |now )?(?:over |more than |about |approximately |some |nearly |around |at least |roughly )?(\d{1,3}(?:,\d{3})*)\b`)

// someOf matches a section that says it holds a part of what it lists
// ("Some of the monument aux morts in the Aisne region", its 13 rows
// running from Achery to Guise): in a sample of the article's tables, the
// rest may be a table the release did not keep.
var someOf = regexp.MustCompile(`(?i)^\s*(?:some of|a few of|examples of|a partial list|partial list|an incomplete list|incomplete list)\b`)

// countsMore reports whether a section's own text (a page's lead speaks
// of the whole page: "98 stations" over one line's) counts more of what the
// table lists (its page's or last section's words, its first column's
// header) than it has rows: "As of 1 April 2019, 27 cities have been
// designated special cities" over 16 of Special cities of Japan, the
// crawl having kept a part. "All" of them is not on the page.
func countsMore(text, title, section string, header []string, rows int) bool {
	if text == "" || rows == 0 {
		return false
	}
	nouns := map[string]bool{}
	if len(header) > 0 {
		if w := strings.ToLower(strings.TrimSpace(header[0])); w != "" && !strings.Contains(w, " ") {
			nouns[pluralOf(w)] = true
		}
	}
	for _, w := range strings.Fields(strings.ToLower(title + " " + graph.LastSection(section))) {
		if len(w) > 3 && strings.HasSuffix(w, "s") {
			nouns[w] = true // a plural: what the page lists
		}
	}
	for _, m := range countOf.FindAllStringSubmatch(text, -1) {
		n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if err == nil && nouns[strings.ToLower(m[2])] && 10*rows < 9*n {
			return true
		}
	}
	return false
}

var countOf = regexp.MustCompile(`\b(\d{1,3}(?:,\d{3})?)\s+(\p{L}+)\b`)

// pluralOf is the plural of a one-word header as a text counts it:
// "city" cities, "club" clubs, "church" churches.
func pluralOf(w string) string {
	switch {
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		if strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh") {
			return w + "es"
		}
		return w // "teams": a plural already
	case strings.HasSuffix(w, "y") && len(w) > 2 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// partOfTitle matches a section's text saying its table lists only a
// part of what its title names: "The following table lists those
// entries which finished fifth or higher" under Melodi Grand Prix's
// "Winners", "This table lists the top ten players", "These are the top
// ten skaters based on points". "All" of the title
// is not on the page; the table counts as cut.
var partOfTitle = regexp.MustCompile(`(?i)(?:(?:table|list)\s+(?:below\s+)?(?:lists|shows|includes|contains|gives)|\b(?:these|the following)\s+are)\s+(?:only\b|those\b|the\s+(?:top|best|most|highest|leading|notable)\b|some\b|a selection\b|selected\b)`)

// letterHead reports whether a table under a letter's section ("R" of
// List of Canadian writers) that the crawl kept near its cap runs only
// through the first half of its letter: 17 writers from Rachman to
// Reid-Benta, the Richlers and Roys not kept. A column whose every cell,
// or its last word (a surname), opens with the letter tells where it
// stops.
func letterHead(section string, rows [][]Cell) bool {
	letter := []rune(strings.TrimSpace(graph.LastSection(section)))
	if len(letter) != 1 || !unicode.IsUpper(letter[0]) || len(rows) < 12 || len(rows) >= WikiTablesMaxRows {
		return false
	}
	for c := range rows[0] {
		for _, last := range []bool{false, true} {
			top, ok := 'a', true
			for _, r := range rows {
				if c >= len(r) {
					ok = false
					break
				}
				w := strings.TrimSpace(r[c].Text)
				if f := strings.Fields(w); last && len(f) > 0 {
					w = f[len(f)-1]
				}
				rs := []rune(strings.ToLower(w))
				if len(rs) == 0 || unicode.ToUpper(rs[0]) != letter[0] {
					ok = false
					break
				}
				if len(rs) > 1 && unicode.IsLetter(rs[1]) && rs[1] > top {
					top = rs[1]
				}
			}
			if ok {
				return top < 'm'
			}
		}
	}
	return false
}

// alphabeticHead reports whether a column of rows is in alphabetical
// order of first letters from the start of the alphabet and stops in its
// first half:
// "Airports in Spain (mainland)" sorted by town, A Coruña to Lleida in
// its 19 rows, the crawl's cut (the header taken as one of its 20) with
// nothing to mark it. A complete list of 19 sorted names runs on past M.
func alphabeticHead(rows [][]Cell) bool {
	if len(rows) == 0 {
		return false
	}
	for c := range rows[0] {
		var first, prev rune
		ok := true
		for i, r := range rows {
			if c >= len(r) {
				ok = false
				break
			}
			v := []rune(strings.ToLower(strings.TrimSpace(r[c].Text)))
			if len(v) == 0 || !unicode.IsLetter(v[0]) || v[0] < prev {
				ok = false
				break
			}
			if i == 0 {
				first = v[0]
			}
			prev = v[0]
		}
		if ok && first <= 'c' && prev < 'm' && prev > first {
			return true
		}
	}
	return false
}

func wtRows(data [][]wtCell, width int) ([][]Cell, int) {
	rows := make([][]Cell, 0, len(data))
	ragged := 0
	for _, r := range data {
		if len(r) != width {
			ragged++
		}
		row := make([]Cell, width)
		for i := 0; i < width && i < len(r); i++ {
			row[i] = Cell{Text: dropMarks(Detokenize(r[i].Text)), Links: titles(r[i].Links)}
		}
		rows = append(rows, row)
	}
	return rows, ragged
}

// titles maps links to canonical titles, dropping non-article links and
// repeats; nil when none is left.
func titles(links []string) []string {
	var out []string
	for _, l := range links {
		if t := linkTitle(l); t != "" && !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// linkTitle accepts a link ("/wiki/X", a URL) or a bare title ("X_Y").
func linkTitle(l string) string {
	l = strings.TrimSpace(l)
	if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "http") || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "./") {
		return Title(l)
	}
	return canonical(l)
}

type passageJSON struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// ParsePassageLine reads one OTT-QA passage {"url": "/wiki/X", "text": ...}
// into a Passage titled Title(url) (or the "title" field), its text
// detokenised. Source is left for the caller to set.
func ParsePassageLine(line []byte) (*Passage, error) {
	var j passageJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	// Passages of non-article pages (Category:, Template:, File: ...) are
	// kept under their full title: the corpus has them, and dropping them
	// would only lose text. Tables never link to them (see Title).
	title := passageTitle(j.URL)
	if title == "" {
		title = canonical(j.Title)
	}
	if title == "" {
		return nil, &ParseError{Reason: "no title", Msg: fmt.Sprintf("passage url %q is not an article", clip(j.URL, 100))}
	}
	return &Passage{Title: title, Text: Detokenize(j.Text)}, nil
}

func shortErr(err error) string {
	return clip(err.Error(), 200)
}

// passageTitle is Title without the namespace check.
func passageTitle(u string) string {
	if t := linkTitle(u); t != "" {
		return t
	}
	u = strings.TrimSpace(u)
	if i := strings.Index(u, "/wiki/"); i >= 0 {
		raw := u[i+len("/wiki/"):]
		if j := strings.IndexAny(raw, "#?"); j >= 0 {
			raw = raw[:j]
		}
		if strings.IndexByte(raw, '%') >= 0 {
			if dec, err := url.PathUnescape(raw); err == nil {
				raw = dec
			}
		}
		return collapseSpace(strings.ReplaceAll(raw, "_", " "))
	}
	return ""
}

// subHeading returns the last sub-heading a section's text holds before
// its table ("Grasses [ edit ]" under "Eudicots"): the export kept the
// heading's edit link, not its level. It is "" when there is none or the
// heading is long.
func subHeading(text string) string {
	i := strings.LastIndex(text, "[ edit ]")
	if i < 0 {
		return ""
	}
	before := strings.TrimSpace(text[:i])
	// The heading is what follows the previous sentence or heading.
	if j := strings.LastIndexAny(before, ".:]"); j >= 0 {
		before = strings.TrimSpace(before[j+1:])
	}
	if before == "" || len(strings.Fields(before)) > 6 {
		return ""
	}
	return Detokenize(before)
}

// partWords matches a section's whole text naming the part of its
// section a table lists: "Elite Men", "Women 's", "In", "Out".
var partWords = regexp.MustCompile(`(?i)^(?:elite\s+|senior\s+|junior\s+)?(?:men|women|men\s*'s|women\s*'s|boys|girls|male|female|in|out|arrivals|departures)$`)

// partText returns a section's text when, footnotes aside, it is one line
// naming the part of the section its table lists ("Elite Men [9]" of
// "Results -- Elite races"): the crawl kept that table and not its
// twins, and a question must name the part.
func partText(text string) string {
	p := strings.TrimSpace(footMark.ReplaceAllString(Detokenize(text), ""))
	p = strings.TrimSpace(strings.TrimRight(p, ":."))
	if !partWords.MatchString(p) {
		return ""
	}
	return strings.ReplaceAll(p, " 's", "'s")
}

// WikiTablesMaxRows is how many rows of a table the WikiTables-WithLinks
// and OTT-QA crawls kept (`rows[:20]`); 41% of OTT-QA's tables have
// exactly that many, against 233 of 19.
const WikiTablesMaxRows = 20

// footMark matches a footnote mark the WikiTables and OTT-QA releases
// keep in a cell's text ("Bill Harris [ 18 ]", "Votes [ a ]"), which the
// HTML readers drop with the page's sup.reference elements.
var footMark = regexp.MustCompile(`\s*\[(\d{1,3}|[a-z]|note \d{1,3}|nb \d{1,3})\]`)

// dropMarks removes footnote marks from a detokenised cell or header.
func dropMarks(s string) string {
	if !strings.Contains(s, "[") {
		return s
	}
	return strings.TrimSpace(footMark.ReplaceAllString(s, ""))
}
