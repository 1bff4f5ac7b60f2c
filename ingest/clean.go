package ingest

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/internal/textnorm"
)

// CleanOptions are the cleaning rules of WebLeaper Appendix A.4. The zero
// value is not useful; see DefaultCleanOptions.
type CleanOptions struct {
	MinRows, MaxRows int // data rows, inclusive
	MinCols, MaxCols int // source columns, inclusive
	// MaxMerged is the largest share of cells that may come from horizontal
	// merges (colspan) before a table is rejected; vertical spans that only
	// repeat a value are expanded and never count.
	MaxMerged float64
	// MaxRagged is the largest share of source rows whose width differs from
	// the header's.
	MaxRagged float64
}

func cleanHeader(h string) string { return graph.CleanHeader(h) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func normHeader(h string) string { return strings.ToLower(graph.CleanHeader(h)) }

// DefaultCleanOptions are the paper's: 10..200 rows, 3..20 columns.
func DefaultCleanOptions() CleanOptions {
	return CleanOptions{MinRows: 10, MaxRows: 200, MinCols: 3, MaxCols: 20, MaxMerged: 0.10, MaxRagged: 0.05}
}

// Shape cleans a table and shapes it into a reasoning tree, or says why it
// cannot. It is deterministic and does no I/O.
func Shape(t *table.Table, opts CleanOptions) (*graph.Shaped, *graph.Reject) {
	ncol := len(t.Header)
	if ncol < opts.MinCols {
		return nil, &graph.Reject{Reason: graph.RejectTooFewCols, Detail: fmt.Sprintf("%d < %d", ncol, opts.MinCols)}
	}
	if ncol > opts.MaxCols {
		return nil, &graph.Reject{Reason: graph.RejectTooManyCols, Detail: fmt.Sprintf("%d > %d", ncol, opts.MaxCols)}
	}
	if len(t.Rows) > 0 && float64(t.Ragged)/float64(len(t.Rows)) > opts.MaxRagged {
		return nil, &graph.Reject{Reason: graph.RejectRagged, Detail: fmt.Sprintf("%d of %d rows", t.Ragged, len(t.Rows))}
	}
	if k := blockWidth(t.Header); k > 0 {
		// "Year | Number | Name | Year | Number | Name": several tables laid
		// beside each other. Keeping the first block would read a third of
		// the rows as the whole table.
		return nil, &graph.Reject{Reason: graph.RejectBlocks, Detail: fmt.Sprintf("%d blocks of %d columns", ncol/k, k)}
	}
	s := &graph.Shaped{}
	rows, whole, rej := records(t, opts, s)
	if rej != nil {
		return nil, rej
	}
	if i := subHeader(rows, t.Header); i >= 0 {
		// "Homelands | Capital | Peak population" under "Province |
		// Capital | Peak population": the rows below are homelands, not
		// provinces, and the header names only the first group.
		return nil, &graph.Reject{Reason: graph.RejectSubHeaded, Detail: fmt.Sprintf("row %d: %q", i+1, rows[i][0].Text)}
	}
	rowLinks(rows)
	cols, rej := profile(t, rows, s)
	if rej != nil {
		return nil, rej
	}
	best := chooseKey(cols, rows)
	if best < 0 {
		return nil, &graph.Reject{Reason: graph.RejectNoKey, Detail: "no unique textual column"}
	}
	key := cols[best]
	// A key cell naming two golfers is no one medallist: the tree says
	// so, and synthesis leaves it out of "all" its medallists.
	s.SeveralKeys = key.several
	if len(cols) < 2 {
		return nil, &graph.Reject{Reason: graph.RejectNoRelation, Detail: ""}
	}
	s.KeyHeader = key.header
	s.KeyDatatype = key.typ
	s.KeyDomain = key.dom
	s.Keys = make([]graph.Value, 0, len(rows))
	var rel []*colInfo
	for _, c := range cols {
		if c != key {
			rel = append(rel, c)
			s.Columns = append(s.Columns, graph.Column{Header: c.header, Name: graph.RelationName(c.header, c.idx), Datatype: c.typ, Domain: c.dom})
		}
	}
	var totals []int
	var pageWhole []table.Cell // the whole the page divides, keyless: "Maharashtra | - | … | 307,713"
	for i := range rows {
		k := key.vals[i]
		if totalRow(rows[i]) {
			totals = append(totals, i) // dropped below: summaryRow holds
		} else if k.Key == "" && pageWhole == nil && slices.ContainsFunc(rows[i][:min(2, len(rows[i]))], func(c table.Cell) bool { return wholeRow(c.Text, t.PageTitle) }) {
			pageWhole = rows[i]
		}
		// A key cell that is its column's header ("Club" over "Pos", "W",
		// "D": a second header row of sub-columns) is no key.
		if k.Key == "" || summaryRow(rows[i]) || headerRow(rows[i], t.Header) || graph.NormText(rows[i][key.idx].Text) == graph.NormText(key.header) || ownGoals(rows[i][key.idx].Text) || wholeRow(rows[i][key.idx].Text, t.PageTitle) && !partLink(k, t.PageTitle) {
			s.DroppedRows++
			continue
		}
		s.Keys = append(s.Keys, k)
		vr := make([][]graph.Value, len(rel))
		for j, c := range rel {
			vr[j] = c.multi[i]
		}
		s.Values = append(s.Values, vr)
	}
	// Rows without a key or that sum up the others are gone: the size rule
	// holds for the subtrees that remain.
	if len(s.Keys) < opts.MinRows {
		return nil, &graph.Reject{Reason: graph.RejectTooFewRows, Detail: fmt.Sprintf("%d < %d after cleaning", len(s.Keys), opts.MinRows)}
	}
	switch {
	case len(totals) == 1 && whole == nil:
		s.Stated = stated(rows[totals[0]], rel)
	case len(totals) == 0 && whole != nil:
		// "League total" beside an empty "Pos": the row records
		// dropped as the whole, its "Average" the league's 515 where
		// the teams' averages give 515.44
		s.Stated = stated(whole, rel)
	case len(totals) == 0 && pageWhole != nil:
		// "Maharashtra" under "No", its "Name" "-", closing the List of
		// districts of Maharashtra: its Area, 307,713, where the 35
		// districts' add up to 306,160.7
		s.Stated = stated(pageWhole, rel)
	}
	formerNames(s)
	s.Group = isoGroup(t.Header)
	s.Question = questionValues(t)
	return s, nil
}

// thousandsDots writes the thousands a column of counts groups with dots
// ("14.283" seats, "12.000", "19.470" ha of a national park) with commas,
// where every dotted cell is such a group: read as decimals, 12.000 would
// be 12.
func thousandsDots(h string, col []table.Cell) {
	if !countHeader.MatchString(h) {
		return
	}
	n := 0
	for _, c := range col {
		t := strings.TrimSpace(c.Text)
		if !strings.Contains(t, ".") {
			continue
		}
		if !dottedThousands.MatchString(t) {
			return
		}
		n++
	}
	if n == 0 {
		return
	}
	for i, c := range col {
		if t := strings.TrimSpace(c.Text); dottedThousands.MatchString(t) {
			col[i].Text = strings.ReplaceAll(t, ".", ",")
		}
	}
}

var (
	countHeader     = regexp.MustCompile(`(?i)capacity|population|attendance|seats|spectators|inhabitants|visitors|\(ha\)|hectares|acres`)
	dottedThousands = regexp.MustCompile(`^\d{1,3}(?:\.\d{3})+$`)
)

// listsLinks reports whether a cell names two or more of the things it
// links, each by its title's first word ("Athletics Ceremonies Football"
// linking the Games' athletics and football): several things, though its
// text is no list of their titles. A flag's country beside a name is not
// named ("Roger Federer" linking Switzerland too).
func listsLinks(c table.Cell) bool {
	if len(c.Links) < 2 {
		return false
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(graph.NormText(c.Text)) {
		words[w] = true
	}
	named, seen := 0, map[string]bool{}
	for _, l := range c.Links {
		fs := strings.Fields(graph.NormText(l))
		if len(fs) == 0 || seen[l] {
			continue
		}
		seen[l] = true
		if words[fs[0]] {
			named++
		}
	}
	return named >= 2
}

// formerNames makes text of a link a table writes by another name of the
// linked thing in time, where other cells write its title: "Brooklyn
// Dodgers" of a 1950 row linking Los Angeles Dodgers, the later rows'
// team. The cell's value is the name it shows. Another name of the
// title's last word and another first word is such a name ("Philadelphia
// Athletics" of Oakland Athletics), and so is a team's sharing no word
// with it ("St. Louis Browns" of Baltimore Orioles); "Jim Thomas" of Jimmy
// Thomas is a shortening, and "Great Britain" of United Kingdom no name in
// time.
func formerNames(s *graph.Shaped) {
	asTitle := map[string]bool{}
	for _, row := range s.Values {
		for _, vs := range row {
			for _, v := range vs {
				if v.Type == graph.TypeEntity && graph.NormText(v.Surface) == graph.NormText(v.Name) {
					asTitle[v.Key] = true
				}
			}
		}
	}
	if len(asTitle) == 0 {
		return
	}
	for _, row := range s.Values {
		for _, vs := range row {
			for i, v := range vs {
				if v.Type == graph.TypeEntity && asTitle[v.Key] && formerName(v.Surface, v.Name) {
					vs[i] = graph.Value{Key: "t:" + graph.NormText(v.Surface), Name: v.Surface, Type: graph.TypeText, Surface: v.Surface}
				}
			}
		}
	}
}

// formerName reports whether surface is another name of title in time:
// two words or more each, the same last word, first words that are no
// shortening of each other.
func formerName(surface, title string) bool {
	s, t := strings.Fields(graph.NormText(surface)), strings.Fields(graph.NormText(title))
	if len(s) >= 2 && len(t) >= 2 && strings.HasSuffix(s[len(s)-1], "s") && strings.HasSuffix(t[len(t)-1], "s") && !sharesWord(surface, title) {
		// "St. Louis Browns" of a 1946 row linking Baltimore Orioles: a
		// team's name of its own ("Great Britain" of United Kingdom is
		// no name in time)
		return true
	}
	if len(s) < 2 || len(t) < 2 || s[len(s)-1] != t[len(t)-1] || s[0] == t[0] {
		return false
	}
	// "Akali Dal" of Shiromani Akali Dal: the title's tail, a short name
	if len(s) < len(t) && slices.Equal(s, t[len(t)-len(s):]) {
		return false
	}
	return !strings.HasPrefix(s[0], t[0]) && !strings.HasPrefix(t[0], s[0])
}

// records returns t's rows that are records: full width, and no section
// heading or note spanning the row; it counts the others in
// s.DroppedRows, and refuses a table with too few or too many records or
// too many cells merged across columns. whole is the row it drops as the
// sum of the others (sumRow), if any.
func records(t *table.Table, opts CleanOptions, s *graph.Shaped) (rows [][]table.Cell, whole []table.Cell, rej *graph.Reject) {
	ncol := len(t.Header)
	// Full-width rows ("1990s", "Season cancelled") are section headings of
	// the table, not records.
	rows = make([][]table.Cell, 0, len(t.Rows))
	horiz, cells := 0, 0
	for i, r := range t.Rows {
		if len(r) != ncol {
			continue
		}
		var above []table.Cell
		if i > 0 {
			above = t.Rows[i-1]
		}
		if isSectionRow(r) || isNoteRow(r, above) {
			s.DroppedRows++
			continue
		}
		for j := range r {
			cells++
			if j > 0 && r[j].Spanned && r[j].Text == r[j-1].Text {
				horiz++
			}
		}
		rows = append(rows, r)
	}
	if i := sumRow(rows); i >= 0 {
		// "Chile | 756,096.3 | 291,930.4" under Chile's regions by area:
		// the whole, not one of them.
		whole = rows[i]
		rows = slices.Delete(rows, i, i+1)
		s.DroppedRows++
	}
	if ws := wholeRows(rows); len(ws) > 0 {
		if len(ws) == 1 && whole == nil {
			// the one whole ranked among its parts, its rank empty
			// ("Montana" among its counties): the table's own total
			whole = rows[ws[0]]
		}
		for k := len(ws) - 1; k >= 0; k-- { // in order: from the last
			rows = slices.Delete(rows, ws[k], ws[k]+1)
		}
		s.DroppedRows += len(ws)
	}
	if cs := combinedRows(rows); len(cs) > 0 {
		for k := len(cs) - 1; k >= 0; k-- {
			rows = slices.Delete(rows, cs[k], cs[k]+1)
		}
		s.DroppedRows += len(cs)
	}
	if len(rows) < opts.MinRows {
		return nil, nil, &graph.Reject{Reason: graph.RejectTooFewRows, Detail: fmt.Sprintf("%d < %d", len(rows), opts.MinRows)}
	}
	if len(rows) > opts.MaxRows {
		return nil, nil, &graph.Reject{Reason: graph.RejectTooManyRows, Detail: fmt.Sprintf("%d > %d", len(rows), opts.MaxRows)}
	}
	if cells > 0 && float64(horiz)/float64(cells) > opts.MaxMerged {
		return nil, nil, &graph.Reject{Reason: graph.RejectMerged, Detail: fmt.Sprintf("%.0f%% of cells merged across columns", 100*float64(horiz)/float64(cells))}
	}
	for i, r := range rows {
		if n := slices.IndexFunc(r, func(c table.Cell) bool { return doubled(c.Text) }); n >= 0 &&
			slices.ContainsFunc(r[n+1:], func(c table.Cell) bool { return doubled(c.Text) }) {
			// "Gold Coast Suns Gold Coast Suns reserves | Carrara Carrara |
			// AFL NEAFL": two rows the export ran into one, which no key
			// or value of it names
			return nil, nil, &graph.Reject{Reason: graph.RejectMerged, Detail: fmt.Sprintf("row %d: two rows in one (%q)", i+1, r[n].Text)}
		}
	}
	return rows, whole, nil
}

// doubled reports whether a cell writes one text twice, a line each, run
// together ("Carrara Carrara", "Carrara Stadium Carrara Stadium").
func doubled(s string) bool {
	t := textnorm.SqueezeSpaces(strings.TrimSpace(s)) // itself, most cells
	n := len(t)
	if n < 3 || n%2 == 0 || t[n/2] != ' ' {
		return false
	}
	return t[:n/2] == t[n/2+1:] && strings.ContainsFunc(t[:n/2], unicode.IsLetter)
}

// cjk reports whether r is a Chinese, Japanese or Korean letter.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// colInfo is a column's profile: its values per row and what they are.
type colInfo struct {
	idx    int
	header string
	typ    graph.Datatype
	dom    string
	vals   []graph.Value // per row; Key "" when empty
	multi  [][]graph.Value
	// several counts the cells that link several articles, each a
	// thing of its own ("Marcus Kinhult Linnea Ström": a mixed pair)
	several int
	unique  bool
	filled  float64
	linked  float64
}

// blockWidth is k when header is one block of k ≥ 2 columns repeated
// side by side (compared as normalised headers), else 0.
func blockWidth(header []string) int {
	n := len(header)
	for k := 2; 2*k <= n; k++ {
		if n%k != 0 {
			continue
		}
		same := true
		for i := k; i < n && same; i++ {
			same = normHeader(header[i]) == normHeader(header[i%k]) && normHeader(header[i]) != ""
		}
		if same {
			return k
		}
	}
	return groupedBlocks(header)
}

// groupedBlocks is blockWidth for blocks whose headers carry their
// group's name ("Men's freestyle Team | Points | Men's Greco-Roman Team |
// Points | Women's freestyle Team | Points", after a shared Rank): the
// last word repeats block by block, and each block names its own things
// (a team, a name, a country), so a row lines up several keys. Blocks of
// figures by year ("2010 Population | 2011 Population") are one key's.
func groupedBlocks(header []string) int {
	last := make([]string, len(header))
	for i, h := range header {
		if fs := strings.Fields(normHeader(h)); len(fs) > 0 {
			last[i] = fs[len(fs)-1]
		}
	}
	for off := 0; off <= 1; off++ {
		n := len(header) - off
		for k := 2; 2*k <= n; k++ {
			if n%k != 0 {
				continue
			}
			same, named, differ := true, false, false
			for i := off; i < len(header) && same; i++ {
				j := off + (i-off)%k
				same = last[i] != "" && last[i] == last[j]
				differ = differ || normHeader(header[i]) != normHeader(header[j])
			}
			for i := off; i < off+k; i++ {
				switch last[i] {
				case "team", "name", "player", "country", "nation", "club", "athlete", "driver", "rider":
					named = true
				}
			}
			if same && named && differ {
				return k
			}
		}
	}
	return 0
}

// profile reads each column of rows that cleaning keeps (dropped ones are
// recorded in s.Dropped with their reason): its datatype, domain and
// values, and whether it could be a key.
func profile(t *table.Table, rows [][]table.Cell, s *graph.Shaped) ([]*colInfo, *graph.Reject) {
	ncol := len(t.Header)
	var cols []*colInfo
	seen := map[string]bool{}
	for j := 0; j < ncol; j++ {
		h := cleanHeader(t.Header[j])
		col := column(rows, j)
		cutDetails(col)
		cutNotes(col)
		textsByHeader(h, col)
		splitLinks(col)
		thousandsDots(h, col)
		reason := dropReason(h, col)
		if reason == "" && groupFigure(rows, j) {
			reason = graph.DropGroupFigure
		}
		if reason != "" {
			s.Dropped = append(s.Dropped, headerOr(h, j)+": "+reason)
			continue
		}
		rel := graph.RelationName(h, j)
		if seen[rel] {
			s.Dropped = append(s.Dropped, headerOr(h, j)+": "+graph.DropDuplicateHeader)
			continue
		}
		seen[rel] = true
		ci := &colInfo{idx: j, header: h}
		ci.typ = inferType(col)
		ci.dom = graph.Domain(h, ci.typ)
		filled, linked := 0, 0
		uniq := make(map[string]bool, len(col))
		ci.unique = true
		ci.multi = make([][]graph.Value, 0, len(col))
		ci.vals = make([]graph.Value, 0, len(col))
		// The cells of one value, most of them, share one array.
		one := make([]graph.Value, len(col))
		several := namesSeveral(h)
		for i, c := range col {
			c.Text = runApart(c.Text, c.Links)
			vc := c
			if several && len(c.Links) == 1 && listOfNames(c.Text, c.Links[0]) {
				// "Romany , Serbian" under "Language (s)" linking Romani
				// language: the cell names more than its link; its value
				// is its text (the column keeps its type).
				vc.Links = nil
			}
			vs := cellValues(vc, ci.typ, one[i:i:i+1])
			ci.multi = append(ci.multi, vs)
			if len(vs) == 0 {
				ci.vals = append(ci.vals, graph.Value{})
				continue
			}
			filled++
			if len(c.Links) > 0 {
				linked++
			}
			v := vs[0]
			if len(vs) > 1 {
				v = cellValue(c, graph.TypeText) // a multi-link cell as key is its text
			}
			if len(vs) > 1 || listsLinks(c) || len(c.Links) == 1 && linkAmongOthers(c.Text, c.Links[0]) || twoQualified(c.Text) {
				ci.several++
			}
			ci.vals = append(ci.vals, v)
			if uniq[v.Key] {
				ci.unique = false
			}
			uniq[v.Key] = true
		}
		ci.filled = float64(filled) / float64(len(rows))
		ci.linked = float64(linked) / math.Max(1, float64(filled))
		unifyTexts(ci.multi)
		cols = append(cols, ci)
	}
	if len(cols) == 0 {
		return nil, &graph.Reject{Reason: graph.RejectNoKey, Detail: "every column dropped"}
	}
	return cols, nil
}

// chooseKey is the index in cols of the key column, or -1: unique,
// nearly full, textual; name-like and linked preferred; leftmost on ties.
// The first column that may be the key, headed as the rows' names ("Song
// title", "Name"), is the key before any other: a soundtrack's songs,
// whose titles a CSV export writes unlinked, are its rows, not the
// artists linked beside them that no song of the list repeats; a draft's
// players, not their colleges.
func chooseKey(cols []*colInfo, rows [][]table.Cell) int {
	best, bestScore := -1, math.Inf(-1)
	for i, c := range cols {
		if !c.unique || c.filled < 0.9 || (c.typ != graph.TypeEntity && c.typ != graph.TypeText) {
			continue
		}
		// A game's score or a day of the year ("W 21–16", "June 23") is
		// no key: "t:w 21–16" would be one entity for every game so scored.
		if scoreColumn(column(rows, c.idx)) {
			continue
		}
		if best < 0 && rowsNames(c.header) {
			return i // the first column that may be the key
		}
		score := 2*c.linked + c.filled - 0.05*float64(i)
		if nameLike(c.header) && !otherName(c.header) {
			score += 3
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func headerOr(h string, j int) string {
	if h == "" {
		return fmt.Sprintf("column %d", j+1)
	}
	return h
}

func column(rows [][]table.Cell, j int) []table.Cell {
	col := make([]table.Cell, len(rows))
	for i, r := range rows {
		col[i] = r[j]
	}
	return col
}

// cutDetails removes the "details" link that Wikipedia's results tables
// put after an event, a season or a country ("1948 St. Moritz details",
// "1994 (details)", "Flyweight details") from a column's cells, when most
// of the column's cells end with one: the cell's text loses the word, and a
// cell with more than one link loses its last (the details page), so that
// "1948 St. Moritz" is what the tree names, not "1948 St. Moritz details".
// A single link stays: it is then the details page itself, a fine entity
// for the cell. A column where only a few cells end so ("See the listings
// for full details") is left as it is. col holds copies of the table's
// cells; the table is not changed.
func cutDetails(col []table.Cell) {
	if !mostCells(col, 2, func(s string) bool { _, ok := detailsCut(s); return ok }) {
		return
	}
	for i := range col {
		text, ok := detailsCut(col[i].Text)
		if !ok {
			continue
		}
		col[i].Text = text
		if n := len(col[i].Links); n > 1 {
			col[i].Links = col[i].Links[: n-1 : n-1]
		}
	}
}

// detailsCut returns s without a trailing "details" word ("details",
// "Details", "(details)", "[details]"), and whether it had one with some
// text before it.
func detailsCut(s string) (string, bool) {
	const word = "details"
	t := strings.TrimRight(s, " \t\n)]")
	if len(t) <= len(word) || !strings.EqualFold(t[len(t)-len(word):], word) {
		return s, false
	}
	t = t[:len(t)-len(word)]
	if c := t[len(t)-1]; !textnorm.IsSpace(c) && c != '(' && c != '[' {
		return s, false // "Retails", "Xdetails"
	}
	t = strings.TrimRight(t, " \t\n([")
	if blank(t) {
		return s, false
	}
	return t, true
}

// rosterNote matches a squad list's note after a player's name: "(on
// loan from Granada)", "(at Carlisle United)", "(now Abdul Jeelani)",
// "(Captain)", "(c)", "(vice-captain)", "(110th Congress)"; and a draft's trade note after a
// team's: "(from Wash)".
var rosterNote = regexp.MustCompile(`(?i)^(.*\S)\s*\((?:on loan (?:from|to|at) [^()]*|loaned from [^()]*|from [^()]*|via [^()]*|at [^()]*|now [^()]*|formerly [^()]*|\d+(?:st|nd|rd|th) congress|captain|vice[- ]captain|c|vc|retired)\)$`)

// footSign matches a name or a figure with a footnote sign after it
// ("Green Island ‡", "Baltimore Bullets*", "Steve Arlin ♦" of a College
// Baseball All-America Team, "East Gippsland United¹",
// "8²"), which the table explains below it; "817 km²" is an area.
var (
	footSign = regexp.MustCompile(`^(.*\pL[^\s*†‡§♦≈]*)\s*[*†‡§♦≈]{1,3}$`)
	supSign  = regexp.MustCompile(`^(.*\pL{3}|\d[\d,.]*)\s*[¹²³⁴⁵⁶⁷⁸⁹]$`)
)

// movedNote matches an incumbent's name with the small print under it:
// "Phil English Redistricted from the 21st district (now obsolete)".
var movedNote = regexp.MustCompile(`^(.*\pL\.?)\s+(?:Redistricted|Retired|Renominated|Lost renomination|Died)\b.*$`)

// legendMark matches a value with a mark in brackets the table's legend
// explains ("present[N]", "Singapore Changi Airport[Hub]").
var legendMark = regexp.MustCompile(`^(.*\S)\s*\[[A-Za-z][A-Za-z .]{0,19}\]$`)

// noteDigit matches a word with a footnote's number run into it
// ("Russia1", "Finsteraarhorn1"); iocCode an athlete's name with a
// country's code ("Liu Jianying (CHN)").
var (
	noteDigit = regexp.MustCompile(`^(.*\p{Ll})\d$`)
	iocCode   = regexp.MustCompile(`^(.*\pL\.?)\s*\(\s*[A-Z]{3}\s*\)$`)
	// seasonNote matches a club's name with a link to its season
	// ("Bradford Bulls (2014 season)").
	seasonNote = regexp.MustCompile(`^(.*\pL\.?)\s*\(\s*\d{4}(?:\s*[–-]\s*\d{2,4})?\s+season\s*\)$`)
	// langLink matches a name with the code of another language's
	// Wikipedia that has its article ("Theodore Akimenko (ru)").
	langLink = regexp.MustCompile(`^(.*\pL\.?)\s*\(\s*[a-z]{2,3}\s*\)$`)
)

// honorific matches a parliament's style before a member's name ("Hon
// Larry Anthony", "Rt Hon Sir Earle Page", "The Hon. John Smith").
var honorific = regexp.MustCompile(`^(?:The\s+)?(?:Rt\.?\s+|Right\s+)?Hon\.?\s+(\p{Lu}.*\s.*)$`)

// mayBeStyled reports whether honorific may match s: it begins with one
// of the style's words. Most cells do not, and the pattern would be tried
// on every cell of every table.
func mayBeStyled(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "Hon") || strings.HasPrefix(s, "Rt") || strings.HasPrefix(s, "Right") || strings.HasPrefix(s, "The ")
}

// styledName is text without a member's style, where the column writes
// the style on styled cells (two or more), or "".
func styledName(text string, styled int) string {
	if styled < 2 {
		return ""
	}
	name := ""
	if mayBeStyled(text) {
		if m := honorific.FindStringSubmatch(text); m != nil {
			name = m[1]
		}
	}
	// "Rt Hon Dr H.V. Evatt", "Sir Earle Page": the title goes with the
	// style, in a column that writes styles.
	rest := text
	if name != "" {
		rest = name
	}
	if m := personTitle.FindStringSubmatch(rest); m != nil {
		return m[1]
	}
	return name
}

// personTitle matches a name after a doctor's or knight's title.
var personTitle = regexp.MustCompile(`^(?:Dr\.?|Sir|Dame)\s+(\p{Lu}\S*\s+\S.*)$`)

// legendLetters matches a name of two words or more with a legend's
// capital letters run into its last, capitalised word ("Beijing GuoanTH",
// "Liaoning WhowinP": title holders, promoted), their superscript lost;
// "93.3 myFM" is a station's name.
var legendLetters = regexp.MustCompile(`^(\S.*\s\p{Lu}\S*\p{Ll}{2})\p{Lu}{1,2}$`)

// linkWrites reports whether a link of the cell writes the text's last
// word whole: "Leones Negros UdeG" linking Leones Negros UdeG Premier,
// whose "G" is the name's, no legend's letter.
func linkWrites(links []string, text string) bool {
	w := text[strings.LastIndexByte(text, ' ')+1:]
	return slices.ContainsFunc(links, func(l string) bool {
		return slices.Contains(strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '_' }), w)
	})
}

// sortPrefixed returns the name a cell's one link titles when the cell is
// that name after one word of a sort key ("Szuminski Jason Szuminski",
// "Garcia Chris Taylor" linking Chris Taylor (baseball)). Unless keyed
// (the column's sort keys run into two names or more), the word must be
// the key of that name: figures led by a zero ("04 Fourth Avenue Line"),
// a word of the name ("Wallstrom Margot Wallström") or its first name
// written out ("Daniel Dan Humphrey"). A word before a name is otherwise
// the cell's own: "Royal Spanish Navy", "I Mexican Grand Prix", "Upper
// Eastern Suburbs", "Burlington Central High School".
func sortPrefixed(text string, links []string, keyed bool) (string, bool) {
	if len(links) != 1 {
		return "", false
	}
	title := links[0]
	if i := strings.Index(title, " ("); i > 0 {
		title = title[:i] // "Chris Taylor (baseball)"
	}
	if len(text) <= len(title) {
		return "", false // most cells: the title itself, or shorter
	}
	if name, ok := longKey(text, title); ok {
		return name, true // "Perrin de Brichambaut Marc Perrin de Brichambaut"
	}
	head, rest, ok := strings.Cut(text, " ")
	// One capitalised word of letters: not "at" or "vs" of a game, nor
	// a mark ("*", "/")
	// "The Red Ghost" linking Red Ghost: an article is the title's, no key
	// "04 Fourth Avenue Line": a sort key of figures led by a zero
	zeroLed := head != "" && head[0] == '0' && !strings.ContainsFunc(head, func(r rune) bool { return r < '0' || r > '9' })
	if !ok || !capitalLetters(head) && !zeroLed || head == "The" || head == "A" || head == "An" || !strings.Contains(title, " ") || graph.NormText(rest) != graph.NormText(title) {
		return "", false
	}
	if !keyed && !zeroLed && !keyOf(head, title) {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// keyRun returns what follows the longest run of one to three words at
// the start of text that the rest repeats word for word (a surname as the
// sort key: "Herrera Carbuccia Olga Venecia Herrera Carbuccia", "Akane
// Tomoko Akane"), the rest two words or more.
func keyRun(text string) (string, bool) {
	ws := strings.Fields(text)
	for k := min(3, len(ws)-2); k >= 1; k-- {
		key, rest := ws[:k], ws[k:]
		r, _ := utf8.DecodeRuneInString(key[0])
		if !unicode.IsUpper(r) {
			return "", false
		}
		for i := 0; i+k <= len(rest); i++ {
			if slices.Equal(rest[i:i+k], key) {
				return strings.Join(rest, " "), true
			}
		}
	}
	return "", false
}

// longKey returns the linked name a cell writes after a sort key of
// several words, or of one hyphenated word, that the name repeats
// ("Alapini-Gansou Reine Alapini-Gansou" linking Reine Alapini-Gansou).
func longKey(text, title string) (string, bool) {
	name, ok := keyRun(text)
	if !ok || graph.NormText(name) != graph.NormText(title) {
		return "", false
	}
	head := strings.Fields(text)[0]
	if strings.Count(text, " ")-strings.Count(name, " ") < 2 && !strings.Contains(head, "-") {
		return "", false // one plain word: sortPrefixed's own checks
	}
	return name, true
}

// keyOf reports whether head is a sort key of the name title: one of its
// words, accents aside, or its first name written out.
func keyOf(head, title string) bool {
	h := textnorm.FoldAccents(head)
	ws := strings.Fields(textnorm.FoldAccents(title))
	return slices.Contains(ws, h) || len(ws) > 0 && len(ws[0]) >= 2 && len(h) > len(ws[0]) && strings.HasPrefix(h, ws[0])
}

// workTitles reports whether a header heads the titles of works:
// episodes, songs, films, books.
func workTitles(h string) bool {
	switch normHeader(h) {
	case "title", "episode title", "episode", "song", "song title", "single", "track", "track title", "film", "film title",
		"album", "album title", "book", "book title":
		return true
	}
	return false
}

// titledAs reports whether a work's cell text is the title of the
// article it links, its disambiguator aside ("Lilies" linking Lilies
// (film)) or not ("Dong Yi (TV series)", as a CSV export writes every
// link). An episode "Klaws" linking Klaw (Marvel Comics), its villain,
// is not.
func titledAs(text, title string) bool {
	t := graph.NormText(plainCell(text))
	if t == graph.NormText(title) {
		return true
	}
	if i := strings.Index(title, " ("); i > 0 {
		title = title[:i]
	}
	return t == graph.NormText(title)
}

// nicknames reports whether a header heads the names teams or people go
// by ("Nickname", "Nickname(s)", "Mascot").
func nicknames(h string) bool {
	switch normHeader(h) {
	case "nickname", "nicknames", "nickname(s)", "nickname ( s )", "mascot", "mascots":
		return true
	}
	return false
}

// linkedNote returns the name a cell's first link names before a note in
// parentheses of words of its own: "Chuck Bednarik (Lottery bonus pick)"
// linking Chuck Bednarik, "La guerra de los gimnasios (short)". A note of
// one word other than a film's ("Jeff Miller (R)", "Chicago Bears (2)")
// is left to the value's other checks.
func linkedNote(text string, links []string) (string, bool) {
	if len(links) == 0 {
		return "", false
	}
	name, note, ok := noteAfter(text)
	if !ok {
		return "", false
	}
	// The link's title, or its head before a qualifier ("Jason Davis (8
	// Cle)" linking Jason Davis (baseball)); cutNotes keeps a note that
	// tells two cells apart ("Hamlet (1996 version)").
	if !linkNamed(links[0], name) {
		return "", false
	}
	// The note's own links ("Cle" linking Cleveland Indians) go with it:
	// any other link must be a word of the note.
	for _, l := range links[1:] {
		if !sharesWord(note, l) && !initialsIn(note, l) {
			return "", false
		}
	}
	return name, true
}

// lowerWords counts the words of s in lower-case letters ("round",
// "lost", "to"): a sentence's, which a name has none or one of.
func lowerWords(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) && !strings.ContainsFunc(w, unicode.IsDigit) {
			n++
		}
	}
	return n
}

// langMark reports whether a mark in brackets is a language's code, a
// link to another language's Wikipedia ("[de]").
func langMark(mark string) bool {
	in := strings.Trim(strings.TrimSpace(mark), "[]")
	return len(in) >= 2 && len(in) <= 3 && strings.ToLower(in) == in && !strings.ContainsFunc(in, func(r rune) bool { return !unicode.IsLetter(r) })
}

// markOf reports whether a note is a mark of one to three letters that
// the article titled l starts with: "(C)" linking Caretaker manager or
// Captain.
func markOf(note, l string) bool {
	in := strings.TrimSpace(strings.Trim(strings.TrimSpace(note), "()"))
	if in == "" || len(in) > 3 || strings.ContainsFunc(in, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(in)
	l0, _ := utf8.DecodeRuneInString(l)
	return unicode.ToUpper(r) == unicode.ToUpper(l0)
}

// initialsIn reports whether note holds a word that abbreviates the
// article titled l by its first letters ("Cle" of Cleveland Indians).
func initialsIn(note, l string) bool {
	for _, w := range strings.Fields(note) {
		if len(w) >= 2 && strings.HasPrefix(strings.ToLower(l), strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// filmNote are the one-word notes a filmography writes after a title.
var filmNote = map[string]bool{"short": true, "voice": true, "uncredited": true, "cameo": true, "documentary": true, "unreleased": true}

// sharesWord reports whether text has a word of three letters or more of
// link title l (its disambiguator aside).
func sharesWord(text, l string) bool {
	if i := strings.Index(l, " ("); i > 0 {
		l = l[:i]
	}
	t := " " + graph.NormText(text) + " "
	for _, w := range strings.Fields(graph.NormText(l)) {
		if len(w) >= 3 && strings.Contains(t, " "+w+" ") {
			return true
		}
	}
	return false
}

// postNominal returns the name a cell writes before a person's
// post-nominal letters ("Eric Ashton MBE" linking Eric Ashton and the
// Order of the British Empire), with the links that name it: the honour
// is not the person's name. Only where a link names what is left, of two
// words or more ("Young MC" is a name).
func postNominal(text string, links []string) (string, []string, bool) {
	words := strings.Fields(text)
	n := len(words)
	for n > 2 && postNominals[strings.TrimRight(words[n-1], ",")] {
		n--
	}
	if n == len(words) {
		return "", nil, false
	}
	name := strings.TrimRight(strings.Join(words[:n], " "), ",")
	var keep []string
	for _, l := range links {
		if linkNamed(l, name) {
			keep = append(keep, l)
		}
	}
	if len(keep) != 1 {
		return "", nil, false
	}
	return name, keep, true
}

// regionCodes reports whether a column writes a region's code after its
// names ("Windsor West, ON", "Saint-Maurice, QC"): two cells or more end
// in a comma and two capitals that are no honour's, so a "QC" among them
// is Quebec, not a Queen's Counsel.
func regionCodes(col []table.Cell) bool {
	n := 0
	for _, c := range col {
		text := strings.TrimSpace(c.Text)
		i := strings.LastIndex(text, ", ")
		if i <= 0 {
			continue
		}
		if code := text[i+2:]; len(code) != 2 || postNominals[code] || !capitalLetters(code) || strings.ToUpper(code) != code {
			continue
		}
		if n++; n >= 2 {
			return true
		}
	}
	return false
}

// postNominals are the letters British and Commonwealth honours put after
// a name.
var postNominals = map[string]bool{
	"MBE": true, "OBE": true, "CBE": true, "KBE": true, "DBE": true, "GBE": true, "VC": true, "GC": true,
	"DSO": true, "DFC": true, "MC": true, "QC": true, "KC": true, "CH": true, "OM": true, "MP": true,
	"FRS": true, "OAM": true, "AO": true, "AC": true, "KCB": true, "GCB": true, "CB": true, "KG": true,
}

// capitalLetters reports whether w is a word of letters that starts with
// a capital.
func capitalLetters(w string) bool {
	for i, r := range w {
		if !unicode.IsLetter(r) || i == 0 && !unicode.IsUpper(r) {
			return false
		}
	}
	return w != ""
}

// legalForm reports whether text ends in a company's legal form written
// with a closing capital ("Univention GmbH"), which is no legend's letter.
func legalForm(text string) bool {
	return strings.HasSuffix(text, "mbH") || strings.HasSuffix(text, "GmbH") || strings.HasSuffix(text, "KGaA")
}

// figureNote matches a name followed by a grouped figure in parentheses
// (a stadium's capacity, "Stadion pod Golubinjom (5,140)"; a town's
// population) or by a life's years ("Eduardo Mendoza ( 1943-）").
var figureNote = regexp.MustCompile(`^(.*\pL.*?)\s*(?:\(\d{1,3}(?:,\d{3})+\)|\(\s*\d{4}\s*[-–]\s*(?:\d{4})?\s*[)）])$`)

// keySign matches a name of two words or more with a sign a table's key
// explains ("Johnny Green+", "Tom Robitaille#", "Adrian Dantley^"); one
// word keeps it ("C++").
var keySign = regexp.MustCompile(`^(\S.*\s.*\pL\.?)\s*[+#^]{1,2}$`)

// scoreSuffix matches a name followed by a score ("Clara 3-20", a GAA
// final's goals and points).
var scoreSuffix = regexp.MustCompile(`^(.*\pL\S*)\s+\d{1,2}\s*[-–]\s*\d{1,2}$`)

// numbered matches a name after a figure: a sort key or a map's number
// run into it ("04 Fourth Avenue Line", "16 Bornholm").
var numbered = regexp.MustCompile(`^(\d{1,3})\s+(\p{Lu}.*)$`)

// cutNumbers takes the figures off the names of a column that numbers
// them: a figure led by a zero (a sort key: "04 Fourth Avenue Line"
// beside "Brighton Line"), or any figure where four cells in five or
// more are numbered, each by another figure ("1 Copenhagen Municipality",
// "16 Bornholm": a map's numbers). "3 Doors Down" among bands keeps its
// name.
// figureNotes cuts a parenthesised note off a figure in a column of
// figures: "36.38% (52% in 2010)" among a 2000 census's shares is 36.38%,
// the note another year's, which the answer would otherwise give whole
// beside its neighbours' plain figures. Most of the column's filled cells
// must be figures already.
func figureNotes(col []table.Cell) {
	figures, filled := 0, 0
	for _, c := range col {
		t := strings.TrimSpace(c.Text)
		if t == "" {
			continue
		}
		filled++
		if _, ok := parseNumber(t); ok {
			figures++
		}
	}
	if filled < 3 || 5*figures < 4*filled {
		return
	}
	for i, c := range col {
		t := strings.TrimSpace(c.Text)
		m := figureWithNote.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		if _, ok := parseNumber(m[1]); ok {
			col[i].Text = m[1]
		}
	}
}

// figureWithNote matches a figure followed by a parenthesised note in
// words ("(52% in 2010)"); a parenthesis of figures alone ("42 (1)", a
// player's appearances and those as a substitute) is data and stays.
var figureWithNote = regexp.MustCompile(`^(\S+)\s*\([^()]*\pL[^()]*\)$`)

func cutNumbers(col []table.Cell) {
	n, filled := 0, 0
	seen := map[string]bool{}
	distinct := true
	for _, c := range col {
		text := strings.TrimSpace(c.Text)
		if text == "" {
			continue
		}
		filled++
		if m := numbered.FindStringSubmatch(text); m != nil {
			n++
			distinct = distinct && !seen[m[1]]
			seen[m[1]] = true
		}
	}
	all := n >= 3 && 5*n >= 4*filled && (distinct || groupKeys(col))
	for i, c := range col {
		m := numbered.FindStringSubmatch(strings.TrimSpace(c.Text))
		if m != nil && (all || len(m[1]) > 1 && m[1][0] == '0') {
			col[i].Text = m[2]
		}
	}
}

// keyedName is the name of a cell that writes it with its sort key or
// an office: "Varrichione, Frank Frank Varrichione", "Eugene Lipscomb
// Eugene Lipscomb" (the key the same as the name), "Linda M. McGee, Chief
// Judge" (her office, not her name), "Thörnell, Olof General Olof
// Thörnell (1877-1977)".
func keyedName(text string, links []string) (string, bool) {
	if name, ok := sortKeyed(text); ok {
		return name, true
	}
	if name, ok := twiceWritten(text); ok {
		return name, true
	}
	if name, ok := roleAfter(text, links); ok {
		return name, true
	}
	return sortKeyedLink(text, links)
}

// groupKeys reports whether every filled cell of col is numbered, the
// figures rising down the column and each always before the same name,
// two figures or more: a sort key of groups ("1 Defensive tackle", "1
// Defensive tackle", "2 Defensive end"), not ranks run into names ("1
// Bolt", "1 Blake", "3 Gay").
func groupKeys(col []table.Cell) bool {
	name := map[string]string{}
	last := -1
	for _, c := range col {
		text := strings.TrimSpace(c.Text)
		if text == "" {
			continue
		}
		m := numbered.FindStringSubmatch(text)
		// "1 January 2010": a date, its day no key
		if m == nil || strings.ContainsFunc(m[2], unicode.IsDigit) || reDay.MatchString(strings.Fields(m[2])[0]) {
			return false
		}
		k, _ := strconv.Atoi(m[1])
		if k < last {
			return false
		}
		last = k
		if was, ok := name[m[1]]; ok && was != m[2] {
			return false
		}
		name[m[1]] = m[2]
	}
	return len(name) >= 2
}

// twiceWritten returns one half of a name the export wrote twice, its sort
// key run into it: "Eugene Lipscomb Eugene Lipscomb". A name of one word
// twice ("Duran Duran", "Talk Talk") is a name.
func twiceWritten(text string) (string, bool) {
	ws := strings.Fields(text)
	if len(ws) < 4 || len(ws)%2 != 0 {
		return "", false
	}
	h := len(ws) / 2
	if !slices.Equal(ws[:h], ws[h:]) {
		return "", false
	}
	return strings.Join(ws[:h], " "), true
}

// secondScript matches a name in Latin letters followed by its name in
// Chinese, Japanese or Korean: two lines of one cell the export ran
// together ("What Is a Good Teacher 自從他來了").
var secondScript = regexp.MustCompile(`^(\P{Han}*\p{Latin}[^\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]*?)\s+([\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}].*)$`)

// mostCells reports whether at least least cells of col, and half of
// those that are not blank, are ones ok takes: a column's way of writing,
// not a cell's chance.
func mostCells(col []table.Cell, least int, ok func(string) bool) bool {
	filled, n := 0, 0
	for _, c := range col {
		if blank(c.Text) {
			continue
		}
		filled++
		if ok(c.Text) {
			n++
		}
	}
	return n >= least && 2*n >= filled
}

// bilingual returns the Latin line of a cell secondScript matches whose
// second line has no word in Latin letters but a numeral's ("II").
func bilingual(text string) (string, bool) {
	if !strings.ContainsFunc(text, cjk) {
		return "", false // most cells: no second script to look for
	}
	m := secondScript.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return "", false
	}
	latin := 0
	for _, r := range m[2] {
		if unicode.Is(unicode.Latin, r) {
			latin++
		}
	}
	return m[1], latin <= 3
}

// cutSecondScript keeps the Latin line of a column's bilingual names when
// most of its cells are bilingual: an English page's reader names a film
// by its English title.
func cutSecondScript(col []table.Cell) {
	if !mostCells(col, 3, func(s string) bool { _, ok := bilingual(s); return ok }) {
		return
	}
	for i, c := range col {
		if name, ok := bilingual(c.Text); ok {
			col[i].Text = name
		}
	}
}

// noteAfter splits a name from the note in parentheses of words of its
// own that ends the text ("Chuck Bednarik (Lottery bonus pick)"), a note
// of one word only a film's ("(short)").
func noteAfter(text string) (name, note string, ok bool) {
	if !strings.HasSuffix(text, ")") {
		return "", "", false
	}
	i := strings.LastIndex(text, " (")
	if i <= 0 {
		return "", "", false
	}
	name, note = text[:i], strings.TrimSuffix(text[i+2:], ")")
	if strings.ContainsAny(note, "()") || len(strings.Fields(note)) < 2 && !filmNote[strings.ToLower(note)] {
		return "", "", false
	}
	return name, note, true
}

// unlinkedNotes cuts the note off the column's unlinked names where
// linkedNote cuts its links' names of theirs, three or more and half its
// links, and returns names: the national parks of France write each with
// its French name ("Vanoise National Park ( Parc national de la Vanoise
// )"), and the one without an article, "Forêts National Park ( Parc
// national des forêts )", is named as the ten beside it are. A note that
// tells the name from another cell's stays (names, noteNames).
func unlinkedNotes(col []table.Cell, names map[string]int) map[string]int {
	if names == nil {
		return nil
	}
	links, cut := 0, 0
	noted := map[string]bool{} // the texts linkedNote cuts
	for _, c := range col {
		if len(c.Links) == 0 {
			continue
		}
		links++
		text := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if name, ok := linkedNote(text, c.Links); ok && names[graph.NormText(name)] == 1 {
			noted[graph.NormText(text)] = true
			cut++
		}
	}
	if cut < 3 || 2*cut < links {
		return names
	}
	for i, c := range col {
		if len(c.Links) > 0 {
			continue
		}
		// A venue the column links once and writes again unlinked, note
		// and all, is that one; another note on the same name is another
		// thing's.
		text := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if name, _, ok := noteAfter(text); ok && (names[graph.NormText(name)] == 0 || noted[graph.NormText(text)]) {
			col[i].Text = name
		}
	}
	return names
}

// noteNames counts the column's texts by the names linkedNote cuts them
// to, nil when it cuts none: a note that tells two cells apart stays.
func noteNames(col []table.Cell) map[string]int {
	if !slices.ContainsFunc(col, func(c table.Cell) bool {
		_, ok := linkedNote(strings.TrimSpace(c.Text), c.Links)
		return ok
	}) {
		return nil
	}
	names := map[string]int{}
	for _, c := range col {
		text := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if name, ok := linkedNote(text, c.Links); ok {
			text = name
		}
		names[graph.NormText(text)]++
	}
	return names
}

// cutNotes takes notes off the names of a column: "Essaïd Belkalem (on
// loan from Granada)" is the player, linked as such, not a text naming a
// loan; so is a linked winner's score ("Clara 3-20"). Signs and marks
// ("Green Island ‡", "Johnny Green+", "present[N]", "Russia1") come off
// any cell. Links a note holds go with it; a name whose link cannot be
// told keeps the cell's first. col holds copies of the table's cells.
func cutNotes(col []table.Cell) {
	cutNumbers(col)
	figureNotes(col)
	cutSecondScript(col)
	// A member's style comes off only where the column writes it twice or
	// more: "Hon Hai Precision" alone is a company.
	styled := 0
	for _, c := range col {
		if mayBeStyled(c.Text) && honorific.MatchString(strings.TrimSpace(c.Text)) {
			styled++
		}
	}
	// Sort keys run into names are the column's way when two cells or
	// more have one that is plainly a key.
	keys := 0
	for _, c := range col {
		if _, ok := sortPrefixed(strings.TrimSpace(textnorm.SqueezeSpaces(c.Text)), c.Links, false); ok {
			keys++
		}
	}
	names := unlinkedNotes(col, noteNames(col))
	turnNames(col)
	codes := columnCodes(col)
	for i, c := range col {
		text := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if strings.Contains(text, "()") {
			// "Luke Hille ( )": a parenthesis whose link the export lost
			text = strings.TrimSpace(textnorm.SqueezeSpaces(strings.ReplaceAll(text, "()", "")))
			col[i].Text = text
		}
		if name, ok := keyedName(text, c.Links); ok {
			col[i].Text = name
			continue
		}
		if m := styledName(text, styled); m != "" {
			text = m // "Rt Hon Dr H.V. Evatt": a member's style, not his name
			col[i].Text = text
		}
		if name, ok := sortPrefixed(text, c.Links, keys >= 2); ok {
			col[i].Text = name // "Garcia Chris Taylor" linking Chris Taylor: a sort key run into the name
			continue
		}
		if keys >= 2 && len(c.Links) == 0 {
			if name, ok := keyRun(text); ok {
				col[i].Text = name // "Akane Tomoko Akane" among linked names with keys: the same key, no link
				continue
			}
		}
		if !mayHoldNote(text) {
			continue // most cells: no pattern below can match
		}
		if len(c.Links) == 1 && graph.NormText(c.Links[0]) == graph.NormText(text) {
			continue // "They Died with Their Boots On" linking its own title: a name, no note
		}
		if name, links, ok := postNominal(text, c.Links); ok && !regionCodes(col) {
			col[i].Text, col[i].Links = name, links // "Eric Ashton MBE": the name, not his order
			continue
		}
		if name, ok := linkedNote(text, c.Links); ok && names[graph.NormText(name)] == 1 {
			// "Chuck Bednarik (Lottery bonus pick)": the note printed
			// under the name; "Dance India Dance (season 2)" beside
			// season 1 is told apart by it
			col[i].Text, col[i].Links = name, c.Links[:1]
			continue
		}
		if m := figureNote.FindStringSubmatch(text); m != nil {
			text = m[1] // "Stadion pod Golubinjom (5,140)": its capacity, not its name
			col[i].Text = text
		} else if m := footSign.FindStringSubmatch(text); m != nil {
			text = m[1] // "Green Island ‡": the table's footnote sign
			col[i].Text = text
		} else if m := supSign.FindStringSubmatch(text); m != nil {
			text = m[1] // "East Gippsland United¹", "8²": the footnote's number
			col[i].Text = text
		} else if m := legendLetters.FindStringSubmatch(text); m != nil && !legalForm(text) && !linkWrites(c.Links, text) {
			text = m[1] // "Beijing GuoanTH": a legend's letters (title holders), their superscript lost
			col[i].Text = text
		} else if m := keySign.FindStringSubmatch(text); m != nil {
			text = m[1] // "Johnny Green+": a draft's All-Star sign
			col[i].Text = text
		} else if m := legendMark.FindStringSubmatch(text); m != nil && (lowerWords(m[1]) < 2 || langMark(text[len(m[1]):])) {
			// "Singapore Changi Airport[Hub]": the legend's mark; "2nd
			// round lost to Anastasia Pivovarova [Q]" is a sentence whose
			// mark says who she was; "[de]" links another Wikipedia
			text = m[1]
			col[i].Text = text
		} else if m := noteDigit.FindStringSubmatch(text); m != nil && !hasDigit(m[1]) && !seriesName(col, i, m[1]) {
			text = m[1] // "Russia1": a footnote's number ("817 km2" is an area)
			col[i].Text = text
		} else if name, links, ok := codes.cut(text, c.Links); ok {
			text = name // "Liu Jianying (CHN)": an athlete and her country's code
			col[i].Text, col[i].Links = text, links
		} else if m := langLink.FindStringSubmatch(text); m != nil {
			text = m[1] // "Theodore Akimenko (ru)": a link to the Russian Wikipedia
			col[i].Text = text
		} else if m := seasonNote.FindStringSubmatch(text); m != nil {
			// "Bradford Bulls (2014 season)": the club, and a link to its
			// season's page
			text = m[1]
			col[i].Text = text
			col[i].Links = slices.DeleteFunc(slices.Clone(c.Links), func(l string) bool { return strings.Contains(strings.ToLower(l), " season") })
		}
		m := rosterNote.FindStringSubmatch(text)
		if m == nil {
			m = movedNote.FindStringSubmatch(text)
		} else if mm := movedNote.FindStringSubmatch(m[1]); mm != nil {
			m = mm // "… Redistricted from the 21st district (now obsolete)"
		}
		if m == nil && len(c.Links) == 1 {
			// "Clara 3-20" linking Clara GAA: a final's winner with its
			// score, one club.
			// "Lego Harry Potter: Years 1–4" linking its own title: a name
			// with figures, no score.
			if m = scoreSuffix.FindStringSubmatch(text); m != nil && (graph.NormText(c.Links[0]) == graph.NormText(text) || !slices.ContainsFunc(linkNames(c.Links[0]), func(n string) bool {
				return strings.HasPrefix(n, m[1]) || strings.HasPrefix(m[1], n)
			})) {
				m = nil
			}
		}
		if m == nil {
			continue
		}
		col[i].Text = m[1]
		if note := strings.TrimPrefix(text, m[1]); len(c.Links) == 1 && !sharesWord(m[1], c.Links[0]) && (sharesWord(note, c.Links[0]) || markOf(note, c.Links[0])) && !strings.Contains(strings.ToLower(note), "now ") {
			// "Alex Jakubiak (at Braintree Town)" linking the club only:
			// the player has no article, the note's link is not his;
			// "Miloud Hamdi (C)" linking Caretaker manager: the mark's
			col[i].Links = nil
		}
		if len(c.Links) < 2 {
			continue
		}
		var keep []string
		for _, l := range c.Links {
			for _, n := range linkNames(l) {
				if strings.Contains(m[1], n) {
					keep = append(keep, l)
					break
				}
			}
		}
		if len(keep) == 0 {
			keep = c.Links[:1]
		}
		col[i].Links = keep
	}
}

// codeCounts counts a column's cells that end in a country's code,
// "Liu Jianying (CHN)", and those of them whose code is their name's
// initials: "Indian Premier League (IPL)" among leagues, "United Arab
// Emirates (UAE)" among nations.
type codeCounts struct{ coded, initials int }

func columnCodes(col []table.Cell) codeCounts {
	var n codeCounts
	for _, c := range col {
		if !strings.HasSuffix(strings.TrimSpace(c.Text), ")") {
			continue // most cells: no code can end them
		}
		text := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if m := iocCode.FindStringSubmatch(text); m != nil {
			n.coded++
			if graph.Initials(strings.Trim(text[len(m[1]):], " ()"), m[1]) {
				n.initials++
			}
		}
	}
	return n
}

// cut returns an athlete's name and links without the country's code that
// ends text, her name linked or not, the code too (athleteLinks); ok is
// false where text ends in no code, or the code is no country's: unlinked,
// it must be one of two such cells at least, as athletes' codes come (a
// lone "NIMM (RTE)" among multiplexes "PSB3 (BBC B)" is a name, round
// 203), and where most codes are their names' initials, a name and its
// abbreviation are written ("Oceania Chess Confederation (OCC)").
func (n codeCounts) cut(text string, links []string) (string, []string, bool) {
	m := iocCode.FindStringSubmatch(text)
	if m == nil || len(links) == 0 && n.coded < 2 {
		return "", nil, false
	}
	if graph.Initials(strings.Trim(text[len(m[1]):], " ()"), m[1]) && 2*n.initials > n.coded {
		return "", nil, false
	}
	kept, ok := athleteLinks(m[1], links)
	if !ok {
		return "", nil, false
	}
	return m[1], kept, true
}

// athleteLinks returns the links of a cell "name (CODE)" once the code is
// cut, and whether the code is a note: the cell links nothing, the athlete,
// a flag's nation at the games ("Poland at the 2004 Summer Olympics"), or
// the athlete and the code's country ("Sreten Ninković (YUG)").
func athleteLinks(name string, links []string) ([]string, bool) {
	named := func(l string) bool {
		return linkNamed(l, name)
	}
	switch len(links) {
	case 0:
		return links, true
	case 1:
		return links, named(links[0]) || flagLink(name, links[0])
	case 2:
		if named(links[0]) != named(links[1]) {
			if named(links[0]) {
				return links[:1], true
			}
			return links[1:], true
		}
	}
	return nil, false
}

// seriesName reports whether name, cell i's text without its last digit,
// begins another cell of col ("Voodoo" of "Voodoo Graphics" beside
// "Voodoo2"): the digit numbers a product of a series, not a footnote.
func seriesName(col []table.Cell, i int, name string) bool {
	for j, c := range col {
		if j != i && len(c.Text) > len(name) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(c.Text)), strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// turnNames writes "Last, First" cells of a column in the order the
// linked names of that column are titled ("Russell, Blair" beside
// "Russell, Ernie" linking Ernie Russell: Blair Russell, Ernie Russell),
// when two linked cells or more are written so: a list of people sorted
// by surname, some of whom have no article, and some of whom are titled
// by another form of their name ("Johnson, Ernie" linking Ernest
// Johnson).
func turnNames(col []table.Cell) {
	titled := func(c table.Cell, n string) bool {
		return len(c.Links) == 1 && linkNamed(c.Links[0], n)
	}
	turned := 0
	for _, c := range col {
		if n, ok := reversed(c.Text); ok && titled(c, n) {
			turned++
		}
	}
	if turned < 2 {
		return
	}
	for i, c := range col {
		if n, ok := reversed(c.Text); ok && len(c.Links) <= 1 {
			col[i].Text = n // "Johnson, Ernie" linking Ernest Johnson (ice hockey) too
		}
	}
}

// reversed returns "First Last" of a cell "Last, First": one comma, one or
// two capitalised words each side.
func reversed(text string) (string, bool) {
	last, first, ok := strings.Cut(strings.TrimSpace(text), ", ")
	if !ok {
		return "", false
	}
	fl, ff := strings.Fields(last), strings.Fields(first)
	if len(fl) == 0 || len(fl) > 2 || len(ff) == 0 || len(ff) > 2 {
		return "", false
	}
	for _, w := range append(fl, ff...) {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return "", false
		}
	}
	return first + " " + last, true
}

// sortKeyed returns the name of a cell that holds its sort key before it
// ("Varrichione, Frank Frank Varrichione", a hidden "Last, First" the
// export kept), and whether it does.
func sortKeyed(text string) (string, bool) {
	last, rest, ok := strings.Cut(text, ", ")
	if !ok || strings.Contains(rest, ",") || last == "" {
		return "", false
	}
	front, ok := strings.CutSuffix(rest, " "+last)
	fs := strings.Fields(front)
	if !ok || len(fs) < 2 || len(fs)%2 != 0 {
		return "", false
	}
	first := strings.Join(fs[:len(fs)/2], " ")
	if first != strings.Join(fs[len(fs)/2:], " ") {
		return "", false
	}
	return first + " " + last, true
}

// roleAfter returns the name before a comma that a cell's one link titles
// when what follows is an office of one to three capitalised words
// ("Linda M. McGee, Chief Judge"); "Paris, Texas" linking Paris, Texas
// is one name, and "Atlanta, Georgia" linking Atlanta names no office.
func roleAfter(text string, links []string) (string, bool) {
	if len(links) != 1 {
		return "", false
	}
	name, role, ok := strings.Cut(text, ", ")
	if !ok || name != links[0] || strings.Contains(role, ",") {
		return "", false
	}
	ws := strings.Fields(role)
	if len(ws) == 0 || len(ws) > 3 {
		return "", false
	}
	office := false
	for _, w := range ws {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
			return "", false
		}
		office = office || officeWords[strings.ToLower(w)]
	}
	return name, office
}

// officeWords are the words of an office written after a name; "Atlanta,
// Georgia" names no office.
var officeWords = map[string]bool{
	"judge": true, "justice": true, "president": true, "chairman": true, "chair": true, "chairwoman": true,
	"chief": true, "captain": true, "director": true, "secretary": true, "minister": true, "speaker": true,
	"leader": true, "deputy": true, "vice": true, "ceo": true, "treasurer": true, "commissioner": true,
	"presiding": true, "emeritus": true,
}

// sortKeyedLink returns the name of the person a cell's one link titles
// when the cell is that name's sort key ("Last, First") before a text
// that holds the name with more: a rank, a life's years ("Thörnell, Olof
// General Olof Thörnell (1877-1977)" linking Olof Thörnell).
func sortKeyedLink(text string, links []string) (string, bool) {
	if len(links) != 1 {
		return "", false
	}
	name := links[0]
	if i := strings.Index(name, " ("); i > 0 {
		name = name[:i]
	}
	fs := strings.Fields(name)
	if len(fs) < 2 {
		return "", false
	}
	key := fs[len(fs)-1] + ", " + strings.Join(fs[:len(fs)-1], " ") + " "
	rest, ok := strings.CutPrefix(text, key)
	if !ok || !strings.Contains(rest, name) {
		return "", false
	}
	return name, true
}

// mayHoldNote reports whether one of cutNotes' patterns may match text:
// each ends in a sign, a bracket, a parenthesis, a figure or a capital,
// but for an incumbent's small print.
func mayHoldNote(text string) bool {
	if text == "" {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(text); strings.ContainsRune("*+#^]）)0123456789†‡§♦≈¹²³⁴⁵⁶⁷⁸⁹", r) || unicode.IsUpper(r) && strings.Contains(text, " ") {
		return true
	}
	for _, w := range []string{"Redistricted", "Retired", "Renominated", "Lost renomination", "Died"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// sumRow returns the index of the one row whose figures are the sums of
// the other rows' (a total the table does not name), or -1: in more of
// its numeric columns than not, the figure is the others' sum, over at
// least three others. One such column alone is a chance ("Viborg HK" with
// 10 titles, the other clubs' 10 between them) unless the row closes the
// table, where totals stand.
func sumRow(rows [][]table.Cell) int {
	if len(rows) < 4 {
		return -1
	}
	ncol := len(rows[0])
	nums := make([][]float64, len(rows))
	ok := make([][]bool, len(rows))
	for i, r := range rows {
		nums[i], ok[i] = make([]float64, ncol), make([]bool, ncol)
		for j, c := range r {
			if f, good := parseNumber(strings.TrimSpace(c.Text)); good && !blank(c.Text) {
				nums[i][j], ok[i][j] = f, true
			}
		}
	}
	colSum, colN := make([]float64, ncol), make([]int, ncol)
	for i := range rows {
		for j := 0; j < ncol; j++ {
			if ok[i][j] {
				colSum[j] += nums[i][j]
				colN[j]++
			}
		}
	}
	found := -1
	for i := range rows {
		sums, other := 0, 0
		for j := 0; j < ncol; j++ {
			if !ok[i][j] {
				continue
			}
			total, n := colSum[j]-nums[i][j], colN[j]-1
			if n < 3 {
				continue
			}
			if v := nums[i][j]; v != 0 && math.Abs(v-total) <= 0.005*math.Abs(v) {
				sums++
			} else {
				other++
			}
		}
		// "Saint Lucia | 608.7 | 165,595 | 256" last, its "#" empty where
		// every other row numbers itself: the whole, though only the
		// population adds up (the source's areas do not)
		if sums > other && (sums >= 2 || i == len(rows)-1) || i == len(rows)-1 && sums >= 1 && unnumbered(rows, ok, i) {
			if found >= 0 {
				return -1 // two such rows: figures that happen to add up
			}
			found = i
		}
	}
	return found
}

// wholeRows returns, in order, the indices of the rows that stand for a
// whole the others are parts of, ranked among them: "United States" and
// "Montana" placed by their income among Montana's counties, their
// "Rank" empty where the counties number 1 to n, each with a population
// at least the counties' sum.
func wholeRows(rows [][]table.Cell) []int {
	blanks := unrankedRows(rows)
	return slices.DeleteFunc(slices.Clone(blanks), func(b int) bool { return !coversOthers(rows, b, blanks) })
}

// unrankedRows returns the rows that the first column ranking the rows
// 1, 2, 3, … in order leaves blank, one to three of them; nil when no
// column ranks the rows so. A rank may end in a full stop ("1."), and
// ties may repeat one, the next rank then being the next number or the
// row's place ("20.", "20.", "21." or "22."), as sts-csv's islands of
// Estonia rank theirs, with "–" for the pairs (round 203); a quarter of
// the ranks at most are ties, so that a column of ones ranks nothing.
func unrankedRows(rows [][]table.Cell) []int {
	if len(rows) < 5 {
		return nil
	}
	for j := range rows[0] {
		var blanks []int
		n, prev, ties := 0, 0, 0
		ranked := true
		for i, r := range rows {
			if j >= len(r) {
				ranked = false
				break
			}
			t := strings.TrimSpace(r[j].Text)
			if blank(t) {
				blanks = append(blanks, i)
				continue
			}
			n++
			k, err := strconv.Atoi(strings.TrimSuffix(t, "."))
			switch {
			case err != nil || k < 1 || strconv.Itoa(k) != strings.TrimSuffix(t, "."):
				ranked = false
			case k == prev:
				ties++
			case k != n && k != prev+1:
				ranked = false
			}
			if !ranked {
				break
			}
			prev = k
		}
		if ranked && len(blanks) > 0 && len(blanks) <= 3 && n >= 4 && ties*4 <= n {
			return blanks
		}
	}
	return nil
}

// combinedRows returns the rows a ranked column leaves unranked that give
// two of the table's other rows together, their figures summed: "Saaremaa
// and Muhu" (2,871 km²) beside Saaremaa (2,673) and Muhu (198) among the
// largest islands of Estonia (round 202), and "Pakri Islands" (24.7)
// beside Väike-Pakri (12.9) and Suur-Pakri (11.6) (rounds 195 and 203).
// Such a row is no one thing of the table's kind: a count, a sum or a
// largest of the table would take it for one.
func combinedRows(rows [][]table.Cell) []int {
	return slices.DeleteFunc(unrankedRows(rows), func(b int) bool { return !combines(rows, b) })
}

// pairName matches a cell naming two things: "Saaremaa and Muhu", "A & B".
var pairName = regexp.MustCompile(`^(.+?) (?:and|&) (.+)$`)

// combines reports whether row b gives two other rows of the table
// together (twoOf), and each figure it shares with both is their sum (one
// such figure at least).
func combines(rows [][]table.Cell, b int) bool {
	for k := range rows[b] {
		x, y := twoOf(rows, b, k)
		if x < 0 {
			continue
		}
		sums := 0
		for c := range rows[b] {
			if c == k || c >= len(rows[x]) || c >= len(rows[y]) {
				continue
			}
			v, ok1 := parseNumber(strings.TrimSpace(rows[b][c].Text))
			f, ok2 := parseNumber(strings.TrimSpace(rows[x][c].Text))
			g, ok3 := parseNumber(strings.TrimSpace(rows[y][c].Text))
			if !ok1 || !ok2 || !ok3 || blank(rows[b][c].Text) {
				continue
			}
			if v == 0 || math.Abs(v-f-g) > 0.01*math.Abs(v) {
				return false
			}
			sums++
		}
		if sums > 0 {
			return true
		}
	}
	return false
}

// twoOf returns the two other rows that row b's cell in column k names:
// "A and B", each the whole cell of its row, or, for a group named by one
// word of four letters or more, the only two rows whose cells have that
// word among theirs ("Pakri Islands": Väike-Pakri, Suur-Pakri); -1, -1
// when it names none so.
func twoOf(rows [][]table.Cell, b, k int) (x, y int) {
	text := strings.TrimSpace(rows[b][k].Text)
	if m := pairName.FindStringSubmatch(text); m != nil {
		named := func(name string) int {
			return slices.IndexFunc(rows, func(r []table.Cell) bool { return k < len(r) && strings.TrimSpace(r[k].Text) == name })
		}
		if x, y := named(m[1]), named(m[2]); x >= 0 && y >= 0 && x != b && y != b && x != y {
			return x, y
		}
		return -1, -1
	}
	for _, w := range linkWords(text) {
		if utf8.RuneCountInString(w) < 4 || hasDigit(w) {
			continue
		}
		var in []int
		for i, r := range rows {
			if i != b && k < len(r) && slices.Contains(linkWords(r[k].Text), w) {
				in = append(in, i)
			}
		}
		if len(in) == 2 {
			return in[0], in[1]
		}
	}
	return -1, -1
}

// coversOthers reports whether row b has, in some column of figures, at
// least the sum of the rows not in skip.
func coversOthers(rows [][]table.Cell, b int, skip []int) bool {
	for c := range rows[b] {
		v, ok := parseNumber(strings.TrimSpace(rows[b][c].Text))
		if !ok || v <= 0 || blank(rows[b][c].Text) {
			continue
		}
		sum, all := 0.0, true
		for i, r := range rows {
			if slices.Contains(skip, i) {
				continue
			}
			f, ok := parseNumber(strings.TrimSpace(r[c].Text))
			if !ok || blank(r[c].Text) {
				all = false
				break
			}
			sum += f
		}
		if all && sum > 0 && v >= 0.995*sum {
			return true
		}
	}
	return false
}

// unnumbered reports whether row i leaves empty a column in which every
// other row gives its number, 1 to n in order.
func unnumbered(rows [][]table.Cell, ok [][]bool, i int) bool {
	for j := range rows[i] {
		if !blank(rows[i][j].Text) {
			continue
		}
		n := 0
		for k, r := range rows {
			if k == i {
				continue
			}
			n++
			if j >= len(r) || !ok[k][j] || strings.TrimSpace(r[j].Text) != strconv.Itoa(n) {
				n = -1
				break
			}
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// countedAll matches a key cell counting the rows it sums ("40
// opponents*", "12 teams").
var countedAll = regexp.MustCompile(`^\d+\s+(?:opponents|teams|clubs|nations|countries|players|seasons|matches|games)\*?$`)

// summaryRow reports a row that totals or averages the others: its first
// non-empty cells say so.
// headerRow reports whether a row repeats the header ("Name | Number |
// Nation" again halfway down a long table): at least two of its cells,
// and half of its non-empty ones, are their column's header.
func headerRow(r []table.Cell, header []string) bool {
	same, filled := 0, 0
	for j := 0; j < len(r) && j < len(header); j++ {
		t := graph.NormText(r[j].Text)
		if t == "" {
			continue
		}
		filled++
		if t == graph.NormText(header[j]) {
			same++
		}
	}
	return same >= 2 && 2*same >= filled
}

// subHeader returns the first row that repeats the header but for its
// first cell, which names a group of its own ("Homelands" under
// "Province"), or -1.
func subHeader(rows [][]table.Cell, header []string) int {
	if len(header) == 0 {
		return -1
	}
	for i, r := range rows {
		if len(r) == 0 || !headerRow(r, header) {
			continue
		}
		first := graph.NormText(r[0].Text)
		if first != "" && first != graph.NormText(header[0]) && strings.ContainsFunc(first, unicode.IsLetter) {
			return i
		}
	}
	return -1
}

// wholeRow reports whether a key names the whole a page divides, among
// its parts: "Montana" or "United States" among the rows of "List of
// Montana counties by per capita income". Only pages of counties,
// parishes, boroughs, districts, regions, provinces, prefectures or
// states count: a city may bear its state's name.
func wholeRow(key, page string) bool {
	k := graph.NormText(key)
	if k == "" {
		return false
	}
	ws := strings.Fields(graph.NormText(page))
	at := -1
	for i, w := range ws {
		switch w {
		case "counties", "parishes", "boroughs", "districts", "regions", "provinces", "prefectures", "states":
			at = i
		}
	}
	if at < 0 {
		return false
	}
	switch k {
	case "united states", "united states of america", "usa", "u.s.", "us", "united kingdom", "uk", "nationwide", "national average", "statewide":
		return ws[at] != "states" // "List of sovereign states" holds the United States
	}
	// "Montana counties", "counties of Montana", "counties in Montana",
	// "South Korean regions" (South Korea's own row, its total)
	p := " " + strings.Join(ws, " ") + " "
	for _, adj := range []string{"", "n", "an", "ian", "ese", "i"} {
		if strings.Contains(p, " "+k+adj+" "+ws[at]+" ") {
			return true
		}
	}
	return strings.Contains(p, " "+ws[at]+" of "+k+" ") || strings.Contains(p, " "+ws[at]+" in "+k+" ")
}

// partLink reports whether a key wholeRow takes for its page's whole
// links one of the parts the page lists: "Lima" linking Lima District on
// "List of districts of Lima" is a district that bears its city's name,
// "State of Mexico" a state of Mexico.
func partLink(k graph.Value, page string) bool {
	if k.Type != graph.TypeEntity {
		return false
	}
	name := " " + graph.NormText(k.Name) + " "
	for _, w := range strings.Fields(graph.NormText(page)) {
		if one, ok := divisions[w]; ok && strings.Contains(name, " "+one+" ") {
			return true
		}
	}
	return false
}

// divisions are the parts wholeRow's pages list, by their singular.
var divisions = map[string]string{
	"counties": "county", "parishes": "parish", "boroughs": "borough", "districts": "district", "regions": "region",
	"provinces": "province", "prefectures": "prefecture", "states": "state",
}

// ownGoals reports whether a key cell is a squad list's line of the
// opponents' own goals: no player.
func ownGoals(text string) bool {
	switch strings.Trim(graph.NormText(text), " .:") {
	case "own goal", "own goals", "own-goals", "own goal(s)", "opponents' own goals", "opponent own goals", "opponents own goals":
		return true
	}
	return false
}

// totalRow reports a row that totals the others and says so in one of its
// first cells ("Total", "Grand total", "UGA Total"): a summaryRow whose
// figures are the sums of the rows above, as its table states them.
func totalRow(r []table.Cell) bool {
	for j := 0; j < len(r) && j < 3; j++ {
		switch n := graph.NormText(r[j].Text); n {
		case "total", "totals", "grand total", "total (all)", "totals:", "total:", "team totals", "world total":
			return true
		default:
			if strings.HasSuffix(n, " total") && len(strings.Fields(n)) == 2 || totalCount.MatchString(n) {
				return true
			}
		}
	}
	return false
}

// totalCount matches a total row's key that counts what it sums ("Total:
// 13 NOCs" closing a Games' qualification summary, round 169; "Total (24
// nations)").
var totalCount = regexp.MustCompile(`^totals?\s*[:(–-]?\s*\d[\d,]*\s+\pL+\)?$`)

// stated is what a total row states for each of the columns of figures,
// by relation name: the cells that are one number.
func stated(r []table.Cell, rel []*colInfo) map[string]string {
	var out map[string]string
	for _, c := range rel {
		if c.idx >= len(r) {
			continue
		}
		t := strings.TrimSpace(r[c.idx].Text)
		if _, ok := parseNumber(t); !ok || blank(t) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[graph.RelationName(c.header, c.idx)] = t
	}
	return out
}

func summaryRow(r []table.Cell) bool {
	for j := 0; j < len(r) && j < 3; j++ {
		switch graph.NormText(r[j].Text) {
		case "total", "totals", "grand total", "total (all)", "sum", "average", "overall", "totals:", "total:",
			"world", "worldwide", "world total", "rest of the world", "rest of world",
			"team", "team totals", "opponents", "opponent", "opponents total": // a statistics table's closing rows
			return true
		}
		if n := graph.NormText(r[j].Text); strings.HasSuffix(n, " total") && len(strings.Fields(n)) == 2 || totalCount.MatchString(n) {
			return true // "UGA Total", "Total: 13 NOCs"
		}
		if j == 0 && countedAll.MatchString(strings.TrimSpace(r[j].Text)) {
			return true // "40 opponents*": the head-to-head table's total
		}
		// An election's closing rows: "Invalid/blank votes", "Registered
		// voters/turnout", "Other parties"
		if n := graph.NormText(r[j].Text); j < 2 && (strings.HasPrefix(n, "invalid") || strings.HasPrefix(n, "registered voters") ||
			strings.HasPrefix(n, "valid votes") || strings.HasPrefix(n, "turnout") || strings.HasPrefix(n, "blank votes") ||
			strings.HasPrefix(n, "spoilt") || strings.HasPrefix(n, "rejected ballots") || n == "other parties" || n == "others" ||
			strings.HasPrefix(n, "other/") || strings.HasPrefix(n, "others/") || n == "independents and others" || n == "others and independents") {
			return true
		}
		// "35 Players Team Average" under a roster, "Total 19 nations"
		// under a medal table; "Own Goal" among the goal scorers
		// (in its first two cells, where the scorer stands)
		if n := graph.NormText(r[j].Text); strings.Contains(n, "team average") || strings.Contains(n, "team total") || strings.HasPrefix(n, "total ") && hasDigit(n) ||
			j < 2 && (n == "own goal" || n == "own goals" || n == "own-goals") {
			return true
		}
	}
	return false
}

var (
	// A score or a record: "2–1", "W 21–16", "L 2:1 (OT)", "0–1–0",
	// "6–2, 6–1"; a colon only after a result ("3:2" is a ratio).
	reScore = regexp.MustCompile(`(?i)^((w|l|t|d|won|lost|win|loss|tie|draw)[\s,]*\(?[0-9]{1,3}\s*[-–—:]\s*[0-9]{1,3}\)?|\(?[0-9]{1,3}\s*[-–—]\s*[0-9]{1,3}(\s*[-–—]\s*[0-9]{1,3})?\)?([,;]\s*[0-9]{1,3}\s*[-–—]\s*[0-9]{1,3})*)(\s*\(?(ot|so|aet|pen\.?|[0-9]*ot)\)?)?$`)
	reDay   = regexp.MustCompile(`(?i)^([0-9]{1,2}\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(\s+[0-9]{1,2})?(st|nd|rd|th)?$`)
)

// scoreColumn reports whether at least half of col's filled cells are
// unlinked scores ("W 21–16", "2–1") or days of a year with no year
// ("June 23"): records of games, not names of things.
func scoreColumn(col []table.Cell) bool {
	filled, hits := 0, 0
	for _, c := range col {
		t := strings.TrimSpace(textnorm.SqueezeSpaces(c.Text))
		if t == "" {
			continue
		}
		filled++
		if len(c.Links) == 0 && (reScore.MatchString(t) || reDay.MatchString(t) && strings.ContainsAny(t, "0123456789")) {
			hits++
		}
	}
	return filled > 0 && 2*hits >= filled
}

// isNoteRow reports a row that one cell spans for at least three columns
// and half the row: a note in place of the record ("Traded to the New York
// Giants" over a draft pick's player, position, college and notes), not a
// record with those values. A spanned cell that repeats the cell above it
// (above: the previous row) spans down, not across: three such cells of
// one rider side by side are a record.
func isNoteRow(r, above []table.Cell) bool {
	run := 1
	for j := 1; j < len(r); j++ {
		down := j < len(above) && above[j].Text == r[j].Text
		if r[j].Spanned && !down && r[j].Text == r[j-1].Text && !blank(r[j].Text) {
			run++
		} else {
			run = 1
		}
		if run >= 3 && 2*run >= len(r) {
			return true
		}
	}
	return false
}

func isSectionRow(r []table.Cell) bool {
	if len(r) < 2 {
		return false
	}
	for j := 1; j < len(r); j++ {
		if !r[j].Spanned || r[j].Text != r[0].Text {
			return false
		}
	}
	return true
}

func dropReason(h string, col []table.Cell) string {
	n := normHeader(h)
	n = strings.Trim(n, " .:")
	switch n {
	case "no", "#", "no.", "nº", "s.no", "s. no", "sr", "sr. no", "sl", "sl. no", "sno", "serial", "number", "num", "n":
		if sequential(col) {
			return graph.DropSerial
		}
	case "rank", "rk", "pos", "position", "place", "ranking", "overall rank":
		if sequential(col) || allNumeric(col) {
			return graph.DropRank
		}
	case "notes", "note", "remarks", "remark", "comments", "comment", "details", "additional notes", "other notes", "notes/references":
		return graph.DropNotes
	case "ref", "refs", "ref.", "refs.", "reference", "references", "source", "sources", "citation", "citations", "cite":
		return graph.DropReference
	case "image", "images", "photo", "photograph", "picture", "img", "map", "logo", "flag", "crest", "portrait", "kit":
		return graph.DropImage
	}
	if n == "" && sequential(col) {
		return graph.DropSerial
	}
	empty := 0
	for _, c := range col {
		if blank(c.Text) {
			empty++
		}
	}
	if empty == len(col) {
		return graph.DropEmpty
	}
	return ""
}

// groupFigure reports whether column j gives figures of the groups of
// another column rather than of its rows: rows of one name in that column
// (Varna's borough Mladost, over five of its districts) give one figure,
// a figure of its own for each name, and most rows are in such groups of
// two or more. Years, a figure every row shares ("Played 18") and tied
// rows spanning a rank ("T3") are no group figures.
func groupFigure(rows [][]table.Cell, j int) bool {
	years, filled := 0, 0
	for _, r := range rows {
		t := strings.TrimSpace(r[j].Text)
		if t == "" {
			continue
		}
		if _, ok := parseNumber(t); !ok {
			return false
		}
		filled++
		if reYear.MatchString(t) {
			years++
		}
	}
	if filled < 4 || years == filled {
		return false
	}
	for m := range rows[0] {
		if m != j && figureOf(rows, m, j) {
			return true
		}
	}
	return false
}

// figureOf reports whether column m's names determine column j's
// figures as groupFigure says.
func figureOf(rows [][]table.Cell, m, j int) bool {
	fig := map[string]string{}
	size := map[string]int{}
	for _, r := range rows {
		g, v := graph.NormText(r[m].Text), strings.TrimSpace(r[j].Text)
		if g == "" || v == "" {
			continue
		}
		if letters(g) < 3 {
			return false
		}
		if f, ok := fig[g]; ok && f != v {
			return false
		}
		fig[g] = v
		size[g]++
	}
	grouped, groups, rowsIn := map[string]bool{}, 0, 0
	for g, n := range size {
		if n >= 2 {
			groups++
			rowsIn += n
			grouped[fig[g]] = true
		}
	}
	return groups >= 2 && len(grouped) == groups && 5*rowsIn >= 3*len(rows)
}

// letters counts the letters of s ("T3", a tied rank, has one).
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

func sequential(col []table.Cell) bool {
	prev, n := 0, 0
	for _, c := range col {
		t := strings.Trim(strings.TrimSpace(c.Text), ".=")
		if t == "" {
			continue
		}
		v, err := strconv.Atoi(t)
		if err != nil {
			return false
		}
		if n > 0 && v != prev+1 && v != prev {
			return false
		}
		prev, n = v, n+1
	}
	return n > 0
}

func allNumeric(col []table.Cell) bool {
	n := 0
	for _, c := range col {
		t := strings.Trim(strings.TrimSpace(c.Text), ".=T-")
		if t == "" {
			continue
		}
		if _, err := strconv.Atoi(t); err != nil {
			return false
		}
		n++
	}
	return n > 0
}

func blank(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "-", "–", "—", "?", "n/a", "N/A", "N / A", "—N/A", "TBA", "TBD", "none", "None", "×":
		return true
	}
	return false
}

func nameLike(h string) bool {
	switch graph.Domain(h, graph.TypeText) {
	case "person", "work", "organization":
		return true
	}
	n := normHeader(h)
	return strings.Contains(n, "name") || strings.Contains(n, "title")
}

// rowsNames reports whether header h names the rows' names: its last
// word is "name" or "title" ("Name", "Song title", "Station name"), not a
// name in another tongue or form (otherName, otherForm).
func rowsNames(h string) bool {
	ws := strings.Fields(normHeader(h))
	if len(ws) == 0 || len(ws) > 3 {
		return false
	}
	last := ws[len(ws)-1]
	if len(ws) > 1 && otherForm[ws[0]] {
		return false
	}
	return (last == "name" || last == "title") && !otherName(h)
}

// otherForm are the first words of a header of the rows' names in a form
// other than the one a reader calls them by ("Scientific name" beside a
// species' common name, "Abbreviated name" beside a club's official one).
var otherForm = map[string]bool{"scientific": true, "abbreviated": true, "short": true, "official": true}

// otherName reports whether a header gives the rows' names in another
// tongue or form ("Latin name" beside a list of dioceses, "Japanese
// title", "Native name"): a name of the row's thing, not the one a
// reader calls it by, so no stronger a key than any other column.
func otherName(h string) bool {
	ws := strings.Fields(normHeader(h))
	if len(ws) != 2 || ws[1] != "name" && ws[1] != "title" && ws[1] != "names" && ws[1] != "titles" {
		return false
	}
	switch ws[0] {
	case "latin", "native", "local", "original", "alternative", "alternate", "other", "former", "romanized", "romanised",
		"transliterated", "japanese", "chinese", "korean", "arabic", "russian", "greek", "hebrew", "hindi", "irish", "welsh",
		"scottish", "gaelic", "maori", "hawaiian", "spanish", "french", "german", "italian", "portuguese", "polish", "czech",
		"turkish", "persian", "thai", "vietnamese", "mongolian", "kazakh", "ukrainian", "serbian", "croatian", "bengali", "tamil",
		"urdu", "indonesian", "malay", "filipino", "tagalog", "swedish", "norwegian", "danish", "finnish", "dutch", "hungarian", "romanian":
		return true
	}
	return false
}

var (
	reYear   = regexp.MustCompile(`^(1[0-9]{3}|20[0-9]{2})$`)
	reNumber = regexp.MustCompile(`^[-+−]?[$€£¥]?\s?[0-9][0-9,]*(\.[0-9]+)?\s?%?$`)
)

// numberMarks are what parseNumber drops from a number before parsing it.
var numberMarks = strings.NewReplacer(",", "", "$", "", "€", "", "£", "", "¥", "", "%", "", " ", "", "−", "-")

// parseDate is textnorm.ParseDate: a cell's date as ISO 8601.
func parseDate(s string) (string, bool) { return textnorm.ParseDate(s) }

func parseNumber(s string) (float64, bool) {
	if !reNumber.MatchString(s) {
		return 0, false
	}
	if decimalComma.MatchString(s) {
		// "6,3" is 6.3 where the table writes a decimal comma; a group of
		// thousands has three digits ("5,288").
		s = strings.Replace(s, ",", ".", 1)
	}
	s = numberMarks.Replace(s)
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

var decimalComma = regexp.MustCompile(`^[-+−]?[0-9]+,[0-9]{1,2}\s?%?$`)

// inferType gives a column the datatype most of its filled cells have.
func inferType(col []table.Cell) graph.Datatype {
	var filled, linked, years, nums, dates, zeros int
	for _, c := range col {
		t := strings.TrimSpace(c.Text)
		if blank(t) {
			continue
		}
		filled++
		if len(c.Links) > 0 {
			linked++
		}
		switch {
		case reYear.MatchString(t):
			years++
		case reNumber.MatchString(t):
			nums++
			if len(t) > 1 && t[0] == '0' && t[1] >= '0' && t[1] <= '9' {
				zeros++ // "0940", "01": a clock time or a code, written so
			}
		default:
			if _, ok := parseDate(t); ok {
				dates++
			}
		}
	}
	if filled == 0 {
		return graph.TypeText
	}
	f := float64(filled)
	switch {
	case float64(linked)/f >= 0.5:
		return graph.TypeEntity
	case float64(years)/f >= 0.8:
		return graph.TypeYear
	case float64(years+nums)/f >= 0.8 && zeros == 0:
		// a column with a figure led by a zero writes times or codes
		// (0940 read as 940), no quantities
		return graph.TypeNumber
	case float64(dates)/f >= 0.8:
		return graph.TypeDate
	}
	return graph.TypeText
}

// unifyTexts makes a column's text value the link another of its cells
// writes alike ("Umbro" as text in four rows, a link to Umbro in a fifth):
// one thing, read as one by a person, counted once and matched by a
// filter on it. A text two links write alike stays text.
func unifyTexts(multi [][]graph.Value) {
	links := map[string]graph.Value{}
	for _, vs := range multi {
		for _, v := range vs {
			if v.Type != graph.TypeEntity {
				continue
			}
			for _, n := range []string{graph.NormText(v.Surface), graph.NormText(v.Name)} {
				if o, ok := links[n]; ok && o.Key != v.Key {
					links[n] = graph.Value{} // two things written alike
				} else if !ok {
					links[n] = v
				}
			}
		}
	}
	if len(links) == 0 {
		return
	}
	for _, vs := range multi {
		for i, v := range vs {
			if v.Type != graph.TypeText {
				continue
			}
			if l, ok := links[graph.NormText(v.Name)]; ok && l.Key != "" {
				l.Surface = v.Surface
				vs[i] = l
			}
		}
	}
}

// cellValues turns a cell into values of the column's datatype: one per
// link in an entity column, else one literal, appended to buf.
func cellValues(c table.Cell, typ graph.Datatype, buf []graph.Value) []graph.Value {
	if blank(c.Text) && len(c.Links) == 0 {
		return nil
	}
	// In a text column a sentence that links a few words stays text: its
	// links are not its value.
	if len(c.Links) > 1 && typ == graph.TypeEntity && !unlinkedNames(c) {
		vs := make([]graph.Value, 0, len(c.Links))
		seen := map[string]bool{}
		for _, l := range c.Links {
			if l == "" || seen[l] {
				continue
			}
			seen[l] = true
			vs = append(vs, graph.Value{Key: "w:" + l, Name: l, Type: graph.TypeEntity, URL: table.URL(l), Surface: l})
		}
		return vs
	}
	v := cellValue(c, typ)
	if v.Key == "" {
		return nil
	}
	return append(buf, v)
}

func cellValue(c table.Cell, typ graph.Datatype) graph.Value {
	raw := c.Text
	if strings.Contains(raw, "<") && markup.MatchString(raw) { // most cells hold no tag: no regexp
		// "< centre > 1942 < centre/ > Gauteng": the export ran a
		// template's markup and another cell's text into the cell; its
		// one link is what it names, else its text without the markup.
		if len(c.Links) == 1 && c.Links[0] != "" && typ != graph.TypeNumber && typ != graph.TypeYear && typ != graph.TypeDate {
			l := c.Links[0]
			return graph.Value{Key: "w:" + l, Name: l, Type: graph.TypeEntity, URL: table.URL(l), Surface: l}
		}
		raw = markup.ReplaceAllString(raw, " ")
	}
	text := plainCell(raw)
	if len(c.Links) == 1 && c.Links[0] != "" && !trailingLink(text, c.Links[0]) && !labelLink(text, c.Links[0]) && !parenLink(text, c.Links[0]) &&
		!flagLink(text, c.Links[0]) && !yearLink(text, c.Links[0]) && !ordinalLink(text, c.Links[0]) && !noteLink(text, c.Links[0]) &&
		!lastOfList(text, c.Links[0]) && !embeddedLink(text, c.Links[0]) && !programLink(text, c.Links[0]) && !codeMismatch(text, c.Links[0]) &&
		// "Inverness vicinity" linking Inverness, Florida (the National
		// Register's listings) names a place near the town: its text.
		!((pairText(text) || strings.Contains(text, "; ")) && unlinkedNames(c) && !teamAtGames(text, c.Links[0])) && !strings.HasSuffix(text, " vicinity") &&
		(typ == graph.TypeEntity || typ == graph.TypeText && linkIsCell(text, c.Links[0])) {
		l := c.Links[0]
		return graph.Value{Key: "w:" + l, Name: l, Type: graph.TypeEntity, URL: table.URL(l), Surface: text}
	}
	if blank(text) {
		return graph.Value{}
	}
	switch typ {
	case graph.TypeYear:
		if reYear.MatchString(text) {
			return graph.Value{Key: "y:" + text, Name: text, Type: graph.TypeYear, Surface: text}
		}
	case graph.TypeNumber:
		if f, ok := parseNumber(text); ok {
			n := strconv.FormatFloat(f, 'f', -1, 64)
			if strings.HasPrefix(text, "+") && f > 0 {
				n = "+" + n // "+ 4", "+14": a gap or a score over par, not 4
			}
			return graph.Value{Key: "n:" + n, Name: n, Type: graph.TypeNumber, Surface: text}
		}
	case graph.TypeDate:
		if d, ok := parseDate(text); ok {
			return graph.Value{Key: "d:" + d, Name: d, Type: graph.TypeDate, Surface: text}
		}
	}
	return graph.Value{Key: "t:" + graph.NormText(text), Name: text, Type: graph.TypeText, Surface: text}
}

// markup matches an HTML tag the export left in a cell as text ("<
// centre >", "< /ref >").
var markup = regexp.MustCompile(`<\s*/?\s*[a-z]+\s*/?\s*>`)

// plainCell is a cell's text as a value: without a comma its next line
// followed ("Maine,"), a template's stray brace ("515.0 km (320 mi)}"),
// or the quotes a song's title is written in ("\"Baby\"").
func plainCell(s string) string {
	text := strings.TrimSpace(textnorm.SqueezeSpaces(s))
	if !strings.Contains(text, "{") {
		text = strings.TrimRight(text, "}")
	}
	text = strings.TrimSpace(strings.TrimRight(text, ",;"))
	if t, ok := strings.CutSuffix(text, " >"); ok {
		text = strings.TrimSpace(t) // "Richard Ravitch >": a template's arrow
	}
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		inner, ok := strings.CutPrefix(text, q[0])
		if ok {
			inner, ok = strings.CutSuffix(inner, q[1])
		}
		if ok && strings.TrimSpace(inner) != "" && !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
			return strings.TrimSpace(inner)
		}
	}
	return text
}

// flagLink reports whether a cell's one link is a flag's: "Andrzej
// Stefanek (POL)" whose athlete has no article, the flag linking "Poland
// at the 2004 Summer Olympics". The cell names the athlete; its value is
// its text.
func flagLink(text, title string) bool {
	who, _, ok := strings.Cut(title, " at the ")
	return ok && !strings.Contains(graph.NormText(text), graph.NormText(who))
}

// twoQualifiedRe matches a cell of two names, each with its qualifier in
// parentheses, run together: "Cabretta (Europe) Mink DeVille
// (U.S./Australia)", an album's two regional titles; "José María López
// (Citroën) Sébastien Loeb (Citroën)", two drivers.
var twoQualifiedRe = regexp.MustCompile(`^\p{Lu}[^()]*\S \([^()]+\) \p{Lu}[^()]*\S \([^()]+\)`)

// twoQualified reports whether a cell's text is several names, each
// qualified (twoQualifiedRe): several things, though no link says so.
// A rank before one name ("Rear Admiral (Ret'd) David C. Morse (RMC
// 1971)") reads alike and is counted too: its cells are no plain names
// either.
func twoQualified(text string) bool {
	return twoQualifiedRe.MatchString(strings.TrimSpace(text))
}

// linkAmongOthers reports whether a cell whose one link flagLink takes
// for a flag's writes the link's subject among other words: "Modern
// pentathlon Volleyball (beach)" linking Beach volleyball at the 2003
// Pan American Games, two sports in a cell the crawl ran together. Each
// word of the subject is in the text, and the text has more.
func linkAmongOthers(text, title string) bool {
	who, _, ok := strings.Cut(title, " at the ")
	if !ok || !flagLink(text, title) {
		return false
	}
	in := map[string]bool{}
	for _, w := range linkWords(text) {
		in[w] = true
	}
	ws := linkWords(who)
	for _, w := range ws {
		if !in[w] {
			return false
		}
	}
	return len(ws) > 0 && len(in) > len(ws)
}

// textsByHeader makes text of the cells whose link the column's header
// says is not their value: a Nickname column's ("Bears" linking Northern
// Colorado Bears, the name the team goes by), a work's title linking
// something else ("The Red Ghost" linking Red Ghost, the episode's
// villain), and a list one of whose names is linked ("Buckwild, Prestige"
// under Producer(s)). col holds copies of the table's cells.
func textsByHeader(h string, col []table.Cell) {
	var unlink func(c table.Cell) bool
	switch {
	case nicknames(h):
		unlink = func(table.Cell) bool { return true }
	case workTitles(h):
		unlink = func(c table.Cell) bool { return len(c.Links) == 1 && !titledAs(c.Text, c.Links[0]) }
	case namesSeveral(h):
		unlink = func(c table.Cell) bool { return len(c.Links) == 1 && firstOfList(c.Text, c.Links[0]) }
	default:
		return
	}
	for i, c := range col {
		if unlink(c) {
			col[i].Links = nil
		}
	}
}

// namesSeveral reports whether a header says its cells may name several
// ("Producer(s)", "Songwriters"): a cell's list is of names, not a place
// and its region ("Toronto, Ontario").
func namesSeveral(h string) bool {
	n := normHeader(h)
	if strings.HasSuffix(strings.ReplaceAll(n, " ", ""), "(s)") { // "Position ( s )" in OTT-QA
		return true
	}
	switch n {
	case "producers", "writers", "songwriters", "directors", "composers", "lyricists", "authors", "performers", "artists", "featured artists", "featuring", "guests", "guest artists":
		return true
	}
	return false
}

// firstOfList reports whether a cell lists names and links only its first
// ("Buckwild, Prestige" linking Buckwild): its value is its text, not the
// first name alone.
func firstOfList(text, title string) bool {
	parts := strings.Split(text, ",")
	if len(parts) < 2 || strings.Contains(title, ",") && strings.HasPrefix(graph.NormText(text), graph.NormText(title)) || !linkNamed(title, parts[0]) {
		return false
	}
	for _, p := range parts[1:] {
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(p)); unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// listOfNames reports whether a cell lists two or more capitalised names
// between commas, whatever its one link names: "Romany , Serbian" linking
// Romani language, whose first name the title does not write. A title
// with a comma ("Paris, Texas") is one name.
func listOfNames(text, title string) bool {
	parts := strings.Split(text, ",")
	if len(parts) < 2 || strings.Contains(title, ",") {
		return false
	}
	for _, p := range parts {
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(p)); !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// lastOfList reports whether a cell lists names and links only its last
// ("Centro, Norte" linking Norte Region, Portugal): its value is its text.
func lastOfList(text, title string) bool {
	parts := strings.Split(text, ",")
	if len(parts) < 2 {
		return false
	}
	last := graph.NormText(parts[len(parts)-1])
	first := graph.NormText(parts[0])
	t := graph.NormText(title)
	return last != "" && first != "" && strings.HasPrefix(t, last) && !strings.Contains(t, first)
}

// ordinalLink reports whether a cell gives a place in a league it links
// ("16th of third division A" linking Belgian Third Division A): its
// value is the place, its text.
func ordinalLink(text, title string) bool {
	return ordinal.MatchString(strings.TrimSpace(text)) && !ordinal.MatchString(title)
}

var ordinal = regexp.MustCompile(`^\d+(?:st|nd|rd|th)\b`)

// yearLink reports whether a cell writes a year and links an event of it
// ("2004" linking "Miss Nepal 2004"): the column gives years; the cell's
// value is its year.
func yearLink(text, title string) bool {
	text = strings.TrimSpace(text)
	if text == strings.TrimSpace(title) {
		return false
	}
	// "1 (1994)" linking "1994 Caribbean Cup": a count and its year
	return reYear.MatchString(text) || countYear.MatchString(text)
}

var countYear = regexp.MustCompile(`^\d+\s*\(\s*\d{4}\s*\)$`)

// embeddedLink reports whether a cell's one link names a part of it
// among words of its own: "Majority Caucus Chair" linking Caucus, "July
// 9, 1959 (age 60) in Seoul" linking Seoul, "Assistant Majority Leader"
// linking Majority leader. The cell's value is its text. A parenthesis
// after the name ("Chicago Bears (2)") is a note, and leaves the link
// the value.
func embeddedLink(text, title string) bool {
	ti := graph.NormText(parenNote.ReplaceAllString(title, " ")) // "Caucus (politics)": its disambiguator aside
	t := " " + graph.NormText(parenNote.ReplaceAllString(text, " ")) + " "
	at := " " + ti + " "
	for _, plural := range []string{"s ", "es "} {
		if !strings.Contains(t, at) && strings.Contains(t, " "+ti+plural) {
			at = " " + ti + plural // "… sanctuary for bowhead whales" linking Bowhead whale
		}
	}
	// "Music Box Winter Garden" linking Winter Garden Theatre: the venue
	// by its name without its kind, beside another the cell names.
	if f := strings.Fields(ti); !strings.Contains(t, at) && len(f) > 1 && venueKinds[f[len(f)-1]] {
		at = " " + strings.Join(f[:len(f)-1], " ") + " "
	}
	if len(ti) < 3 || !strings.Contains(t, at) {
		return false
	}
	rest := strings.Replace(t, at, " ", 1)
	for _, w := range strings.Fields(rest) {
		if strings.ContainsFunc(w, unicode.IsLetter) && !stateForm[w] {
			return true
		}
	}
	return false // "Republic of Ireland" linking Ireland: the state's long name
}

// venueKinds are the last words of a venue's title a cell may leave out
// ("Winter Garden" for Winter Garden Theatre).
var venueKinds = map[string]bool{
	"theatre": true, "theater": true, "stadium": true, "arena": true, "hall": true, "centre": true, "center": true,
	"auditorium": true, "coliseum": true, "ballpark": true,
}

// stateForm are the words of a state's long name around its short one.
var stateForm = map[string]bool{
	"republic": true, "kingdom": true, "state": true, "commonwealth": true, "federation": true, "of": true,
	"the": true, "people's": true, "democratic": true, "islamic": true, "federal": true, "principality": true,
	"grand": true, "duchy": true, "sultanate": true, "emirate": true, "socialist": true, "arab": true,
}

var parenNote = regexp.MustCompile(`\([^()]*\)`)

// codeMismatch reports whether a cell of two capitals links an article
// whose words start with neither: "FW" linking Midfielder,
// the source's link wrong. The cell's value is what it shows.
func codeMismatch(text, title string) bool {
	text = strings.TrimSpace(text)
	// "K" linking Placekicker: one letter is a code of any word
	if len(text) != 2 || strings.ToUpper(text) != text || !strings.ContainsFunc(text, unicode.IsLetter) {
		return false
	}
	for _, w := range strings.Fields(parenNote.ReplaceAllString(title, " ")) {
		if strings.HasPrefix(strings.ToUpper(w), text[:1]) {
			return false
		}
	}
	return true
}

// programLink reports whether a cell names a school by a link to one of
// its sports teams ("BYU" linking BYU–Hawaii Seasiders men's basketball,
// "NYU" linking NYU Violets men's basketball): the column gives schools,
// the team is not the cell's value.
func programLink(text, title string) bool {
	// "Netherlands" linking Netherlands national baseball team: a
	// country's team is its country's, read as the link
	return sportsProgram.MatchString(title) && !strings.Contains(title, " national ") && !sportsProgram.MatchString(text) &&
		!strings.EqualFold(strings.TrimSpace(text), strings.TrimSpace(title))
}

var sportsProgram = regexp.MustCompile(`(?i)\b(?:men's |women's )?(?:basketball|football|soccer|baseball|softball|ice hockey|lacrosse|volleyball|wrestling|rowing|track and field)(?: team| program)?$`)

// trailingLink reports whether a cell's one link is its last
// comma-separated part after other words: "Toronto, Ontario" linking
// Ontario, "George Brown & Co., Greenock" linking Greenock, "Mukesh,
// Vyjayanthimala" linking the second singer. The link qualifies the text
// or names one of several things; it is not the cell's value, which stays
// the text.
func trailingLink(text, title string) bool {
	t, ti := graph.NormText(text), graph.NormText(title)
	if len(t) <= len(ti) || !strings.HasSuffix(t, ti) {
		return false
	}
	head := strings.TrimSpace(t[:len(t)-len(ti)])
	return len(head) > 1 && (strings.HasSuffix(head, ",") || strings.HasSuffix(head, " and") || strings.HasSuffix(head, "&"))
}

// unlinkedNames reports whether a cell of several links also names things
// it does not link: "Ho Meng Hua, Yueh Feng, Doe Ching, Luo Zhen, Yen Chun
// and Hsieh Chun" linking the first three directors. Its links would drop
// the others; the cell's value is its text. What stays of the text once
// each link's name is taken out (its title, or the title's head before a
// qualifier: "Jim Thorpe" for "Jim Thorpe, Pennsylvania") holds no
// capitalised word or figure.
func unlinkedNames(c table.Cell) bool {
	rest := " " + textnorm.SqueezeSpaces(c.Text) + " "
	for _, l := range c.Links {
		for _, n := range linkNames(l) {
			rest = strings.ReplaceAll(rest, n, " ")
		}
	}
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if r := []rune(w)[0]; unicode.IsUpper(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// teamAtGames reports whether a cell names the nation whose team at the
// Games it links, with or without its code: "Trinidad and Tobago (TRI)"
// linking Trinidad and Tobago at the 1971 Pan American Games, one nation
// for all its "and".
func teamAtGames(text, title string) bool {
	who, _, ok := strings.Cut(title, " at the ")
	if !ok {
		return false
	}
	if strings.Contains(text, "(") {
		text = nationCode.ReplaceAllString(text, " ")
	}
	return graph.NormText(text) == graph.NormText(who)
}

var nationCode = regexp.MustCompile(`\(\s*[A-Z]{3}\s*\)`)

// linkNamed reports whether link l names name: its title, or the title's
// head before a qualifier (linkNames), written alike but for case and
// dashes ("Joint Base Langley-Eustis" of Joint Base Langley–Eustis).
func linkNamed(l, name string) bool {
	want := graph.NormText(textnorm.FoldDashes(name))
	return slices.ContainsFunc(linkNames(l), func(n string) bool { return graph.NormText(textnorm.FoldDashes(n)) == want })
}

// linkNames are the texts a cell may write for a link titled l, longest
// first: the title, and its head before ", " or " (".
func linkNames(l string) []string {
	out := []string{l}
	for _, sep := range []string{", ", " ("} {
		if i := strings.Index(l, sep); i > 0 {
			out = append(out, l[:i])
		}
	}
	return out
}

// binomial reports whether a title is a species' Latin name: a
// capitalised genus and a lower-case epithet ("Cassia fistula").
func binomial(title string) bool {
	ws := strings.Fields(title)
	if len(ws) != 2 {
		return false
	}
	r, size := utf8.DecodeRuneInString(ws[0])
	genus := ws[0][size:]
	return unicode.IsUpper(r) && strings.ToLower(genus) == genus && strings.ToLower(ws[1]) == ws[1] && !strings.ContainsFunc(ws[1], func(r rune) bool { return !unicode.IsLetter(r) })
}

// parenLink reports whether a cell's one link is only its parenthesis:
// "Sport (Finland)" linking Finland, the club unlinked. The link
// qualifies the text (a country, a league, another name); the cell's
// value is its text.
func parenLink(text, title string) bool {
	m := parenCell.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	in, ti := graph.NormText(m[2]), graph.NormText(title)
	if binomial(title) && strings.HasPrefix(in, ti) {
		return false // "Golden shower flower (Cassia fistula Linn.)": the plant's Latin name, linked
	}
	if (in == ti || strings.HasPrefix(ti, in+",") || strings.HasPrefix(ti, in+" (")) && !strings.Contains(graph.NormText(m[1]), ti) {
		return true
	}
	// "Private (Methodist)" linking United Methodist Church: the link is
	// the parenthesis's, the text before it names something else.
	words := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	tw := map[string]bool{}
	for _, w := range words(ti) {
		tw[w] = true
	}
	for _, w := range words(graph.NormText(m[1])) {
		if len(w) > 2 && tw[w] {
			return false
		}
	}
	return true
}

// noteLink reports whether a cell writes its one link's title and, in
// parentheses, a note that makes the cell another thing than the link: a
// measure ("Earth orbit ( 500 km )" linking Earth orbit, a telescope's
// location, as "Solar orbit (0.98-1.02 AU)" beside it is text), or a
// country's team ("South Africa (national team)" linking South Africa, a
// race's winning team). The cell's value is its text.
func noteLink(text, title string) bool {
	m := parenCell.FindStringSubmatch(text)
	return m != nil && graph.NormText(m[1]) == graph.NormText(title) &&
		(measure.MatchString(m[2]) || strings.HasPrefix(strings.ToLower(m[2]), "national "))
}

// measure matches a figure, or a range of figures, with its unit: "500
// km", "0.98-1.02 AU".
var measure = regexp.MustCompile(`^[0-9][0-9.,]*(?:\s*[-–]\s*[0-9][0-9.,]*)?\s*[A-Za-zµ°%]{1,4}$`)

var parenCell = regexp.MustCompile(`^(.*\S)\s*\(\s*([^()]+?)\s*\)$`)

// labelLink reports whether a cell's one link is a label for a text of
// figures that names nothing of the article: "8, 10" (criteria codes)
// linking "Monuments of Japan", "1.92 m" linking the championship the
// height was jumped at. The cell's value is its text. A text of words
// ("USA", "Great Britain") may be another name of the article and keeps
// the link.
func labelLink(text, title string) bool {
	if !strings.ContainsFunc(text, unicode.IsDigit) {
		return false
	}
	in := map[string]bool{}
	for _, w := range linkWords(title) {
		in[w] = true
	}
	for _, w := range linkWords(text) {
		if in[w] {
			return false
		}
	}
	return true
}

// linkWords are the lowercase runs of letters and digits of s.
func linkWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// linkIsCell reports whether a link stands for the whole cell rather than a
// few of its words: the texts agree, or the text is no longer than the
// title and a little more ("Golding" for "William Golding", "USA" for
// "United States" by length).
func linkIsCell(text, title string) bool {
	return graph.NormText(text) == graph.NormText(title) || len(text) <= len(title)+3
}

// isoGroup is the isomorphism group of a header: its sorted, normalised
// column names.
func isoGroup(header []string) string {
	hs := make([]string, 0, len(header))
	for _, h := range header {
		hs = append(hs, normHeader(h))
	}
	sort.Strings(hs)
	return strings.Join(hs, "|")
}

// questionValues are layer 1: the page's own article, the section and the
// caption.
func questionValues(t *table.Table) []graph.Value {
	var vs []graph.Value
	if t.PageTitle != "" {
		vs = append(vs, graph.Value{Key: "w:" + t.PageTitle, Name: t.PageTitle, Type: graph.TypeEntity, URL: t.PageURL, Surface: t.PageTitle})
	}
	for _, s := range []string{t.Section, t.Caption} {
		if s = strings.TrimSpace(s); s != "" && s != t.PageTitle {
			vs = append(vs, graph.Value{Key: "t:" + graph.NormText(s), Name: s, Type: graph.TypeText, Surface: s})
		}
	}
	return vs
}

// Prepare cleans and shapes a table for graph.Builder.AddPrepared, or says
// why it is rejected. It depends on the table alone and is safe for
// concurrent use: the readers prepare tables in parallel while the Builder
// stores them in input order.
func Prepare(t *table.Table, opts CleanOptions) *graph.Prepared {
	p := &graph.Prepared{Key: t.Key(), Source: t.Source, PageTitle: t.PageTitle, PageURL: t.PageURL,
		Index: t.Index, Section: t.Section, Caption: t.Caption, Untitled: t.Untitled, Cut: t.Cut}
	p.Shaped, p.Reject = Shape(t, opts)
	if p.Reject != nil {
		p.Header = t.Header
	}
	p.TwinInText = headedInText(t)
	return p
}

// headedInText reports whether t's context (its section's text, as
// OTT-QA gives it) holds t's header, two columns or more: another table
// of the section, kept as text ("Rank Mountain Elevation Range 54 Grizzly
// Peak …" above Colorado's "Other notable thirteeners").
func headedInText(t *table.Table) bool {
	if len(t.Header) < 2 || t.Context == "" {
		return false
	}
	h := " " + wordsOnly(strings.Join(t.Header, " ")) + " "
	return len(h) >= 12 && strings.Contains(" "+wordsOnly(t.Context)+" ", h)
}

// wordsOnly is s lower-cased, its runs of anything but letters and digits
// made one space.
func wordsOnly(s string) string { return strings.Join(linkWords(s), " ") }

// splitLinks unlinks the cells of a column that link one article under
// names of different things: "Stone Boy", "Chlorophyll Kid" and
// "Infectious Lass" all linking Legion of Substitute Heroes; "Saint
// John's University" and "College of Saint Benedict" linking the article
// of both. Each cell names a member or a part, not the article, and keeps
// its text; read as the article, every row would show one of the names.
// Names of one thing ("J. Smith", "John Smith"; "Ireland", "Republic of
// Ireland") stay links, as do the title and codes; "Left Wing" and "Right
// Wing" linking Winger do not. col holds copies of the table's cells; the
// table is not changed.
func splitLinks(col []table.Cell) {
	texts := map[string][]string{}
	for _, c := range col {
		if len(c.Links) != 1 || c.Links[0] == "" {
			continue
		}
		t := graph.NormText(c.Text)
		if len(t) <= 3 || t == graph.NormText(c.Links[0]) || slices.Contains(texts[c.Links[0]], t) {
			continue
		}
		texts[c.Links[0]] = append(texts[c.Links[0]], t)
	}
	split := map[string]bool{}
	for l, ts := range texts {
		// "President" and "President pro Tempore" both linking State
		// legislature (United States): texts that share no word with
		// the title name something the article is only about.
		if len(ts) >= 2 && !slices.ContainsFunc(ts, func(t string) bool { return sharesWord(t, l) }) {
			split[l] = true
		}
		for i := 0; i < len(ts) && !split[l]; i++ {
			for j := i + 1; j < len(ts); j++ {
				if !sameName(ts[i], ts[j]) {
					split[l] = true
					break
				}
			}
		}
	}
	if len(split) == 0 {
		return
	}
	for i, c := range col {
		if len(c.Links) == 1 && split[c.Links[0]] && graph.NormText(c.Text) != graph.NormText(c.Links[0]) {
			col[i].Links = nil
		}
	}
}

// rowLinks keeps a link on the cells of a row that name its article
// (sameName) when another cell of the row links it too under another
// name: the extinct lemur's "Common name" "Sloth lemurs" and its "Family"
// "Palaeopropithecidae" both link Sloth lemur. The family is its text;
// read as the article, the answer would give the common name twice. The
// row's cells are copied before a change.
func rowLinks(rows [][]table.Cell) {
	for i, r := range rows {
		var named map[string]bool // links some cell of the row names
		for _, c := range r {
			if len(c.Links) == 1 && c.Links[0] != "" && sameName(graph.NormText(c.Text), graph.NormText(c.Links[0])) {
				if named == nil {
					named = map[string]bool{}
				}
				named[c.Links[0]] = true
			}
		}
		if named == nil {
			continue
		}
		copied := false
		for j, c := range r {
			if len(c.Links) != 1 || !named[c.Links[0]] {
				continue
			}
			if sameName(graph.NormText(c.Text), graph.NormText(c.Links[0])) {
				continue
			}
			if !copied {
				r, copied = slices.Clone(r), true
				rows[i] = r
			}
			r[j].Links = nil
		}
	}
}

// sameName reports whether two normalised texts may name one thing: one
// holds the other, or they end with the same word and begin with the same
// letter ("j smith", "john smith"; not "left wing", "right wing").
func sameName(a, b string) bool {
	if strings.Contains(a, b) || strings.Contains(b, a) {
		return true
	}
	fa, fb := strings.Fields(a), strings.Fields(b)
	return len(fa) > 0 && len(fb) > 0 && fa[len(fa)-1] == fb[len(fb)-1] && a[0] == b[0]
}

// pairText reports whether a cell joins names with "&" or "and"
// ("Philippe Arthuys & Jean-Louis Levi-Alvarès"): with one of them
// linked (unlinkedNames), the cell's value is its text, not the one name.
func pairText(text string) bool {
	return strings.Contains(text, " & ") || strings.Contains(text, " and ")
}

// hasDigit reports whether s has a digit.
func hasDigit(s string) bool { return strings.ContainsFunc(s, unicode.IsDigit) }
