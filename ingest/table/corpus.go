package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Document is one record of a standard retrieval corpus: a passage of
// Search-R1's and FlashRAG's wiki-18 ({"id", "contents": "\"Title\"\ntext"}),
// a document of BrowseComp-Plus's corpus ({"docid", "text", "url"}) or an
// article of KILT's knowledge source ({"wikipedia_id", "wikipedia_title",
// "text": [paragraphs]}). Each becomes text on the page of its URL; ID is
// what the corpus's qrels and evaluations call it.
type Document struct {
	Source string `json:"source"`
	Format Format `json:"format"`
	// ID is the corpus's own id: wiki-18's "id", BrowseComp-Plus's
	// "docid", KILT's "wikipedia_id".
	ID string `json:"id"`
	// Title is a canonical Wikipedia title (see Title) when Article is
	// set, else the document's own title (its first line).
	Title string `json:"title"`
	// URL is the page the document is text of: the Wikipedia URL of the
	// title (wiki-18, KILT, a BrowseComp-Plus document at a Wikipedia
	// URL), else the document's own url.
	URL string `json:"url"`
	// Article is set when the document is a Wikipedia article's: its
	// title names an entity, the same one a table's link to it names.
	Article bool `json:"article,omitempty"`
	// Paragraphs is the text, one paragraph each (KILT's paragraphs; one
	// for a wiki-18 passage or a BrowseComp-Plus document).
	Paragraphs []string `json:"paragraphs"`
}

// corpusID reads an id that a corpus writes as a string or a number.
func corpusID(raw json.RawMessage, field string) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", &ParseError{Reason: "no id", Msg: fmt.Sprintf("no %q", field)}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s = strings.TrimSpace(s); s == "" {
			return "", &ParseError{Reason: "no id", Msg: fmt.Sprintf("empty %q", field)}
		}
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	return "", &ParseError{Reason: "no id", Msg: fmt.Sprintf("%q is %s, not a string or a number", field, clip(string(raw), 40))}
}

// ParseFlashRAGLine parses a passage of wiki-18 as Search-R1 and FlashRAG
// ship it: {"id": "0", "contents": "\"Title\"\ntext"}. The title is the
// first line without its quotes; the passage is the rest.
func ParseFlashRAGLine(line []byte) (*Document, error) {
	var j struct {
		ID       json.RawMessage `json:"id"`
		Contents *string         `json:"contents"`
	}
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	id, err := corpusID(j.ID, "id")
	if err != nil {
		return nil, err
	}
	if j.Contents == nil {
		return nil, &ParseError{Reason: "no text", Msg: fmt.Sprintf("passage %s has no \"contents\"", id)}
	}
	head, text, ok := strings.Cut(*j.Contents, "\n")
	head = strings.TrimSpace(head)
	if len(head) >= 2 && head[0] == '"' && head[len(head)-1] == '"' {
		head = head[1 : len(head)-1]
	}
	title := canonical(head)
	switch {
	case !ok || head == "":
		return nil, &ParseError{Reason: "no title", Msg: fmt.Sprintf("passage %s: \"contents\" does not begin with a \"Title\" line", id)}
	case title == "":
		return nil, &ParseError{Reason: "no title", Msg: fmt.Sprintf("passage %s: %q is not an article title (a namespace, or not UTF-8)", id, clip(head, 100))}
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, &ParseError{Reason: "no text", Msg: fmt.Sprintf("passage %s has a title and no text", id)}
	}
	return &Document{Format: FormatFlashRAG, ID: id, Title: title, URL: URL(title), Article: true, Paragraphs: []string{text}}, nil
}

// ParseBrowseCompPlusLine parses a document of BrowseComp-Plus's corpus:
// {"docid", "text", "url"}. A document at a Wikipedia URL is that
// article's; any other keeps its URL, and its first line is its title.
func ParseBrowseCompPlusLine(line []byte) (*Document, error) {
	var j struct {
		DocID json.RawMessage `json:"docid"`
		Text  *string         `json:"text"`
		URL   string          `json:"url"`
	}
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	id, err := corpusID(j.DocID, "docid")
	if err != nil {
		return nil, err
	}
	if j.Text == nil || strings.TrimSpace(*j.Text) == "" {
		return nil, &ParseError{Reason: "no text", Msg: fmt.Sprintf("document %s has no \"text\"", id)}
	}
	text := strings.TrimSpace(*j.Text)
	d := &Document{Format: FormatBrowseCompPlus, ID: id, Paragraphs: []string{text}}
	if t := Title(j.URL); t != "" {
		d.Title, d.URL, d.Article = t, URL(t), true
		return d, nil
	}
	u := strings.TrimSpace(j.URL)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.ContainsAny(u, " \t\n") {
		return nil, &ParseError{Reason: "no url", Msg: fmt.Sprintf("document %s: %q is not an http(s) URL", id, clip(u, 100))}
	}
	d.URL = u
	first, _, _ := strings.Cut(text, "\n")
	d.Title = clip(strings.TrimSpace(strings.TrimLeft(first, "# ")), 200)
	return d, nil
}

// ParseKILTLine parses an article of KILT's knowledge source:
// {"wikipedia_id", "wikipedia_title", "text": [paragraphs]}, whose first
// paragraph is the title itself (it is dropped when it is).
func ParseKILTLine(line []byte) (*Document, error) {
	var j struct {
		ID    json.RawMessage `json:"wikipedia_id"`
		Title string          `json:"wikipedia_title"`
		Text  []string        `json:"text"`
	}
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, &ParseError{Reason: "invalid json", Msg: shortErr(err)}
	}
	id, err := corpusID(j.ID, "wikipedia_id")
	if err != nil {
		return nil, err
	}
	title := canonical(j.Title)
	if title == "" {
		return nil, &ParseError{Reason: "no title", Msg: fmt.Sprintf("article %s: \"wikipedia_title\" %q is not an article title", id, clip(j.Title, 100))}
	}
	var paras []string
	for i, p := range j.Text {
		p = strings.TrimSpace(p)
		if p == "" || i == 0 && p == strings.TrimSpace(j.Title) {
			continue
		}
		paras = append(paras, p)
	}
	if len(paras) == 0 {
		return nil, &ParseError{Reason: "no text", Msg: fmt.Sprintf("article %s has no paragraph", id)}
	}
	return &Document{Format: FormatKILT, ID: id, Title: title, URL: URL(title), Article: true, Paragraphs: paras}, nil
}
