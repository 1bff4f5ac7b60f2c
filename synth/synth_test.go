package synth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/store"
	"github.com/leaper-dev/leaper/synth"
	"github.com/leaper-dev/leaper/task"
)

// run synthesises with opts over g and returns the tasks and stats.
func run(t *testing.T, g *graph.Store, opts synth.Options) ([]*task.Task, *synth.Stats) {
	t.Helper()
	var tasks []*task.Task
	st, err := synth.Run(context.Background(), g, &opts, func(tk *task.Task) error {
		tasks = append(tasks, tk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tasks, st
}

// seeded runs synthesis with opts under seeds 1 to n and returns every
// task.
func seeded(t *testing.T, g *graph.Store, opts synth.Options, n int) []*task.Task {
	t.Helper()
	var all []*task.Task
	for seed := int64(1); seed <= int64(n); seed++ {
		opts.Seed = seed
		tasks, _ := run(t, g, opts)
		all = append(all, tasks...)
	}
	return all
}

func encode(t *testing.T, tasks []*task.Task) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, tk := range tasks {
		if err := enc.Encode(tk); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

var configs = []struct {
	name string
	opts synth.Options
}{
	{"basic", synth.Options{Variant: "basic"}},
	{"basic-expand", synth.Options{Variant: "basic", Expand: 1, Cut: true}},
	{"basic-aggregate", synth.Options{Variant: "basic", Aggregate: true}},
	{"union", synth.Options{Variant: "union", Cut: true}},
	{"union-op-union", synth.Options{Variant: "union", Cut: true, Op: synth.OpUnion}},
	{"union-op-intersect", synth.Options{Variant: "union", Cut: true, Op: synth.OpIntersect}},
	{"union-op-difference", synth.Options{Variant: "union", Cut: true, Op: synth.OpDifference}},
	{"union-op-count", synth.Options{Variant: "union", Cut: true, Op: synth.OpCount}},
	{"union-op-compare", synth.Options{Variant: "union", Cut: true, Op: synth.OpCompare}},
	{"union-min-trees", synth.Options{Variant: "union", Cut: true, MinTrees: 4}},
	{"union-expand", synth.Options{Variant: "union", Cut: true, Expand: 1}},
	{"union-aggregate", synth.Options{Variant: "union", Cut: true, Aggregate: true}},
	{"reverse-union", synth.Options{Variant: "reverse-union", Cut: true}},
	{"reverse-union-expand2", synth.Options{Variant: "reverse-union", Cut: true, Expand: 2}},
	{"reverse-union-aggregate", synth.Options{Variant: "reverse-union", Cut: true, Aggregate: true}},
}

// refusedOnSample are the configurations the sample store has no sound
// task for (see TestInvariant).
var refusedOnSample = map[string]bool{
	"union-op-intersect": true, "union-min-trees": true, "union-expand": true, "reverse-union-expand2": true,
}

// TestInvariant: every task synthesised from the sample store evaluates,
// read back from JSON, to exactly its answer.
func TestInvariant(t *testing.T) {
	g := storetest.OpenGraph(t)
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.N, o.Seed = 40, 7
			tasks, st := run(t, g, o)
			t.Logf("%d tasks, %d candidates, dropped %v", len(tasks), st.Candidates, st.Dropped)
			if refusedOnSample[c.name] {
				// The sample store (55 trees) has no sound task of these:
				// an intersection and a difference ask for a column read
				// beyond their two tables, which must be an attribute of
				// the keys themselves; its one theme of four or more pages
				// gives no union column; its expansions go through
				// seasons. The curated corpus has them; here the refusal
				// is checked.
				if len(tasks) != 0 || len(st.Dropped) == 0 {
					t.Fatalf("%d tasks, dropped %v; want none, each dropped with its reason", len(tasks), st.Dropped)
				}
				return
			}
			if c.name == "union-op-difference" {
				// The sample store has no sound difference: the keys the
				// 128th Ohio House adds to the 127th have no column beyond
				// those two tables whose values the other trees agree on
				// (party is "Rep" in one, "Republican" in another), and a
				// difference must ask for one (its keys are on one page).
				// The curated corpus has them; here the refusal is checked.
				if len(tasks) != 0 || st.Dropped[synth.DropNoColumns] == 0 {
					t.Fatalf("%d tasks, dropped %v; want none, dropped for no columns", len(tasks), st.Dropped)
				}
				return
			}
			if len(tasks) == 0 {
				t.Fatalf("no tasks")
			}
			back, err := task.Decode(bytes.NewReader(encode(t, tasks)), c.name)
			if err != nil {
				t.Fatal(err)
			}
			ids := map[string]bool{}
			for _, tk := range back {
				if err := synth.Check(context.Background(), g, tk); err != nil {
					t.Errorf("%s: %v\n%s", tk.ID, err, encode(t, []*task.Task{tk}))
				}
				if ids[tk.ID] {
					t.Errorf("duplicate id %s", tk.ID)
				}
				ids[tk.ID] = true
				if tk.Question == "" || len(tk.Targets) < 2 || len(tk.Answer.Rows) < 2 {
					t.Errorf("%s: empty question or trivial answer", tk.ID)
				}
				if synth.NamesTable(tk.Question) {
					t.Errorf("%s: the question names a table: %q", tk.ID, tk.Question)
				}
				if o.Op != "" && tk.Op != o.Op {
					t.Errorf("%s: op %q, want %q", tk.ID, tk.Op, o.Op)
				}
				if len(tk.Trees) < o.MinTrees {
					t.Errorf("%s: %d trees, want at least %d", tk.ID, len(tk.Trees), o.MinTrees)
				}
				if strings.Contains(tk.Question, "{") || strings.Contains(tk.Question, "has_") {
					t.Errorf("%s: unrendered question %q", tk.ID, tk.Question)
				}
				if (o.Aggregate || tk.Op == synth.OpCount || tk.Op == synth.OpCompare) != (tk.Answer.Aggregate != nil) {
					t.Errorf("%s: aggregate %v", tk.ID, tk.Answer.Aggregate)
				}
				if tk.Expand != o.Expand {
					t.Errorf("%s: expand %d, want %d", tk.ID, tk.Expand, o.Expand)
				}
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	g := storetest.OpenGraph(t)
	for _, c := range configs {
		o := c.opts
		o.N, o.Seed = 15, 3
		a, _ := run(t, g, o)
		b, _ := run(t, g, o)
		if !bytes.Equal(encode(t, a), encode(t, b)) {
			t.Errorf("%s: two runs differ", c.name)
		}
		o.Seed = 4
		d, _ := run(t, g, o)
		if len(a) > 1 && bytes.Equal(encode(t, a), encode(t, d)) {
			t.Errorf("%s: seeds 3 and 4 give the same tasks", c.name)
		}
	}
}

func TestCheckRejectsTampering(t *testing.T) {
	g := storetest.OpenGraph(t)
	tasks, _ := run(t, g, synth.Options{Variant: "basic", N: 3, Seed: 1})
	if len(tasks) == 0 {
		t.Fatal("no tasks")
	}
	tk := *tasks[0]
	tk.Answer.Rows = tk.Answer.Rows[1:]
	if err := synth.Check(context.Background(), g, &tk); !errors.Is(err, synth.ErrInvariant) {
		t.Errorf("dropped row: %v, want ErrInvariant", err)
	}
	tk = *tasks[0]
	tk.Formalization = tk.Formalization[:1]
	if err := synth.Check(context.Background(), g, &tk); !errors.Is(err, synth.ErrInvariant) {
		t.Errorf("dropped columns: %v, want ErrInvariant", err)
	}
}

func TestMinTargets(t *testing.T) {
	g := storetest.OpenGraph(t)
	tasks, st := run(t, g, synth.Options{Variant: "basic", N: 10, Seed: 1, MinTargets: 30})
	for _, tk := range tasks {
		if len(tk.Targets) < 30 {
			t.Errorf("%s: %d targets", tk.ID, len(tk.Targets))
		}
	}
	if st.Dropped[synth.DropMinTargets] == 0 {
		t.Errorf("nothing dropped for min_targets: %+v", st)
	}
}

// TestPerAnswer: with PerAnswer 1 no two tasks ask for the same targets;
// without it, two of the demo store's Basic tasks do (one table's keys
// and columns, reached by another filter or template).
func TestPerAnswer(t *testing.T) {
	g := storetest.OpenGraph(t)
	answers := func(tasks []*task.Task) map[string]int {
		m := map[string]int{}
		for _, tk := range tasks {
			var ids []string
			for _, tg := range tk.Targets {
				ids = append(ids, fmt.Sprint(tg.Entity))
			}
			slices.Sort(ids)
			m[strings.Join(slices.Compact(ids), ",")]++
		}
		return m
	}
	all, _ := run(t, g, synth.Options{Variant: "basic", N: 300, Seed: 1})
	once, st := run(t, g, synth.Options{Variant: "basic", N: 300, Seed: 1, PerAnswer: 1})
	twice := 0
	for _, n := range answers(all) {
		if n > 1 {
			twice++
		}
	}
	if twice == 0 {
		t.Fatal("no answer asked twice without a limit: the test shows nothing")
	}
	for a, n := range answers(once) {
		if n > 1 {
			t.Errorf("answer %s asked %d times with PerAnswer 1", a, n)
		}
	}
	if st.Dropped[synth.DropSameAnswer] == 0 || len(once) >= len(all) {
		t.Errorf("PerAnswer 1: %d tasks (%d without it), %d refused as same_answer", len(once), len(all), st.Dropped[synth.DropSameAnswer])
	}
}

func TestBadOptions(t *testing.T) {
	g := storetest.OpenGraph(t)
	_, err := synth.Run(context.Background(), g, &synth.Options{Variant: "nope", N: 1}, func(*task.Task) error { return nil })
	if !errors.Is(err, synth.ErrBadOptions) {
		t.Errorf("got %v", err)
	}
}

var update = flag.Bool("update", false, "rewrite ../testdata/synth/questions.golden")

// TestGoldenQuestions pins the first questions of each variant and union
// operation over the sample store (seed 7), so that a change of wording
// is deliberate.
func TestGoldenQuestions(t *testing.T) {
	g := storetest.OpenGraph(t)
	var b strings.Builder
	for _, c := range configs {
		if c.opts.Expand > 0 || c.opts.Aggregate || c.opts.MinTrees > 0 {
			continue
		}
		o := c.opts
		o.N, o.Seed = 2, 7
		tasks, _ := run(t, g, o)
		for _, tk := range tasks {
			fmt.Fprintf(&b, "%s %s [%s] |R|=%d trees=%d\n  %s\n", c.name, tk.ID, tk.Op, len(tk.Targets), len(tk.Trees), tk.Question)
		}
	}
	path := filepath.Join("..", "testdata", "synth", "questions.golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("questions differ from %s (run with -update to accept):\n%s", path, b.String())
	}
}

func TestNamesTable(t *testing.T) {
	for q, want := range map[string]bool{
		`Collect the incumbents recorded in the table "November elections" on the page Michigan.`: true,
		`Which people appear in the Wikipedia article "Foo"?`:                                     true,
		`Which drivers appear in the 1998 French Grand Prix classification?`:                      false,
		`List the medal standings of the 1988 Summer Olympics.`:                                   false,
		`Which nations appear in Athletics at the 1971 Pan American Games (Medal table)?`:         false,
		`Which nations appear in the table Medal table?`:                                          true,
	} {
		if got := synth.NamesTable(q); got != want {
			t.Errorf("NamesTable(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestBasicHopsOnStore: on a store whose keys have facts beyond their
// tables (LEAPER_BENCH_STORE, e.g. the full shared corpus; the sample store
// has none, so its Basic tasks come from the later rounds), every Basic
// task asks for a relation its table does not have, and keeps the
// invariant.
func TestBasicHopsOnStore(t *testing.T) {
	dir := os.Getenv("LEAPER_BENCH_STORE")
	if dir == "" {
		t.Skip("LEAPER_BENCH_STORE not set")
	}
	g, err := graph.Open(store.GraphPath(dir), &graph.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tasks, st := run(t, g, synth.Options{Variant: "basic", N: 30, Seed: 7})
	if len(tasks) < 30 || st.Dropped[synth.DropNoHop] == 0 {
		t.Fatalf("%d tasks, dropped %v", len(tasks), st.Dropped)
	}
	for _, tk := range tasks {
		if err := synth.Check(context.Background(), g, tk); err != nil {
			t.Errorf("%s: %v", tk.ID, err)
		}
		tr, err := g.Tree(tk.Trees[0])
		if err != nil {
			t.Fatal(err)
		}
		own := map[string]bool{}
		for _, c := range tr.Columns {
			own[c.Name] = true
		}
		hop := false
		for _, x := range tk.Formalization {
			if x.S.Target && x.O.Var != "" && !own[x.R] {
				hop = true
			}
		}
		if !hop {
			t.Errorf("%s: no requested relation beyond tree %d: %q", tk.ID, tr.ID, tk.Question)
		}
	}
}

// TestCompare: comparison tasks ask for a positive difference of two
// trees' key counts (countdiff), equal to the trees' own counts, and Check
// rejects a changed value.
func TestCompare(t *testing.T) {
	g := storetest.OpenGraph(t)
	tasks, _ := run(t, g, synth.Options{Variant: "union", Cut: true, Op: synth.OpCompare, N: 10, Seed: 7})
	if len(tasks) == 0 {
		t.Fatal("no compare tasks")
	}
	for _, tk := range tasks {
		a := tk.Answer.Aggregate
		if a == nil || a.Op != task.AggCountDiff {
			t.Fatalf("%s: aggregate %+v, want countdiff", tk.ID, a)
		}
		l, r, _ := strings.Cut(a.Column, "-")
		var want int
		for i, s := range []string{l, r} {
			id, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				t.Fatalf("%s: column %q", tk.ID, a.Column)
			}
			keys, err := g.KeysOfTree(uint32(id))
			if err != nil {
				t.Fatal(err)
			}
			want += (1 - 2*i) * int(keys.GetCardinality())
		}
		if want <= 0 || a.Value != strconv.Itoa(want) {
			t.Errorf("%s: countdiff %s = %s, the trees' key counts give %d", tk.ID, a.Column, a.Value, want)
		}
		if synth.NamesTable(tk.Question) {
			t.Errorf("%s: the question names a table: %q", tk.ID, tk.Question)
		}
		bad := *tk
		agg := *a
		agg.Value = strconv.Itoa(want + 1)
		bad.Answer.Aggregate = &agg
		if err := synth.Check(context.Background(), g, &bad); !errors.Is(err, synth.ErrInvariant) {
			t.Errorf("%s: changed value: %v, want ErrInvariant", tk.ID, err)
		}
	}
}

// TestBeyondTablesAgree: a column a task reads beyond its tables (the
// engine reads relations store-wide) is a property of the keys, not of the
// tables they sit in: for every answer key, either the store's values are
// exactly the key's cells in the task's trees, or every tree that states
// the relation of the key gives the same values. And a reverse-union's
// clues are resolved within the task's trees: one of their keys has every
// clue value.
func TestBeyondTablesAgree(t *testing.T) {
	g := storetest.OpenGraph(t)
	trees := map[uint32]*graph.Tree{}
	tree := func(id uint32) *graph.Tree {
		if tr, ok := trees[id]; ok {
			return tr
		}
		tr, err := g.Tree(id)
		if err != nil {
			t.Fatal(err)
		}
		trees[id] = tr
		return tr
	}
	names := func(ids []uint32) string {
		es, err := g.Entities(ids)
		if err != nil {
			t.Fatal(err)
		}
		var ns []string
		for _, e := range es {
			ns = append(ns, strings.ToLower(e.Name))
		}
		slices.Sort(ns)
		return strings.Join(slices.Compact(ns), "; ")
	}
	// cellOf: the names of k's values of rel in tree tr, and whether tr
	// states rel of k.
	cellOf := func(tr *graph.Tree, rel string, k uint32) (string, bool) {
		for c, col := range tr.Columns {
			if col.Name != rel {
				continue
			}
			for _, r := range tr.Rows {
				if r.Key == k && len(r.Values[c]) > 0 {
					return names(r.Values[c]), true
				}
			}
		}
		return "", false
	}
	checked := 0
	for _, c := range configs {
		o := c.opts
		o.N, o.Seed = 40, 7
		tasks, _ := run(t, g, o)
		for _, tk := range tasks {
			named := map[uint32]bool{}
			for _, id := range tk.Trees {
				named[id] = true
			}
			var keys []uint32
			for _, tg := range tk.Targets {
				if tg.Layer == 2 {
					keys = append(keys, tg.Entity)
				}
			}
			var clues [][2]string
			for _, tr := range tk.Formalization {
				if tr.R == "in_tree" || tr.R == "not_in_tree" {
					continue
				}
				if tr.S.Var == "Anchor" && len(tr.O.Consts) == 1 {
					clues = append(clues, [2]string{tr.R, strings.ToLower(tr.O.Consts[0])})
				}
				if !tr.S.Target || tr.O.Var == "" {
					continue
				}
				rels, err := g.RelationsByName(tr.R)
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range keys {
					var store []uint32
					for _, r := range rels {
						bm, err := g.Objects(r.ID, k)
						if err != nil {
							t.Fatal(err)
						}
						store = append(store, bm.ToArray()...)
					}
					ts, err := g.TreesOfEntity(k)
					if err != nil {
						t.Fatal(err)
					}
					var local []string
					stated := map[string]bool{}
					for _, id := range ts.ToArray() {
						v, ok := cellOf(tree(id), tr.R, k)
						if !ok {
							continue
						}
						stated[v] = true
						if named[id] {
							local = append(local, strings.Split(v, "; ")...)
						}
					}
					slices.Sort(local)
					if len(stated) <= 1 || names(store) == strings.Join(slices.Compact(local), "; ") {
						checked++
						continue
					}
					var all []string
					for v := range stated {
						all = append(all, v)
					}
					slices.Sort(all)
					t.Errorf("%s %s: %s of %s read beyond its trees %v, where trees disagree: %q", c.name, tk.ID, tr.R, names([]uint32{k}), tk.Trees, all)
				}
			}
			if len(clues) == 0 {
				continue
			}
			found := false
			for _, id := range tk.Trees {
				for _, r := range tree(id).Rows {
					all := true
					for _, cl := range clues {
						ok := false
						for tid := range named {
							if v, has := cellOf(tree(tid), cl[0], r.Key); has && strings.Contains("; "+v+"; ", "; "+cl[1]+"; ") {
								ok = true
								break
							}
						}
						if !ok {
							all = false
							break
						}
					}
					found = found || all
				}
			}
			if !found {
				t.Errorf("%s %s: no key of its trees %v has the clues %v", c.name, tk.ID, tk.Trees, clues)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no column checked")
	}
}

// TestHopOutcomes: a Basic run counts every relation that its drawn
// tables' keys have in other tables by the check it failed, or as taken;
// a union run counts none. Two real tables (testdata/synth/hops): the
// 2012 K-League clubs that Hummel kits are asked with their city, read in
// the 2008 table. The files are two of their pages' tables, so --cut.
func TestHopOutcomes(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "hops")
	tasks, st := run(t, g, synth.Options{Variant: "basic", N: 20, Seed: 1, Cut: true})
	known := map[string]bool{"not_every_key": true, "header_unclear": true, "several_values": true,
		"shown_on_table": true, "not_own": true, "changes_over_time": true, "taken": true}
	for k, c := range st.Hops {
		if !known[k] || c <= 0 {
			t.Errorf("hop outcome %q: %d", k, c)
		}
	}
	if st.Hops["taken"] == 0 || st.Hops["not_every_key"] == 0 {
		t.Errorf("hop outcomes %v, want some taken and some not held by every key", st.Hops)
	}
	var city *task.Task
	for _, tk := range tasks {
		if slices.ContainsFunc(tk.Targets, func(tg task.Target) bool { return tg.Beyond && tg.Relation == "has_city" }) {
			city = tk
		}
	}
	if city == nil {
		t.Fatalf("no task asks for the city beyond its table: %d tasks, hops %v", len(tasks), st.Hops)
	}
	if err := synth.Check(context.Background(), g, city); err != nil {
		t.Errorf("%s: %v", city.ID, err)
	}
	if _, st := run(t, g, synth.Options{Variant: "union", N: 5, Seed: 1, Cut: true}); st.Hops != nil {
		t.Errorf("union run counted hops: %v", st.Hops)
	}
}

// TestOptionNamesAlone: where --aggregate asks of a key of the task's
// tables (whether it is among the answer, how much one exceeds another),
// the question names it as its table does, without a disambiguator where
// no other entity of the store bears the bare name ("Is Luz one of
// them?", not "Luz (São Paulo Metro)"); the formal constant keeps the
// title. (--expand names its describing entity by its title: out of its
// table, a bare name may be another's.)
func TestOptionNamesAlone(t *testing.T) {
	g := storetest.OpenGraph(t)
	checked := 0
	for _, o := range []synth.Options{
		{Variant: "basic", N: 40, Seed: 5, Aggregate: true},
		{Variant: "union", N: 20, Seed: 5, Aggregate: true},
		{Variant: "reverse-union", N: 20, Seed: 5, Aggregate: true},
	} {
		tasks, _ := run(t, g, o)
		for _, tk := range tasks {
			var consts []string
			for _, x := range tk.Formalization {
				consts = append(consts, x.S.Consts...)
				consts = append(consts, x.O.Consts...)
			}
			if a := tk.Answer.Aggregate; a != nil && a.Op == task.AggMember {
				consts = append(consts, a.Column)
			}
			for _, c := range consts {
				i := strings.LastIndex(c, " (")
				if i <= 0 || !strings.HasSuffix(c, ")") || !strings.Contains(tk.Question, c) {
					continue
				}
				owner, err := g.FindEntities(c, 0)
				if err != nil {
					t.Fatal(err)
				}
				bare, err := g.FindEntities(c[:i], 0)
				if err != nil {
					t.Fatal(err)
				}
				checked++
				if len(owner) == 1 && !slices.ContainsFunc(bare, func(id uint32) bool { return id != owner[0] }) {
					t.Errorf("%s (%s): names %q, which no other entity's %q needs: %q", tk.ID, o.Variant, c, c[:i], tk.Question)
				}
			}
		}
	}
	t.Logf("%d questions name a constant by its title, which another entity's bare name needs", checked)
}

// TestUnionFilterSaidAsWritten: a union's filter value is said as its
// trees write it ("Mandarin", not its title "Mandarin Chinese"), where
// one of them writes it otherwise, as the answer's rows give it. Nine
// real OTT-QA tables of one theme, testdata/synth/academy.
func TestUnionFilterSaidAsWritten(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "academy")
	checked := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "union", N: 30}, 6) {
		for _, x := range tk.Formalization {
			if !x.S.Target || x.R == "in_tree" || len(x.O.Consts) != 1 {
				continue
			}
			c := x.O.Consts[0]
			ids, err := g.FindEntities(c, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				for _, tid := range tk.Trees {
					tr, err := g.Tree(tid)
					if err != nil {
						t.Fatal(err)
					}
					w, ok := tr.Shown[id]
					if !ok || w == c || !graph.Shows(c, w) {
						continue
					}
					checked++
					if strings.Contains(tk.Question, " is "+c) {
						t.Errorf("%s: says %q, which tree %d writes %q: %q", tk.ID, c, tid, w, tk.Question)
					}
					break
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no filter value that a tree writes otherwise: the test checks nothing")
	}
}

// TestNoSumAgainstStatedTotal: no sum or average is asked of a column
// whose table's own Total row states another total than its rows add up
// to. Thailand at the 2011 Southeast Asian Games (WTQ 204-csv/435,
// testdata/synth/totals): its rows give 110 gold and 96 silver, its Total
// row 109 and 100; bronze, 120, agrees. The 2001 Japan Football League
// (WTQ 203-csv/561): its unnamed total row, which the build drops as the
// whole, states the league's average.
func TestNoSumAgainstStatedTotal(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "totals")
	asked := map[string]int{}
	for _, tk := range seeded(t, g, synth.Options{Variant: "basic", N: 5, Aggregate: true}, 40) {
		if a := tk.Answer.Aggregate; a != nil && (a.Op == task.AggSum || a.Op == task.AggAvg) {
			asked[a.Column]++
		}
	}
	for _, c := range []string{"Gold", "Silver", "Total"} {
		if asked[c] > 0 {
			t.Errorf("%d sums or averages of %s, which the table's Total row states otherwise", asked[c], c)
		}
	}
	if asked["Bronze"] == 0 {
		t.Errorf("no sum or average of Bronze, whose total agrees: the test checks nothing (%v)", asked)
	}
	// The 2001 Japan Football League's attendances: "League total"
	// states an average of 515, the teams' averages give 515.44.
	if asked["Average"] > 0 {
		t.Errorf("%d sums or averages of the JFL's Average, which its League total row states otherwise", asked["Average"])
	}
}

// TestRankedSaidAsRows: a top or bottom aggregate names its keys as the
// answer's rows write them: "Athletics", as Thailand's medal table
// (testdata/synth/totals) does, not the title of its link, "Athletics at
// the 2011 Southeast Asian Games".
func TestRankedSaidAsRows(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "totals")
	checked := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "basic", N: 5, Aggregate: true}, 40) {
		a := tk.Answer.Aggregate
		if a == nil || a.Op != task.AggTop && a.Op != task.AggBottom {
			continue
		}
		keys := map[string]bool{}
		for _, row := range tk.Answer.Rows {
			keys[row[0]] = true
		}
		for _, n := range strings.Split(a.Value, "; ") {
			checked++
			if !keys[n] || strings.Contains(n, "Southeast Asian Games") {
				t.Errorf("%s: %s names %q, which no answer row writes so", tk.ID, a.Op, n)
			}
		}
	}
	if checked == 0 {
		t.Error("no top or bottom aggregate: the test checks nothing")
	}
}

// TestNoFiguresOfOrder: no sum, average, extreme, ranking or difference
// is asked of a column that numbers places in an order (a draft's round,
// pick and overall pick), and no sum or average of years; years are the
// earliest and latest, not the lowest and highest. The Florida Atlantic
// Owls' draft picks (testdata/synth/ordinal).
func TestNoFiguresOfOrder(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "ordinal")
	asked := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "basic", N: 5, Aggregate: true}, 40) {
		a := tk.Answer.Aggregate
		if a == nil {
			continue
		}
		asked++
		var rels []string
		for _, x := range tk.Formalization {
			if x.O.Var != "" && strings.Contains(a.Column, x.O.Var) {
				rels = append(rels, x.R)
			}
		}
		for _, w := range []string{"highest year", "lowest year", "largest year", "smallest year", "higher is the year"} {
			if strings.Contains(tk.Question, w) {
				t.Errorf("%s: %q says %q of years", tk.ID, tk.Question, w)
			}
		}
		switch a.Op {
		case task.AggCount, task.AggMember:
			continue
		}
		for _, r := range rels {
			if r == "has_round" || r == "has_pick" || r == "has_overall" || r == "has_year" && (a.Op == task.AggSum || a.Op == task.AggAvg) {
				t.Errorf("%s: %s of %s: %q", tk.ID, a.Op, r, tk.Question)
			}
		}
	}
	if asked == 0 {
		t.Error("no aggregate task: the test checks nothing")
	}
}

// TestClueOfTwoDirectors: a Reverse-Union clue whose cell names two
// directors joined by "&" says "whose directors are … and …", not "whose
// director is … & …" (round 155; The Glass Cage, the 38th Academy
// Awards' submissions, testdata/synth/academy).
func TestClueOfTwoDirectors(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "academy")
	said := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "reverse-union", N: 30}, 12) {
		if strings.Contains(tk.Question, "Arthuys &") {
			t.Errorf("%s: %q", tk.ID, tk.Question)
		}
		if strings.Contains(tk.Question, "whose directors are Philippe Arthuys and Jean-Louis") {
			said++
		}
	}
	if said == 0 {
		t.Error("no clue of The Glass Cage's directors: the test checks nothing")
	}
}

