package load

// The SQLite FTS5 peer of leaper-bench serve --fts5: the same pages, the
// same queries, the same number of concurrent connections, BM25 top-10
// with snippet(). Only the bench command uses this file.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/leaper-dev/leaper/graph"
	_ "modernc.org/sqlite" // the FTS5 peer
)

// fts5 is an FTS5 database of a store's pages.
type fts5 struct {
	db   *sql.DB
	path string
	temp bool
}

// openFTS5 opens the FTS5 database at path, building it from g's pages when
// it does not exist yet (path "" builds a temporary one, removed at Close).
func openFTS5(ctx context.Context, g *graph.Store, path string, conns int, progress func(n int)) (*fts5, error) {
	f := &fts5{path: path}
	if path == "" {
		dir, err := os.MkdirTemp("", "leaper-fts5-*")
		if err != nil {
			return nil, err
		}
		f.path, f.temp = filepath.Join(dir, "pages.db"), true
	}
	if _, err := os.Stat(f.path); err != nil {
		if err := buildFTS5(ctx, g, f.path, progress); err != nil {
			f.Close()
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", "file:"+f.path+"?mode=ro&_pragma=query_only(1)&_pragma=mmap_size(1073741824)")
	if err != nil {
		f.Close()
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	f.db = db
	return f, nil
}

func buildFTS5(ctx context.Context, g *graph.Store, path string, progress func(n int)) error {
	tmp := path + ".tmp"
	os.Remove(tmp)
	db, err := sql.Open("sqlite", "file:"+tmp+"?_pragma=journal_mode(off)&_pragma=synchronous(off)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	stmts := []string{
		`CREATE VIRTUAL TABLE pages USING fts5(url UNINDEXED, title, body, tokenize='porter unicode61')`,
		// Title weighs twice the body, as leaper's index boosts titles.
		`INSERT INTO pages(pages, rank) VALUES('rank', 'bm25(0.0, 2.0, 1.0)')`,
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("fts5: %s: %w", s, err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pages(url, title, body) VALUES(?, ?, ?)`)
	if err != nil {
		return err
	}
	n := 0
	err = g.EachPage(ctx, func(p *graph.Page) error {
		if _, err := ins.ExecContext(ctx, p.URL, p.Title, graph.PageText(p)); err != nil {
			return err
		}
		if n++; n%20000 == 0 && progress != nil {
			progress(n)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fts5: insert: %w", err)
	}
	ins.Close()
	if _, err := tx.ExecContext(ctx, `INSERT INTO pages(pages) VALUES('optimize')`); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ftsStop are the English stop words leaper's index drops (Bleve's list),
// dropped from FTS5 queries too so both engines search the same terms.
var ftsStop = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(en.EnglishStopWords))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "|")
		for _, w := range strings.Fields(line) {
			m[w] = true
		}
	}
	return m
})

// ftsQuery turns free text into an FTS5 query where any term may match,
// as leaper's search does.
func ftsQuery(q string) string {
	stop, seen := ftsStop(), map[string]bool{}
	var terms []string
	for _, t := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !seen[t] && !stop[t] {
			seen[t] = true
			terms = append(terms, `"`+t+`"`)
		}
	}
	return strings.Join(terms, " OR ")
}

// ftsHit is one FTS5 result.
type ftsHit struct {
	URL, Title, Snippet string
	Score               float64
}

// search runs one query: BM25 top-10 with a snippet of the body.
func (f *fts5) search(ctx context.Context, q string) ([]ftsHit, error) {
	m := ftsQuery(q)
	if m == "" {
		return nil, nil
	}
	rows, err := f.db.QueryContext(ctx,
		`SELECT url, title, snippet(pages, 2, '', '', '…', 40), rank FROM pages WHERE pages MATCH ? ORDER BY rank LIMIT 10`, m)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []ftsHit
	for rows.Next() {
		var h ftsHit
		if err := rows.Scan(&h.URL, &h.Title, &h.Snippet, &h.Score); err != nil {
			return nil, err
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

func (f *fts5) Close() error {
	var err error
	if f.db != nil {
		err = f.db.Close()
	}
	if f.temp {
		os.RemoveAll(filepath.Dir(f.path))
	}
	return err
}
