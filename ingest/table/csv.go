package table

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/internal/textnorm"
)

// csvDelims are the delimiters ParseCSV chooses among.
var csvDelims = []byte{',', '\t', ';', '|', '#'}

// CSVOptions configure ParseCSVWith. A nil *CSVOptions means defaults.
type CSVOptions struct {
	// Links says how cells written as page titles ("Chester_City_F.C.",
	// the convention of wikitext exports) are read: LinksAuto (the
	// default) detects title columns, LinksTitles takes any column mostly
	// of titles, LinksNone keeps them as text.
	Links LinkMode
}

// ParseCSV is ParseCSVWith with default options.
func ParseCSV(name string, r io.Reader, meta *PageMeta) (*Table, error) {
	return ParseCSVWith(name, r, meta, nil)
}

// ParseCSVWith reads a CSV or TSV table whose first row is the header. The
// delimiter is the one among , TAB ; | # that splits the first lines most
// consistently. Quotes are lax (encoding/csv LazyQuotes). Rows wider or
// narrower than the header are truncated or padded and counted in Ragged.
//
// The conventions of Wikipedia exports are read: wiki templates ({{yes}}),
// links ([[A|b]]), <ref> tags and footnote marks are cleaned from cells; a
// second header row under a header with spanned names ("League, League")
// joins it, and copies of the header in the body are dropped; cells written
// as page titles become linked entities (see CSVOptions). Table.Fixes
// counts all of these.
//
// The page title comes from meta, else from the file name ("List_of_X.csv"
// is "List of X"). A file name that is no title ("19536913-601237.csv", a
// page id and a table id) leaves the table Untitled, on the page
// https://en.wikipedia.org/?curid=19536913 when the name starts with a page
// id. It returns a *ParseError with Reason "empty" when there is nothing
// but white space.
func ParseCSVWith(name string, r io.Reader, meta *PageMeta, opts *CSVOptions) (*Table, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Reason: "read error", Msg: err.Error()}
	}
	return parseCSV(name, data, meta, opts)
}

// parseCSV is ParseCSVWith on a file already read.
func parseCSV(name string, data []byte, meta *PageMeta, opts *CSVOptions) (*Table, error) {
	links := LinksAuto
	if opts != nil && opts.Links != "" {
		links = opts.Links
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{File: name, Reason: "empty", Msg: "no header row"}
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = rune(sniffDelim(data))
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	var recs [][]string
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			return nil, &ParseError{File: name, Line: line, Reason: "invalid csv", Msg: shortErr(err)}
		}
		if emptyRecord(rec) {
			continue // blank lines, and exports' rows of empty cells
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, &ParseError{File: name, Reason: "empty", Msg: "no header row"}
	}
	t := &Table{Source: name, Format: FormatCSV, Index: -1}
	if meta != nil {
		t.PageTitle, t.PageURL, t.Index = meta.Title, meta.URL, meta.Index
		t.Section, t.Caption, t.Context = meta.Section, meta.Caption, meta.Context
	}
	if t.PageTitle == "" && t.PageURL == "" {
		t.PageTitle = titleFromFile(name)
		if t.PageTitle == "" {
			t.Untitled = true
			t.PageURL = pageIDURL(name)
		}
	}
	if t.PageTitle != "" {
		t.PageURL = URL(t.PageTitle)
	} else if tt := Title(t.PageURL); tt != "" {
		t.PageTitle, t.PageURL = tt, URL(tt)
	}
	// Cells cleaned of wikitext, with the links it held.
	// A data cell's lines, the page's line breaks, are parted as a
	// page's are ("B93; BK Skjold": two clubs of one ground); lined
	// holds them, by row, where the cell has several. Headers, and rows
	// compared with them, read a cell's lines as one heading's.
	cells := make([][]Cell, len(recs))
	lined := make([]map[int]string, len(recs))
	for i, rec := range recs {
		row := make([]Cell, len(rec))
		for j, f := range rec {
			text, ls := cleanWikitext(f, &t.Fixes)
			if strings.IndexByte(text, '\n') >= 0 {
				if lined[i] == nil {
					lined[i] = map[int]string{}
				}
				lined[i][j] = unglued(collapseSpace(joinLines(strings.Split(text, "\n"))))
			}
			row[j] = Cell{Text: unglued(collapseSpace(text)), Links: ls}
		}
		cells[i] = row
	}
	header := cells[0]
	if h, ok := dataHeader(header, cells[1:]); ok {
		return nil, &ParseError{File: name, Line: 1, Reason: "no header", Msg: fmt.Sprintf("the first row links articles (%s): a row of data, not a header", h)}
	}
	body, first := cells[1:], 1
	t.Header = make([]string, len(header))
	for i, h := range header {
		t.Header[i] = h.Text
	}
	var second []Cell
	if len(body) > 0 && headerContinues(header, body[0]) {
		second = body[0]
		body, first = body[1:], 2
		t.Fixes.HeaderRows++
		for i := range t.Header {
			if i < len(second) && second[i].Text != "" && second[i].Text != t.Header[i] {
				t.Header[i] = strings.TrimSpace(t.Header[i] + " " + second[i].Text)
			}
		}
	}
	width := len(t.Header)
	t.Rows = make([][]Cell, 0, len(body))
	for k, rec := range body {
		if sameTexts(rec, header) || second != nil && sameTexts(rec, second) {
			t.Fixes.HeaderRows++
			continue
		}
		if len(rec) != width {
			t.Ragged++
		}
		row := make([]Cell, width)
		copy(row, rec)
		for j, text := range lined[first+k] {
			if j < width {
				row[j].Text = text
			}
		}
		t.Rows = append(t.Rows, row)
	}
	linkTitles(t, links, &t.Fixes)
	return t, nil
}

