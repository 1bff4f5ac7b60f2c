package ststitles

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// An OTT-QA table matches an export file when the file holds at least
// matchShare of the table's distinct cells (OTT-QA keeps a table's first
// 20 rows, the export all of them), and at least minCells of them. Cells
// of fewer than four letters and digits, numbers alone, and cells of
// commonCell tables or more say nothing of which table it is.
const (
	matchShare = 0.8
	minCells   = 8
	commonCell = 50
)

type ottTable struct {
	title   Title // the page's: [title, url]
	section string
	cells   int
}

type ottIndex struct {
	tables []ottTable
	by     map[string][]int32 // cell -> tables holding it
	// perURL counts OTT-QA's tables of each page, small ones too: at
	// least that many tables stood on the page.
	perURL map[string]int
}

// readOTTQA indexes OTT-QA's tables by their cells.
func readOTTQA(path string) (*ottIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	idx := &ottIndex{by: map[string][]int32{}, perURL: map[string]int{}}
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var t struct {
			Title   string              `json:"title"`
			URL     string              `json:"url"`
			Section string              `json:"section_title"`
			Data    [][]json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		cells := map[string]bool{}
		for _, row := range t.Data {
			for _, raw := range row {
				var c []json.RawMessage // [text, [links]]
				var text string
				if json.Unmarshal(raw, &c) == nil && len(c) > 0 && json.Unmarshal(c[0], &text) == nil {
					if n := cellKey(text); n != "" {
						cells[n] = true
					}
				}
			}
		}
		url := t.URL
		if strings.HasPrefix(url, "/wiki/") {
			url = "https://en.wikipedia.org" + url
		}
		idx.perURL[url]++
		if len(cells) < minCells {
			continue
		}
		i := int32(len(idx.tables))
		idx.tables = append(idx.tables, ottTable{Title{t.Title, url}, strings.TrimSpace(t.Section), len(cells)})
		for c := range cells {
			idx.by[c] = append(idx.by[c], i)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}

// match returns the OTT-QA table the CSV file r repeats.
func (x *ottIndex) match(r io.Reader) (ottTable, bool) {
	cr := csv.NewReader(r)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	cells := map[string]bool{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return ottTable{}, false
		}
		for _, c := range rec {
			if n := cellKey(c); n != "" {
				cells[n] = true
			}
		}
	}
	if len(cells) < minCells {
		return ottTable{}, false
	}
	count := map[int32]int{}
	for c := range cells {
		if ts := x.by[c]; len(ts) < commonCell {
			for _, t := range ts {
				count[t]++
			}
		}
	}
	best, n := int32(-1), 0
	for t, k := range count {
		if k > n || k == n && t < best {
			best, n = t, k
		}
	}
	if best < 0 || n < minCells || float64(n) < matchShare*float64(x.tables[best].cells) {
		return ottTable{}, false
	}
	return x.tables[best], true
}

// cellKey is a cell's letters and digits, lower-cased, with the export's
// underscores and OTT-QA's tokenising spaces gone; "" for a cell too
// short or a number alone.
func cellKey(s string) string {
	var b strings.Builder
	digits := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z':
			digits = false
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	if b.Len() < 4 || digits {
		return ""
	}
	return b.String()
}
