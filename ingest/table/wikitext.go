package table

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Fixes counts what the readers repaired in a table as read from a real
// export: the cleaning report sums them over a build.
type Fixes struct {
	HeaderRows int `json:"header_rows,omitempty"` // repeated header rows read as headers, not data
	Templates  int `json:"templates,omitempty"`   // wiki template remnants ({{yes}}) replaced by their text
	Footnotes  int `json:"footnotes,omitempty"`   // footnote marks ([1], {{efn|...}}, <ref>) removed
	Links      int `json:"links,omitempty"`       // cells written as page titles read as linked entities
	// Unshown counts the cells left blank of columns where the page
	// showed another text than the article's title the export wrote: a
	// name in its own language or original form, a call sign linked to
	// its station's brand.
	Unshown int `json:"unshown,omitempty"`
}

// Add adds o to f.
func (f *Fixes) Add(o Fixes) {
	f.HeaderRows += o.HeaderRows
	f.Templates += o.Templates
	f.Footnotes += o.Footnotes
	f.Links += o.Links
	f.Unshown += o.Unshown
}

// templateWords are the text of the templates that stand for a word in
// tables ("{{yes}}" is a green "Yes" cell).
var templateWords = map[string]string{
	"yes": "Yes", "yes2": "Yes", "y": "Yes", "ya": "Yes", "no": "No", "no2": "No", "n": "No",
	"won": "Won", "nom": "Nominated", "lost": "Lost", "pending": "Pending", "draw": "Draw",
	"dunno": "?", "unknown": "Unknown", "n/a": "N/A", "na": "N/A", "n.a.": "N/A", "na2": "N/A",
	"unreleased": "Unreleased", "tba": "TBA", "tbd": "TBD", "sort dash": "—", "dash": "—",
	"mdash": "—", "ndash": "–", "partial": "Partial", "some": "Some", "free": "Free",
	"nonfree": "Non-free", "active": "Active", "inactive": "Inactive", "included": "Included",
	"optional": "Optional", "incorrect": "Incorrect", "okay": "Okay", "good": "Good",
	"bad": "Bad", "table-yes": "Yes", "table-no": "No", "ticket": "", "dagger": "†",
	"data missing": "", "hs": "", "increase": "", "decrease": "", "steady": "", "nbsp": " ",
	"·": "·", "spaces": " ", "clear": "", "-": "", "sfrac": "", "refn": "", "efn": "",
	"ref": "", "sfn": "", "cn": "", "citation needed": "", "efn-ua": "", "efn-lr": "",
	"note": "", "notetag": "", "r": "", "rp": "", "dagger2": "†", "double-dagger": "‡",
	"detailslink": "", "flagicon": "", "flagicon image": "", "small": "", "nowrap": "",
}

// footnoteTemplates are templates that only hold a footnote.
var footnoteTemplates = map[string]bool{
	"efn": true, "refn": true, "ref": true, "sfn": true, "cn": true, "citation needed": true,
	"efn-ua": true, "efn-lr": true, "note": true, "notetag": true, "r": true, "rp": true,
	"ref label": true, "note label": true, "sup": true,
}

// textTemplates keep the text of one argument: the last ({{sort|key|text}})
// or the first ({{flag|Canada}}).
var (
	lastArg  = map[string]bool{"sort": true, "lang": true}
	firstArg = map[string]bool{"center": true, "nowrap": true, "small": true, "big": true, "abbr": true,
		"flag": true, "flagcountry": true, "flagu": true, "fb": true, "fba": true, "ru": true, "nts": true,
		"nobold": true, "bold": true, "italic": true, "em": true, "strong": true,
		"tooltip": true, "h": true, "visible anchor": true, "flagathlete": true,
		"ill": true, "interlanguage link": true, "interlanguage link multi": true}
)

var (
	reCellFootnote = regexp.MustCompile(`\[(?:\d{1,3}|[a-z]|[A-Z]|note \d+|nb \d+|N \d+|citation needed|clarification needed|\w{1,3} \d{1,3})\]`)
	reRef          = regexp.MustCompile(`(?s)<ref[^>]*/>|<ref[^>]*>.*?</ref>`)
	reAttrs        = regexp.MustCompile(`^\s*(?:(?:colspan|rowspan|style|align|class|bgcolor|width|data-sort-value)\s*=\s*"?[^"|]*"?\s*)+\|?`)
	reTag          = regexp.MustCompile(`</?(?:br|small|sup|sub|span|div|center|b|i|s|u|big|abbr|font)\b[^>]*>`)
)

