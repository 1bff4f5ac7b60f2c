// Package synth synthesises WebLeaper information-seeking tasks (Basic,
// Union, Reverse-Union; WebLeaper §3.1, App. A.6) from the graph store's
// reasoning trees, each with a WebShaper formalization (§2, §3.2) that the
// query engine evaluates to exactly the task's answer.
//
// # Tasks
//
// Run streams task.Task values. A task's formalization is in triple form:
// "?" is the target key (layer 2); ["?", "in_tree", "C@12"] scopes it to a
// tree (one in_tree per tree is an intersection, one with several ids a
// union); ["?", "has_year", ["C@1980", ..., "C@1990"]] is a filter written
// as a union of constants (the triple form has no comparisons);
// ["?", "has_country", "V@Country"] is a requested column. The answer
// table's columns are the key header and, in order, every variable that
// occurs once in the formalization as the object of a "?" triple; rows
// are the distinct keys, cells the values joined by "; ". Targets R are
// the keys and the values of the requested columns, each once, with the
// tree and relation they come from.
//
//   - Basic: one tree, optionally a category, year range or lower-bound
//     filter; one or two requested relations the keys have only in other
//     trees (one hop beyond the table), held by every key the filter
//     keeps, each with one value, an attribute of the keys themselves and
//     the same in every source; and at most one column of the table.
//     Tables with no such relation are taken only after a first round
//     over all trees (DropNoHop), or with Expand or Aggregate, with their
//     own columns; on the curated corpus that is nearly all of them.
//   - Union: over a maximal union group (mining.Bicliques over trees ×
//     relations, split by key datatype and domain) within one theme, one
//     operation (Op): the union of the trees of at least minUnionPages
//     pages (fewer on a store with few themes that wide), up to
//     maxUnionTrees, optionally filtered on a shared relation; the
//     intersection or the difference (not_in_tree) of 2-3 trees of
//     different pages; or a count or comparison of these. Requested
//     columns are shared relations and, often, one the keys have only in
//     other trees (one hop beyond the table).
//   - Reverse-Union: the union space of a group's trees, as many as a
//     union's; an anchor at its intersection (a key of two or more trees)
//     described only by clue facts that single it out (checked with
//     bitmaps, then with the engine); a pivot relation chosen so that many
//     keys share the anchor's value; as targets the keys of the space
//     sharing it. The anchor's name never appears.
//   - Questions name concepts (page titles, sections, captions), never
//     "the table X on the page Y" (NamesTable; such candidates are
//     dropped).
//   - Expand (WebShaper layer-wise expansion): each leaf constant becomes a
//     variable identified by one graph fact; the answer must not change.
//   - Aggregate (WebAggregator): count, sum, avg, min, max, top/bottom-k,
//     diff, member over the collected set, computed by the engine and
//     stored in Answer.Aggregate (Column: the variable; member: the
//     constant; diff: "A-B"); R is unchanged.
//
// # Checks
//
// A candidate is dropped, and counted in Stats.Dropped, when a column's
// facts disagree with the store (the engine reads facts store-wide and
// in_tree scopes only the key), the answer is trivial, the engine fails,
// the question names an answer entity, clues are not unique, expansion
// or aggregation finds nothing, it has fewer than MinTargets targets, or
// it repeats an emitted formalization. The emitted answer is computed from
// the formalization written to JSON and parsed back; Check re-verifies a
// task from its JSON alone.
//
// # Concurrency
//
// Run is single-threaded and deterministic: the same store, Options and
// seed give byte-identical tasks. A store may be shared with other
// readers. Paraphraser implementations must be safe for the calls Run
// makes, one at a time.
//
// # Caveats
//
// Constants are entity names, resolved by the engine to every entity so
// named; filters prefer names that name one entity. Each query.Eval scans
// the store's relations, which dominates synthesis time on large stores.
// Union groups are capped by Options.MaxGroups and pair checks by a
// constant.
package synth
