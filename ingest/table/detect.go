package table

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
)

// Detect guesses the format of an input from its first bytes (head, after
// decompression; 64 KiB is plenty) with its name as a hint. It returns ""
// when it cannot tell, and for binary content. JSON is told apart by the
// keys of its first object: header/data (wikitables), tableData,
// tableHeaders, pgTitle or headers/rows (tabel), url/text (passages),
// id/contents (flashrag), docid/text (browsecomp-plus), wikipedia_id
// (kilt).
func Detect(name string, head []byte) Format {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if isBinary(head) {
		return ""
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	ext := strings.ToLower(path.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz")))
	if len(t) == 0 {
		return ""
	}
	switch t[0] {
	case '<':
		return FormatHTML
	case '{', '[':
		keys := topKeys(t)
		has := func(k string) bool { _, ok := keys[k]; return ok }
		switch {
		case has("contents") && has("id"):
			return FormatFlashRAG
		case has("docid") && has("text"):
			return FormatBrowseCompPlus
		case has("wikipedia_id"), has("wikipedia_title") && has("text"):
			return FormatKILT
		case has("tableData"), has("tableHeaders"), has("pgTitle"), has("numDataRows"),
			has("headers") && has("rows"):
			return FormatTabEL
		case has("header") && (has("data") || has("uid") || has("section_title")),
			has("data") && has("header"):
			return FormatWikiTables
		case has("text") && (has("url") || has("title")) && !has("header") && !has("headers"):
			return FormatPassages
		case has("header"), has("data"):
			return FormatWikiTables
		case has("headers"), has("rows"):
			return FormatTabEL
		}
		if ext == ".json" || ext == ".jsonl" || len(keys) > 0 {
			return ""
		}
	}
	switch ext {
	case ".html", ".htm", ".xhtml":
		return FormatHTML
	case ".csv", ".tsv", ".psv", ".txt":
		return FormatCSV
	case ".json", ".jsonl", ".ndjson":
		return ""
	}
	line := t
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if bytes.ContainsAny(line, ",\t;|#") {
		return FormatCSV
	}
	return ""
}

// topKeys returns the keys of the first JSON object in b (entering one
// array), as far as b is complete.
func topKeys(b []byte) map[string]struct{} {
	keys := map[string]struct{}{}
	dec := json.NewDecoder(bytes.NewReader(b))
	depth := 0
	objDepth := 0 // depth of the first object's members
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				depth++
				if objDepth == 0 {
					objDepth = depth
				}
			case '[':
				depth++
			case '}', ']':
				if depth == objDepth {
					return keys
				}
				depth--
			}
			expectKey = depth == objDepth && (v == '{' || v == '}' || v == ']')
			continue
		case string:
			if depth == objDepth && dec.More() && expectKey {
				keys[v] = struct{}{}
				expectKey = false
				continue
			}
		}
		if depth == objDepth {
			expectKey = true
		}
	}
}

// isBinary reports whether head looks like binary data: a NUL byte or
// many control characters.
func isBinary(head []byte) bool {
	if len(head) > 8192 {
		head = head[:8192]
	}
	ctrl := 0
	for _, c := range head {
		switch {
		case c == 0:
			return true
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f':
			ctrl++
		}
	}
	return ctrl*10 > len(head)
}
