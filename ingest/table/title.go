package table

import (
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/textnorm"
)

// Title turns a link or URL into a canonical Wikipedia title, "" for a
// link that names no article: graph.Title, which owns what names an
// article, since the graph and the offline web name pages by it too.
func Title(link string) string { return graph.Title(link) }

// URL is the canonical Wikipedia URL of a title (graph.URL).
func URL(title string) string { return graph.URL(title) }

// canonical normalises a raw title (graph.CanonicalTitle).
func canonical(raw string) string { return graph.CanonicalTitle(raw) }

// collapseSpace trims s and replaces each run of white space with one
// space (textnorm.CollapseSpace).
func collapseSpace(s string) string { return textnorm.CollapseSpace(s) }