// cleanWikitext removes what a wikitext-to-CSV export leaves in a cell:
// templates ({{yes}}, {{sort|1|Alpha}}, {{flagicon|USA}}), wiki links
// ([[A|b]], whose targets are returned as links), <ref> tags, footnote marks
// ([1], [a]) and HTML entities. Cells without any of these come back as is.
func cleanWikitext(s string, fx *Fixes) (string, []string) {
	// The tail of a template whose head the export lost ("Germany}}Germany"
	// of {{flagicon|Nazi Germany}}Germany, "Salvador}}" of a flag alone):
	// the cell's text is what follows it.
	if i := strings.Index(s, "}}"); i >= 0 && !strings.Contains(s[:i], "{{") {
		s = strings.TrimSpace(s[i+2:])
		fx.Templates++
	}
	if !strings.ContainsAny(s, "{[&<'=") {
		return s, nil
	}
	var links []string
	if strings.Contains(s, "=") {
		s = reAttrs.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "<ref") {
		if n := len(reRef.FindAllStringIndex(s, -1)); n > 0 {
			fx.Footnotes += n
			s = reRef.ReplaceAllString(s, "")
		}
	}
	for i := 0; i < 8 && strings.Contains(s, "{{"); i++ {
		t, changed := replaceTemplates(s, fx, &links)
		if !changed {
			break
		}
		s = t
	}
	if strings.Contains(s, "[[") {
		s = replaceWikiLinks(s, &links)
	}
	if strings.IndexByte(s, '[') >= 0 {
		if n := len(reCellFootnote.FindAllStringIndex(s, -1)); n > 0 {
			fx.Footnotes += n
			s = reCellFootnote.ReplaceAllString(s, "")
		}
	}
	if strings.Contains(s, "''") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "'''", ""), "''", "") // bold, italics
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = reTag.ReplaceAllString(s, " ")
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	return collapseSpace(s), links
}

// replaceTemplates replaces the innermost templates of s (those holding no
// other template) with their text.
func replaceTemplates(s string, fx *Fixes, links *[]string) (string, bool) {
	var b strings.Builder
	changed := false
	for {
		open := strings.Index(s, "{{")
		if open < 0 {
			break
		}
		end := strings.Index(s[open+2:], "}}")
		if end < 0 {
			break
		}
		end += open + 2
		inner := s[open+2 : end]
		if k := strings.LastIndex(inner, "{{"); k >= 0 {
			// A template inside: replace that one first.
			b.WriteString(s[:open+2+k])
			s = s[open+2+k:]
			continue
		}
		b.WriteString(s[:open])
		b.WriteString(templateText(inner, fx, links))
		s = s[end+2:]
		changed = true
	}
	b.WriteString(s)
	return b.String(), changed
}

// templateText is the text a template stands for in a table cell.
func templateText(inner string, fx *Fixes, links *[]string) string {
	args := splitArgs(inner)
	name := strings.ToLower(strings.TrimSpace(args[0]))
	args = args[1:]
	var pos []string
	for _, a := range args {
		if eq := strings.IndexByte(a, '='); eq >= 0 && !strings.Contains(a[:eq], "[[") {
			continue // named argument: style, not content
		}
		pos = append(pos, strings.TrimSpace(a))
	}
	if footnoteTemplates[name] {
		fx.Footnotes++
		return ""
	}
	fx.Templates++
	switch name {
	case "sortname":
		return sortName(args, pos, links)
	case "dts":
		return dateSort(pos)
	}
	// A linked argument is what the cell shows ({{flagIPCmedalist|[[X]]|UKR}}).
	for _, a := range pos {
		if strings.HasPrefix(a, "[[") {
			return a
		}
	}
	switch {
	case lastArg[name] && len(pos) > 0:
		return pos[len(pos)-1]
	case firstArg[name] && len(pos) > 0:
		return pos[0]
	}
	if w, ok := templateWords[name]; ok {
		if w != "" && len(pos) > 0 && pos[0] != "" {
			return pos[0] // {{yes|partly}} shows "partly"
		}
		return w
	}
	switch {
	case strings.HasPrefix(name, "flagicon"), strings.HasPrefix(name, "sort"), name == "hs", strings.HasPrefix(name, "font"):
		if strings.HasPrefix(name, "sort") && len(pos) > 0 {
			return pos[len(pos)-1]
		}
		return ""
	case strings.HasPrefix(name, "flag") && len(pos) > 0:
		return pos[0]
	case len(pos) == 0 && len(name) <= 4 && strings.ToUpper(name) == strings.TrimSpace(args0(inner)):
		// {{USA}}, {{GBR}}: a country's flag and code.
		return strings.TrimSpace(args0(inner))
	}
	return ""
}

