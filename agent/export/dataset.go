package export

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/atomicfile"
	"github.com/leaper-dev/leaper/internal/textnorm"
	"github.com/leaper-dev/leaper/task"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Dataset is a format that writes a file or a directory from tasks (and,
// for browsecomp-plus, trajectories and the store's pages) rather than a
// stream of trajectories: the training data of other stacks. Each lives in
// a file of its own and registers itself with RegisterDataset.
type Dataset interface {
	// Name is the format's --format value.
	Name() string
	// Doc is a paragraph for --help.
	Doc() string
	// Dir reports whether the output is a directory rather than a file.
	Dir() bool
	// WriteDataset writes src to out, a file or (Dir) a directory.
	WriteDataset(ctx context.Context, src *Source, out string) error
}

// StoreReader is a Dataset that reads the store (Source.Page and
// Source.Trees) and may take trajectories, as browsecomp-plus does; other
// datasets read tasks only.
type StoreReader interface {
	ReadsStore() bool
}

// ReadsStore reports whether d reads the store and trajectories.
func ReadsStore(d Dataset) bool {
	r, ok := d.(StoreReader)
	return ok && r.ReadsStore()
}

// Source is what a Dataset reads.
type Source struct {
	Tasks        []*task.Task
	Trajectories []*agent.Trajectory
	// Page reads a page by its URL and Trees a tree by id (browsecomp-plus's
	// corpus and qrels); a *graph.Store supplies both.
	Page  func(url string) (*graph.Page, error)
	Trees TreeReader
	// DataSource names the data in data_source; default "nq" for
	// search-r1 (Search-R1's trainer picks its scorer by data_source and
	// knows only its seven QA sets, all scored by exact match) and
	// "leaper" for the others.
	DataSource string
	// Split goes into extra_info.split; default "train".
	Split string
	// BaseURL is where leaper serve runs, written into the tool settings;
	// default http://127.0.0.1:8080.
	BaseURL string
	// TopK is the retrieval depth written into the tool settings; default 3.
	TopK int
}

// TreeReader reads trees; *graph.Store is one.
type TreeReader interface {
	Tree(id uint32) (*graph.Tree, error)
}

// dataSource is the rows' data_source: the Source's, or else def.
func (s *Source) dataSource(def string) string {
	if s.DataSource != "" {
		return s.DataSource
	}
	return def
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

var datasets = map[string]Dataset{}

// RegisterDataset adds a dataset format; a second of the same name panics.
func RegisterDataset(d Dataset) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := datasets[d.Name()]; dup {
		panic("export: dataset " + d.Name() + " registered twice")
	}
	datasets[d.Name()] = d
}

// LookupDataset returns the dataset format of a name.
func LookupDataset(name string) (Dataset, error) {
	mu.RLock()
	d := datasets[name]
	mu.RUnlock()
	if d == nil {
		return nil, fmt.Errorf("%w %q (datasets: %s)", ErrUnknownFormat, name, strings.Join(DatasetNames(), ", "))
	}
	return d, nil
}

// DatasetNames are the registered datasets' names, sorted.
func DatasetNames() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(datasets))
	for n := range datasets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MarkdownTable renders a task's answer as the markdown table an agent
