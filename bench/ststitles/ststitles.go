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
}

// Title is a page's title and URL, as `leaper build --titles` reads it.
type Title [2]string

// stsName matches an export file's name: page id, table id.
var stsName = regexp.MustCompile(`(?:^|/)([0-9]+)-([0-9]+)\.csv$`)

// Find returns the titles of the export's files, by file name.
func Find(o Options) (map[string]Title, *Stats, error) {
	st := &Stats{}
	byID := map[string]Title{}
	if o.WTQMeta != "" {
		var err error
		if byID, err = wtqTitles(o.WTQMeta); err != nil {
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
			matched[m[1]][t] = true
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out := map[string]Title{}
	pages := map[string]bool{}
	titled := map[string]bool{}
	for base, id := range pageOf {
		pages[id] = true
		if t, ok := byID[id]; ok {
			out[base] = t
			st.ByWTQ++
			titled[id] = true
			continue
		}
		if len(matched[id]) == 1 {
			for t := range matched[id] {
				out[base] = t
			}
			st.ByOTTQA++
			titled[id] = true
		}
	}
	for _, ts := range matched {
		if len(ts) > 1 {
			st.Ambiguous++
		}
	}
	st.Pages, st.TitledPage = len(pages), len(titled)
	return out, st, nil
}

// Write writes titles as JSON, sorted by file name.
func Write(w io.Writer, titles map[string]Title) error {
	names := make([]string, 0, len(titles))
	for n := range titles {
		names = append(names, n)
	}
	sort.Strings(names)
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n")
	for i, n := range names {
		k, _ := json.Marshal(n)
		v, _ := json.Marshal(titles[n])
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(bw, "%s: %s%s\n", k, v, sep)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// wtqTitles reads page id -> title from table-metadata.tsv: one line a
// table, fields split at tabs (no quoting: a title may hold a quote).
func wtqTitles(path string) (map[string]Title, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("%s: no header line", path)
	}
	head := strings.Split(sc.Text(), "\t")
	idc, tc := slices.Index(head, "pageId"), slices.Index(head, "title")
	if idc < 0 || tc < 0 {
		return nil, fmt.Errorf("%s: no pageId and title columns", path)
	}
	out := map[string]Title{}
	for sc.Scan() {
		rec := strings.Split(sc.Text(), "\t")
		if max(idc, tc) >= len(rec) || rec[idc] == "" || rec[tc] == "" {
			continue
		}
		t := html.UnescapeString(rec[tc])
		out[rec[idc]] = Title{t, "https://en.wikipedia.org/wiki/" + strings.ReplaceAll(t, " ", "_")}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