// dataHeader reports a first row that is data, not a header: at least
// two of its cells, and half of them, link articles, and so do most rows
// below it in those columns ("[[Nate Brooks]]", "Edgar_Basel": a
// flyweight's medallists over the other weights', the file having no
// header row). A header that links its columns' subjects over rows of
// figures (an opinion poll's candidates) is a header, and an image is no
// article. It returns the first linked cell's text.
func dataHeader(header []Cell, body [][]Cell) (string, bool) {
	var cols []int
	for j, c := range header {
		if linksArticle(c) {
			cols = append(cols, j)
		}
	}
	if len(cols) < 2 || 2*len(cols) < len(header) || len(body) == 0 {
		return "", false
	}
	like := 0
	for _, r := range body {
		n := 0
		for _, j := range cols {
			if j < len(r) && linksArticle(r[j]) {
				n++
			}
		}
		if 2*n >= len(cols) {
			like++
		}
	}
	return header[cols[0]].Text, 2*like > len(body)
}

// linksArticle reports a cell that links an article: by wiki link, or
// written as a title with underscores; not a file ("File:Flag.svg").
func linksArticle(c Cell) bool {
	if strings.Contains(c.Text, "File:") || strings.Contains(c.Text, "Image:") {
		return false
	}
	return len(c.Links) > 0 || titleLike(c.Text) && strings.IndexByte(c.Text, '_') >= 0
}