// answers with.
func MarkdownTable(a task.Answer) string {
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

// ExactTargets are what an exact-match scorer should accept as the whole
// answer of a task: an aggregate's value (yes or no for a member
// question), or else the answer table in the orders AnswerForm's
// "alphabetical" may be read in (CanonicalTables). Search-R1's and skyrl-gym's scorers take
// ground_truth["target"] as a list of alternatives, each a complete
// answer, and give full reward when the normalised answer equals any one
// of them; a list of the target names would reward naming any one entity.
//
// A name with Wikipedia's disambiguator ("Hereafter (film)") may be
// written without it ("Hereafter"): each answer is also accepted with
// every value's trailing parenthesis dropped (PlainName), since the
// question never says which of the two forms to write.
func ExactTargets(t *task.Task) []string {
	if a := t.Answer.Aggregate; a != nil && a.Value != "" {
		if yn := yesNo(t); yn != nil {
			return yn
		}
		return withPlain([]string{a.Value}, func(v string) string { return plainValues(v, "; ") })
	}
	out := CanonicalTables(t.Answer)
	plain := task.Answer{Columns: t.Answer.Columns, Rows: make([][]string, len(t.Answer.Rows))}
	for i, r := range t.Answer.Rows {
		plain.Rows[i] = make([]string, len(r))
		for j, v := range r {
			plain.Rows[i][j] = plainValues(v, "; ")
		}
	}
	for _, tb := range CanonicalTables(plain) {
		if !slices.Contains(out, tb) {
			out = append(out, tb)
		}
	}
	return out
}

// yesNo is the answers of a member question ("is X one of them?"), whose
// engine value is true or false: both the word the question asks for and
// the value's own, since scorers compare words (ASearcher's F1 maps only
// "True" to yes); nil for other tasks.
func yesNo(t *task.Task) []string {
	a := t.Answer.Aggregate
	if a == nil || a.Op != task.AggMember {
		return nil
	}
	v, err := strconv.ParseBool(a.Value)
	if err != nil {
		return nil
	}
	if v {
		return []string{"yes", "true"}
	}
	return []string{"no", "false"}
}

// withPlain returns vs and, after them, each v as plain(v) where that
// differs, once each.
func withPlain(vs []string, plain func(string) string) []string {
	out := slices.Clone(vs)
	for _, v := range vs {
		if p := plain(v); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// PlainName is a Wikipedia title without its trailing disambiguator:
// "Hereafter (film)" → "Hereafter". A name that is nothing but a
// parenthesis, or has none at its end, is returned as is.
func PlainName(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasSuffix(t, ")") {
		return s
	}
	i := strings.LastIndex(t, " (")
	if i <= 0 || strings.Contains(t[i+2:len(t)-1], "(") || strings.Count(t[:i], "(") != strings.Count(t[:i], ")") {
		return s
	}
	return strings.TrimSpace(t[:i])
}

// plainValues applies PlainName to each sep-separated value of s.
func plainValues(s, sep string) string {
	vs := strings.Split(s, sep)
	for i, v := range vs {
		vs[i] = PlainName(v)
	}
	return strings.Join(vs, sep)
}

// CanonicalTable renders an answer table in the one order an agent can be
// told to reproduce: rows in alphabetical order of the first column (then of
// the others), and the several values of a cell ("; "-separated)
// alphabetically. Alphabetical is the Unicode collation's order ignoring
// case and accents (Ľudmila among the L's), then bytes. AnswerForm
// describes it.
func CanonicalTable(a task.Answer) string {
	col := collate.New(language.Und, collate.Loose)
	return orderedTable(a, col.CompareString, true)
}

// CanonicalTables are the answer table in each order "alphabetical" is
// commonly taken to mean, distinct: the Unicode collation's
// (CanonicalTable); code points of the text without case and accents (as
// a sort by a folded key does: "+10" before "+1:", "ð" after "t"); code
// points of the lower-cased text ("ä" after "z"); plain code points; each
// with a cell's repeated values once, then as the tables give them. Each
// is a complete answer, so an exact-match scorer may accept any.
func CanonicalTables(a task.Answer) []string {
	col := collate.New(language.Und, collate.Loose)
	var out []string
	for _, once := range []bool{true, false} {
		for _, cmp := range []func(x, y string) int{
			col.CompareString,
			func(x, y string) int { return strings.Compare(textnorm.FoldAccents(x), textnorm.FoldAccents(y)) },
			func(x, y string) int { return strings.Compare(strings.ToLower(x), strings.ToLower(y)) },
			strings.Compare,
		} {
			if t := orderedTable(a, cmp, once); !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// orderedTable renders a with its rows, and the values of each cell
// (each once when once is set), sorted by cmp and then by bytes.
func orderedTable(a task.Answer, cmp func(x, y string) int, once bool) string {
	less := func(x, y string) int {
		if d := cmp(x, y); d != 0 {
			return d
		}
		return strings.Compare(x, y)
	}
	c := task.Answer{Columns: a.Columns, Rows: make([][]string, len(a.Rows))}
	for i, r := range a.Rows {
		row := make([]string, len(r))
		for j, v := range r {
			// A value twice in a cell (two tables agreeing) is written
			// once, as anyone listing the values would.
			vs := strings.Split(v, "; ")
			slices.SortFunc(vs, less)
			if once {
				vs = slices.Compact(vs)
			}
			row[j] = strings.Join(vs, "; ")
		}
		c.Rows[i] = row
	}
	slices.SortStableFunc(c.Rows, func(x, y []string) int {
		for j := 0; j < len(x) && j < len(y); j++ {
			if d := less(x[j], y[j]); d != 0 {
				return d
			}
		}
		return len(x) - len(y)
	})
	return MarkdownTable(c)
}

// ColumnList names columns for a prompt: joined by ", ", each in double
// quotes when one holds a comma ("English short and formal names, and ISO
// code" is one column).
func ColumnList(cols []string) string {
	if !slices.ContainsFunc(cols, func(c string) bool { return strings.Contains(c, ",") }) {
		return strings.Join(cols, ", ")
	}
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = `"` + c + `"`
	}
	return strings.Join(q, ", ")
}

// AnswerForm is the sentence of a prompt that tells the agent the form of
// its answer. exact is for rows scored by exact match (ExactTargets): an
// aggregate's answer is then the value alone, and a table must be in
// CanonicalTable's order. Otherwise (leaper's own reward, a soft F over the
// entities the answer names) an aggregate's answer is the table and then
// the value.
func AnswerForm(t *task.Task, exact bool) string {
	table := "a markdown table with the columns " + ColumnList(t.Answer.Columns) + ", one row per entity"
	agg := t.Answer.Aggregate != nil && t.Answer.Aggregate.Value != ""
	switch {
	case exact && agg:
		switch t.Answer.Aggregate.Op {
		case task.AggMember:
			return "The answer is only yes or no."
		case task.AggCount, task.AggCountDiff, task.AggDiff, task.AggSum, task.AggAvg:
			return "The answer is only the number the last sentence of the question asks for (for a difference, by how many)."
		case task.AggTop, task.AggBottom:
			return "The answer is only the values the last sentence of the question asks for, in its order, separated by \"; \"."
		}
		return "The answer is only the value the last sentence of the question asks for."
	case exact:
		return "The answer is " + table + ", the rows in alphabetical order of the first column, and several values in one cell separated by \"; \" in alphabetical order."
	case agg:
		return "The answer is " + table + ", and after the table the value the last sentence of the question asks for."
	}
	return "The answer is " + table + "."
}

// targetNames returns the names of a task's targets in order, once each.
func targetNames(t *task.Task) []string {
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

// writeJSONL writes one line per task to out ("-" or "": nowhere but the
// returned error; the command passes a file).
func writeJSONL(ctx context.Context, src *Source, out string, item func(*task.Task) any) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	return WriteFile(out, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, t := range src.Tasks {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := enc.Encode(item(t)); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteFile writes a file whole or not at all: write fills a buffered
// temporary file beside path, which replaces path only when all of it was
// written and closed, and is removed otherwise.
func WriteFile(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("export: %s: %w", path, err)
	}
	return nil
}