// sortName is what {{sortname|First|Last|link|key}} shows, "First Last"
// ("The First Wives Club", "David Dallas"), and the article it links:
// its third argument, or the name, unless nolink is set.
func sortName(args, pos []string, links *[]string) string {
	if len(pos) < 2 {
		return ""
	}
	text := collapseSpace(pos[0] + " " + pos[1])
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.TrimSpace(k) == "nolink" && strings.TrimSpace(v) != "" {
			return text
		}
	}
	link := text
	if len(pos) > 2 && pos[2] != "" {
		link = pos[2]
	}
	if t := canonical(link); t != "" {
		*links = append(*links, t)
	}
	return text
}

// dateSort is what {{dts|year|month|day}} shows: "June 22, 2009", or
// "June 22" without a year ({{dts||June|22}}); a month may be given by
// number. One argument is shown as written.
func dateSort(pos []string) string {
	if len(pos) == 1 {
		return pos[0]
	}
	if len(pos) < 2 {
		return ""
	}
	y, m, d := pos[0], pos[1], ""
	if len(pos) > 2 {
		d = pos[2]
	}
	if n, err := strconv.Atoi(m); err == nil && n >= 1 && n <= 12 {
		m = time.Month(n).String()
	}
	if n, err := strconv.Atoi(d); err == nil {
		d = strconv.Itoa(n) // "05" shows 5
	}
	out := strings.TrimSpace(m + " " + d)
	switch {
	case y != "" && d != "":
		out += ", " + y
	case y != "":
		out += " " + y
	}
	return out
}

func args0(inner string) string {
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		return inner[:i]
	}
	return inner
}

// splitArgs splits a template's inside at the pipes that are not inside a
// [[link|text]].
func splitArgs(inner string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(inner); i++ {
		switch {
		case strings.HasPrefix(inner[i:], "[["):
			depth++
			i++
		case strings.HasPrefix(inner[i:], "]]") && depth > 0:
			depth--
			i++
		case inner[i] == '|' && depth == 0:
			out = append(out, inner[start:i])
			start = i + 1
		}
	}
	return append(out, inner[start:])
}

// replaceWikiLinks turns [[Target|text]] into text and [[Target]] into
// Target, collecting the targets.
func replaceWikiLinks(s string, links *[]string) string {
	var b strings.Builder
	for {
		open := strings.Index(s, "[[")
		if open < 0 {
			break
		}
		end := strings.Index(s[open:], "]]")
		if end < 0 {
			break
		}
		end += open
		inner := s[open+2 : end]
		target, text := inner, inner
		if i := strings.IndexByte(inner, '|'); i >= 0 {
			target, text = inner[:i], inner[i+1:]
		}
		if t := canonical(strings.SplitN(target, "#", 2)[0]); t != "" {
			*links = append(*links, t)
		} else {
			text = "" // files, categories
		}
		b.WriteString(s[:open])
		b.WriteString(text)
		s = s[end+2:]
	}
	b.WriteString(s)
	return b.String()
}

// LinkMode says how cells written as page titles are read (see
// CSVOptions).
type LinkMode string

// Link modes.
const (
	LinksAuto   LinkMode = "auto"   // detect title columns
	LinksTitles LinkMode = "titles" // the file writes links as titles: read any title-like cell as a link
	LinksNone   LinkMode = "none"   // cells are text
)

// titleLike reports whether a cell is written as a Wikipedia title in the
// export convention: no spaces, a letter, none of the characters titles
// cannot hold, and not a number or a date.
func titleLike(s string) bool {
	if s == "" || len(s) > 255 || strings.ContainsAny(s, " \t#<>[]{}|") {
		return false
	}
	letter := false
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f {
			letter = true
			break
		}
	}
	return letter && !strings.HasPrefix(s, "_") && !strings.HasSuffix(s, "_") && !strings.Contains(s, "__")
}

