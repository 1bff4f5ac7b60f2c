package mining

import (
	"context"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/leaper-dev/leaper/graph"
)

// FromStore builds the tree × relation bipartite graph of a store: left
// vertex i is the tree trees[i], right vertex j the relation rels[j] (every
// relation, by id, so a relation's identity is name, datatype and domain),
// with an edge when some row of the tree has a value for the relation.
func FromStore(ctx context.Context, g *graph.Store) (bg *Bipartite, trees, rels []uint32, err error) {
	all, err := g.Relations()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("mining: relations: %w", err)
	}
	byRel := make([]*roaring.Bitmap, len(all))
	treeSet := roaring.New()
	for j, r := range all {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		rels = append(rels, r.ID)
		if byRel[j], err = g.TreesOfRelation(r.ID); err != nil {
			return nil, nil, nil, fmt.Errorf("mining: trees of relation %d: %w", r.ID, err)
		}
		treeSet.Or(byRel[j])
	}
	trees = treeSet.ToArray()
	adj := make([][]uint32, len(trees))
	for j, bm := range byRel {
		it := bm.Iterator()
		for it.HasNext() {
			i, _ := slices.BinarySearch(trees, it.Next())
			adj[i] = append(adj[i], uint32(j)) // j increases, so lists stay sorted
		}
	}
	bg, err = NewBipartite(adj, len(rels))
	return bg, trees, rels, err
}

// UnionOptions select union groups.
type UnionOptions struct {
	// MinTrees is k_min, the fewest trees in a group; 0 means 2.
	MinTrees int
	// MinRelations is m_min, the fewest shared relations; 0 means 2.
	MinRelations int
	// Workers is passed to Bicliques.
	Workers int
}

// UnionTree is one tree of a union group.
type UnionTree struct {
	ID          uint32         `json:"id"`
	Title       string         `json:"title"`
	KeyHeader   string         `json:"key_header"`
	KeyDatatype graph.Datatype `json:"key_datatype"`
	KeyDomain   string         `json:"key_domain"`
}

// UnionGroup is a maximal union (WebLeaper §3.1.2, App. A.5): trees whose
// key columns agree in datatype and domain, with every relation (name,
// datatype and domain) they all have.
type UnionGroup struct {
	Trees       []UnionTree    `json:"trees"`        // by tree id
	Relations   []string       `json:"relations"`    // names, by relation id
	RelationIDs []uint32       `json:"relation_ids"` // by id
	KeyDatatype graph.Datatype `json:"key_datatype"`
	KeyDomain   string         `json:"key_domain"`
}

// Unions calls emit for every union group of the store: the maximal
// bicliques (trees, relations) with at least MinTrees trees and
// MinRelations relations whose trees' key columns agree in datatype and
// domain.
//
// WebLeaper's Algorithm 1 drops a biclique whose trees disagree. That
// loses the groups inside it: a Nobel table keyed by text persons and one
// keyed by linked persons share relations with a dozen others. Instead the
// trees are split into key classes (key datatype, key domain) and each
// class's subgraph is mined on its own. This is the same as splitting
// every biclique by key class and keeping each part with at least MinTrees
// trees, together with all the relations that part shares (a superset of
// the biclique's), each group once. Groups come class by class (classes
// sorted by datatype then domain), in Bicliques' order within a class.
func Unions(ctx context.Context, g *graph.Store, uo *UnionOptions, emit func(UnionGroup) error) error {
	var opts UnionOptions
	if uo != nil {
		opts = *uo
	}
	if opts.MinTrees == 0 {
		opts.MinTrees = 2
	}
	if opts.MinRelations == 0 {
		opts.MinRelations = 2
	}
	if opts.MinTrees < 0 || opts.MinRelations < 0 {
		return fmt.Errorf("%w: MinTrees %d, MinRelations %d must not be negative", ErrBadOptions, opts.MinTrees, opts.MinRelations)
	}
	bg, trees, rels, err := FromStore(ctx, g)
	if err != nil {
		return err
	}
	relNames := make([]string, len(rels))
	for j, id := range rels {
		r, err := g.Relation(id)
		if err != nil {
			return fmt.Errorf("mining: %w", err)
		}
		relNames[j] = r.Name
	}
	info := make([]UnionTree, len(trees))
	type class struct {
		dt  graph.Datatype
		dom string
	}
	members := map[class][]int{}
	for i, id := range trees {
		t, err := g.Tree(id)
		if err != nil {
			return fmt.Errorf("mining: %w", err)
		}
		info[i] = UnionTree{ID: id, Title: t.Title(), KeyHeader: t.KeyHeader, KeyDatatype: t.KeyDatatype, KeyDomain: t.KeyDomain}
		c := class{t.KeyDatatype, t.KeyDomain}
		members[c] = append(members[c], i)
	}
	classes := make([]class, 0, len(members))
	for c := range members {
		classes = append(classes, c)
	}
	slices.SortFunc(classes, func(a, b class) int {
		if a.dt != b.dt {
			if a.dt < b.dt {
				return -1
			}
			return 1
		}
		if a.dom < b.dom {
			return -1
		} else if a.dom > b.dom {
			return 1
		}
		return 0
	})
	for _, c := range classes {
		idx := members[c]
		if len(idx) < opts.MinTrees {
			continue
		}
		adj := make([][]uint32, len(idx))
		for k, i := range idx {
			adj[k] = bg.Left(i)
		}
		sub, err := NewBipartite(adj, bg.NumRight())
		if err != nil {
			return err
		}
		_, err = Bicliques(ctx, sub, &Options{MinLeft: opts.MinTrees, MinRight: opts.MinRelations, Workers: opts.Workers},
			func(left, right []uint32) error {
				ug := UnionGroup{KeyDatatype: c.dt, KeyDomain: c.dom}
				for _, l := range left {
					ug.Trees = append(ug.Trees, info[idx[l]])
				}
				for _, r := range right {
					ug.Relations = append(ug.Relations, relNames[r])
					ug.RelationIDs = append(ug.RelationIDs, rels[r])
				}
				return emit(ug)
			})
		if err != nil {
			return err
		}
	}
	return nil
}
