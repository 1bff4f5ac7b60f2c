package table

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The WikiTableQuestions layout keeps what is known about a table beside
// it: X/csv/20N-csv/K.html (the table), X/page/20N-page/K.json (its page)
// and X/table-metadata.tsv (section headers, caption, text above, keyed by
// "csv/20N-csv/K.csv"). The whole articles, X/pages-html.tar.gz members
// page/20N-page/K.html, use the same page JSON.

// wtqPath splits a path in that layout into its root X, N and K.
func wtqPath(p string) (root, n, k string, ok bool) {
	p = filepath.ToSlash(p)
	dir, file := filepathSplit(p)
	k = strings.TrimSuffix(file, ".html")
	if k == file || k == "" {
		return "", "", "", false
	}
	parent, pdir := filepathSplit(strings.TrimSuffix(dir, "/"))
	i := strings.IndexByte(pdir, '-')
	if i <= 0 || (pdir[i+1:] != "csv" && pdir[i+1:] != "page") {
		return "", "", "", false
	}
	n = pdir[:i]
	if _, err := strconv.Atoi(n); err != nil {
		return "", "", "", false
	}
	parent = strings.TrimSuffix(parent, "/")
	root, kind := filepathSplit(parent)
	if kind != pdir[i+1:] {
		return "", "", "", false
	}
	return strings.TrimSuffix(root, "/"), n, k, true
}

func filepathSplit(p string) (dir, file string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i+1], p[i+1:]
}

// isSidecar reports whether a file found while walking a directory is
// WikiTableQuestions metadata rather than a table: it is read through the
// table it describes, never as a table of its own.
func isSidecar(p string) bool {
	p = filepath.ToSlash(p)
	if strings.HasSuffix(p, "/table-metadata.tsv") || p == "table-metadata.tsv" {
		return true
	}
	if !strings.HasSuffix(p, ".json") {
		return false
	}
	_, _, _, ok := wtqPath(strings.TrimSuffix(p, ".json") + ".html")
	return ok && strings.Contains(p, "-page/")
}

type wtqMetaRow struct {
	title, headers, caption, textAbove string
	index                              int
}

// sidecars caches table-metadata.tsv files for the length of one Read.
type sidecars struct {
	mu    sync.Mutex
	files map[string]*metaFile
}

type metaFile struct {
	once sync.Once
	rows map[string]wtqMetaRow
}

func (s *sidecars) meta(root string) map[string]wtqMetaRow {
	s.mu.Lock()
	if s.files == nil {
		s.files = map[string]*metaFile{}
	}
	f := s.files[root]
	if f == nil {
		f = &metaFile{}
		s.files[root] = f
	}
	s.mu.Unlock()
	f.once.Do(func() { f.rows = loadMeta(filepath.Join(filepath.FromSlash(root), "table-metadata.tsv")) })
	return f.rows
}

func loadMeta(p string) map[string]wtqMetaRow {
	fh, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer fh.Close()
	rows := map[string]wtqMetaRow{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	col := map[string]int{}
	first := true
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if first {
			for i, name := range f {
				col[name] = i
			}
			first = false
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(f) {
				return strings.TrimSpace(unescapeTSV(f[i]))
			}
			return ""
		}
		idx, err := strconv.Atoi(get("tableIndex"))
		if err != nil {
			idx = -1
		}
		rows[get("contextId")] = wtqMetaRow{
			title:     get("title"),
			headers:   get("headers"),
			caption:   get("caption"),
			textAbove: get("textAbove"),
			index:     idx,
		}
	}
	return rows
}

func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.NewReplacer(`\n`, " ", `\t`, " ", `\\`, `\`).Replace(s)
}

type pageJSON struct {
	Title      string `json:"title"`
	URL        string `json:"url"`
	TableIndex *int   `json:"tableIndex"`
}

// wtqMeta returns the sidecar information for a table fragment or an
// article page at (real or virtual) path p, or nil when p is not in the
// WikiTableQuestions layout. The table-level fields (Index, Section,
// Caption, Context) only matter for fragments; ParseHTML ignores them for
// whole pages.
func (s *sidecars) wtqMeta(p string) *PageMeta {
	root, n, k, ok := wtqPath(p)
	if !ok {
		return nil
	}
	m := &PageMeta{Index: -1}
	if b, err := os.ReadFile(filepath.Join(filepath.FromSlash(root), "page", n+"-page", k+".json")); err == nil {
		var pj pageJSON
		if json.Unmarshal(b, &pj) == nil {
			m.Title = collapseSpace(pj.Title)
			if pj.TableIndex != nil {
				m.Index = *pj.TableIndex
			}
		}
	}
	if row, ok := s.meta(root)["csv/"+n+"-csv/"+k+".csv"]; ok {
		if m.Title == "" {
			m.Title = row.title
		}
		if m.Index < 0 {
			m.Index = row.index
		}
		m.Section = strings.Join(splitTrim(row.headers, "|"), " | ")
		m.Caption = row.caption
		if m.Caption == "" && partLine.MatchString(strings.TrimSpace(row.textAbove)) {
			// "Season 1: 1965-66" in a paragraph above I Spy's episodes:
			// the one season the table lists, its title in all but tag
			m.Caption = strings.TrimSpace(row.textAbove)
		}
		m.Context = clip(row.textAbove, maxContext)
	}
	if m.Title == "" && m.Index < 0 {
		return nil
	}
	m.URL = URL(m.Title)
	return m
}

// partLine matches a short line naming one part of a series: a season,
// a round, a group, a volume ("Season 1: 1965-66", "Group B").
var partLine = regexp.MustCompile(`^(?i:season|series|part|volume|round|group|division|pool|heat|stage|week|day)\s+\S+(?:\s+\S+){0,4}$`)

func splitTrim(s, sep string) []string {
	var out []string
	for p := range strings.SplitSeq(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
