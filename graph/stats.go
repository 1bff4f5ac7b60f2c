package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/internal/hist"
)

// Stats are what a store holds: its counts, the cleaning report, and the
// distributions leaper stats prints.
type Stats struct {
	Complete    bool           `json:"complete"`
	Counts      Counts         `json:"counts"`
	Rejections  map[string]int `json:"rejections"`
	DropColumns map[string]int `json:"dropped_columns"`
	Skips       map[string]int `json:"skipped_records"`
	SkipSamples []Skip         `json:"skip_samples,omitempty"`
	Rows        hist.Histogram `json:"rows_per_tree"`
	Columns     hist.Histogram `json:"relations_per_tree"`
	Datatypes   map[string]int `json:"relation_datatypes"`
	KeyDomains  map[string]int `json:"key_domains"`
	Groups      GroupStats     `json:"isomorphism_groups"`
	TopRels     []NameCount    `json:"top_relations"`
}

// GroupStats summarise isomorphism groups of two or more trees.
type GroupStats struct {
	Groups  int    `json:"groups"`
	Trees   int    `json:"trees"`
	Largest string `json:"largest"`
	Size    int    `json:"largest_size"`
}

// NameCount is a name and how often it occurs.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Stats gathers the store's statistics in one pass over its trees.
func (s *Store) Stats(ctx context.Context) (*Stats, error) {
	m := s.Manifest()
	st := &Stats{Complete: m.Complete, Counts: m.Counts, DropColumns: map[string]int{}, Skips: map[string]int{},
		Rows: hist.NewInt(10, 20, 50, 100, 200), Columns: hist.NewInt(2, 3, 5, 8, 12),
		Datatypes: map[string]int{}, KeyDomains: map[string]int{}}
	var err error
	if st.Rejections, err = s.Rejections(); err != nil {
		return nil, err
	}
	skips, err := s.Skips()
	if err != nil {
		return nil, err
	}
	for i, sk := range skips {
		st.Skips[sk.Reason]++
		if i < 10 {
			st.SkipSamples = append(st.SkipSamples, sk)
		}
	}
	groups := map[string]int{}
	relTrees := map[uint32]int{}
	err = s.EachTree(ctx, func(t *Tree) error {
		st.Rows.Add(float64(len(t.Rows)))
		st.Columns.Add(float64(len(t.Columns)))
		st.KeyDomains[string(t.KeyDatatype)+"/"+t.KeyDomain]++
		for _, c := range t.Columns {
			st.Datatypes[string(c.Datatype)]++
			relTrees[c.Relation]++
		}
		for _, d := range t.Dropped {
			if i := strings.LastIndex(d, ": "); i >= 0 {
				st.DropColumns[d[i+2:]]++
			}
		}
		groups[t.Group]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if n := groups[k]; n >= 2 {
			st.Groups.Groups++
			st.Groups.Trees += n
			if n > st.Groups.Size {
				st.Groups.Size, st.Groups.Largest = n, k
			}
		}
	}
	rels, err := s.Relations()
	if err != nil {
		return nil, err
	}
	for _, r := range rels {
		st.TopRels = append(st.TopRels, NameCount{fmt.Sprintf("%s (%s, %s)", r.Name, r.Datatype, r.Domain), relTrees[r.ID]})
	}
	sort.SliceStable(st.TopRels, func(i, j int) bool { return st.TopRels[i].Count > st.TopRels[j].Count })
	if len(st.TopRels) > 15 {
		st.TopRels = st.TopRels[:15]
	}
	return st, nil
}
