// Package audit re-derives synthesised tasks from the stored tables and
// reports what keeps a task from being true: a target set or value the
// named tables do not give, a value read beyond them that belongs to
// another table's context, joins through strings that name no one thing,
// equal values left unmatched, unions of pages without a theme, merged
// cells, and questions a person could not read without the tables.
//
// The auditor's path is its own: it reads the rows of the trees a task
// names, matches constants and values by name as a person does (case,
// spacing, aliases and disambiguators aside, and a title as its table writes
// it short: graph.Tree.Shown), flags rows a reader takes for one thing
// twice, and looks a value up beyond
// the tables only where the task asks for one. It shares no code with
// synth's drafting or with the query engine; synth consults the rules of
// rules.go (which attributes are an entity's own, what is a link label,
// what a union's theme is) and refuses what Audit flags.
//
// # Concurrency
//
// An Auditor caches trees and entities: use one per goroutine.
//
// # Caveats
//
// The rules are lexicons and patterns: an attribute word not in the
// intrinsic list is refused beyond the tables even when it is an entity's
// own. Of the aggregates, a count is re-computed; a sum or an average is
// checked only against the total row its table states (graph.Tree.Stated),
// and a top or bottom only for naming its keys as the answer's rows do.
package audit
