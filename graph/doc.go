// Package graph is leaper's entity-relation graph: Wikipedia tables as
// reasoning trees (WebLeaper §3.1.1), stored in Badger with roaring-bitmap
// adjacency, and rendered into the pages of the offline web. It is the
// graph's model, its read side, and the writer stages of the build (the
// pipeline itself is package ingest), which stay here because they own the
// key layout (keys.go) that nothing else names.
//
// Main types: Store (Open, read methods, Stats, NewBuilder), Tree (one
// table: question entities, key column, relation columns and rows of
// entity ids), Entity, Relation, Page; Builder (AddPrepared, AddPassage,
// AddDocument, Finalize, Commit), which stores what package ingest has read
// and cleaned: a Prepared table, whose Shaped tree (shaped.go) names its
// entities by key, or its Reject. The naming rules (naming.go:
// RelationName, Domain, NormText) and article titles (title.go: Title,
// URL) are the graph's, shared by the build and the read side.
//
// Entity identity: a cell linked to /wiki/X is the entity "w:X" whatever its
// text (the text becomes an alias); an unlinked value is identified by its
// normalised text within its datatype ("t:", "n:", "y:", "d:"). Relations
// are has_<snake_case header>, identified by name, datatype and domain.
// Where a table writes a title short ("Drumcondra" for "Drumcondra,
// Dublin"; Writes), the tree keeps that text (Tree.Shown): its page
// shows it, and tasks over the tree answer with it, as the source does.
//
// # Concurrency
//
// A Store is safe for concurrent use. Readers should open it with
// Options.ReadOnly (package store does, and owns where the graph sits in a
// store directory); several processes can then read one store at once. A
// Builder is used by one goroutine, and a store has one writer at a time.
//
// # Caveats
//
// Bitmaps and pages are derived from the trees by Finalize; between
// NewBuilder and Commit the manifest says the store is incomplete, and
// readers of the offline web refuse it. A build stopped at any point is
// completed by building again: each table's tree record is written after
// its entities and marks it done. Bitmaps returned by the read methods are
// the caller's to modify. Stores of another format version are refused.
package graph
