package table

import (
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// PageMeta is what is known about a page from outside its HTML: a sidecar
// file, an archive index, the WikiTableQuestions metadata, or the caller.
// Empty fields are filled from the HTML where it has them.
type PageMeta struct {
	Title string
	URL   string // canonical; computed from Title when empty
	// Index is the table's position among the page's tables when the input
	// is a single-table fragment, -1 when unknown. Ignored for whole pages,
	// where each table's index is its position among the page's wikitables.
	Index   int
	Section string // "A | B"; for fragments only
	Caption string // for fragments only
	Context string // for fragments only
}

// maxSpan caps colspan and rowspan so that hostile input cannot make the
// grid explode; Wikipedia tables never come near it.
const maxSpan = 500

// maxContext caps the prose kept as a table's Context.
const maxContext = 1000

// ParseHTML reads Wikipedia HTML: either a fragment holding one table (the
// WikiTableQuestions layout), which is read whatever its class, or a whole
// rendered article, from which every table of class "wikitable" that is not
// inside another wikitable is read, with its nearest section headings,
// caption and the paragraph just above it. name is used as Source and in
// errors. It returns a *ParseError with Reason "no table" when there is none.
//
// Cell text never holds sort keys, elements hidden with display:none,
// footnote markers (sup.reference) or edit links; <br> becomes a space and
// images contribute nothing, not even their alt text: on Wikipedia alt texts
// are mostly file names and flag descriptions ("Flag of France") that would
// pollute the values, and an image-only column is then seen as empty, which
// cleaning drops. Nested tables are flattened into their cell's text.
func ParseHTML(name string, r io.Reader, meta *PageMeta) ([]*Table, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Reason: "read error", Msg: err.Error()}
	}
	return parseHTML(name, data, meta)
}

// parseHTML is ParseHTML on a file already read.
func parseHTML(name string, data []byte, meta *PageMeta) ([]*Table, error) {
	var m PageMeta
	if meta != nil {
		m = *meta
	} else {
		m.Index = -1
	}
	sc := scanPage(data)
	// WikiTableQuestions' page metadata escapes its titles ("Lilo &amp;
	// Stitch"); a page's own <title> is text already.
	title := html.UnescapeString(m.Title)
	if title == "" {
		title = sc.title
	}
	pageURL := URL(title)
	if pageURL == "" && m.URL != "" {
		if t := Title(m.URL); t != "" {
			pageURL = URL(t)
		}
	}
	out := make([]*Table, 0, len(sc.tables))
	for _, f := range sc.tables {
		n := firstTable(f.raw)
		if n == nil {
			continue
		}
		for _, t := range readTables(n) {
			t.Source = name
			t.Format = FormatHTML
			t.PageTitle = title
			t.PageURL = pageURL
			t.Index = len(out)
			t.Section = f.section
			if f.para != nil {
				t.Context = clip(fragmentText(f.para), maxContext)
				if p := strings.TrimSpace(t.Context); t.Caption == "" && partLine.MatchString(p) {
					t.Caption = p // "Season 1: 1965-66" above I Spy's episodes
				}
			}
			if sc.fragment {
				t.Index = m.Index
				if m.Section != "" {
					t.Section = m.Section
				}
				if m.Caption != "" && t.Caption == "" {
					t.Caption = m.Caption
				}
				if m.Context != "" {
					t.Context = m.Context
				}
			}
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, &ParseError{File: name, Reason: "no table", Msg: "no wikitable in the HTML"}
	}
	if !sc.fragment {
		cutByLead(out, fragmentText(sc.intro))
	}
	if len(out) > 1 {
		for i, t := range out {
			t.Source = name + "#table " + strconv.Itoa(i)
		}
	}
	return out, nil
}

type heading struct {
	level int
	text  string
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// rawCell is a source cell before span expansion.
type rawCell struct {
	cell    Cell
	th      bool
	rowspan int
	colspan int
}

// tableRows returns the rows of t, looking through thead, tbody and tfoot
// but not into nested tables.
func tableRows(t *html.Node) (rows [][]rawCell, caption string) {
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Caption:
				if caption == "" {
					caption = textOf(c, nil)
				}
			case atom.Thead, atom.Tbody, atom.Tfoot:
				visit(c)
			case atom.Tr:
				if hidden(c) {
					continue
				}
				var row []rawCell
				for d := c.FirstChild; d != nil; d = d.NextSibling {
					if d.Type != html.ElementNode || (d.DataAtom != atom.Td && d.DataAtom != atom.Th) {
						continue
					}
					var links []string
					text := textOf(d, &links) // lines joined below, by row
					row = append(row, rawCell{
						cell:    Cell{Text: text, Links: links},
						th:      d.DataAtom == atom.Th,
						rowspan: span(d, "rowspan"),
						colspan: span(d, "colspan"),
					})
				}
				// A row of data (a td in it) lists its cells' lines; a
				// header row's lines are one header ("Area" over "km²").
				data := false
				for _, rc := range row {
					data = data || !rc.th
				}
				for i := range row {
					t := row[i].cell.Text
					if data {
						t = brLines(t)
					} else {
						t = strings.ReplaceAll(t, "\ue000", " ")
					}
					row[i].cell.Text = collapseSpace(t)
				}
				rows = append(rows, row)
			}
		}
	}
	visit(t)
	return rows, caption
}

