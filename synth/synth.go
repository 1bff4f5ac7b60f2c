package synth

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// Options configure Run. The zero value synthesises nothing; set Variant
// and N.
type Options struct {
	// Variant is task.Basic, task.Union or task.ReverseUnion;
	// "reverse-union" is accepted for the last.
	Variant string
	// N is the number of tasks to emit; fewer when the store runs out of
	// candidates.
	N int
	// Seed drives every random choice: the same store, options and seed
	// give the same tasks, byte for byte.
	Seed int64
	// Expand is the number of layer-wise expansions (WebShaper §3.2.2):
	// each replaces every leaf constant by a variable and the relations
	// that identify it.
	Expand int
	// Aggregate asks for a computed answer (count, sum, avg, min, max,
	// top-k, diff, member) on top of the collected set.
	Aggregate bool
	// Cut also takes tables their source cut to their first rows
	// (graph.Tree.Cut; OTT-QA keeps 20) as bases. Such a task is true of
	// the offline web, whose page shows the same rows, not of the live
	// article, whose table goes on: left out by default.
	Cut bool
	// MinTargets drops tasks with fewer targets (|R|).
	MinTargets int
	// MinTrees drops Union and Reverse-Union tasks over fewer trees.
	MinTrees int
	// Op restricts Union tasks to one operation (OpUnion, OpIntersect,
	// OpDifference, OpCount, OpCompare); empty draws one per task from the seed.
	Op string
	// Paraphraser rewrites template questions; nil keeps the templates.
	Paraphraser Paraphraser
	// PerAnswer is the most tasks emitted with one answer (the same
	// targets; for an aggregate, the same question of them) reached from
	// other clues or anchors: a Reverse-Union theme gives its one set of
	// "Not Nominated" films from each of its films. 0: no limit.
	PerAnswer int
	// MaxGroups bounds the union groups mined for Union and Reverse-Union
	// (0: 20000).
	MaxGroups int
	// Refuse, when set, is a task's last check before it is emitted, the
	// caller's own (leaper synth --max-naive-isr runs a one-search policy
	// over the offline web): a reason other than "" refuses the task, and
	// Stats.Dropped counts it under that reason. The task has its ID.
	Refuse func(context.Context, *task.Task) (string, error)
	// Logger receives progress at debug level; nil discards.
	Logger *slog.Logger
}

// UnionRounds is how many times Union and Reverse-Union draw from each
// union group (other trees of its theme, columns, anchors each time):
// more would ask the same few wide themes again (on the curated corpus,
// nine tasks of ten from one theme's counties), not other ones.
const UnionRounds = 30

// GiveUp is how many draws in a row a union group may give no task before
// it is not drawn again: a theme that has failed every check that often
// (too few pages in its draws, no pivot its tables agree on, no clue that
// singles out an anchor) fails the rest of its rounds too, on the curated
// corpus, and its draws cost most of Reverse-Union's time.
const GiveUp = 50

// Drop reasons: the check a candidate failed. Stats.Dropped counts them.
const (
	DropNoColumns  = "no_columns"  // no requested column whose facts agree across the store
	DropSmall      = "small"       // the target set is empty or trivial
	DropEval       = "eval"        // the engine could not evaluate the formalization
	DropInvariant  = "invariant"   // the re-parsed formalization does not give the answer
	DropLeak       = "leak"        // the question names an answer entity
	DropNotUnique  = "not_unique"  // Reverse-Union clues do not single out the anchor
	DropExpand     = "expand"      // no leaf constant could be expanded, or expansion changed the answer
	DropAggregate  = "aggregate"   // no aggregate question fits the answer
	DropMinTargets = "min_targets" // fewer targets than MinTargets
	DropMinTrees   = "min_trees"   // fewer trees than MinTrees
	DropNamesTable = "names_table" // the question names a table or page rather than a concept
	DropDuplicate  = "duplicate"   // same formalization as an emitted task
	DropSameAnswer = "same_answer" // Options.PerAnswer tasks with the same answer already emitted
	DropNoHop      = "no_hop"      // Basic: no attribute of most keys lies beyond the table
	DropNoTheme    = "no_theme"    // a union's trees share no theme a question can name
	DropNoName     = "key_no_name" // keys are no names: dates, ranks, codes (Basic), cells marked by the export
	DropNoNoun     = "key_no_noun" // Basic: nothing says what the keys are, so a question calls them "entries"
	DropUnnamedTop = "unnamed_top" // Basic: a ranked top list that no section or caption names
	DropMaybeCut   = "maybe_cut"   // Basic: a crawled table one row short of the crawl's cap, maybe its head
	// DropAudit prefixes the auditor's class of a refused task
	// ("audit_context"): see package audit.
	DropAudit      = "audit_"
	DropParaphrase = "paraphrase_*" // not a drop: see Stats.Paraphrase
)

