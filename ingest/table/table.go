package table

// Format names an input format. FormatAuto detects the format by content.
type Format string

// Input formats.
const (
	FormatAuto       Format = "auto"
	FormatWikiTables Format = "wikitables" // WikiTables-WithLinks / HybridQA JSON
	FormatHTML       Format = "html"       // Wikipedia HTML: table fragments or whole articles
	FormatTabEL      Format = "tabel"      // TabEL / WikiTables corpus JSON
	FormatCSV        Format = "csv"        // CSV / TSV with a header row
	FormatPassages   Format = "passages"   // {"url": "/wiki/X", "text": ...} lines
	// Standard retrieval corpora (see Document).
	FormatFlashRAG       Format = "flashrag"        // Search-R1 / FlashRAG wiki-18: {"id", "contents": "\"Title\"\ntext"}
	FormatBrowseCompPlus Format = "browsecomp-plus" // BrowseComp-Plus: {"docid", "text", "url"}
	FormatKILT           Format = "kilt"            // KILT knowledge source: {"wikipedia_id", "wikipedia_title", "text": [...]}
)

// Formats are the formats Read accepts, FormatAuto first.
var Formats = []Format{FormatAuto, FormatWikiTables, FormatHTML, FormatTabEL, FormatCSV, FormatPassages,
	FormatFlashRAG, FormatBrowseCompPlus, FormatKILT}

// Known reports whether f is one of Formats.
func (f Format) Known() bool {
	for _, k := range Formats {
		if f == k {
			return true
		}
	}
	return false
}

// Cell is one cell of a raw table, with its text cleaned of markup, sort keys
// and footnote markers, and the Wikipedia titles it links to.
type Cell struct {
	Text string `json:"text"`
	// Links are canonical Wikipedia titles ("Brian Schmidt", not
	// "/wiki/Brian_Schmidt"): see Title.
	Links []string `json:"links,omitempty"`
	// Spanned is true when the cell was produced by expanding a rowspan or
	// colspan of another cell rather than written in the source.
	Spanned bool `json:"spanned,omitempty"`
}

// Table is one table as read from an input, before cleaning.
type Table struct {
	// Source names where the table was read: a file path, with "#line N" for
	// JSON Lines, or an archive member as "archive.tar.gz!member/path".
	Source string `json:"source"`
	Format Format `json:"format"`
	// PageTitle and PageURL identify the Wikipedia page the table is on. The
	// URL is canonical: https://en.wikipedia.org/wiki/Title_With_Underscores.
	PageTitle string `json:"page_title"`
	PageURL   string `json:"page_url"`
	// Index is the table's 0-based position among the page's tables, or -1
	// when unknown.
	Index   int    `json:"index"`
	Section string `json:"section,omitempty"` // nearest section heading(s), "A|B" joined by " | "
	Caption string `json:"caption,omitempty"`
	// Context is prose about the table: the section text, or the page intro.
	Context string `json:"context,omitempty"`
	// Header holds one name per column; multi-row headers are joined per
	// column with " ", repeated parts collapsed.
	Header     []string   `json:"header"`
	HeaderLink [][]string `json:"header_links,omitempty"`
	Rows       [][]Cell   `json:"rows"`
	// Ragged counts source rows whose width differed from the header's
	// before padding or truncation.
	Ragged int `json:"ragged,omitempty"`
	// Untitled is true when nothing named the page: the input gave no
	// title and its file name is none ("19536913-601237.csv"). PageTitle
	// is then empty, and the tree must not be named by its source.
	Untitled bool `json:"untitled,omitempty"`
	// Cut is true when the source kept only the table's first rows: the
	// WikiTables-WithLinks and OTT-QA releases keep at most 20, so a table
	// of 20 rows there is, most likely, the head of a longer one. So is
	// a table its section's text says lists a part ("those entries which
	// finished fifth or higher"): all of its title is not on record.
	Cut bool `json:"cut,omitempty"`
	// Fixes counts what the reader repaired (CSV exports).
	Fixes Fixes `json:"fixes,omitzero"`
}

// Passage is the opening text of the Wikipedia article of an entity.
type Passage struct {
	Source string `json:"source"`
	Title  string `json:"title"` // canonical title, see Title
	Text   string `json:"text"`
}

// Item is one thing read from an input: a table, a passage, a corpus
// document, or a skipped record with its reason. Exactly one field is set.
type Item struct {
	Table    *Table
	Passage  *Passage
	Document *Document
	Skip     *ParseError
	// Prepared is what Options.Prepare made of the item, if anything.
	Prepared any
}