func span(n *html.Node, key string) int {
	v := attr(n, key)
	if v == "" {
		return 1
	}
	v = strings.TrimSpace(v)
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	k, err := strconv.Atoi(v[:end])
	if err != nil || k < 0 {
		return 1
	}
	if k == 0 {
		if key == "rowspan" {
			return maxSpan // to the end of the table
		}
		return 1
	}
	return min(k, maxSpan)
}

// gridCell is a cell placed in the expanded grid.
type gridCell struct {
	cell Cell
	th   bool
	own  bool // written in the source at this row (not a rowspan copy)
}

// readTables expands spans into a rectangular grid and splits header rows
// from data rows. A table that starts over under a header of its own
// ("Off-season" coaches, then "In-season" ones headed Outgoing coach,
// Interim coach, Reason) is read as one table per block, each captioned by
// the title row above its header.
func readTables(n *html.Node) []*Table {
	src, caption := tableRows(n)
	grid, ownTH := spanGrid(src)
	var out []*Table
	for {
		cut := newHeaderRow(grid, ownTH)
		if cut < 0 {
			return append(out, gridTable(grid, ownTH, caption))
		}
		if cut >= 2 && ownTH[cut-1] && fullWidthTitle(grid[cut-1]) {
			cut-- // the block's title ("In-season") goes with it
		}
		out = append(out, gridTable(grid[:cut], ownTH[:cut], caption))
		grid, ownTH, caption = grid[cut:], ownTH[cut:], ""
	}
}

// newHeaderRow returns the first row below the top header rows that is a
// header of its own: all th, a word in every cell, one cell per column,
// naming two columns or more, not as the top header does (a repeated
// header is dropped as a row by cleaning). It returns -1 when there is
// none.
func newHeaderRow(grid [][]gridCell, ownTH []bool) int {
	nh := leadTH(ownTH)
	if nh == 0 || nh == len(grid) {
		return -1
	}
	top := nh - 1 // the header row the columns are named by
	for i := nh + 1; i < len(grid); i++ {
		if !ownTH[i] || fullWidthTitle(grid[i]) {
			continue
		}
		named, differ := 0, false
		for c, g := range grid[i] {
			if g.cell.Text == "" {
				continue
			}
			if !strings.ContainsFunc(g.cell.Text, unicode.IsLetter) || g.cell.Spanned || !g.own {
				// "Total gold medals | 6 | 12": a footer of figures;
				// "England" over three columns, "League" over two: a
				// group's sub-header, not a table's
				named = -len(grid[i])
				break
			}
			named++
			if c >= len(grid[top]) || grid[top][c].cell.Text != g.cell.Text {
				differ = true
			}
		}
		if named >= 2 && differ && i+1 < len(grid) && !ownTH[i+1] {
			return i
		}
	}
	return -1
}