// linkTitles reads the cells of title columns as linked entities: in a
// column where most filled cells are title-like and enough of them carry
// the underscores of a multi-word title, each title-like cell becomes the
// entity with that title, shown with spaces. LinksTitles takes a column
// with any underscored title; LinksAuto wants a fifth of the cells. In
// other columns, only a cell with underscores is a title. A column whose
// titles stand for another text of the page (nativeHeader, callHeader)
// is left blank.
func linkTitles(t *Table, mode LinkMode, fx *Fixes) {
	if mode == LinksNone || len(t.Rows) == 0 {
		return
	}
	for j := range t.Header {
		filled, like, under := 0, 0, 0
		for _, r := range t.Rows {
			c := r[j]
			if c.Text == "" || blank(c.Text) || len(c.Links) > 0 {
				continue
			}
			filled++
			if titleLike(c.Text) {
				like++
				if strings.IndexByte(c.Text, '_') >= 0 {
					under++
				}
			}
		}
		ok := under > 0 && 2*like > filled && (5*under >= filled || mode == LinksTitles)
		header := strings.Join(strings.Fields(t.Header[j]), " ")
		native, calls := nativeHeader.MatchString(header) && !scriptColumn(t, j), callHeader.MatchString(header)
		var titled []*Cell // cells written as their article's title
		lost := false
		for _, r := range t.Rows {
			c := &r[j]
			if len(c.Links) > 0 || notTitle[strings.ToLower(c.Text)] {
				continue
			}
			raw := c.Text
			if !titleLike(raw) {
				raw = anchored(raw)
			}
			// In any column, a title with underscores is a link: no text
			// of a page is so written ("North_America" among "Japan",
			// "Europe"; "Dover_International_Speedway#Results").
			if !titleLike(raw) || !ok && strings.IndexByte(raw, '_') < 0 {
				continue
			}
			if title := canonical(raw); title != "" && (native || calls && !callSign.MatchString(title)) {
				lost = true
			} else if title != "" {
				c.Text, c.Links = shownTitle(title), []string{title}
				titled = append(titled, c)
			}
		}
		if lost {
			// The page showed the name in its own language or form,
			// or the call sign, linked to the article; the export
			// wrote the article's title ("Super_Ninja_Boy" for "Super
			// Chinese World" under "Japanese Title", "Triple_J" for
			// "2JJJ" under "Call sign"). The column's text is lost: a
			// row keyed by a blank cell would be dropped and a blank
			// value would be false, so none of its cells is read.
			for _, r := range t.Rows {
				if r[j].Text != "" || len(r[j].Links) > 0 {
					fx.Unshown++
				}
				r[j] = Cell{}
			}
			continue
		}
		fx.Links += len(titled)
		commaShown(t.Rows, j, titled)
		if yearHeader.MatchString(t.Header[j]) {
			yearShown(titled)
		}
	}
}

// scriptColumn reports whether a column of t other than j holds names in
// a script other than Latin in most of its filled cells: the page shows
// its names in their own form there, and a column headed as native
// ("Original title") beside it, which the export wrote as its articles'
// titles, shows those titles. Bulgaria's submissions for the Academy
// Award head their English, linked titles "Original title" beside the
// Cyrillic ones (sts-csv 17747785-100450, rounds 199 and 200).
func scriptColumn(t *Table, j int) bool {
	for k := range t.Header {
		if k == j {
			continue
		}
		filled, other := 0, 0
		for _, r := range t.Rows {
			c := r[k].Text
			if blank(c) {
				continue
			}
			filled++
			if nonLatin(c) {
				other++
			}
		}
		if filled > 0 && 2*other > filled {
			return true
		}
	}
	return false
}

// nonLatin reports whether most letters of s are of a script other than
// Latin.
func nonLatin(s string) bool {
	latin, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.IsLetter(r):
			other++
		}
	}
	return other > latin
}

// nativeHeader matches the header of a column of names in their own
// language or original form ("Japanese Title", "Original title",
// "Romaji", "Title (native)"). Such a name links the article, whose
// title is the English name, not the text the page shows.
var nativeHeader = regexp.MustCompile(`(?i)^(?:(?:original|native|local|vernacular|japanese|chinese|korean|russian|thai|greek|arabic|hebrew|hindi|persian|romaji|rōmaji|romani[sz]ed|transliterated)(?: language)? (?:title|name)s?|(?:title|name)s? \((?:original|native|local|japanese|chinese|korean|russian|romaji|rōmaji|romani[sz]ed)\)|romaji|rōmaji|kanji|hangul|hanzi|cyrillic|transliteration)$`)

// callHeader matches the header of a column of call signs, and
// callSign a title that begins with one ("WNIN (TV)", "2GB", "KROQ-FM").
var (
	callHeader = regexp.MustCompile(`(?i)^call ?signs?$`)
	callSign   = regexp.MustCompile(`^[A-Z0-9]{3,}(?:-[A-Z0-9]+)?(?: |$)`)
)

// yearHeader matches a header of years or seasons.
var yearHeader = regexp.MustCompile(`(?i)^(?:year|season|draft year)s?$`)

// yearShown shows a year column's titles of an edition by its year
// ("1977" for "1977 NHL Amateur Draft", "1992–93" for "1992–93 NHL
// season"): the page links the year to the edition, and the export wrote
// the edition's title in its place.
func yearShown(cells []*Cell) {
	for _, c := range cells {
		if m := editionTitle.FindStringSubmatch(c.Text); m != nil {
			c.Text = m[1]
		}
	}
}

