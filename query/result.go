package query

import (
	"fmt"
	"github.com/leaper-dev/leaper/task"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/graph"
)

// Result is the answer to a query: one row per distinct solution of the
// columns' variables, rows sorted by entity id, and the aggregate's value
// when the query has one (then Rows are the rows it was computed from, in
// the order it used: top and bottom keep theirs).
type Result struct {
	Columns   []string
	Rows      [][]uint32
	Aggregate *task.Aggregate
}

// Names returns the entity names of every row, in the same shape as Rows.
func (r *Result) Names(g *graph.Store) ([][]string, error) {
	var ids []uint32
	for _, row := range r.Rows {
		ids = append(ids, row...)
	}
	uniq := slices.Clone(ids)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	es, err := g.Entities(uniq)
	if err != nil {
		return nil, fmt.Errorf("query: names: %w", err)
	}
	name := make(map[uint32]string, len(es))
	for _, e := range es {
		name[e.ID] = e.Name
	}
	out := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = make([]string, len(row))
		for j, id := range row {
			out[i][j] = name[id]
		}
	}
	return out, nil
}

// finish turns the sorted rows into a Result, computing the aggregate.
func (p *plan) finish(rows [][]uint32) (*Result, error) {
	res := &Result{Columns: p.cols, Rows: rows}
	if res.Rows == nil {
		res.Rows = [][]uint32{}
	}
	a := p.q.Agg
	if a == nil {
		return res, nil
	}
	col := func(v string) int { return slices.Index(p.cols, v) }
	num := func(id uint32) (float64, error) {
		v, err := p.res.value(id)
		if err != nil {
			return 0, err
		}
		if !v.ok {
			return 0, fmt.Errorf("%w: %s(%s): %q", ErrNotNumeric, a.Op, a.Vars[len(a.Vars)-1], v.name)
		}
		return v.f, nil
	}
	var ids []uint32
	for _, r := range rows {
		ids = append(ids, r...)
	}
	if a.Op != AggCount && a.Op != AggMember && a.Op != AggCountDiff {
		if err := p.res.prefetch(ids); err != nil {
			return nil, err
		}
	}
	agg := &task.Aggregate{Op: a.Op, Column: a.Vars[len(a.Vars)-1]}
	res.Aggregate = agg
	switch a.Op {
	case AggCount:
		agg.Value = strconv.Itoa(len(rows))
	case AggMember:
		agg.Value = "false"
		for _, r := range rows {
			if _, ok := slices.BinarySearch(p.member, r[0]); ok {
				agg.Value = "true"
			}
		}
	case AggCountDiff:
		n := 0
		for _, r := range rows {
			if p.cmp[0].Contains(r[0]) {
				n++
			}
			if p.cmp[1].Contains(r[0]) {
				n--
			}
		}
		agg.Column = strconv.FormatUint(uint64(a.Trees[0]), 10) + "-" + strconv.FormatUint(uint64(a.Trees[1]), 10)
		agg.Value = strconv.Itoa(n)
	case AggSum, AggAvg, AggMin, AggMax:
		c := col(a.Vars[0])
		if len(rows) == 0 {
			agg.Value = "0"
			if a.Op != AggSum {
				agg.Value = ""
			}
			return res, nil
		}
		var sum float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range rows {
			x, err := num(r[c])
			if err != nil {
				return nil, err
			}
			sum += x
			lo, hi = min(lo, x), max(hi, x)
		}
		switch a.Op {
		case AggSum:
			agg.Value = fmtValue(sum)
		case AggAvg:
			agg.Value = fmtValue(sum / float64(len(rows)))
		case AggMin:
			agg.Value = fmtValue(lo)
		case AggMax:
			agg.Value = fmtValue(hi)
		}
	case AggDiff:
		var x [2]float64
		for i := range 2 {
			c := col(a.Vars[i])
			var distinct []uint32
			for _, r := range rows {
				if !slices.Contains(distinct, r[c]) {
					distinct = append(distinct, r[c])
				}
			}
			if len(distinct) != 1 {
				return nil, fmt.Errorf("%w: diff: %s has %d values, not one", ErrInvalid, a.Vars[i], len(distinct))
			}
			v, err := num(distinct[0])
			if err != nil {
				return nil, err
			}
			x[i] = v
		}
		agg.Column = a.Vars[0] + "-" + a.Vars[1]
		agg.Value = fmtValue(x[0] - x[1])
	case AggTop, AggBottom:
		c := len(p.cols) - 1
		vals := make(map[uint32]float64, len(rows))
		for _, r := range rows {
			v, err := num(r[c])
			if err != nil {
				return nil, err
			}
			vals[r[c]] = v
		}
		desc := a.Op == AggTop
		// Stable over the id-sorted rows: ties keep id order.
		slices.SortStableFunc(rows, func(x, y []uint32) int {
			vx, vy := vals[x[c]], vals[y[c]]
			switch {
			case vx == vy:
				return 0
			case (vx > vy) == desc:
				return -1
			}
			return 1
		})
		if len(rows) > a.K {
			res.Rows = rows[:a.K]
		}
		names := make([]string, len(res.Rows))
		for i, r := range res.Rows {
			v, err := p.res.value(r[0])
			if err != nil {
				return nil, err
			}
			names[i] = v.name
		}
		agg.Column = a.Vars[0]
		agg.Value = strings.Join(names, "; ")
	}
	return res, nil
}

// fmtValue writes a number without float noise: integers as integers, the
// rest to at most six decimals.
func fmtValue(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64)
}
