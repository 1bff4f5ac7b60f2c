// Package mining enumerates maximal bicliques of a bipartite graph: the
// "maximal unions" of WebLeaper §3.1.2 and Appendix A.5 (Algorithm 1), where
// left vertices are reasoning trees, right vertices relation names, and a
// maximal biclique (L, R) is a set of trees L together with all the
// relations R they share, such that no other tree has all of R.
// Equivalently, R is a closed itemset over the transactions L.
//
// # Types
//
// A Bipartite is an immutable bipartite graph (named so beside package
// graph, the store) built with NewBipartite from left
// adjacency lists or read with ReadAdj from the .adj format (line i lists
// the sorted right ids of left vertex i); WriteAdj writes it back.
// Bicliques streams every maximal biclique with |L| >= Options.MinLeft and
// |R| >= Options.MinRight to a callback and returns Stats. The exponential
// oracle the tests compare it with lives in bruteforce_test.go.
// BicliqueWriter writes bicliques as "left ids | right ids" lines, as
// leaper mine --graph prints them; Unions and FromStore mine a store's
// union groups (union.go).
//
// # Algorithm
//
// The graph is first peeled to its (MinRight, MinLeft) core, which keeps
// every qualifying biclique and its maximality. The search then adds
// vertices of one side (the A side, by default the right side; the side
// whose B-side squared degrees are smaller) while the common neighbourhood
// on the other side (B) shrinks: closed itemset mining with A as items and B
// as transactions. A vertices are ranked by degree; the top-level branch of
// u finds the bicliques whose lowest-ranked A vertex is u, and lower-ranked
// A vertices are excluded items, as in iMBEA. Inside a branch every B vertex
// is a row: a bitset over the branch's local items, renumbered densely
// whenever that saves words, with a one-word fast path. A node delivers each
// candidate's rows (LCM occurrence deliver), ANDs and ORs them: the AND is
// the closure, and an excluded item in it proves the branch non-maximal;
// the OR minus the AND are the items the child keeps. Items occurring in a
// single row are dropped; the bicliques with one B vertex are settled at
// the top level instead. Thresholds prune both sides.
//
// Once a node has at most 64 rows its subtree switches to column form (the
// bitmap subgraphs of AdaMBE, VLDB 2024): each item is a one-word bitset of
// the rows holding it, a branch is an AND and a popcount per item, and the
// child's columns are those intersections, with rows keeping their numbers,
// so nothing is renumbered. Excluded items whose rows lie within another
// excluded item's are dropped (only the maximal ones can prove a branch
// non-maximal), which on the benchmark graphs keeps about one in ten.
//
// # Concurrency
//
// A Bipartite may be shared by any number of goroutines. Bicliques calls emit
// from the calling goroutine only. With Workers > 1 the top-level branches
// run on that many goroutines and their output is buffered per branch and
// emitted in branch order, so the sequence of calls to emit is exactly the
// single-threaded one.
//
// # Caveats
//
// The number of maximal bicliques can be exponential in the graph size;
// use the thresholds, ctx and an emit that returns an error to bound the
// work. The slices passed to emit are reused after it returns. With
// Workers > 1 up to 4×Workers top-level branches are buffered in memory at
// once, each with all of its bicliques, so one very productive branch costs
// memory proportional to its output. Vertex ids are uint32.
package mining