// TestNoExpansionThroughAnotherName: no expansion describes a thing by
// what a row writing it otherwise states: "the headquarters of Nova
// Ljubljanska banka" read off "NLB banka | Belgrade", its Serbian
// subsidiary's row (round 156; testdata/audit/like).
func TestNoExpansionThroughAnotherName(t *testing.T) {
	g := storetest.BuildGraph(t, "audit", "like")
	expanded := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "basic", N: 10, Expand: 1}, 30) {
		expanded++
		if strings.Contains(tk.Question, "Nova Ljubljanska") {
			t.Errorf("%s: %q", tk.ID, tk.Question)
		}
	}
	if expanded == 0 {
		t.Error("no expanded task: the test checks nothing")
	}
}

// TestExpansionSaysKindFirst: an expansion names a film "the film
// Theofilos", not "Theofilos (film)" (round 157; testdata/synth/academy).
func TestExpansionSaysKindFirst(t *testing.T) {
	g := storetest.BuildGraph(t, "synth", "academy")
	said := 0
	for _, tk := range seeded(t, g, synth.Options{Variant: "union", N: 10, Expand: 1}, 20) {
		if strings.Contains(tk.Question, " (film)") {
			t.Errorf("%s: %q", tk.ID, tk.Question)
		}
		if strings.Contains(tk.Question, "of the film ") {
			said++
		}
	}
	if said == 0 {
		t.Error("no expansion through a film: the test checks nothing")
	}
}