// Stats describe one Run.
type Stats struct {
	Variant    task.Variant   `json:"variant"`
	Candidates int            `json:"candidates"`
	Emitted    int            `json:"emitted"`
	Dropped    map[string]int `json:"dropped"`
	// Paraphrase counts LLM outcomes: "accepted", "call_failed",
	// "constant_missing", "leak", "names_table"; the template is kept unless
	// accepted.
	Paraphrase map[string]int `json:"paraphrase,omitempty"`
	Groups     int            `json:"union_groups,omitempty"`
	// Cut counts the trees left out as bases because their source kept
	// only their first rows (graph.Tree.Cut).
	Cut int `json:"cut_trees,omitempty"`
	// Hops counts, for Basic, the relations that the keys of a drawn
	// table have in other trees, as candidate attributes beyond the
	// table, by the check each failed ("taken" for those that passed):
	// why a store's Basic tasks do or do not reach past their table.
	Hops    map[string]int `json:"hops,omitempty"`
	Seconds float64        `json:"seconds"`
}

// Run synthesises up to opts.N tasks of one variant and passes each to
// emit, in a deterministic order. Every emitted task satisfies Check.
func Run(ctx context.Context, g *graph.Store, opts *Options, emit func(*task.Task) error) (*Stats, error) {
	if opts == nil {
		opts = &Options{}
	}
	o := *opts
	v, ok := task.ParseVariant(o.Variant)
	if !ok {
		return nil, fmt.Errorf("%w: variant %q (basic, union, reverse-union)", ErrBadOptions, o.Variant)
	}
	o.Variant = string(v)
	if o.N < 0 || o.Expand < 0 || o.MinTargets < 0 || o.MinTrees < 0 {
		return nil, fmt.Errorf("%w: N, Expand, MinTargets and MinTrees must not be negative", ErrBadOptions)
	}
	if o.Op != "" {
		if !slices.Contains(Ops, o.Op) {
			return nil, fmt.Errorf("%w: op %q (%s)", ErrBadOptions, o.Op, strings.Join(Ops, ", "))
		}
		if v != task.Union {
			return nil, fmt.Errorf("%w: op is for the union variant", ErrBadOptions)
		}
	}
	if o.MaxGroups <= 0 {
		o.MaxGroups = 20000
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	start := time.Now()
	s, err := newSynth(ctx, g, &o)
	if err != nil {
		return nil, err
	}
	st := &Stats{Variant: v, Dropped: map[string]int{}, Paraphrase: map[string]int{}}
	if v == task.Basic {
		st.Hops = s.hops
	}
	if !o.Cut {
		st.Cut = s.cut
	}
	defer func() { st.Seconds = time.Since(start).Seconds() }()
	var bases [][]int // tree indices per candidate base
	switch v {
	case task.Basic:
		for i, t := range s.trees {
			if !t.Cut || o.Cut {
				bases = append(bases, []int{i})
			}
		}
	default:
		if bases, err = s.unionBases(ctx); err != nil {
			return st, err
		}
		st.Groups = s.groups
	}
	order := rand.New(rand.NewPCG(uint64(o.Seed), 0x5eed)).Perm(len(bases))
	if v != task.Basic {
		s.largeFirst(bases, order)
	}
	s.seen = map[string]bool{}
	seen := s.seen
	s.answers = map[string]int{} // answerKey → tasks emitted
	answers := s.answers
	s.taken = map[string]int{}
	// A base may give several tasks (other columns, filters, anchors):
	// a few rounds over the bases before giving up.
	// A union theme gives many: each round draws other trees of it.
	rounds := 3
	if v != task.Basic {
		rounds = UnionRounds
	}
	// A union base of many pages gives a candidate per three of its pages
	// each round (other trees, columns, anchors): the widest themes are
	// the ones whose tasks a few visits do not cover.
	type turn struct{ base, try int }
	var turns []turn
	for try := 0; ; try++ {
		n := len(turns)
		for _, bi := range order {
			if try == 0 || v != task.Basic && try < pages(s, bases[bi])/3 {
				turns = append(turns, turn{bi, try})
			}
		}
		if len(turns) == n {
			break
		}
	}
	fails := make([]int, len(bases)) // draws in a row without a task
	for round := 0; round < rounds && st.Emitted < o.N; round++ {
		for _, tn := range turns {
			bi, try := tn.base, tn.try
			if st.Emitted >= o.N {
				break
			}
			if v != task.Basic && fails[bi] >= GiveUp {
				continue
			}
			if err := ctx.Err(); err != nil {
				return st, err
			}
			st.Candidates++
			// Basic tasks ask for an attribute beyond the table; the
			// later rounds take tables without one, for stores (such as
			// CSV tables without links) where few keys have facts elsewhere.
			s.requireHop = round == 0
			rng := rand.New(rand.NewPCG(uint64(o.Seed), uint64(try)<<48|uint64(round)<<32|uint64(bi)+1))
			t, reason, err := s.candidate(ctx, bases[bi], rng, st)
			if err != nil {
				return st, err
			}
			if reason == "" {
				key, ak := formKey(t), answerKey(t)
				switch {
				case seen[key]:
					reason = DropDuplicate
				case o.PerAnswer > 0 && answers[ak] >= o.PerAnswer:
					reason = DropSameAnswer
				default:
					seen[key] = true
					t.ID = fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(string(v), "_", "-"), o.Seed, st.Emitted)
					t.Seed = o.Seed
					if o.Refuse != nil {
						if reason, err = o.Refuse(ctx, t); err != nil {
							return st, err
						}
					}
					if reason == "" {
						answers[ak]++
						s.taken[keySet(keysOf(t))]++
					}
				}
			}
			if reason != "" {
				st.Dropped[reason]++
				fails[bi]++
				continue
			}
			fails[bi] = 0
			st.Emitted++
			if err := emit(t); err != nil {
				return st, err
			}
		}
	}
	for k, n := range st.Paraphrase {
		if n == 0 {
			delete(st.Paraphrase, k)
		}
	}
	return st, nil
}

