package table

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A rendered article is mostly prose, infoboxes and navigation boxes.
// Building the whole DOM of every page cost five times more than reading
// its tables, so scanPage finds the wikitables, headings, the last
// paragraph before each table and the title by a byte scan of the tags, and
// only those pieces go through the HTML parser. Comments, scripts and
// styles are skipped so a "<table" inside them does not count.

type rawFound struct {
	raw     []byte
	section string
	para    []byte
}

type pageScan struct {
	tables   []rawFound
	title    string
	fragment bool   // the input is one table and nothing else
	intro    []byte // the paragraphs before the first section heading
}

// maxIntro caps the lead kept for its counts ("14 rounds comprising 85
// players").
const maxIntro = 8192

// tagAt returns the lower-cased tag name of the tag at data[i] == '<' and
// whether it is an end tag.
func tagAt(data []byte, i int) (name string, end bool) {
	j := i + 1
	if j < len(data) && data[j] == '/' {
		end = true
		j++
	}
	k := j
	for k < len(data) && k-j < 10 {
		c := data[k]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			k++
			continue
		}
		break
	}
	return strings.ToLower(string(data[j:k])), end
}

// tagEnd returns the index just past the '>' closing the tag at data[i].
func tagEnd(data []byte, i int) int {
	k := bytes.IndexByte(data[i:], '>')
	if k < 0 {
		return len(data)
	}
	return i + k + 1
}

// closeOf returns the index just past the end tag </name> after i, or
// limit when there is none before it.
func closeOf(data []byte, i int, name string, limit int) int {
	pat := []byte("</" + name)
	for j := i; j < limit; {
		k := bytes.Index(data[j:limit], pat)
		if k < 0 {
			return limit
		}
		k += j
		if k+len(pat) < len(data) {
			c := data[k+len(pat)]
			if c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				return tagEnd(data, k)
			}
		}
		j = k + len(pat)
	}
	return limit
}

func isWikitableTag(tag []byte) bool {
	// class="wikitable ..." in any case of quoting; attribute values of
	// table tags are short, so a parse of just the tag is cheap.
	if !bytes.Contains(bytes.ToLower(tag), []byte("wikitable")) {
		return false
	}
	z := html.NewTokenizer(bytes.NewReader(tag))
	z.Next()
	for {
		k, v, more := z.TagAttr()
		if string(k) == "class" {
			for f := range strings.FieldsSeq(string(v)) {
				if f == "wikitable" {
					return true
				}
			}
		}
		if !more {
			return false
		}
	}
}

func scanPage(data []byte) *pageScan {
	s := &pageScan{}
	var headings []heading
	var para []byte
	depth := 0 // table nesting
	capStart, capDepth := -1, 0
	topTables := 0
	otherTop := false // content outside top-level tables
	firstTop, lastTopEnd := -1, -1
	i := 0
	for i < len(data) {
		lt := bytes.IndexByte(data[i:], '<')
		if lt < 0 {
			if depth == 0 && len(bytes.TrimSpace(data[i:])) > 0 {
				otherTop = true
			}
			break
		}
		if depth == 0 && len(bytes.TrimSpace(data[i:i+lt])) > 0 {
			otherTop = true
		}
		i += lt
		if bytes.HasPrefix(data[i:], []byte("<!--")) {
			k := bytes.Index(data[i+4:], []byte("-->"))
			if k < 0 {
				break
			}
			i += 4 + k + 3
			continue
		}
		name, end := tagAt(data, i)
		next := tagEnd(data, i)
		switch {
		case name == "script" || name == "style" || name == "noscript":
			if !end {
				next = closeOf(data, next, name, len(data))
			}
			if depth == 0 {
				otherTop = true
			}
		case name == "table" && !end:
			if depth == 0 {
				topTables++
				if firstTop < 0 {
					firstTop = i
				}
			}
			if capStart < 0 && isWikitableTag(data[i:next]) {
				capStart, capDepth = i, depth
			}
			depth++
		case name == "table" && end:
			if depth > 0 {
				depth--
			}
			if capStart >= 0 && depth == capDepth {
				s.tables = append(s.tables, rawFound{raw: data[capStart:next], section: joinHeadings(headings), para: para})
				capStart = -1
			}
			if depth == 0 {
				lastTopEnd = next
			}
		case capStart >= 0:
			// inside a wikitable: nothing else matters
		case len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && !end:
			stop := closeOf(data, next, name, min(len(data), next+4096))
			text := fragmentText(data[i:stop])
			level := int(name[1] - '0')
			if level == 1 {
				if s.title == "" {
					s.title = text
				}
			} else {
				k := len(headings)
				for k > 0 && headings[k-1].level >= level {
					k--
				}
				headings = append(headings[:k], heading{level, text})
				para = nil
			}
			next = stop
			otherTop = otherTop || depth == 0
		case name == "p" && !end:
			stop := closeOf(data, next, "p", min(len(data), next+8192))
			para = data[i:stop]
			if len(headings) == 0 && len(s.intro) < maxIntro {
				s.intro = append(s.intro, para...)
			}
			next = stop
			otherTop = otherTop || depth == 0
		case name == "title" && !end:
			stop := closeOf(data, next, "title", min(len(data), next+4096))
			if s.title == "" {
				t := fragmentText(data[i:stop])
				for _, suf := range []string{" - Wikipedia, the free encyclopedia", " - Wikipedia", " — Wikipedia"} {
					t = strings.TrimSuffix(t, suf)
				}
				s.title = t
			}
			next = stop
		default:
			switch name {
			case "", "html", "head", "body", "meta", "link", "!doctype":
			default:
				if depth == 0 {
					otherTop = true
				}
			}
		}
		if next <= i {
			next = i + 1
		}
		i = next
	}
	if capStart >= 0 { // unclosed wikitable: take the rest
		s.tables = append(s.tables, rawFound{raw: data[capStart:], section: joinHeadings(headings), para: para})
	}
	if topTables == 1 && !otherTop && firstTop >= 0 {
		end := lastTopEnd
		if end < 0 {
			end = len(data)
		}
		s.fragment = true
		s.tables = []rawFound{{raw: data[firstTop:end]}}
	}
	return s
}

func joinHeadings(hs []heading) string {
	parts := make([]string, 0, len(hs))
	for _, h := range hs {
		if h.text != "" {
			parts = append(parts, h.text)
		}
	}
	return strings.Join(parts, " | ")
}

// fragmentText is the visible text of a piece of HTML.
func fragmentText(b []byte) string {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return ""
	}
	return textOf(doc, nil)
}

// firstTable parses a piece of HTML holding a table and returns the table
// element.
func firstTable(b []byte) *html.Node {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	var find func(n *html.Node) *html.Node
	find = func(n *html.Node) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Table {
				return c
			}
			if t := find(c); t != nil {
				return t
			}
		}
		return nil
	}
	return find(doc)
}
