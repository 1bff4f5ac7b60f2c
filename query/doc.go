// Package query is leaper's knowledge-projection query engine: WebShaper's
// formalization (§2, §3.2.1) evaluated over the graph store's roaring
// bitmaps, plus the predicates and aggregates task synthesis needs.
//
// # Semantics
//
// A triple [X, r, S] is the knowledge projection R(S) = {u | (u, v) ∈ r,
// v ∈ S}: u is a layer-2 key of some tree whose column with relation r
// holds v. A list of triples is their conjunction; a set of constants is
// WebShaper's R-union (R(S1) ∪ R(S2) = R(S1 ∪ S2)); a variable shared by two
// triples chains projections. A query's answer is every distinct row of
// its answer variables over all solutions, sorted by entity id.
//
// A relation name resolves to every store relation of that name, whatever
// its datatype and domain (their union); "name|datatype|domain" names one;
// free text ("took place at") is standardised like a header
// (has_took_place_at). A name that matches nothing is an error listing
// close names (ErrUnknownRelation).
//
// A constant resolves to the set of entities it names: an identity key
// ("w:Berlin", "y:1983") names that one; other text names every entity
// whose name or alias normalises like it (graph.NormText), the article of
// that exact title, and for a number its "y:" and "n:" literals. WebShaper
// writes unions as C@1980_1981: a text that names nothing and contains "_"
// is split on "_", and every part must name something; a text that names
// something as a whole is never split (titles may contain "_"). A
// constant naming nothing is an error (ErrUnknownConstant), not an empty
// answer, so typos do not pass silently.
//
// # Syntax
//
// Parse reads two forms. The JSON triple form of WebShaper and of task
// files (see Task.Formalization):
//
//	[["V@M", "took place at", "V@Y"], ["V@Y", "is located in", "C@Berlin"],
//	 ["V@M", "had number of spectators", "?"]]
//
// "V@X" is a variable, "C@text" a constant, a JSON list of "C@..." a union,
// "?" the target; the relation "in_tree" with tree ids ("C@12") is in_tree,
// "not_in_tree" its negation (a key of none of those trees: set difference;
// the variable must be bound by another condition).
// The answer columns are derived (FromTriples): the subjects of the
// triples whose object is "?", then "?"; else T, else the first variable.
//
// The compact form, for people:
//
//	query  = [ head ":" ] atom { "," atom } .
//	head   = answer { "," answer } | aggregate .
//	answer = [ "?" ] var | "?" .
//	atom   = rel "(" term "," object ")"       a triple
//	       | "in_tree" "(" var "," ids ")"      var is a layer-2 key of a tree
//	       | "not_in_tree" "(" var "," ids ")"  var is a key of none of them
//	       | var cmp number | var "in" range    a comparison
//	term   = var | "?" | const | "{" const { "," const } "}" .
//	object = term | cmp number | range          inline comparison
//	rel    = identifier | "quoted free text" .
//	var    = identifier | `any text` .
//	const  = "quoted string" | number .
//	range  = number ".." number                 inclusive
//	cmp    = "=" | "!=" | "<" | "<=" | ">" | ">=" .
//	ids    = int | "{" int { "," int } "}" .
//
// Identifiers are variables; constants are always quoted or numeric. For
// example:
//
//	?T: has_nationality(T, "United Kingdom"), in_tree(T, 12), has_year(T, 1980..1989)
//	?T, G: has_gold(T, G), G >= 3
//	?L, Y: in_tree(L, {24, 39}), has_year(L, Y), Y >= 2010
//
// Without a head the answer is every variable (or, with "?", as in the
// triple form). Comparisons use an entity's numeric reading: the number of
// a year or number literal, the year of a date, else its name read as a
// number; entities without one fail every comparison.
//
// # Aggregates
//
// A head may be one aggregate instead of answer variables:
//
//	count(X)           distinct X                        rows: X
//	sum|avg|min|max(X) over the distinct solutions of all named variables
//	top(k, X, Y)       the k rows (X, Y) with the largest Y (ties: id order)
//	bottom(k, X, Y)    the k smallest; top(k, Y) ranks Y alone
//	diff(A, B)         A − B, each bound to exactly one value
//	member(c, X)       "true" when the constant c names one of the X
//	countdiff(X, a, b) how many X are keys of tree a, less how many are
//	                   keys of tree b (a comparison across a union group)
//
// Result.Aggregate holds the value (top/bottom: the X names joined by
// "; "), Result.Rows the rows it was computed from. Aggregates and
// comparisons have no triple form: Triples reports ErrNotTriples.
//
// # Evaluation
//
// Eval uses the bitmaps: each variable's domain comes from its constant
// triples (Subjects(r, c)), its relations' subjects or objects and
// in_tree; then variables are bound smallest domain first, preferring
// those joined to bound ones, candidates being domain ∩ projections of the
// bound neighbours; once the answer variables are bound, the rest is only
// checked for one completion. The tests hold Eval to a test-only oracle
// (naive_test.go: EvalNaive, NestedLoops) that joins the atoms by nested
// loops over the trees' rows.
//
// # Concurrency
//
// Parse and Eval are safe for concurrent use; a Query is not modified by
// evaluation.
//
// # Caveats
//
// The answer is a set: duplicate solutions (the same fact in two tables)
// count once, also for sum and avg. Eval keeps every answer row in memory
// and has no row limit; an answer variable joined to nothing else (a
// cross product) can be large. Entity reads for comparisons are cached
// only within one evaluation.
package query