// leadTH counts the rows of th cells a grid starts with.
func leadTH(ownTH []bool) int {
	n := 0
	for n < len(ownTH) && ownTH[n] {
		n++
	}
	return n
}

// gridTable is the table of a grid: its top th rows the header, the rest
// data rows.
func gridTable(grid [][]gridCell, ownTH []bool, caption string) *Table {
	t := &Table{Caption: caption, Index: -1}
	if len(grid) == 0 {
		t.Header = []string{}
		t.Rows = [][]Cell{}
		return t
	}
	nh := leadTH(ownTH)
	if nh == 0 || nh == len(grid) {
		// No th-only top rows (the first row is taken as the header, as in
		// a CSV file), or nothing but th rows (only the first is header).
		nh = 1
	}
	width := 0
	for _, r := range grid {
		width = max(width, len(r))
	}
	// A top header row that is one cell across the whole table is a title,
	// not a column name: it becomes the caption when there is none.
	for nh > 1 && width > 1 && fullWidthTitle(grid[0]) {
		if t.Caption == "" {
			t.Caption = grid[0][0].cell.Text
		}
		grid, nh = grid[1:], nh-1
	}
	t.Header = make([]string, width)
	t.HeaderLink = make([][]string, width)
	hasLink := false
	for c := 0; c < width; c++ {
		var parts []string
		var links []string
		for _, r := range grid[:nh] {
			if c >= len(r) {
				continue
			}
			if s := r[c].cell.Text; s != "" && (len(parts) == 0 || parts[len(parts)-1] != s) {
				parts = append(parts, s)
			}
			for _, l := range r[c].cell.Links {
				if !contains(links, l) {
					links = append(links, l)
				}
			}
		}
		t.Header[c] = strings.Join(parts, " ")
		t.HeaderLink[c] = links
		hasLink = hasLink || len(links) > 0
	}
	if !hasLink {
		t.HeaderLink = nil
	}
	for _, r := range grid[:nh] {
		if len(r) != width {
			t.Ragged++
		}
	}
	t.Rows = make([][]Cell, 0, len(grid)-nh)
	for _, r := range grid[nh:] {
		if len(r) != width {
			t.Ragged++
		}
		row := make([]Cell, width)
		for c := range row {
			if c < len(r) {
				row[c] = r[c].cell
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// spanGrid expands the source rows' row and column spans into a grid of
// rows, leaving out rows of nothing but continued spans, and tells for
// each grid row whether every cell written in it is a th.
func spanGrid(src [][]rawCell) (grid [][]gridCell, ownTH []bool) {
	type pending struct {
		c    gridCell
		left int
	}
	var pend []pending
	for i, srow := range src {
		remaining := len(src) - i - 1
		var row []gridCell
		col := 0
		fillPending := func() {
			for col < len(pend) && pend[col].left > 0 {
				c := pend[col].c
				c.cell.Links = slices.Clone(c.cell.Links)
				row = append(row, c)
				pend[col].left--
				col++
			}
		}
		// A header row is th cells; an empty td among them is a spacer
		// (a rowspan="100" column gap), not data.
		allTH, anyTH := true, false
		for _, rc := range srow {
			fillPending()
			switch {
			case rc.th:
				anyTH = true
			case strings.TrimSpace(rc.cell.Text) != "":
				allTH = false
			}
			rs := min(rc.rowspan, remaining+1)
			for k := 0; k < rc.colspan; k++ {
				c := gridCell{cell: rc.cell, th: rc.th, own: true}
				if k > 0 {
					c.cell.Spanned = true
					c.cell.Links = slices.Clone(c.cell.Links)
				}
				row = append(row, c)
				for len(pend) <= col {
					pend = append(pend, pending{})
				}
				if rs > 1 {
					cp := c
					cp.cell.Spanned = true
					cp.cell.Links = slices.Clone(cp.cell.Links)
					cp.own = false
					pend[col] = pending{c: cp, left: rs - 1}
				} else {
					pend[col] = pending{}
				}
				col++
			}
		}
		// Spans from above that continue past this row's last own cell.
		last := -1
		for j := col; j < len(pend); j++ {
			if pend[j].left > 0 {
				last = j
			}
		}
		for ; col <= last; col++ {
			if pend[col].left > 0 {
				c := pend[col].c
				c.cell.Links = slices.Clone(c.cell.Links)
				row = append(row, c)
				pend[col].left--
			} else {
				row = append(row, gridCell{cell: Cell{Spanned: true}})
			}
		}
		if len(srow) == 0 {
			continue // a row of nothing but continued spans says nothing new
		}
		grid = append(grid, row)
		ownTH = append(ownTH, allTH && anyTH)
	}
	return grid, ownTH
}

// fullWidthTitle reports whether row is a single source cell spread over
// every column by colspan.
func fullWidthTitle(row []gridCell) bool {
	if len(row) < 2 || !row[0].own || row[0].cell.Spanned {
		return false
	}
	for _, c := range row[1:] {
		if !c.own || !c.cell.Spanned || c.cell.Text != row[0].cell.Text {
			return false
		}
	}
	return true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hidden reports whether n never shows as text: sort keys, display:none,
// edit-section links, footnote markers.
func hidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "class":
			for f := range strings.FieldsSeq(a.Val) {
				switch f {
				case "sortkey", "mw-editsection", "reference", "noprint", "printonly", "mw-cite-backlink", "autonumber":
					return true
				}
			}
		case "style":
			if strings.Contains(a.Val, "none") || strings.Contains(a.Val, "hidden") {
				s := strings.ToLower(strings.ReplaceAll(a.Val, " ", ""))
				if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
					return true
				}
			}
		case "hidden":
			return true
		}
	}
	return false
}

// unitBefore matches a text ending in a unit of length, which a
// superscript 2 or 3 squares or cubes.
var unitBefore = regexp.MustCompile(`(?:^|[\s\x{00A0}(\d/])(?:km|m|mi|ft|cm|mm|yd|in|sq mi)$`)

// noteAnchor reports whether a is a link to a note of its own page whose
// text is a mark ("3", "a", "[N]"): a footnote without the reference
// class.
func noteAnchor(a *html.Node) bool {
	if !strings.HasPrefix(attr(a, "href"), "#") {
		return false
	}
	t := strings.Trim(strings.TrimSpace(textOf(a, nil)), "[]")
	return t != "" && len([]rune(t)) <= 3 && !strings.ContainsRune(t, ' ')
}

// textOf returns the visible text of n, white space collapsed, and appends
// the canonical titles of its article links to *links (when links is not
// nil), each once.
func textOf(n *html.Node, links *[]string) string {
	var b strings.Builder
	var images []string // titles of links that show no text
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
				continue
			case html.ElementNode:
			default:
				continue
			}
			if hidden(c) {
				continue
			}
			block := false
			switch c.DataAtom {
			case atom.Br:
				if links != nil {
					b.WriteString(brMark) // a line of a cell: brLines
				} else {
					b.WriteByte(' ')
				}
				continue
			case atom.Hr:
				b.WriteByte(' ')
				continue
			case atom.Img, atom.Script, atom.Style, atom.Noscript, atom.Meta, atom.Link:
				continue
			case atom.Sup:
				if p := strings.TrimSpace(textOf(c, nil)); (p == "2" || p == "3") && unitBefore.MatchString(b.String()) {
					// "817 km<sup>2</sup>": 817 km², not 817 km2
					if p == "2" {
						b.WriteString("²")
					} else {
						b.WriteString("³")
					}
					continue
				}
			case atom.A:
				if noteAnchor(c) {
					continue // "1939<a href="#Notes"><sup>3</sup></a>": the page's note, not "19393"
				}
				if links != nil {
					if t := Title(attr(c, "href")); t != "" && !contains(*links, t) {
						if hasText(c) {
							*links = append(*links, t)
						} else if !contains(images, t) {
							// A flag or an icon: it names the cell only
							// when the cell says nothing else (below).
							images = append(images, t)
						}
					}
				}
			case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dd, atom.Dt,
				atom.Tr, atom.Td, atom.Th, atom.Table, atom.Caption, atom.Center, atom.Blockquote:
				block = true
			}
			if block {
				b.WriteByte(' ')
			}
			walk(c)
			if block {
				b.WriteByte(' ')
			}
		}
	}
	walk(n)
	text := collapseSpace(b.String())
	if links != nil && len(*links) == 0 {
		// An image link (a flag before a name whose article does not exist)
		// is no link of the text, unless the cell is that image alone,
		// says what it links to ("France" beside France's flag) or gives
		// its code ("FRA", "(NSW)").
		for _, t := range images {
			if text == "" || strings.EqualFold(text, t) || isCode(text) {
				*links = append(*links, t)
			}
		}
	}
	return text
}

