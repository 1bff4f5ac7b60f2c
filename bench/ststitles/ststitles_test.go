package ststitles

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestFind titles real sts-csv files: one by a WikiTableQuestions page id,
// one by the OTT-QA table whose first rows it repeats; another page's
// files, and a page whose table matches nothing, stay untitled.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	meta := "contextId\tpageId\tpageRev\ttableIndex\ttitle\n" +
		"csv/200-csv/0.csv\t20220596\t1\t0\tComparison of force-field implementations\n" +
		"csv/200-csv/1.csv\t999\t1\t0\tQuote\"d &amp; Co\n" +
		// WikiTableQuestions read the third table of this page; the
		// export holds one: left untitled.
		"csv/201-csv/5.csv\t10026321\t1\t2\tA page of three tables\n"
	if err := os.WriteFile(filepath.Join(dir, "meta.tsv"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	// An OTT-QA table of the film page: three of the file's rows,
	// tokenised as the release writes them.
	row := func(cells ...string) []any {
		var r []any
		for _, c := range cells {
			r = append(r, []any{c, []string{}})
		}
		return r
	}
	ott := map[string]any{"title": "List of GK Films productions", "url": "/wiki/GK_Films", "section_title": "Films",
		"data": [][]any{
			row("2011", "The Rum Diary ( film )", "Bruce Robinson", "Co-production with FilmDistrict and GK Films .", "$ 45 million"),
			row("2011", "Hugo ( film )", "Martin Scorsese", "Co-production with Paramount Pictures , Entertainment Film Distributors and GK Films .", "$ 150 million"),
			row("2012", "Dark Shadows ( film )", "Tim Burton", "Co-production with Warner Bros. Pictures , Roadshow Entertainment and Village Roadshow Pictures .", "$ 150 million"),
		}}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if err := json.NewEncoder(zw).Encode(ott); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "tables.jsonl.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	titles, st, err := Find(Options{STS: filepath.Join("..", "..", "ingest", "table", "testdata", "sts-csv"),
		WTQMeta: filepath.Join(dir, "meta.tsv"), OTTQA: filepath.Join(dir, "tables.jsonl.gz")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]File{
		"20220596-526655.csv": {Title{"Comparison of force-field implementations", "https://en.wikipedia.org/wiki/Comparison_of_force-field_implementations"}, ""},
		// The section of the OTT-QA table the file repeats.
		"10009199-226021.csv": {Title{"List of GK Films productions", "https://en.wikipedia.org/wiki/GK_Films"}, "Films"},
	}
	if len(titles) != len(want) {
		t.Errorf("titled %v, want %v", titles, want)
	}
	for f, w := range want {
		if titles[f] != w {
			t.Errorf("%s titled %q, want %q", f, titles[f], w)
		}
	}
	if st.Files != 7 || st.ByWTQ != 1 || st.ByOTTQA != 1 || st.Matched != 1 || st.Fewer != 1 {
		t.Errorf("stats %+v", st)
	}
	var out bytes.Buffer
	if err := Write(&out, titles); err != nil {
		t.Fatal(err)
	}
	var back map[string][]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || len(back) != len(want) ||
		len(back["20220596-526655.csv"]) != 2 || len(back["10009199-226021.csv"]) != 3 || back["10009199-226021.csv"][2] != "Films" {
		t.Errorf("written titles do not read back: %v\n%s", err, out.String())
	}
	// With a second OTT-QA table of the film page (small: it matches
	// nothing), the page has more tables than the export's one file.
	// A second gzip member after the first: the reader takes both.
	zw = gzip.NewWriter(&gz)
	if err := json.NewEncoder(zw).Encode(map[string]any{"title": "List of GK Films productions", "url": "/wiki/GK_Films",
		"data": [][]any{row("Television", "Boardwalk Empire")}}); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "tables2.jsonl.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	titles, st, err = Find(Options{STS: filepath.Join("..", "..", "ingest", "table", "testdata", "sts-csv"),
		OTTQA: filepath.Join(dir, "tables2.jsonl.gz")})
	if err != nil {
		t.Fatal(err)
	}
	if len(titles) != 0 || st.Matched != 1 || st.Fewer != 1 {
		t.Errorf("a page with two OTT-QA tables and one file: titled %v, stats %+v", titles, st)
	}
}
