package export

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/query"
)

// Format writes a Source in one external format.
type Format interface {
	// Name is the --format value.
	Name() string
	// Dir reports whether the output is a directory rather than a file.
	Dir() bool
	// Write writes src to out (a file path, or a directory when Dir).
	Write(ctx context.Context, src *Source, out string) error
}

// Source is what formats read: tasks for the training formats, and for
// browsecomp-plus also trajectories and the store's pages.
type Source struct {
	Tasks        []*query.Task
	Trajectories []*agent.Trajectory
	// Page reads a page by its URL, and Trees a tree by id
	// (browsecomp-plus's corpus and qrels); *graph.Store supplies both.
	Page  func(url string) (*graph.Page, error)
	Trees TreeReader
	// DataSource names the data in data_source; default "leaper".
	DataSource string
	// Split goes into extra_info.split; default "train".
	Split string
	// BaseURL is where leaper serve runs, written into the tool settings;
	// default http://127.0.0.1:8080.
	BaseURL string
	// TopK is the retrieval depth written into the tool settings; default 3.
	TopK int
}

func (s *Source) dataSource() string {
	if s.DataSource != "" {
		return s.DataSource
	}
	return "leaper"
}

func (s *Source) split() string {
	if s.Split != "" {
		return s.Split
	}
	return "train"
}

func (s *Source) baseURL() string {
	if s.BaseURL != "" {
		return strings.TrimRight(s.BaseURL, "/")
	}
	return "http://127.0.0.1:8080"
}

func (s *Source) topK() int {
	if s.TopK > 0 {
		return s.TopK
	}
	return 3
}

// ErrNoTasks is returned by a task format given no tasks.
var ErrNoTasks = errors.New("export: no tasks")

// Formats are the formats of this package, by name.
var Formats = map[string]Format{}

func register(f Format) { Formats[f.Name()] = f }

// Names returns the format names, sorted.
func Names() []string {
	out := make([]string, 0, len(Formats))
	for n := range Formats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the format of a name.
func Lookup(name string) (Format, error) {
	if f, ok := Formats[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("export: unknown format %q (one of %s)", name, strings.Join(Names(), ", "))
}

// MarkdownTable renders a task's answer as the markdown table an agent
// answers with.
func MarkdownTable(a query.Answer) string {
	var b strings.Builder
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	b.WriteString("|")
	for _, c := range a.Columns {
		b.WriteString(" " + cell(c) + " |")
	}
	b.WriteString("\n|")
	for range a.Columns {
		b.WriteString("---|")
	}
	for _, r := range a.Rows {
		b.WriteString("\n|")
		for _, c := range r {
			b.WriteString(" " + cell(c) + " |")
		}
	}
	return b.String()
}

// targetNames returns the names of a task's targets in order, once each.
func targetNames(t *query.Task) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, tg := range t.Targets {
		if tg.Name != "" && !seen[tg.Name] {
			seen[tg.Name] = true
			out = append(out, tg.Name)
		}
	}
	return out
}
