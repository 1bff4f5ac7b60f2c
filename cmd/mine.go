package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/mining"
	"github.com/leaper-dev/leaper/store"
	"github.com/spf13/cobra"
)

// MineOptions are the flags of leaper mine.
type MineOptions struct {
	IO           IO
	OpenStore    func() (*store.Store, error)
	MinTrees     int
	MinRelations int
	GraphFile    string // --graph: mine an .adj file instead of the store
	Export       string // --export-graph: write the store's graph and stop
	JSON         bool
	Workers      int
	Count        bool // --count: print only the number found
}

func newMineCmd(f *Factory, runF func(context.Context, *MineOptions) error) *cobra.Command {
	opts := &MineOptions{}
	c := &cobra.Command{
		Use:   "mine",
		Short: "Mine union groups (maximal bicliques of trees × relations)",
		Long: `Mine union groups: sets of trees whose key columns agree in datatype and
domain, with every relation they share (WebLeaper App. A.5). One JSON object
per line. With --graph, enumerate the maximal bicliques of an .adj file
instead, one "left ids | right ids" line each. With --count, print only
how many were found (as AdaMBE and other enumerators report). With
--export-graph, write the store's tree × relation graph as .adj, with
FILE.ids.json naming the ids.`,
		Example: `  leaper mine --min-trees 3 --min-relations 3
  leaper mine --graph synth.adj --min-trees 2 --min-relations 2 > bicliques.txt
  leaper mine --graph synth.adj --min-trees 1 --min-relations 1 --count --workers 1
  leaper mine --export-graph trees.adj`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.IO, opts.OpenStore = f.IO, f.OpenStore
			if opts.MinTrees < 1 || opts.MinRelations < 1 {
				return usageErrorf("--min-trees and --min-relations must be at least 1")
			}
			if opts.GraphFile != "" && opts.Export != "" {
				return usageErrorf("--graph and --export-graph cannot be combined")
			}
			if opts.Count && opts.Export != "" {
				return usageErrorf("--count and --export-graph cannot be combined")
			}
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return runMine(c.Context(), opts)
		},
	}
	c.Flags().IntVar(&opts.MinTrees, "min-trees", 2, "fewest trees (left vertices) in a group")
	c.Flags().IntVar(&opts.MinRelations, "min-relations", 2, "fewest shared relations (right vertices)")
	c.Flags().StringVar(&opts.GraphFile, "graph", "", "mine this .adj file instead of the store")
	c.Flags().StringVar(&opts.Export, "export-graph", "", "write the store's graph to this .adj file (and FILE.ids.json)")
	c.Flags().BoolVar(&opts.JSON, "json", true, "union groups as JSON lines (the only store output)")
	c.Flags().IntVar(&opts.Workers, "workers", runtime.GOMAXPROCS(0), "enumeration goroutines")
	cmdutil.AtLeast(c.Flags(), "workers", 0)
	c.Flags().BoolVar(&opts.Count, "count", false, "print only the number of groups (or bicliques with --graph)")
	return c
}

// GraphIDs is the sidecar of an exported graph: what each vertex is.
type GraphIDs struct {
	Left  []GraphTree `json:"left"`
	Right []string    `json:"right"` // relation name|datatype|domain
}

// GraphTree names a left vertex.
type GraphTree struct {
	Tree  uint32 `json:"tree"`
	Title string `json:"title"`
}

func runMine(ctx context.Context, opts *MineOptions) error {
	start := time.Now()
	if opts.GraphFile != "" {
		return mineFile(ctx, opts, start)
	}
	g, err := graphOf(opts.OpenStore)
	if err != nil {
		return err
	}
	if opts.Export != "" {
		return exportGraph(ctx, g, opts)
	}
	w := bufio.NewWriter(opts.IO.Out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	n := 0
	err = mining.Unions(ctx, g, &mining.UnionOptions{MinTrees: opts.MinTrees, MinRelations: opts.MinRelations, Workers: opts.Workers},
		func(u mining.UnionGroup) error {
			n++
			if opts.Count {
				return nil
			}
			return enc.Encode(u)
		})
	if err == nil && opts.Count {
		_, err = fmt.Fprintln(w, n)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "%d union groups in %s\n", n, time.Since(start).Round(time.Millisecond))
	return nil
}

func mineFile(ctx context.Context, opts *MineOptions, start time.Time) error {
	f, err := os.Open(opts.GraphFile)
	if err != nil {
		return err
	}
	bg, err := mining.ReadAdj(bufio.NewReaderSize(f, 1<<20))
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", opts.GraphFile, err)
	}
	read := time.Since(start)
	var emit func(left, right []uint32) error
	var bw *mining.BicliqueWriter
	if !opts.Count {
		bw = mining.NewBicliqueWriter(opts.IO.Out, bg.NumLeft(), bg.NumRight())
		emit = bw.Write
	}
	st, err := mining.Bicliques(ctx, bg, &mining.Options{MinLeft: opts.MinTrees, MinRight: opts.MinRelations, Workers: opts.Workers}, emit)
	if opts.Count {
		if err == nil {
			_, err = fmt.Fprintln(opts.IO.Out, st.Bicliques)
		}
	} else if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(opts.IO.ErrOut, "%d maximal bicliques (%d×%d graph, %d edges) in %s (read %s), %.0f bicliques/s\n",
		st.Bicliques, bg.NumLeft(), bg.NumRight(), bg.NumEdges(), el.Round(time.Millisecond), read.Round(time.Millisecond),
		float64(st.Bicliques)/max(el-read, time.Microsecond).Seconds())
	return nil
}

func exportGraph(ctx context.Context, g *graph.Store, opts *MineOptions) error {
	bg, trees, rels, err := mining.FromStore(ctx, g)
	if err != nil {
		return err
	}
	ids := GraphIDs{Left: make([]GraphTree, len(trees)), Right: make([]string, len(rels))}
	for i, id := range trees {
		t, err := g.Tree(id)
		if err != nil {
			return err
		}
		ids.Left[i] = GraphTree{Tree: id, Title: t.Title()}
	}
	for j, id := range rels {
		r, err := g.Relation(id)
		if err != nil {
			return err
		}
		ids.Right[j] = r.Key()
	}
	f, err := os.Create(opts.Export)
	if err != nil {
		return err
	}
	if err := mining.WriteAdj(f, bg); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	side, err := os.Create(opts.Export + ".ids.json")
	if err != nil {
		return err
	}
	if err := writeJSON(side, ids); err != nil {
		side.Close()
		return err
	}
	if err := side.Close(); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s (%d trees × %d relations, %d edges) and %s.ids.json\n",
		opts.Export, bg.NumLeft(), bg.NumRight(), bg.NumEdges(), opts.Export)
	return nil
}
