package synth

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/audit"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
	"github.com/leaper-dev/leaper/task"
)

// numeric is an entity's number: a year or number literal, else its name.
func (s *synth) numeric(id uint32) (float64, bool) {
	es, err := s.entities([]uint32{id})
	if err != nil {
		return 0, false
	}
	e := es[id]
	p := e.Name
	if len(e.Key) > 2 && (e.Key[:2] == "y:" || e.Key[:2] == "n:") {
		p = e.Key[2:]
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(p), ",", ""), 64)
	return f, err == nil
}

// numCol is a column of a draft's table whose every cell is one number.
type numCol struct {
	j    int
	vals []float64
}

// numCols are the columns of tb whose every cell is one number.
func (s *synth) numCols(tb *table) []numCol {
	var nums []numCol
	for j := range tb.vars {
		vals := make([]float64, len(tb.keys))
		ok := true
		for i := range tb.keys {
			c := tb.cells[i][j]
			if len(c) != 1 {
				ok = false
				break
			}
			f, good := s.numeric(c[0])
			if !good {
				ok = false
				break
			}
			vals[i] = f
		}
		if ok {
			nums = append(nums, numCol{j, vals})
		}
	}
	return nums
}

// yearColumn reports whether a tree of ts writes years under relation rel
// ("Year of birth"), as figures or as links ("1999" linking "1999 in
// film").
func yearColumn(ts []*graph.Tree, rel string) bool {
	for _, t := range ts {
		for _, c := range t.Columns {
			if c.Name == rel && audit.YearColumn(c) {
				return true
			}
		}
	}
	return false
}

// totalOtherwise reports whether a tree of the draft states, in its own
// total row, another total for relation rel than its rows add up to (an
// error of the source: a reader may answer either), so that no sum or
// average of rel is asked.
func (s *synth) totalOtherwise(d *draft, rel string) bool {
	for _, t := range d.trees {
		if _, ok := t.Stated[rel]; !ok {
			continue
		}
		ci := slices.IndexFunc(t.Columns, func(c graph.Column) bool { return c.Name == rel })
		if ci < 0 {
			continue
		}
		sum := 0.0
		for _, r := range t.Rows {
			if ci < len(r.Values) && len(r.Values[ci]) == 1 {
				if f, ok := s.numeric(r.Values[ci][0]); ok {
					sum += f
				}
			}
		}
		if _, other := t.TotalOtherwise(rel, sum); other {
			return true
		}
	}
	return false
}

// aggregate turns the draft into a WebAggregator-style question: the same
// set to collect (R is unchanged) and a value computed from it by the
// engine — count, sum, avg, min, max, top-k, bottom-k, the difference
// between two entities' values, or membership.
func (s *synth) aggregate(ctx context.Context, d *draft, rng *rand.Rand) (string, error) {
	tb, err := evalTable(ctx, s.g, d.triples, false)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return DropEval, nil
	}
	n := len(tb.keys)
	if n < 2 {
		return DropSmall, nil
	}
	nums := slices.DeleteFunc(s.numCols(tb), func(c numCol) bool { return audit.OrdinalHeader(d.cols[c.j].header) })
	singleRows := true // every table cell single-valued: sum and avg count each key once
	for i := range tb.cells {
		for _, c := range tb.cells[i] {
			if len(c) != 1 {
				singleRows = false
			}
		}
	}
	// Numeric operations first when a column allows them: count and
	// membership fit every set and would otherwise crowd them out.
	var ops []string
	if len(nums) > 0 {
		ops = append(ops, task.AggMin, task.AggMax, task.AggTop, task.AggBottom, task.AggDiff)
		if singleRows {
			ops = append(ops, task.AggSum, task.AggAvg)
		}
	}
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	if rng.IntN(2) == 0 {
		ops = append(ops, task.AggCount, task.AggMember)
	} else {
		ops = append(ops, task.AggMember, task.AggCount)
	}
	many := d.keyNoun.many
	for _, op := range ops {
		var nc numCol
		var h, v string
		year := false
		if len(nums) > 0 {
			nc = nums[rng.IntN(len(nums))]
			h = lowerFirst(colWords([]column{d.cols[nc.j]}, d.trees)[0]) // "the number of seats", as the answer says
			v = tb.vars[nc.j]
			year = yearColumn(d.trees, d.cols[nc.j].rel)
		}
		hi, lo, big, small := extremes(year)
		var agg *query.AggFunc
		var sentence string
		switch op {
		case task.AggCount:
			agg = &query.AggFunc{Op: op, Vars: []string{query.TargetVar}}
			// "Also say how many tracks there are" reads as the album's
			// tracks, not those listed
			sentence = pick(rng, []string{"How many " + many + " is that in total?", "Also say how many of them there are.", "How many such " + many + " are there?"})
		case task.AggSum, task.AggAvg:
			if year || s.totalOtherwise(d, d.cols[nc.j].rel) {
				continue // the table's own total says otherwise; a sum of years means nothing
			}
			agg = &query.AggFunc{Op: op, Vars: []string{v}}
			if op == task.AggSum {
				sentence = pick(rng, []string{"What is the total " + h + " across all of them?", "Also give the sum of their " + h + "."})
			} else {
				sentence = pick(rng, []string{"What is their average " + h + "?", "What is the mean " + h + " among them?"})
			}
		case task.AggMin:
			agg = &query.AggFunc{Op: op, Vars: []string{v}}
			sentence = pick(rng, []string{"What is the " + lo + " " + h + " among them?", "What is the " + small + " " + h + " of any of them?"})
		case task.AggMax:
			agg = &query.AggFunc{Op: op, Vars: []string{v}}
			sentence = pick(rng, []string{"What is the " + hi + " " + h + " among them?", "What is the " + big + " " + h + " of any of them?"})
		case task.AggTop, task.AggBottom:
			k := 3
			if n <= 4 {
				k = 1
			}
			sorted := slices.Clone(nc.vals)
			slices.Sort(sorted)
			if op == task.AggTop {
				slices.Reverse(sorted)
			}
			if sorted[k-1] == sorted[k] { // a tie at the cut: no single answer
				continue
			}
			agg = &query.AggFunc{Op: op, K: k, Vars: []string{query.TargetVar, v}}
			word := hi
			if op == task.AggBottom {
				word = lo
			}
			if k == 1 {
				sentence = "Which of them has the " + word + " " + h + "?"
			} else {
				sentence = "Which " + strconv.Itoa(k) + " of them have the " + word + " " + h + "?"
			}
		case task.AggDiff:
			i, j := rng.IntN(n), rng.IntN(n)
			if nc.vals[i] == nc.vals[j] {
				continue
			}
			if nc.vals[i] < nc.vals[j] {
				i, j = j, i
			}
			rel := relOfVar(d.triples, v)
			na, nb := s.name(tb.keys[i]), s.name(tb.keys[j])
			if na == nb || usesConst(d.triples, na) || usesConst(d.triples, nb) {
				continue
			}
			va, vb := d.newVar("Diff A"), d.newVar("Diff B")
			d.triples = append(d.triples,
				task.Triple{S: task.C(na), R: rel, O: task.V(va)},
				task.Triple{S: task.C(nb), R: rel, O: task.V(vb)})
			ra, rb := d.addSlot(na, tb.keys[i], s.keySaid(d, tb.keys[i])), d.addSlot(nb, tb.keys[j], s.keySaid(d, tb.keys[j]))
			agg = &query.AggFunc{Op: op, Vars: []string{va, vb}}
			sentence = pick(rng, diffSentences(h, ra, rb, year))
		case task.AggMember:
			c, id, ok := s.memberConst(d, tb, rng)
			if !ok {
				continue
			}
			ref := d.addSlot(c, 0, s.keySaid(d, id))
			agg = &query.AggFunc{Op: op, Vars: []string{query.TargetVar}, Const: c}
			sentence = pick(rng, []string{"Is " + ref + " one of them?", "Is " + ref + " among them?"})
		}
		if agg == nil {
			continue
		}
		d.agg = agg
		d.question += " " + sentence
		return "", nil
	}
	return DropAggregate, nil
}

