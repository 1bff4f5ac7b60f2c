// Package index is leaper's full-text index over the pages of the offline
// web: one page per source Wikipedia page (its tables as markdown) and one
// per linked entity (its passage and facts). It is a thin, opinionated
// layer over Bleve (scorch segments) and a leaf: it imports nothing else
// from leaper.
//
// # Main types
//
//   - [Page]: URL (the identity), Title, Text, Years, and Stored: bytes
//     kept with the page and returned with its hits.
//   - [Index], from [Open]: [Index.Add] (batched, parallel, idempotent by
//     URL), [Index.Search] (free-text query, optional filter year, top K
//     [Hit]s with snippets), [Index.Count], [Index.Delete], [Index.Sync],
//     [Index.Compact], [Index.Close].
//   - [Index.WarmPostings] decodes the most frequent terms' posting
//     lists ahead of searches; [Index.PostingsCache] is their budget.
//   - [Options] (nil means defaults; InMemory for tests; ReadOnly for
//     serving replicas) and [SearchOptions].
//
// The package indextest builds small indexes for other packages' tests.
//
// # Design
//
// Documents have title and text, analysed by leaper's own English
// analyser (equivalent to Bleve's "en": words, possessives, lower case,
// stop words, Porter stems — but several times faster, see analyzer.go),
// without term vectors, the title stored; year, a stored keyword per year;
// plain, the stored start of the text as snippets read it; and stored,
// Page.Stored. Documents are built directly, skipping Bleve's reflection
// mapper. A query is analysed the same way and becomes a disjunction of
// term queries over title (boost 3) and text; any term may match and
// pages matching more terms rank higher. Ranking is BM25, with average
// field lengths that leaper tracks itself so that scores do not depend on
// how pages were batched. Ties are broken by URL.
//
// Evaluation (maxscore.go) reads Bleve's postings through its index
// reader and computes Bleve's scores, but skips the pages that cannot
// reach the k-th score (MaxScore). It is a maxScore value per query: its
// setup opens a cursor per term and field (cursor.go) and weighs the
// clauses as Bleve does (idf, query norm, boosts, upper bounds); its run
// is the MaxScore loop. Bleve's own searchers, which visit every
// posting, are the reference it is tested against and the path for the
// in-memory index. A read-only index keeps decoded posting lists of the
// terms searched, within Options.PostingsCache (postings.go): compact
// (about 4.5 bytes a posting: bit-packed blocks of 64 documents, a byte
// of frequency, two of field length), off the Go heap (arena.go), each
// block with the highest BM25 term-frequency factor in it. Those maxima
// give each clause its true upper bound, let a cursor skip to a page by
// block without decoding, and let MaxScore skip ranges of pages whose
// blocks cannot reach the k-th score (Block-Max MaxScore) and rule out
// most pages from their blocks' bounds before computing their scores.
//
// Snippets are computed by leaper, not Bleve: the text is turned into
// plain prose (markdown headings, table pipes and rules, link targets,
// emphasis and the corpus's "word , word" spacing removed) when the page
// is added, and at search time the ~260-byte window holding the most
// distinct query terms is cut at word boundaries, with "..." where it was
// cut. The stored fields make a read-only replica self-contained: it
// needs nothing but the index directory.
//
// Bulk loading: scorch is configured so that each Add batch (10,000 pages
// by default) becomes one segment, written as is (no in-memory merging,
// no merging by the background merger until ~2,000 segments, no fsync wait
// per batch). Sync and Close wait until everything is on disk; Compact
// merges everything into one segment, and Close then removes the merged
// segments' files.
//
// # Concurrency
//
// An Index is safe for concurrent use. Add builds up to Options.Workers
// batches at once and Bleve analyses each batch's pages in parallel.
// Searches run concurrently with each other and with Add; Close waits for
// running calls. Several processes may open the same directory with
// Options.ReadOnly and search at once (the root file takes a shared lock);
// a writer takes an exclusive lock, so a writer and readers exclude each
// other, and Open returns ErrLocked after Options.LockTimeout. A decoded
// posting list is built once, by the first search that needs it (others
// wanting it wait for it), and is read-only afterwards; Close frees the
// lists, which it may because it waits for running searches.
//
// # Caveats
//
//   - Pages are searchable when Add returns but durable only after Sync
//     or Close; a crash loses unsynced batches (the index stays readable).
//   - The index is built for load-once, read-many use. Many small Adds
//     create many segments; call Compact after them. Replaced and deleted
//     pages still count in the average lengths BM25 uses.
//   - Snippets look at the first 64 KiB of a page only.
//   - A read-only index's decoded posting lists take memory outside the
//     Go heap (not bounded by GOMEMLIMIT or leaper serve --max-memory):
//     up to Options.PostingsCache, by default an eighth of the machine's
//     memory, and are kept until Close. The first search with a frequent
//     term pays for decoding its list (about 50 ns a posting), unless
//     [Index.WarmPostings] decoded it before (leaper serve does, before
//     it says ready).
//   - Block maxima are computed at the field's average length when the
//     list is decoded; a read-only index's averages do not change, and a
//     list whose average differs falls back to the loose bound.
//   - Scores are rounded to 12 significant digits so that rankings do not
//     depend on floating-point summation order.
//   - The analyser is English-only; other scripts are split on letters and
//     digits without segmentation.
//   - Indexes record a format version; Open refuses other versions
//     (ErrIncompatible): rebuild them.
package index
