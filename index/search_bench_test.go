package index_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/leaper-dev/leaper/index"
	"github.com/leaper-dev/leaper/index/internal/benchcorpus"
	_ "modernc.org/sqlite" // the FTS5 peer, benchmarks only
)

var benchDir string // shared by the search benchmarks, removed by TestMain

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// searchSetup builds, once per test binary, the leaper index and an FTS5
// database over the same pages.
type searchSetup struct {
	ix                    *index.Index
	db                    *sql.DB
	queries               []benchcorpus.Query
	pages                 int
	leaperBuild, ftsBuild time.Duration
}

var (
	setupOnce sync.Once
	setup     *searchSetup
	setupErr  error
)

func getSearchSetup(b *testing.B) *searchSetup {
	b.Helper()
	c := loadCorpus(b)
	setupOnce.Do(func() {
		setup, setupErr = newSearchSetup(b, c)
	})
	if setupErr != nil {
		b.Fatal(setupErr)
	}
	return setup
}

func newSearchSetup(b *testing.B, c *benchcorpus.Corpus) (*searchSetup, error) {
	var err error
	benchDir, err = os.MkdirTemp("", "leaper-index-bench")
	if err != nil {
		return nil, err
	}
	s := &searchSetup{queries: c.Queries(200, 42), pages: len(c.Pages)}
	dir := filepath.Join(benchDir, "index")
	_, s.leaperBuild = buildIndex(b, dir, c.Pages, os.Getenv("LEAPER_BENCH_NOCOMPACT") == "")
	if s.ix, err = index.Open(dir, &index.Options{ReadOnly: true}); err != nil {
		return nil, err
	}
	start := time.Now()
	if s.db, err = buildFTS5(filepath.Join(benchDir, "fts5.db"), c.Pages); err != nil {
		return nil, err
	}
	s.ftsBuild = time.Since(start)
	return s, nil
}