// unglued drops a sort key an export glued to the front of a cell's text
// ("gomezSelena Gomez", "symoneRaven-Symoné": a hidden sort key of the
// page, then the name it shows): a lower-case word of three letters or
// more that the name after it holds, followed by a capital.
func unglued(s string) string {
	if m := paddedOrdinal.FindStringSubmatch(s); m != nil {
		return m[1] // "007th": the hidden "00" that sorts it, then "7th"
	}
	i := 0
	for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	if i < 3 || i == len(s) {
		return s
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if !unicode.IsUpper(r) {
		return s
	}
	rest := s[i:]
	var letters strings.Builder
	for _, r := range strings.ToLower(textnorm.FoldAccents(rest)) {
		if r >= 'a' && r <= 'z' {
			letters.WriteRune(r)
		}
	}
	if !strings.Contains(letters.String(), s[:i]) {
		return s
	}
	return rest
}

// paddedOrdinal matches an ordinal behind the zeros of its hidden sort
// key ("007th", "0121st" of a draft's round and pick).
var paddedOrdinal = regexp.MustCompile(`^0+([1-9][0-9]*(?:st|nd|rd|th))$`)

// headerContinues reports a second header row: the first has names spanned
// over several columns ("League, League, League" over "Division, Apps,
// Goals"), and the second holds names, not values: no numbers, no titles,
// no empty cells under a spanned name.
func headerContinues(h, next []Cell) bool {
	if len(next) != len(h) || sameTexts(h, next) {
		return false
	}
	spanned := false
	for j := 1; j < len(h); j++ {
		if h[j].Text != "" && h[j].Text == h[j-1].Text {
			spanned = true
		}
	}
	if !spanned {
		return false
	}
	for j, c := range next {
		if c.Text == h[j].Text {
			continue
		}
		if c.Text == "" || len(c.Links) > 0 || strings.IndexByte(c.Text, '_') >= 0 || strings.ContainsAny(c.Text, "0123456789") {
			return false
		}
	}
	return true
}

func emptyRecord(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// sameTexts reports a row whose texts are those of the header.
func sameTexts(a, b []Cell) bool {
	if len(a) != len(b) {
		return false
	}
	some := false
	for i := range a {
		if a[i].Text != b[i].Text {
			return false
		}
		some = some || a[i].Text != ""
	}
	return some
}

// pageIDURL is the page a file named by a page id ("19536913-601237.csv")
// is from, or a file: URL naming the file when the name is no page id, so
// that untitled files do not share one page.
func pageIDURL(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if i := strings.LastIndexByte(base, '!'); i >= 0 {
		base = base[i+1:]
	}
	id := base
	if i := strings.IndexAny(id, "-._"); i >= 0 {
		id = id[:i]
	}
	if id != "" && strings.Trim(id, "0123456789") == "" {
		return "https://en.wikipedia.org/?curid=" + id
	}
	return "file:" + base
}

// countOutside counts d in line outside wiki templates and links: an
// export's "{{Flag|Liberia}}" and "[[Italian East Africa|colony]]" hold
// pipes that delimit no column.
func countOutside(line []byte, d byte) int {
	n, depth := 0, 0
	for i := 0; i < len(line); i++ {
		switch {
		case i+1 < len(line) && (line[i] == '{' && line[i+1] == '{' || line[i] == '[' && line[i+1] == '['):
			depth++
			i++
		case i+1 < len(line) && depth > 0 && (line[i] == '}' && line[i+1] == '}' || line[i] == ']' && line[i+1] == ']'):
			depth--
			i++
		case line[i] == d && depth == 0:
			n++
		}
	}
	return n
}

// sniffDelim picks the delimiter whose count is the same, and highest, on
// the first lines (quotes are ignored: a heuristic, good for real files).
func sniffDelim(data []byte) byte {
	lines := bytes.SplitN(data, []byte{'\n'}, 21)
	if len(lines) > 20 {
		lines = lines[:20]
	}
	best, bestScore := byte(','), -1
	for _, d := range csvDelims {
		first := -1
		consistent := 0
		for _, l := range lines {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			n := countOutside(l, d)
			if first < 0 {
				first = n
			}
			if n == first {
				consistent++
			}
		}
		if first <= 0 {
			continue
		}
		// Consistency first, then the number of columns.
		score := consistent*1000 + first
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}

// titleFromFile turns "dir/List_of_X.csv" into "List of X".
func titleFromFile(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if i := strings.LastIndexByte(base, '!'); i >= 0 {
		base = base[i+1:]
	}
	for _, ext := range []string{".gz", ".csv", ".tsv", ".txt", ".psv"} {
		base = strings.TrimSuffix(base, ext)
	}
	t := canonical(base)
	for _, r := range t {
		if unicode.IsLetter(r) {
			return t
		}
	}
	return "" // "19536913-601237": ids, not a title
}
