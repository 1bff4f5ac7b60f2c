package index

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// Field names in the Bleve documents.
const (
	fieldTitle = "title"
	fieldText  = "text"
	fieldYear  = "year"
	// fieldKey holds a page's two title keys (titleKeys), each one
	// token: a query whose words are the page's title finds the page by
	// them. Indexed, not stored.
	fieldKey = "titlekey"
	// fieldStored holds Page.Stored: stored, not indexed.
	fieldStored = "stored"
	// fieldPlain holds the start of the text as snippets read it
	// (plainText of its first snippetScan bytes): stored, not indexed.
	// Indexes built before it store the text field instead.
	fieldPlain = "plain"
)

// formatVersion is stored in the index; Open refuses other versions.
// Bump it whenever the document layout or the analysis changes.
const formatVersion = "leaper-index/2"

var internalVersionKey = []byte("leaper:format")

// titleBoost weighs title matches against body matches.
const titleBoost = 3.0

// keyBoost weighs a query that is a page's whole title, as its title
// keys give it: the page of that title ranks above pages that only
// mention its words, however short their bodies.
const keyBoost = 10.0

// keysPerPage is how many title keys every page has.
const keysPerPage = 2

// Indexing options: analysed, no term vectors (we compute snippets
// ourselves, so locations would only cost time and space), stored so that a
// read-only replica needs nothing but the index directory.
const (
	titleOptions  = bindex.IndexField | bindex.StoreField
	textOptions   = bindex.IndexField
	yearOptions   = bindex.IndexField | bindex.StoreField
	keyOptions    = bindex.IndexField
	storedOptions = bindex.StoreField
)

// newMapping describes the documents for Bleve's query side (which analyser
// a field uses); documents are built directly with document.NewTextFieldCustom
// so that the reflection-based mapper is skipped at indexing time.
func newMapping() *mapping.IndexMappingImpl {
	m := mapping.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	m.ScoringModel = bindex.BM25Scoring
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false

	text := func() *mapping.FieldMapping {
		f := mapping.NewTextFieldMapping()
		f.Analyzer = en.AnalyzerName
		f.Store = true
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	year := mapping.NewKeywordFieldMapping()
	year.Store = true
	year.IncludeTermVectors = false
	year.IncludeInAll = false
	year.DocValues = false

	doc := mapping.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldTitle, text())
	doc.AddFieldMappingsAt(fieldText, text())
	doc.AddFieldMappingsAt(fieldYear, year)
	key := mapping.NewKeywordFieldMapping()
	key.Store = false
	key.IncludeTermVectors = false
	key.IncludeInAll = false
	key.DocValues = false
	doc.AddFieldMappingsAt(fieldKey, key)
	all := mapping.NewDocumentDisabledMapping()
	doc.AddSubDocumentMapping("_all", all)
	m.DefaultMapping = doc
	return m
}

// analyzers used to build documents and queries.
type analyzers struct {
	text    *textAnalyzer
	keyword analysis.Analyzer
}

func newAnalyzers(m *mapping.IndexMappingImpl) (analyzers, error) {
	k := m.AnalyzerNamed(keyword.Name)
	if k == nil {
		return analyzers{}, ErrIncompatible
	}
	return analyzers{text: newTextAnalyzer(), keyword: k}, nil
}