func formKey(t *task.Task) string {
	var b strings.Builder
	for _, tr := range t.Formalization {
		b.WriteString(tr.S.String() + "\x00" + tr.R + "\x00" + tr.O.String() + "\x01")
	}
	if a := t.Answer.Aggregate; a != nil {
		b.WriteString(a.Op + "\x00" + a.Column)
	}
	return b.String()
}

// answerKey is what a task asks for: the set of its targets' entities,
// and an aggregate's question of them.
func answerKey(t *task.Task) string {
	ids := make([]uint32, len(t.Targets))
	for i, tg := range t.Targets {
		ids[i] = tg.Entity
	}
	k := keySet(ids)
	if a := t.Answer.Aggregate; a != nil {
		k += "\x00" + a.Op + "\x00" + a.Column + "\x00" + a.Value
	}
	return k
}

// keysOf are the key entities (layer 2) of t's targets.
func keysOf(t *task.Task) []uint32 {
	var ks []uint32
	for _, tg := range t.Targets {
		if tg.Layer == 2 {
			ks = append(ks, tg.Entity)
		}
	}
	return ks
}

// keySet is the identity of a set of entities.
func keySet(ks []uint32) string {
	ks = slices.Clone(ks)
	slices.Sort(ks)
	var b strings.Builder
	for _, k := range slices.Compact(ks) {
		b.WriteString(strconv.FormatUint(uint64(k), 36) + ",")
	}
	return b.String()
}