// editionTitle matches the title of an edition that begins with its year
// or season.
var editionTitle = regexp.MustCompile(`^((?:1[5-9]|20)[0-9]{2}(?:[–-][0-9]{2,4})?) \S`)

// commaShown shows the titles of column j that the export wrote for
// links (titled) by the name alone where they are disambiguated after a
// comma ("Hernani" for "Hernani, Spain"), two of them or more share the
// qualifier, and most of the column's cells have none: the page
// writes the municipalities' names ("Irun", "Errenteria", "Hernani"), the
// export their articles' titles. A suffix of a name ("Sammy Davis, Jr.")
// or a band of names ("Crosby, Stills, Nash & Young") is no qualifier.
func commaShown(rows [][]Cell, j int, titled []*Cell) {
	filled, with := 0, 0
	for _, r := range rows {
		if j < len(r) && r[j].Text != "" {
			filled++
			if strings.Contains(r[j].Text, ", ") {
				with++
			}
		}
	}
	if 2*with >= filled {
		return
	}
	by := map[string][]*Cell{}
	for _, c := range titled {
		name, q, ok := strings.Cut(c.Text, ", ")
		if r, _ := utf8.DecodeRuneInString(q); !ok || name == "" || !unicode.IsUpper(r) || strings.ContainsAny(q, ",&") || nameSuffix[strings.TrimSuffix(q, ".")] {
			continue
		}
		by[q] = append(by[q], c)
	}
	for _, cs := range by {
		if len(cs) < 2 {
			continue
		}
		for _, c := range cs {
			c.Text, _, _ = strings.Cut(c.Text, ", ")
		}
	}
}

// nameSuffix are what follows a person's name after a comma.
var nameSuffix = map[string]bool{"Jr": true, "Sr": true, "II": true, "III": true, "IV": true, "V": true, "MP": true, "QC": true, "KC": true, "MD": true, "PhD": true}

// anchored is the title of a link to a section written as a title
// ("Dover_International_Speedway#Indy_Racing_League_results" links Dover
// International Speedway), or s.
func anchored(s string) string {
	i := strings.IndexByte(s, '#')
	if i <= 0 || strings.IndexByte(s, '_') < 0 || !titleLike(s[:i]) || !titleLike(s[i+1:]) {
		return s
	}
	return s[:i]
}

// shownTitle is the text a page shows for a link to the article title:
// the title without Wikipedia's disambiguator ("Arie" for "Arie (film)",
// "Mars" for "Mars (2004 film)", "Olympiastadion" for "Olympiastadion
// (Berlin)", "Peter King" for "Peter King (Australian politician)",
// "WNIN" for "WNIN (TV)"), which the export wrote in place of
// the cell's text. Another parenthesis that begins with a capital is
// kept: a code or a name of its own ("Albirex Niigata (S)").
func shownTitle(title string) string {
	m := disambiguated.FindStringSubmatch(title)
	if m == nil {
		return title
	}
	if r, _ := utf8.DecodeRuneInString(m[2]); unicode.IsLower(r) || unicode.IsDigit(r) || placeWord.MatchString(m[2]) || broadcast[m[2]] {
		return m[1]
	}
	return title
}

// placeWord matches a disambiguator of capitalised words, a place, a
// body or a person ("Berlin", "Yale University", "United States", "Chris
// Brown"), then words in lower case ("Australian politician", "American
// football", "Chris Brown album"), not a code ("S", "USA") nor a title's
// own words, which have a word in lower case before a capitalised one
// ("Single Ladies (Put a Ring on It)").
var placeWord = regexp.MustCompile(`^\p{Lu}\p{Ll}{2,}(?: \p{Lu}\p{Ll}+)*(?: \p{Ll}+)*$`)

// broadcast are the disambiguators of a station's call sign.
var broadcast = map[string]bool{"TV": true, "FM": true, "AM": true, "LPTV": true, "radio station": true, "TV station": true}

// disambiguated matches a title with a trailing parenthesis.
var disambiguated = regexp.MustCompile(`^(.*\S)\s+\(([^()]+)\)$`)

// notTitle are words that sum up or fill a column, not entities.
var notTitle = map[string]bool{"total": true, "totals": true, "overall": true, "average": true, "sum": true,
	"other": true, "others": true, "unknown": true, "vacant": true, "none": true, "various": true}

// blank reports a cell that says "no value".
func blank(s string) bool {
	switch s {
	case "-", "–", "—", "?", "n/a", "N/A", "TBA", "TBD", "none", "None", "×":
		return true
	}
	return false
}
