package mining_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/mining"
)

func TestUnionFromStore(t *testing.T) {
	g := storetest.OpenGraph(t)
	bg, trees, rels, err := mining.FromStore(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if bg.NumLeft() != len(trees) || bg.NumRight() != len(rels) || len(trees) != 55 {
		t.Fatalf("graph %d×%d, trees %d, rels %d", bg.NumLeft(), bg.NumRight(), len(trees), len(rels))
	}
	// Every edge is a relation of the tree's columns, and back.
	for i, id := range trees {
		tr, err := g.Tree(id)
		if err != nil {
			t.Fatal(err)
		}
		var want []uint32
		for _, c := range tr.Columns {
			want = append(want, c.Relation)
		}
		slices.Sort(want)
		want = slices.Compact(want)
		var got []uint32
		for _, j := range bg.Left(i) {
			got = append(got, rels[j])
		}
		for _, r := range got {
			if !slices.Contains(want, r) {
				t.Errorf("tree %d: edge to relation %d not among its columns %v", id, r, want)
			}
		}
	}
}

func TestUnionsSample(t *testing.T) {
	g := storetest.OpenGraph(t)
	var groups []mining.UnionGroup
	err := mining.Unions(context.Background(), g, &mining.UnionOptions{MinTrees: 2, MinRelations: 3}, func(u mining.UnionGroup) error {
		groups = append(groups, u)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// find returns the largest group with all of rels.
	find := func(rels ...string) *mining.UnionGroup {
		var best *mining.UnionGroup
		for i, u := range groups {
			ok := true
			for _, r := range rels {
				ok = ok && slices.Contains(u.Relations, r)
			}
			if ok && (best == nil || len(u.Trees) > len(best.Trees)) {
				best = &groups[i]
			}
		}
		return best
	}
	medals := find("has_gold", "has_silver", "has_bronze", "has_total")
	nobel := find("has_year", "has_relation", "has_rationale")
	if medals == nil || len(medals.Trees) < 9 || nobel == nil || len(nobel.Trees) < 4 {
		for _, u := range groups {
			t.Logf("%d trees %v: %v", len(u.Trees), u.Trees, u.Relations)
		}
		t.Fatalf("medal group %v, Nobel group %v", medals, nobel)
	}
	for _, u := range groups {
		if len(u.Trees) < 2 || len(u.Relations) < 3 {
			t.Errorf("group below thresholds: %+v", u)
		}
		for _, tr := range u.Trees {
			if tr.KeyDatatype != u.KeyDatatype || tr.KeyDomain != u.KeyDomain {
				t.Errorf("group mixes key classes: %+v", u)
			}
		}
		if !slices.IsSortedFunc(u.Trees, func(a, b mining.UnionTree) int { return int(a.ID) - int(b.ID) }) || !slices.IsSorted(u.RelationIDs) {
			t.Errorf("group not sorted: %+v", u)
		}
	}
	t.Logf("%d groups; medals: %d trees %v; Nobel: %d trees %v", len(groups), len(medals.Trees), medals.Relations, len(nobel.Trees), nobel.Relations)

	// Deterministic, and emit errors stop the enumeration.
	var again []mining.UnionGroup
	stop := errors.New("stop")
	err = mining.Unions(context.Background(), g, &mining.UnionOptions{MinTrees: 2, MinRelations: 3}, func(u mining.UnionGroup) error {
		again = append(again, u)
		if len(again) == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(again) != 2 || strings.Join(again[1].Relations, ",") != strings.Join(groups[1].Relations, ",") {
		t.Errorf("second run: %v, %d groups", err, len(again))
	}
	if err := mining.Unions(context.Background(), g, &mining.UnionOptions{MinTrees: -1}, nil); !errors.Is(err, mining.ErrBadOptions) {
		t.Errorf("negative MinTrees: %v", err)
	}
}
