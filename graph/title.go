package graph

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leaper-dev/leaper/internal/textnorm"
)

// nonArticle lists namespace prefixes whose pages are not articles. A title
// "File:X.jpg" or "Help:Contents" is not an entity; "Lilo & Stitch: The
// Series" is, because its prefix is not a namespace.
var nonArticle = map[string]bool{
	"file": true, "image": true, "media": true, "help": true, "wikipedia": true,
	"wp": true, "project": true, "template": true, "category": true,
	"special": true, "talk": true, "user": true, "portal": true,
	"mediawiki": true, "module": true, "draft": true, "book": true,
	"timedtext": true, "gadget": true, "topic": true, "education program": true,
	// interwiki prefixes that appear in article links
	// (not the one-letter ones: "V: The Final Battle" is an article).
	"wikt": true, "wiktionary": true, "commons": true, "wikisource": true,
	"wikiquote": true, "wikibooks": true, "wikinews": true, "wikiversity": true,
	"voy": true, "wikidata": true, "meta": true, "mw": true, "species": true,
}

// Title turns a link or URL into a canonical Wikipedia title:
// "/wiki/Brian_Schmidt", "//en.wikipedia.org/wiki/Brian_Schmidt",
// "http://www.wikipedia.org/wiki/Brian_Schmidt" all give "Brian Schmidt";
// "https://en.wikipedia.org/wiki/Caf%C3%A9#History" gives "Café". The title
// is percent-decoded, underscores become spaces, the fragment is dropped and
// the first letter is upper-cased, as MediaWiki does. Title returns "" for
// links that do not name an article: files, help and other namespaces,
// in-page anchors (#cite_note-1), red links (action=edit), other wikis and
// external sites.
func Title(link string) string {
	s := strings.TrimSpace(link)
	if s == "" || s[0] == '#' {
		return ""
	}
	// Scheme and host: only English (or language-neutral) Wikipedia.
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "https://"):
		s, lower = s[len("https:"):], lower[len("https:"):]
	case strings.HasPrefix(lower, "http://"):
		s, lower = s[len("http:"):], lower[len("http:"):]
	}
	if strings.HasPrefix(lower, "//") {
		end := strings.IndexByte(s[2:], '/')
		if end < 0 {
			return ""
		}
		host := lower[2 : 2+end]
		switch host {
		case "en.wikipedia.org", "www.wikipedia.org", "wikipedia.org", "en.m.wikipedia.org":
		default:
			return ""
		}
		s = s[2+end:]
	} else if strings.Contains(lower, "://") || strings.HasPrefix(lower, "mailto:") {
		return ""
	}
	var raw string
	switch {
	case strings.HasPrefix(s, "/wiki/"):
		raw = s[len("/wiki/"):]
	case strings.HasPrefix(s, "./"): // Parsoid HTML
		raw = s[2:]
	default:
		// /w/index.php?title=X&action=edit&redlink=1 and the like.
		return ""
	}
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	// A '?' starts a query only when a key=value follows: corpora write
	// titles like "Who?" or "?A Quien Le Importa?" unescaped.
	if i := strings.IndexByte(raw, '?'); i >= 0 && strings.Contains(raw[i+1:], "=") {
		q := raw[i+1:]
		raw = raw[:i]
		if strings.Contains(q, "action=edit") || strings.Contains(q, "redlink=1") {
			return ""
		}
	}
	return CanonicalTitle(raw)
}

// CanonicalTitle normalises a raw title: percent-decoding, underscores to
// spaces, collapsed white space, first letter upper-cased, namespaces
// rejected ("" for a title that names no article). The readers of package
// ingest/table name pages by it.
func CanonicalTitle(raw string) string {
	if strings.IndexByte(raw, '%') >= 0 {
		if dec, err := url.PathUnescape(raw); err == nil {
			raw = dec
		}
	}
	raw = strings.ReplaceAll(raw, "_", " ")
	raw = textnorm.CollapseSpace(raw)
	if raw == "" || !utf8.ValidString(raw) {
		return ""
	}
	if i := strings.IndexByte(raw, ':'); i > 0 {
		ns := strings.ToLower(strings.TrimSpace(raw[:i]))
		if nonArticle[ns] || strings.HasSuffix(ns, " talk") {
			return ""
		}
	}
	r, n := utf8.DecodeRuneInString(raw)
	if u := unicode.ToUpper(r); u != r && r < 0x250 {
		// Only Latin letters: MediaWiki does not upper-case every script,
		// and a wrong guess would split one entity into two.
		raw = string(u) + raw[n:]
	}
	return raw
}

// URL is the canonical https://en.wikipedia.org/wiki/Title_With_Underscores
// for a title, "" for "". Only the characters that would change the URL's
// meaning (%, ?, #) are escaped, so URLs stay readable and Title(URL(t)) == t
// for a canonical t.
func URL(title string) string {
	title = strings.TrimSpace(title)
	if title == "" {
		return ""
	}
	return "https://en.wikipedia.org/wiki/" + urlEscaper.Replace(title)
}

var urlEscaper = strings.NewReplacer(" ", "_", "%", "%25", "?", "%3F", "#", "%23")
