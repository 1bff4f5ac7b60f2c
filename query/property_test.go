package query_test

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/ingest"
	"github.com/leaper-dev/leaper/ingest/table"
	"github.com/leaper-dev/leaper/query"
)

// randomStore builds a small in-memory store from random tables over small
// pools of entities and numbers, so keys and values recur across tables
// and relations join.
func randomStore(t *testing.T, rng *rand.Rand) *graph.Store {
	t.Helper()
	clean := ingest.DefaultCleanOptions()
	clean.MinRows = 3
	// On disk, not InMemory: an in-memory Badger refuses values above the
	// store's 4 KiB value threshold, and a tree's JSON can exceed it.
	g, err := graph.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	b, err := g.NewBuilder()
	if err != nil {
		t.Fatal(err)
	}
	people := []string{"Ada", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"}
	places := []string{"Berlin", "Paris", "Oslo", "Rome", "Lima", "Bob"}
	headers := []string{"Country", "Partner", "City", "Coach"}
	numHeaders := []string{"Gold", "Points", "Year"}
	for n := 0; n < 3+rng.Intn(4); n++ {
		tb := &table.Table{Source: fmt.Sprintf("rand%d", n), Format: table.FormatCSV, PageTitle: fmt.Sprintf("Table %d", n), Index: 0}
		tb.PageURL = table.URL(tb.PageTitle)
		tb.Header = []string{"Name"}
		ncols := 2 + rng.Intn(3)
		var kinds []int // 0 entity, 1 number
		for j := 0; j < ncols; j++ {
			if rng.Intn(2) == 0 {
				tb.Header = append(tb.Header, headers[rng.Intn(len(headers))])
				kinds = append(kinds, 0)
			} else {
				tb.Header = append(tb.Header, numHeaders[rng.Intn(len(numHeaders))])
				kinds = append(kinds, 1)
			}
		}
		perm := rng.Perm(len(people))
		nrows := 3 + rng.Intn(6)
		for i := 0; i < nrows; i++ {
			p := people[perm[i]]
			row := []table.Cell{{Text: p, Links: []string{p}}}
			for _, k := range kinds {
				if k == 0 {
					c := places[rng.Intn(len(places))]
					cell := table.Cell{Text: c, Links: []string{c}}
					if rng.Intn(5) == 0 {
						c2 := places[rng.Intn(len(places))]
						cell = table.Cell{Text: c + ", " + c2, Links: []string{c, c2}}
					}
					row = append(row, cell)
				} else {
					v := 1990 + rng.Intn(6)
					if tb.Header[len(row)] != "Year" {
						v = rng.Intn(6)
					}
					row = append(row, table.Cell{Text: strconv.Itoa(v)})
				}
			}
			tb.Rows = append(tb.Rows, row)
		}
		if _, _, err := b.AddPrepared(ingest.Prepare(tb, clean)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finalize(context.Background(), nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	return g
}

// queryGen makes random queries of 1-4 atoms from a store's trees: atoms
// are drawn from real rows, so answers are often non-empty, and chain
// through shared variables.
type queryGen struct {
	rng   *rand.Rand
	trees []*graph.Tree
	names map[uint32]string
}

func newQueryGen(t *testing.T, g *graph.Store, rng *rand.Rand) *queryGen {
	qg := &queryGen{rng: rng, names: map[uint32]string{}}
	err := g.EachTree(context.Background(), func(tr *graph.Tree) error {
		qg.trees = append(qg.trees, tr)
		for _, r := range tr.Rows {
			for _, vs := range r.Values {
				for _, v := range vs {
					e, err := g.Entity(v)
					if err != nil {
						return err
					}
					qg.names[v] = e.Key
				}
			}
		}
		return nil
	})
	if err != nil || len(qg.trees) == 0 {
		t.Fatalf("trees: %v (%d)", err, len(qg.trees))
	}
	return qg
}

func (qg *queryGen) query() string {
	rng := qg.rng
	vars := []string{"A"}
	pickVar := func(fresh bool) string {
		if fresh || rng.Intn(3) == 0 {
			v := string(rune('A' + len(vars)))
			vars = append(vars, v)
			return v
		}
		return vars[rng.Intn(len(vars))]
	}
	var atoms []string
	n := 1 + rng.Intn(4)
	for len(atoms) < n {
		tr := qg.trees[rng.Intn(len(qg.trees))]
		if len(tr.Rows) == 0 || len(tr.Columns) == 0 {
			continue
		}
		switch k := rng.Intn(10); {
		case k == 0:
			atoms = append(atoms, fmt.Sprintf("in_tree(%s, %d)", pickVar(false), tr.ID))
			continue
		case k == 1 && len(atoms) > 0:
			atoms = append(atoms, fmt.Sprintf("%s %s %d", vars[rng.Intn(len(vars))], []string{">=", "<", "=", "!="}[rng.Intn(4)], rng.Intn(4)))
			continue
		}
		j := rng.Intn(len(tr.Columns))
		row := tr.Rows[rng.Intn(len(tr.Rows))]
		rel := tr.Columns[j].Name
		subj := pickVar(false)
		var obj string
		vals := row.Values[j]
		switch k := rng.Intn(6); {
		case k <= 1 && len(vals) > 0:
			obj = strconv.Quote(qg.names[vals[rng.Intn(len(vals))]])
		case k == 2 && len(vals) > 0:
			other := qg.trees[rng.Intn(len(qg.trees))]
			o2 := ""
			for _, r := range other.Rows {
				for _, vs := range r.Values {
					if len(vs) > 0 {
						o2 = qg.names[vs[0]]
					}
				}
			}
			obj = "{" + strconv.Quote(qg.names[vals[0]]) + ", " + strconv.Quote(o2) + "}"
		case k == 3:
			lo := rng.Intn(2000)
			obj = fmt.Sprintf("%d..%d", lo, lo+rng.Intn(3000))
		default:
			obj = pickVar(rng.Intn(2) == 0)
		}
		if rng.Intn(8) == 0 {
			subj = strconv.Quote(qg.names[row.Key])
			if subj == `""` {
				subj = pickVar(false)
			}
		}
		atoms = append(atoms, fmt.Sprintf("%s(%s, %s)", rel, subj, obj))
	}
	q := strings.Join(atoms, ", ")
	switch rng.Intn(6) {
	case 0:
		return "count(" + vars[rng.Intn(len(vars))] + "): " + q
	case 1:
		return "?" + vars[rng.Intn(len(vars))] + ": " + q
	}
	return q
}

func checkAgree(t *testing.T, g *graph.Store, oracle *query.NestedLoops, src string) (nonEmpty bool) {
	t.Helper()
	ctx := context.Background()
	q, err := query.Parse(src)
	if err != nil {
		return false // e.g. a comparison on a variable no triple binds
	}
	got, err := query.Eval(ctx, g, q)
	want, werr := oracle.Eval(ctx, q)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%s\nEval error %v, EvalNaive error %v", src, err, werr)
	}
	if err != nil {
		return false
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s\nEval:      %v %+v\nEvalNaive: %v %+v", src, got.Rows, got.Aggregate, want.Rows, want.Aggregate)
	}
	return len(got.Rows) > 0
}

// TestEvalMatchesNaiveRandomStores compares Eval with the nested-loop
// oracle on random queries over random stores.
func TestEvalMatchesNaiveRandomStores(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	nonEmpty, total := 0, 0
	for s := 0; s < 8; s++ {
		g := randomStore(t, rng)
		oracle, err := query.NewNestedLoops(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		qg := newQueryGen(t, g, rng)
		for i := 0; i < 60; i++ {
			total++
			if checkAgree(t, g, oracle, qg.query()) {
				nonEmpty++
			}
		}
	}
	t.Logf("%d random queries, %d with answers", total, nonEmpty)
	if nonEmpty < total/5 {
		t.Errorf("only %d of %d queries have answers: the generator is too weak", nonEmpty, total)
	}
}

// TestEvalMatchesNaiveSample does the same over the real sample store.
func TestEvalMatchesNaiveSample(t *testing.T) {
	g := storetest.OpenGraph(t)
	oracle, err := query.NewNestedLoops(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	qg := newQueryGen(t, g, rand.New(rand.NewSource(2)))
	nonEmpty := 0
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		if checkAgree(t, g, oracle, qg.query()) {
			nonEmpty++
		}
	}
	t.Logf("%d random queries, %d with answers", n, nonEmpty)
}