// memo is f(k), computed once per key in *m (made on first use): the
// synthesiser's per-text and per-page caches.
func memo[K comparable, V any](m *map[K]V, k K, f func(K) V) V {
	if v, ok := (*m)[k]; ok {
		return v
	}
	if *m == nil {
		*m = map[K]V{}
	}
	v := f(k)
	(*m)[k] = v
	return v
}

// synth holds what candidates share: the trees in memory and caches of
// store reads.
type synth struct {
	// taken counts the tasks emitted per set of keys: a Reverse-Union
	// pivot whose keys have Options.PerAnswer tasks gives way to another.
	taken map[string]int
	// seen holds the formalizations emitted (formKey): a duplicate is
	// dropped before it is paraphrased.
	seen  map[string]bool
	g     *graph.Store
	o     *Options
	trees []*graph.Tree
	index map[uint32]int // tree id → position in trees
	keys  []*roaring.Bitmap
	rels  map[string][]uint32        // relation name → relation ids
	objs  map[objKey][]uint32        // (relation name, subject) → objects, sorted
	subs  map[objKey]*roaring.Bitmap // (relation name, object) → subjects
	// marked caches markedKeys by tree id.
	marked map[uint32]bool
	names  map[uint32]*graph.Entity
	// namesakes caches audit.Namesake by entity id.
	namesakes map[uint32]bool
	krels     map[uint32]map[string][]int // key → relation → trees where it is a key
	// relstab caches relStable: relation name → whether it may be read
	// beyond a task's tables.
	relstab map[string]bool
	groups  int
	cut     int // trees their source cut, left out as bases
	// headerPages counts the pages whose tables head a column so
	// (headerKey): a header many pages use is a name people give
	// that attribute.
	headerPages map[string]int
	// refused caches refusedCell by text (refusedText).
	refused map[string]bool
	// clueTexts caches clueText, which the column walks ask of the same
	// texts again and again.
	clueTexts map[string]string
	// answers counts the tasks emitted per answerKey (Run's, read by
	// finish to skip auditing a task Run would drop).
	answers map[string]int
	// plainKeyed caches plainKeys per tree: a Basic base is drawn in each
	// round, and most that fail fail on their keys.
	plainKeyed map[uint32]bool
	// nameCells caches nameCell, asked of every key cell of a tree.
	nameCells map[string]bool
	// basicCols caches basicColumns per tree.
	basicCols map[uint32][]int
	// itemLists caches listItems, which a filter's check asks of every
	// cell of its column for each value it weighs.
	itemLists map[string][]string
	// unionPlain caches plainColumns per union's trees and keys.
	unionPlain map[string]map[int]bool
	// splits caches sharedColsSplit per trees and keys (treesKeys).
	splits map[string][2][]int
	// pivotsOf caches pivot per Reverse-Union trees and space (treesKeys),
	// anchor and relation.
	pivotsOf map[string]map[anchorRel]*pivotCand
	// mentions caches mentioned per tree, relation and value.
	mentions map[mention]bool
	// pageTrees caches the number of trees of a page (alonePage).
	pageTrees map[string]int
	// cutRels holds, by page, the relations of its trees their source
	// cut (cutRel).
	cutRels map[string]map[string]bool
	// misprints caches misprinted by tree and column; plainCols
	// plainColumn of a tree's every row (plainPivot).
	misprints, plainCols map[[2]uint32]bool
	// countsHeaders is whether the store's tables come from enough
	// series (minStems) for headerPages to tell common headers.
	countsHeaders bool
	// requireHop drops Basic candidates with no attribute beyond the
	// table (the first round over the trees).
	requireHop bool
	// hops counts the hop relations considered, by outcome (Stats.Hops).
	hops map[string]int
	// unionPages is the fewest pages a union usually spans: minUnionPages,
	// or fewer on a store without such groups.
	unionPages int
	// aud re-derives each finished candidate from the tables by its own
	// path; what it flags is refused.
	aud *audit.Auditor
}

