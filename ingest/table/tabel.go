package table

import (
	"encoding/json"
	"strings"
)

// tabelCell covers both TabEL cell shapes: {text, surfaceLinks: [{surface,
// target: {title, id}}]} and {text, isNumeric, links: ["http://.../wiki/X"]}.
type tabelCell struct {
	Text         string `json:"text"`
	SurfaceLinks []struct {
		Surface string `json:"surface"`
		Target  struct {
			Title string `json:"title"`
			URL   string `json:"url"`
		} `json:"target"`
	} `json:"surfaceLinks"`
	Links []string `json:"links"`
}

func (c *tabelCell) cell() Cell {
	var links []string
	for _, l := range c.SurfaceLinks {
		t := canonical(strings.ReplaceAll(l.Target.Title, "_", " "))
		if t == "" {
			t = Title(l.Target.URL)
		}
		if t != "" && !contains(links, t) {
			links = append(links, t)
		}
	}
	for _, t := range titles(c.Links) {
		if !contains(links, t) {
			links = append(links, t)
		}
	}
	return Cell{Text: collapseSpace(c.Text), Links: links}
}

type tabelJSON struct {
	PgTitle      string `json:"pgTitle"`
	Title        string `json:"title"`
	PageTitle    string `json:"pageTitle"`
	URL          string `json:"url"`
	SectionTitle string `json:"sectionTitle"`
	TableCaption string `json:"tableCaption"`
	Caption      string `json:"caption"`
	TableID      *int   `json:"tableId"`
	// Variant 1: header rows and data rows.
	TableHeaders [][]tabelCell `json:"tableHeaders"`
	TableData    [][]tabelCell `json:"tableData"`
	// Variant 2: one header row and rows.
	Headers []tabelCell   `json:"headers"`
	Rows    [][]tabelCell `json:"rows"`
}

// ParseTabELLine reads one TabEL / WikiTables-corpus table object, in
// either of its shapes: {pgTitle, pgId, sectionTitle, tableCaption,
// tableHeaders: [[{text, surfaceLinks}]], tableData: [[{text,
// surfaceLinks: [{surface, target: {title, id}}]}]]} or {pgTitle | title,
// sectionTitle, headers: [{text, isNumeric, links}], rows: [[{text,
// isNumeric, links: ["http://www.wikipedia.org/wiki/X"]}]]}. Several header
// rows are joined per column. Index is tableId when present, else -1.
// Source is left for the caller to set.
func ParseTabELLine(line []byte) (*Table, error) {
	var j tabelJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	headerRows := j.TableHeaders
	data := j.TableData
	if headerRows == nil && data == nil {
		if j.Headers != nil {
			headerRows = [][]tabelCell{j.Headers}
		}
		data = j.Rows
	}
	if headerRows == nil && data == nil {
		return nil, &ParseError{Reason: "no table", Msg: "object has no headers or rows"}
	}
	t := &Table{Format: FormatTabEL, Index: -1}
	for _, s := range []string{j.PgTitle, j.PageTitle, j.Title} {
		if t.PageTitle = canonical(strings.ReplaceAll(s, "_", " ")); t.PageTitle != "" {
			break
		}
	}
	if t.PageTitle == "" {
		t.PageTitle = Title(j.URL)
	}
	t.PageURL = URL(t.PageTitle)
	if j.TableID != nil && *j.TableID >= 0 {
		t.Index = *j.TableID
	}
	t.Section = collapseSpace(j.SectionTitle)
	t.Caption = collapseSpace(j.TableCaption)
	if t.Caption == "" {
		t.Caption = collapseSpace(j.Caption)
	}
	width := 0
	for _, r := range headerRows {
		width = max(width, len(r))
	}
	if width == 0 {
		for _, r := range data {
			width = max(width, len(r))
		}
	}
	t.Header = make([]string, width)
	links := make([][]string, width)
	hasLink := false
	for c := 0; c < width; c++ {
		var parts []string
		for _, r := range headerRows {
			if c >= len(r) {
				continue
			}
			cell := r[c].cell()
			if cell.Text != "" && (len(parts) == 0 || parts[len(parts)-1] != cell.Text) {
				parts = append(parts, cell.Text)
			}
			for _, l := range cell.Links {
				if !contains(links[c], l) {
					links[c] = append(links[c], l)
				}
			}
		}
		t.Header[c] = strings.Join(parts, " ")
		hasLink = hasLink || len(links[c]) > 0
	}
	if hasLink {
		t.HeaderLink = links
	}
	t.Rows = make([][]Cell, 0, len(data))
	for _, r := range data {
		if len(r) != width {
			t.Ragged++
		}
		row := make([]Cell, width)
		for c := 0; c < width && c < len(r); c++ {
			row[c] = r[c].cell()
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}