// brMark stands for a cell's line break until brLines reads it.
const brMark = " \ue000 "

// brLines joins a cell's lines, parted by brMark.
func brLines(text string) string {
	if !strings.Contains(text, "\ue000") {
		return text
	}
	return joinLines(strings.Split(text, "\ue000"))
}

// joinLines joins a cell's lines: lines that each name a thing ("Austin
// Walker" over "Sam S. Griffin", "Germany" over its two skiers) by "; ",
// as a reader sees a list; a name wrapped over two lines ("Frank L. Messa
// Rink at" over "Achilles Center") or a line that qualifies the one above
// ("(1962)", "in 2010") by a space.
func joinLines(lines []string) string {
	var parts []string
	for _, p := range lines {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if ownLine(parts[i-1], p) {
				b.WriteString("; ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(p)
	}
	return b.String()
}

// ownLine reports whether line next, under prev, names a thing of its own.
func ownLine(prev, next string) bool {
	r, _ := utf8.DecodeRuneInString(next)
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
		return false
	}
	fs := strings.Fields(prev)
	last := strings.ToLower(fs[len(fs)-1])
	switch last {
	case "at", "of", "the", "and", "de", "du", "la", "le", "von", "van", "for", "in", "on", "&", "-", "–", "a":
		return false
	}
	return !strings.HasSuffix(last, ":") && !strings.HasSuffix(last, "-") && !strings.HasSuffix(last, ",")
}

// isCode reports a short code beside a flag ("FRA", "(NSW)"): the flag
// is then what the cell names.
func isCode(s string) bool {
	s = strings.Trim(s, "() []")
	if len(s) < 2 || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// hasText reports whether n shows any text.
func hasText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return true
			}
		case html.ElementNode:
			if !hidden(c) && c.DataAtom != atom.Img && hasText(c) {
				return true
			}
		}
	}
	return false
}

