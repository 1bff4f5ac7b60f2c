// Package ststitles finds page titles for the files of the sts-csv
// export, which names its files by page and table ids and ships no
// titles: from WikiTableQuestions' metadata, which gives the titles of
// its pages by id, and from OTT-QA's tables, whose rows a file of the
// same article repeats. `leaper build --titles` reads the result; the
// other files stay untitled, and synthesis leaves them out.
package ststitles

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/bench/buildbench"
)

// Options say where the corpora are.
type Options struct {
	// STS is the sts-csv export: a directory of its .tar.gz parts or of
	// its CSV files.
	STS string
	// WTQMeta is WikiTableQuestions' table-metadata.tsv ("" for none).
	WTQMeta string
	// OTTQA is OTT-QA's tables.jsonl.gz ("" for none).
	OTTQA string
}

// Stats count what was found.
type Stats struct {
	Files      int `json:"files"`
	Pages      int `json:"pages"`
	ByWTQ      int `json:"files_by_wtq_page_id"`
	ByOTTQA    int `json:"files_by_ottqa_match"`
	Matched    int `json:"ottqa_tables_matched"`
	Ambiguous  int `json:"ottqa_pages_ambiguous"`
	TitledPage int `json:"pages_titled"`
	// Fewer counts the pages left untitled because WikiTableQuestions or
	// OTT-QA hold more of their tables than the export does: a question
	// of "every" row of the page would miss theirs.
	Fewer int `json:"pages_fewer_tables_than_known"`
}

// Title is a page's title and URL, as `leaper build --titles` reads it.
type Title [2]string

// File is what the titles say of one file: its page, and the section
// its table stands in where OTT-QA's copy of the table names one
// ("Filmography -- Television series").
type File struct {
	Page    Title
	Section string
}

// stsName matches an export file's name: page id, table id.
var stsName = regexp.MustCompile(`(?:^|/)([0-9]+)-([0-9]+)\.csv$`)

// Find returns the titles of the export's files, by file name.
func Find(o Options) (map[string]File, *Stats, error) {
	st := &Stats{}
	byID := map[string]Title{}
	known := map[string]int{} // page id -> tables WikiTableQuestions knows of
	if o.WTQMeta != "" {
		var err error
		if byID, known, err = wtqTitles(o.WTQMeta); err != nil {
			return nil, nil, err
		}
	}
	var ott *ottIndex
	if o.OTTQA != "" {
		var err error
		if ott, err = readOTTQA(o.OTTQA); err != nil {
			return nil, nil, err
		}
	}
	pageOf := map[string]string{} // file name -> page id
	matched := map[string]map[Title]bool{}
	sectionOf := map[string]ottTable{} // file name -> the OTT-QA table it repeats
	err := buildbench.EachCSV(context.Background(), []string{o.STS}, func(name string, b []byte) error {
		m := stsName.FindStringSubmatch(name)
		if m == nil {
			return nil
		}
		st.Files++
		pageOf[name] = m[1]
		if ott == nil {
			return nil
		}
		if t, ok := ott.match(bytes.NewReader(b)); ok {
			st.Matched++
			if matched[m[1]] == nil {
				matched[m[1]] = map[Title]bool{}
			}
			matched[m[1]][t.title] = true
			sectionOf[name] = t
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	held := map[string]int{} // page id -> the export's files of it
	for _, id := range pageOf {
		held[id]++
	}
	// A page another corpus shows more tables of than the export holds
	// stays untitled: the export lost some (it keeps 20 of its 92 parts,
	// and leaves some tables out), and a question of "every" row of the
	// page would miss theirs (OTT-QA's "Downloadable songs" of Rock Band
	// (iOS), beside the export's one table of its default songs).
	fewer := func(id string, t Title) bool {
		n := known[id]
		if ott != nil {
			n = max(n, ott.perURL[t[1]])
		}
		return held[id] < n
	}
	out := map[string]File{}
	pages := map[string]bool{}
	titled := map[string]bool{}
	short := map[string]bool{}
	for base, id := range pageOf {
		pages[id] = true
		t, ok := byID[id]
		by := &st.ByWTQ
		if !ok && len(matched[id]) == 1 {
			for m := range matched[id] {
				t = m // its one title
			}
			ok, by = true, &st.ByOTTQA
		}
		if !ok {
			continue
		}
		if fewer(id, t) {
			short[id] = true
			continue
		}
		f := File{Page: t}
		if m, ok := sectionOf[base]; ok && m.title[1] == t[1] {
			f.Section = m.section
		}
		out[base] = f
		*by++
		titled[id] = true
	}
	st.Fewer = len(short)
	for _, ts := range matched {
		if len(ts) > 1 {
			st.Ambiguous++
		}
	}
	st.Pages, st.TitledPage = len(pages), len(titled)
	return out, st, nil
}

// Write writes titles as JSON, sorted by file name: each file's
// [title, url], or [title, url, section] where a section is known.
func Write(w io.Writer, titles map[string]File) error {
	names := make([]string, 0, len(titles))
	for n := range titles {
		names = append(names, n)
	}
	sort.Strings(names)
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n")
	for i, n := range names {
		k, _ := json.Marshal(n)
		f := titles[n]
		rec := []string{f.Page[0], f.Page[1]}
		if f.Section != "" {
			rec = append(rec, f.Section)
		}
		v, _ := json.Marshal(rec)
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(bw, "%s: %s%s\n", k, v, sep)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// wtqTitles reads page id -> title from table-metadata.tsv, and page id
// -> the tables the page had at least (its greatest tableIndex, which
// counts the page's wikitables from 0, plus one): one line a table,
// fields split at tabs (no quoting: a title may hold a quote).
func wtqTitles(path string) (map[string]Title, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: no header line", path)
	}
	head := strings.Split(sc.Text(), "\t")
	idc, tc, ic := slices.Index(head, "pageId"), slices.Index(head, "title"), slices.Index(head, "tableIndex")
	if idc < 0 || tc < 0 {
		return nil, nil, fmt.Errorf("%s: no pageId and title columns", path)
	}
	out, tables := map[string]Title{}, map[string]int{}
	for line := 2; sc.Scan(); line++ {
		rec := strings.Split(sc.Text(), "\t")
		if max(idc, tc) >= len(rec) || rec[idc] == "" || rec[tc] == "" {
			continue
		}
		t := html.UnescapeString(rec[tc])
		out[rec[idc]] = Title{t, "https://en.wikipedia.org/wiki/" + strings.ReplaceAll(t, " ", "_")}
		if ic >= 0 && ic < len(rec) {
			i, err := strconv.Atoi(rec[ic])
			if err != nil {
				return nil, nil, fmt.Errorf("%s: line %d: tableIndex %q: %w", path, line, rec[ic], err)
			}
			tables[rec[idc]] = max(tables[rec[idc]], i+1)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, tables, nil
}
