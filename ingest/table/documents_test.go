package table

import (
	"context"
	"strings"
	"testing"
)

// readDocs reads the corpus fixtures and returns their documents and
// skips (as "file:line: reason").
func readDocs(t *testing.T, format Format, paths ...string) ([]*Document, []string) {
	t.Helper()
	var docs []*Document
	var skips []string
	err := Read(context.Background(), paths, &Options{Format: format}, func(it Item) error {
		switch {
		case it.Document != nil:
			docs = append(docs, it.Document)
		case it.Skip != nil:
			skips = append(skips, it.Skip.Error())
		default:
			t.Errorf("not a document: %+v", it)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs, skips
}

func TestReadCorpora(t *testing.T) {
	const dir = "testdata/corpora/"
	t.Run("wiki18", func(t *testing.T) {
		for _, f := range []Format{FormatAuto, FormatFlashRAG} {
			docs, skips := readDocs(t, f, dir+"wiki18.jsonl")
			if len(docs) != 8 || docs[0].ID != "0" || docs[0].Title != "110th United States Congress" ||
				docs[0].URL != "https://en.wikipedia.org/wiki/110th_United_States_Congress" || !docs[0].Article ||
				strings.HasPrefix(docs[0].Paragraphs[0], `"`) || docs[0].Format != FormatFlashRAG {
				t.Fatalf("%s: %d documents, first %+v", f, len(docs), docs[0])
			}
			if docs[1].Title != docs[0].Title || docs[1].ID != "1" {
				t.Errorf("second passage of the article: %+v", docs[1])
			}
			want := []string{dir + "wiki18.jsonl:4: invalid json", dir + "wiki18.jsonl:5: no title"}
			if len(skips) != 2 || !strings.HasPrefix(skips[0], want[0]) || !strings.HasPrefix(skips[1], want[1]) {
				t.Errorf("skips %q, want %q", skips, want)
			}
		}
	})
	t.Run("kilt", func(t *testing.T) {
		docs, skips := readDocs(t, FormatAuto, dir+"kilt.jsonl")
		if len(docs) != 2 || docs[0].ID != "4654001" || len(docs[0].Paragraphs) != 2 ||
			docs[0].URL != "https://en.wikipedia.org/wiki/List_of_Nobel_laureates_affiliated_with_the_University_of_Pennsylvania" {
			t.Fatalf("%d documents: %+v", len(docs), docs)
		}
		if len(skips) != 2 || !strings.Contains(skips[0], "kilt.jsonl:3: no id") || !strings.Contains(skips[1], "kilt.jsonl:4: no text") {
			t.Errorf("skips %q", skips)
		}
	})
	t.Run("browsecomp-plus", func(t *testing.T) {
		docs, skips := readDocs(t, FormatAuto, dir+"browsecomp-plus.jsonl.gz")
		if len(docs) != 2 || docs[0].ID != "8841" || !docs[0].Article || docs[0].Title != "2001 South Carolina's 2nd congressional district special election" {
			t.Fatalf("%d documents: %+v", len(docs), docs)
		}
		if d := docs[1]; d.Article || d.URL != "https://www.imperial.ac.uk/about/history/nobel-laureates/" || d.Title != "Nobel laureates of Imperial College" || d.ID != "17" {
			t.Errorf("web document %+v", d)
		}
		if len(skips) != 2 || !strings.Contains(skips[0], "browsecomp-plus.jsonl.gz:3: no url") || !strings.Contains(skips[1], "browsecomp-plus.jsonl.gz:4: no text") {
			t.Errorf("skips %q", skips)
		}
	})
	// Named formats that do not fit: every line a skip with its reason.
	_, skips := readDocs(t, FormatKILT, dir+"wiki18.jsonl")
	if len(skips) != 10 || !strings.Contains(skips[0], "wiki18.jsonl:1: no id") {
		t.Errorf("wiki18 read as kilt: %q", skips)
	}
}

func TestParseCorpusIDs(t *testing.T) {
	for line, want := range map[string]string{
		`{"id": 12, "contents": "\"A\"\nb"}`:       "12",
		`{"id": "wiki:3", "contents": "\"A\"\nb"}`: "wiki:3",
	} {
		d, err := ParseFlashRAGLine([]byte(line))
		if err != nil || d.ID != want {
			t.Errorf("%s: %+v %v", line, d, err)
		}
	}
	for _, line := range []string{`{"id": [1], "contents": "\"A\"\nb"}`, `{"id": " ", "contents": "\"A\"\nb"}`, `{"contents": "\"A\"\nb"}`} {
		if _, err := ParseFlashRAGLine([]byte(line)); err == nil || !strings.Contains(err.Error(), "no id") {
			t.Errorf("%s: %v", line, err)
		}
	}
}