func buildFTS5(path string, pages []index.Page) (*sql.DB, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(2)
	for _, q := range []string{
		`PRAGMA journal_mode=OFF`, `PRAGMA synchronous=OFF`,
		`CREATE VIRTUAL TABLE pages USING fts5(url UNINDEXED, title, body, years, tokenize='porter unicode61')`,
	} {
		if _, err := db.Exec(q); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		return nil, err
	}
	st, err := tx.Prepare(`INSERT INTO pages(url, title, body, years) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	for _, p := range pages {
		ys := make([]string, len(p.Years))
		for i, y := range p.Years {
			ys[i] = strconv.Itoa(y)
		}
		if _, err := st.Exec(p.URL, p.Title, p.Text, strings.Join(ys, " ")); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	if _, err := db.Exec(`INSERT INTO pages(pages) VALUES('optimize')`); err != nil {
		return nil, err
	}
	return db, nil
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(en.EnglishStopWords))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "|")
		for _, w := range strings.Fields(line) {
			m[w] = true
		}
	}
	return m
}()

// ftsMatch turns a query into the same OR-of-terms semantics leaper uses:
// words, lower-cased, stop words dropped, each quoted.
func ftsMatch(q benchcorpus.Query) string {
	var words, terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q.Text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !stopWords[w] && !slices.Contains(words, w) {
			words = append(words, w)
			terms = append(terms, `"`+w+`"`)
		}
	}
	if len(terms) == 0 {
		return ""
	}
	m := "{title body}: (" + strings.Join(terms, " OR ") + ")"
	if q.FilterYear != 0 {
		m += fmt.Sprintf(` AND years: "%d"`, q.FilterYear)
	}
	return m
}

const ftsQuery = `SELECT url, title, snippet(pages, 2, '', '', '...', 40) FROM pages
WHERE pages MATCH ? ORDER BY bm25(pages, 0.0, 3.0, 1.0, 0.0) LIMIT 10`

type engine struct {
	name string
	run  func(ctx context.Context, q benchcorpus.Query) (int, error)
}

func (s *searchSetup) engines() []engine {
	return []engine{
		{"leaper", func(ctx context.Context, q benchcorpus.Query) (int, error) {
			hs, err := s.ix.Search(ctx, q.Text, index.SearchOptions{K: 10, FilterYear: q.FilterYear})
			return len(hs), err
		}},
		{"fts5", func(ctx context.Context, q benchcorpus.Query) (int, error) {
			m := ftsMatch(q)
			if m == "" {
				return 0, nil
			}
			rows, err := s.db.QueryContext(ctx, ftsQuery, m)
			if err != nil {
				return 0, err
			}
			defer rows.Close()
			n := 0
			for rows.Next() {
				var u, t, sn string
				if err := rows.Scan(&u, &t, &sn); err != nil {
					return n, err
				}
				n++
			}
			return n, rows.Err()
		}},
	}
}

// BenchmarkSearch compares leaper's Search (top 10 with snippets) with
// SQLite FTS5 (bm25, top 10, snippet()) over the same pages and the same
// 200 seeded queries, in the same run. Each op is one pass over the
// queries per engine, sequential then with 2 concurrent clients; the
// engines alternate so that a noisy machine affects both. Run with
// -benchtime=3x or so.
func BenchmarkSearch(b *testing.B) {
	s := getSearchSetup(b)
	ctx := context.Background()
	engs := s.engines()
	lat := make([][]time.Duration, len(engs))
	busy := make([]time.Duration, len(engs))
	nq := make([]int, len(engs))
	// warm up: fault the files in, fill caches
	for _, e := range engs {
		for _, q := range s.queries {
			if _, err := e.run(ctx, q); err != nil {
				b.Fatalf("%s %q: %v", e.name, q.Text, err)
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for ei, e := range engs {
			for _, q := range s.queries {
				t := time.Now()
				if _, err := e.run(ctx, q); err != nil {
					b.Fatal(err)
				}
				lat[ei] = append(lat[ei], time.Since(t))
			}
			start := time.Now()
			var wg sync.WaitGroup
			for c := range 2 {
				wg.Go(func() {
					for j := c; j < len(s.queries); j += 2 {
						if _, err := e.run(ctx, s.queries[j]); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			busy[ei] += time.Since(start)
			nq[ei] += len(s.queries)
		}
	}
	b.StopTimer()
	var p50, p99, qps [2]float64
	for ei, e := range engs {
		slices.Sort(lat[ei])
		p50[ei] = float64(lat[ei][len(lat[ei])/2].Microseconds())
		p99[ei] = float64(lat[ei][len(lat[ei])*99/100].Microseconds())
		qps[ei] = float64(nq[ei]) / busy[ei].Seconds()
		b.ReportMetric(p50[ei], e.name+"-p50-µs")
		b.ReportMetric(p99[ei], e.name+"-p99-µs")
		b.ReportMetric(qps[ei], e.name+"-qps")
	}
	b.ReportMetric(p50[1]/p50[0], "p50-speedup")
	b.ReportMetric(p99[1]/p99[0], "p99-speedup")
	b.ReportMetric(qps[0]/qps[1], "qps-ratio")
	b.ReportMetric(float64(s.pages)/s.leaperBuild.Seconds(), "leaper-build-pages/s")
	b.ReportMetric(float64(s.pages)/s.ftsBuild.Seconds(), "fts5-build-pages/s")
}

// TestPrintQueries shows the benchmark queries and both engines' top hit
// (go test -run PrintQueries -v with LEAPER_BENCH_SHOW=1).
func TestPrintQueries(t *testing.T) {
	if os.Getenv("LEAPER_BENCH_SHOW") == "" {
		t.Skip("set LEAPER_BENCH_SHOW=1")
	}
	c := loadCorpus(t)
	for _, q := range c.Queries(200, 42) {
		t.Logf("%-70q year=%d  fts=%s", q.Text, q.FilterYear, ftsMatch(q))
	}
}

// BenchmarkSearchStore runs the benchmark queries against the index of a
// built store (LEAPER_BENCH_STORE=DIR, e.g. the full corpus), ranking with
// MaxScore and with Bleve's exhaustive searchers, one query at a time.
func BenchmarkSearchStore(b *testing.B) {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		b.Skip("set LEAPER_BENCH_STORE to a store directory")
	}
	ix, err := index.Open(filepath.Join(dir, "index"), &index.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	qs := loadCorpus(b).Queries(1000, 42)
	ctx := context.Background()
	for _, mode := range []struct {
		name  string
		bleve bool
	}{{"maxscore", false}, {"bleve", true}} {
		b.Run(mode.name, func(b *testing.B) {
			index.SetBleveOnly(ix, mode.bleve)
			defer index.SetBleveOnly(ix, false)
			n := 0
			for b.Loop() {
				q := qs[n%len(qs)]
				n++
				if _, err := ix.Search(ctx, q.Text, index.SearchOptions{K: 10, FilterYear: q.FilterYear}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