// extremes are the words of a column's high and low ends: "highest" and
// "lowest", "largest" and "smallest"; a year's "latest" and "earliest"
// ("the smallest year" reads as a reader would not ask).
func extremes(year bool) (hi, lo, big, small string) {
	if year {
		return "latest", "earliest", "latest", "earliest"
	}
	return "highest", "lowest", "largest", "smallest"
}

// diffSentences ask how much a's figure h exceeds b's: for years, how many
// years later it is.
func diffSentences(h, a, b string, year bool) []string {
	if year {
		return []string{"How many years later is the " + h + " of " + a + " than that of " + b + "?",
			"How many years after the " + h + " of " + b + " is that of " + a + "?"}
	}
	return []string{"How much higher is the " + h + " of " + a + " than that of " + b + "?",
		"By how much does the " + h + " of " + a + " exceed that of " + b + "?"}
}

// memberConst picks the name of an answer key (true) or of another key of
// the task's trees (false), half and half.
func (s *synth) memberConst(d *draft, tb *table, rng *rand.Rand) (string, uint32, bool) {
	in := map[uint32]bool{}
	for _, k := range tb.keys {
		in[k] = true
	}
	var out []uint32
	for _, t := range d.trees {
		for _, r := range t.Rows {
			if !in[r.Key] {
				out = append(out, r.Key)
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	var c uint32
	if len(out) > 0 && rng.IntN(2) == 0 {
		c = out[rng.IntN(len(out))]
	} else {
		c = tb.keys[rng.IntN(len(tb.keys))]
	}
	name := s.name(c)
	if len(name) < 2 || usesConst(d.triples, name) {
		return "", 0, false
	}
	return name, c, true
}

// keySaid is how a question names key k of the task's trees: as the
// first tree that has it writes it, else without a disambiguator
// ("St. Mark's Episcopal Church", not "St. Mark's Episcopal Church (Jim
// Thorpe, Pennsylvania)"); its title where another key of the trees is
// said alike (two churches of one name in a union of counties).
func (s *synth) keySaid(d *draft, k uint32) string {
	said := ""
	for _, t := range d.trees {
		if slices.ContainsFunc(t.Rows, func(r graph.Row) bool { return r.Key == k }) {
			said = s.shownText(t, k)
			break
		}
	}
	if said == "" {
		said = s.display(k)
	}
	for _, t := range d.trees {
		for _, r := range t.Rows {
			if r.Key != k && strings.EqualFold(s.shownText(t, r.Key), said) {
				return s.name(k)
			}
		}
	}
	return said
}
