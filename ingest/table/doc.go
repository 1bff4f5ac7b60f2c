// Package table is the build's first stage, the readers: it reads
// Wikipedia tables, in every input format leaper accepts, into raw tables,
// and entity passages into Passages, before any cleaning (package ingest
// cleans them and has the graph store them).
//
// Formats (see Format and Detect):
//
//   - wikitables: WikiTables-WithLinks / HybridQA / OTT-QA JSON, one object
//     per line (optionally gzipped) or per file; its tokenised text is
//     detokenised (see Detokenize) to match the other corpora.
//   - passages: OTT-QA {"url": "/wiki/X", "text": ...} lines.
//   - html: Wikipedia HTML, either one <table> fragment (the
//     WikiTableQuestions layout, whose sidecars — page JSON and
//     table-metadata.tsv — are found automatically) or whole rendered
//     articles, from which every wikitable is read with its section
//     headings and caption. Spans are expanded, multi-row headers joined,
//     sort keys, hidden elements and footnote markers dropped.
//   - tabel: TabEL / WikiTables-corpus JSON, in both of its shapes.
//   - csv: CSV or TSV with a header row, delimiter sniffed.
//   - flashrag, browsecomp-plus, kilt: the standard retrieval corpora
//     (Search-R1/FlashRAG's wiki-18 passages, BrowseComp-Plus's documents,
//     KILT's articles), read into Documents that keep the corpus's ids
//     (ParseFlashRAGLine, ParseBrowseCompPlusLine, ParseKILTLine).
//
// Read walks files, directories, .gz files and .tar.gz archives and hands
// each Item (a *Table, a *Passage, or a *ParseError for a skipped record)
// to a callback in a deterministic order. The per-format parsers
// (ParseHTML, ParseWikiTablesLine, ParsePassageLine, ParseTabELLine,
// ParseCSV) can be used alone. Title and URL canonicalise Wikipedia links
// (graph.Title and graph.URL: the graph owns what names an article);
// Table.Key is a stable content hash for deduplication.
//
// # Concurrency
//
// Read parses on Options.Workers goroutines (GOMAXPROCS by default) while
// one goroutine reads the input, and calls its callback from the calling
// goroutine only, in input order, so output does not depend on scheduling.
// Read returns only after every goroutine it started has ended. All other
// functions are pure and safe for concurrent use.
//
// # Caveats
//
//   - Bad input never stops Read: each bad file or record becomes an Item
//     with Skip set and a short stable Reason ("invalid json", "no table",
//     "empty", "binary", "unknown format", "truncated", "open", "too large",
//     "line too long", "no title", "invalid csv", and for corpus documents
//     "no id", "no text", "no url").
//   - Image alt text is never cell text (see ParseHTML).
//   - An HTML table with no th-only top row takes its first row as header.
//   - Table.Index is the position among the page's wikitables for HTML (it
//     agrees with WikiTableQuestions' tableIndex), the uid suffix for
//     WikiTables JSON, tableId for TabEL, and -1 when unknown.
//   - Files over 512 MiB and JSON lines over 64 MiB are skipped.
//   - The library logs nothing unless Options.Logger is set.
package table