// leadCount matches a page's lead giving how many players a draft
// selected: "The draft consisted of 14 rounds comprising 85 players
// selected", "a total of 224 players were drafted".
var leadCount = regexp.MustCompile(`(?i)\b(\d{2,4})\s+(?:players|picks|selections)\s+(?:were\s+)?(?:selected|chosen|drafted)|\b(?:comprising|a total of)\s+(\d{2,4})\s+(?:players|picks|selections)\b`)

// cutByLead marks cut the tables of players on a page whose lead counts
// more players than its one table of them holds: 1959 NBA draft's table
// lists rounds 1-4 and a few later picks, 38 of the 85 the lead counts.
// "All" the draft's players are not on the page. Tables one per round
// (1998 MLB Draft's "First round selections") are each the whole of the
// part their section names.
func cutByLead(ts []*Table, lead string) {
	m := leadCount.FindStringSubmatch(lead)
	if m == nil {
		return
	}
	n, _ := strconv.Atoi(m[1] + m[2])
	var players *Table
	for _, t := range ts {
		if slices.ContainsFunc(t.Header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), "player") }) {
			if players != nil {
				return // a table per round, or per team
			}
			players = t
		}
	}
	if players != nil && len(players.Rows)*10 < n*9 {
		players.Cut = true
	}
}