type objKey struct {
	rel  string
	subj uint32
}

func newSynth(ctx context.Context, g *graph.Store, o *Options) (*synth, error) {
	s := &synth{g: g, o: o, index: map[uint32]int{}, rels: map[string][]uint32{},
		objs: map[objKey][]uint32{}, names: map[uint32]*graph.Entity{}, namesakes: map[uint32]bool{},
		krels: map[uint32]map[string][]int{}, relstab: map[string]bool{}, hops: map[string]int{}}
	sampled := map[string][]*graph.Tree{} // a page's trees of a sampled source
	err := g.EachTree(ctx, func(t *graph.Tree) error {
		if audit.Sampled(t.Source) {
			sampled[t.PageURL] = append(sampled[t.PageURL], t)
		}
		if t.Untitled {
			return nil // a question would have to name it by its file
		}
		s.index[t.ID] = len(s.trees)
		s.trees = append(s.trees, t)
		bm := roaring.New()
		for _, r := range t.Rows {
			bm.Add(r.Key)
		}
		s.keys = append(s.keys, bm)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("synth: trees: %w", err)
	}
	if err := s.markGaps(sampled); err != nil {
		return nil, err
	}
	for _, t := range s.trees {
		if t.Cut {
			s.cut++
		}
	}
	s.countHeaders()
	rels, err := g.Relations()
	if err != nil {
		return nil, fmt.Errorf("synth: relations: %w", err)
	}
	if s.aud, err = audit.New(g); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	s.aud.Cut = o.Cut
	for _, r := range rels {
		s.rels[r.Name] = append(s.rels[r.Name], r.ID)
	}
	return s, nil
}

// markGaps marks as cut (graph.Tree.Cut) each tree of a sampled source
// beside which its page's source lacks a table (audit.SourceGap), or of
// an export named by page and table ids beside which the store lacks a
// table (graph.ExportGap): a table of its page may be lost, and the
// auditor refuses its tasks but with --cut. sampled are the trees of a
// sampled source per page, untitled ones too; the page's rejected tables
// are read here.
func (s *synth) markGaps(sampled map[string][]*graph.Tree) error {
	have := map[string]map[int]bool{} // per page; nil where gaps cannot be told
	split := map[string]bool{}        // per page: its sections run over several tables
	for _, t := range s.trees {
		if !t.Cut {
			// A file of an export numbered by page and table, beside a
			// table the store lacks (graph.ExportGap).
			_, gap, err := s.g.ExportGap(t.Source)
			if err != nil {
				return fmt.Errorf("synth: %w", err)
			}
			t.Cut = gap
		}
		if t.Cut || t.TableIndex < 0 || !audit.Sampled(t.Source) {
			continue
		}
		h, read := have[t.PageURL]
		if !read {
			rejs, err := s.g.RejectedOfPage(t.PageURL)
			if err != nil {
				return fmt.Errorf("synth: %w", err)
			}
			var ok bool
			if h, ok = audit.PageIndices(sampled[t.PageURL], rejs); !ok {
				h = nil
			}
			have[t.PageURL] = h
			split[t.PageURL] = audit.SplitSections(sampled[t.PageURL], rejs)
		}
		if h != nil && audit.SourceGap(t.TableIndex, h, split[t.PageURL]) >= 0 {
			t.Cut = true
		}
	}
	return nil
}

// objects returns every object of (subj, any relation named rel) in the
// store, sorted: what the engine sees for a triple [subj, rel, X].
func (s *synth) objects(rel string, subj uint32) ([]uint32, error) {
	k := objKey{rel, subj}
	if v, ok := s.objs[k]; ok {
		return v, nil
	}
	bm := roaring.New()
	for _, id := range s.rels[rel] {
		o, err := s.g.Objects(id, subj)
		if err != nil {
			return nil, fmt.Errorf("synth: objects: %w", err)
		}
		bm.Or(o)
	}
	v := bm.ToArray()
	s.objs[k] = v
	return v, nil
}

// entities returns the entities of ids, cached.
func (s *synth) entities(ids []uint32) (map[uint32]*graph.Entity, error) {
	var need []uint32
	for _, id := range ids {
		if _, ok := s.names[id]; !ok {
			need = append(need, id)
		}
	}
	slices.Sort(need)
	need = slices.Compact(need)
	if len(need) > 0 {
		es, err := s.g.Entities(need)
		if err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
		for _, e := range es {
			s.names[e.ID] = e
		}
	}
	return s.names, nil
}

func (s *synth) name(id uint32) string {
	if e, ok := s.names[id]; ok {
		return e.Name
	}
	if es, err := s.entities([]uint32{id}); err == nil {
		return es[id].Name
	}
	return ""
}

// namesake is audit.Namesake over the store, cached.
func (s *synth) namesake(e *graph.Entity) (bool, error) {
	if ok, seen := s.namesakes[e.ID]; seen {
		return ok, nil
	}
	ok, err := audit.Namesake(s.g, e)
	if err != nil {
		return false, err
	}
	s.namesakes[e.ID] = ok
	return ok, nil
}

// display is Display of entity id.
func (s *synth) display(id uint32) string {
	if es, err := s.entities([]uint32{id}); err == nil && es[id] != nil {
		return Display(es[id])
	}
	return ""
}

// cell returns the sorted values of column c in the row of key k of tree
// t, and whether t has that key.
func cell(t *graph.Tree, c int, k uint32) ([]uint32, bool) {
	for _, r := range t.Rows {
		if r.Key == k {
			v := slices.Clone(r.Values[c])
			slices.Sort(v)
			return slices.Compact(v), true
		}
	}
	return nil, false
}

// colIndex is the index of relation name rel among t's columns, or -1.
func colIndex(t *graph.Tree, rel string) int {
	for i, c := range t.Columns {
		if c.Name == rel {
			return i
		}
	}
	return -1
}

// columnCell is a value of a key's cell in a tree's column.
type columnCell struct {
	tree       *graph.Tree
	key, value uint32
}

// columnCells yields each value of the cells of relation rel's column in
// every tree of ts that has one, row by row.
func columnCells(ts []*graph.Tree, rel string) iter.Seq[columnCell] {
	return func(yield func(columnCell) bool) {
		for _, t := range ts {
			c := colIndex(t, rel)
			if c < 0 {
				continue
			}
			for _, r := range t.Rows {
				for _, v := range r.Values[c] {
					if !yield(columnCell{t, r.Key, v}) {
						return
					}
				}
			}
		}
	}
}

// consistent reports whether, for every key in keys, the store's facts
// (key, rel, *) are exactly the union of that key's cells in the trees
// ts, and not empty. The engine reads facts store-wide while in_tree only
// scopes the key, so a column is asked for only when the two agree: the
// answer read off the tables is then the engine's.
func (s *synth) consistent(ts []*graph.Tree, rel string, keys []uint32) (bool, error) {
	// Each tree's column, and its first row of each key (as cell reads).
	type col struct {
		t   *graph.Tree
		c   int
		row map[uint32]int
	}
	var cols []col
	for _, t := range ts {
		if c := colIndex(t, rel); c >= 0 {
			row := make(map[uint32]int, len(t.Rows))
			for i := len(t.Rows) - 1; i >= 0; i-- {
				row[t.Rows[i].Key] = i
			}
			cols = append(cols, col{t, c, row})
		}
	}
	for _, k := range keys {
		var local []uint32
		for _, tc := range cols {
			if i, ok := tc.row[k]; ok {
				local = append(local, tc.t.Rows[i].Values[tc.c]...)
			}
		}
		slices.Sort(local)
		local = slices.Compact(local)
		if len(local) == 0 {
			return false, nil
		}
		global, err := s.objects(rel, k)
		if err != nil {
			return false, err
		}
		if !slices.Equal(local, global) {
			return false, nil
		}
	}
	return true, nil
}
