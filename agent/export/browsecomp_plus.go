package export

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/task"
)

// The browsecomp-plus format: one BrowseComp-Plus run record per
// trajectory on a stream, or with --out a directory BrowseComp-Plus's
// evaluator reads (the Dataset below).
func init() {
	RegisterDataset(browseCompPlus{})
	Register(&Lines{
		FormatName: "browsecomp-plus",
		Help: `browsecomp-plus: one run record per trajectory: query_id, tool_call_counts,
status, retrieved_docids (the pages searched up or visited, in order), and
result (the final answer as output_text).`,
		Record: func(t *agent.Trajectory) any { return BrowseCompPlus(t) },
	})
}

// BCPRun is a BrowseComp-Plus run record.
type BCPRun struct {
	QueryID        string         `json:"query_id"`
	ToolCallCounts map[string]int `json:"tool_call_counts"`
	Status         string         `json:"status"`
	RetrievedDocs  []string       `json:"retrieved_docids"`
	Result         []BCPOutput    `json:"result"`
}

// BCPOutput is one output item of a run record.
type BCPOutput struct {
	Type   string `json:"type"`
	Output string `json:"output"`
}

// BrowseCompPlus converts a trajectory to a run record.
func BrowseCompPlus(t *agent.Trajectory) BCPRun {
	r := BCPRun{QueryID: t.TaskID, ToolCallCounts: map[string]int{}, Status: "completed", RetrievedDocs: []string{}}
	if t.End != agent.EndAnswer {
		r.Status = string(t.End)
	}
	seen := map[string]bool{}
	for _, s := range t.Steps {
		if s.Tool != "" && s.Error == "" {
			r.ToolCallCounts[s.Tool]++
		}
		for _, u := range s.URLs {
			if !seen[u] {
				seen[u] = true
				r.RetrievedDocs = append(r.RetrievedDocs, u)
			}
		}
	}
	r.Result = []BCPOutput{{Type: "output_text", Output: t.Answer}}
	return r
}

// Files of the browsecomp-plus directory.
const (
	BCPQueries     = "queries.tsv"
	BCPQrels       = "qrel_evidence.txt"
	BCPGroundTruth = "ground_truth.jsonl"
	BCPCorpus      = "corpus.jsonl"
	BCPRuns        = "runs"
)

// BCPDoc is a line of corpus.jsonl.
type BCPDoc struct {
	DocID string `json:"docid"`
	Text  string `json:"text"`
	URL   string `json:"url"`
}

// BCPGold is a line of ground_truth.jsonl (evaluate_run.py's
// --ground_truth: query_id, query, answer).
type BCPGold struct {
	QueryID string `json:"query_id"`
	Query   string `json:"query"`
	Answer  string `json:"answer"`
}

// EvidencePages returns the pages that hold a task's answer: the pages of
// its trees' tables, in tree order.
func EvidencePages(t *task.Task, g TreeReader) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, id := range t.Trees {
		tr, err := g.Tree(id)
		if err != nil {
			return nil, fmt.Errorf("export: task %s: tree %d: %w", t.ID, id, err)
		}
		if tr.PageURL != "" && !seen[tr.PageURL] {
			seen[tr.PageURL] = true
			out = append(out, tr.PageURL)
		}
	}
	return out, nil
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._-]`)

type browseCompPlus struct{}

func (browseCompPlus) Name() string { return "browsecomp-plus" }
func (browseCompPlus) Dir() bool    { return true }

// ReadsStore: the corpus and qrels come from the store, the runs from
// trajectories.
func (browseCompPlus) ReadsStore() bool { return true }

func (browseCompPlus) Doc() string {
	return `browsecomp-plus with --out DIR: the directory BrowseComp-Plus's tools read:
queries.tsv (query_id TAB query), qrel_evidence.txt (TREC qrels: the pages
holding each task's answer), ground_truth.jsonl (query_id, query, answer),
corpus.jsonl (docid, text, url: the evidence pages and every page a run
retrieved) and runs/run_<query_id>.json, one run record per trajectory (as
scripts_evaluation/evaluate_run.py --input_dir reads them). Docids are page
URLs, as leaper's tools give them: evaluate_run.py's retrieval recall
(retrieved_docids against the qrels) applies; its citation precision and
recall count only numeric [docid] citations in the answer, so they do not.
It reads the pages' text from the store: give --store DIR (or set
LEAPER_STORE).`
}

// WriteDataset needs Source.Page and Source.Trees; trajectories are
// optional (no runs without them).
func (browseCompPlus) WriteDataset(ctx context.Context, src *Source, out string) error {
	if len(src.Tasks) == 0 {
		return ErrNoTasks
	}
	if src.Page == nil || src.Trees == nil {
		return ErrNeedStore
	}
	if err := os.MkdirAll(filepath.Join(out, BCPRuns), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var queries, qrels strings.Builder
	var golds []any
	docs := map[string]bool{}
	var order []string
	addDoc := func(u string) {
		if !docs[u] {
			docs[u] = true
			order = append(order, u)
		}
	}
	for _, t := range src.Tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(&queries, "%s\t%s\n", t.ID, BCPQuery(t))
		golds = append(golds, BCPGold{QueryID: t.ID, Query: t.Question, Answer: MarkdownTable(t.Answer)})
		ev, err := EvidencePages(t, src.Trees)
		if err != nil {
			return err
		}
		if len(ev) == 0 {
			// evaluate_run.py divides a run's retrieval recall by the
			// query's qrels.
			return fmt.Errorf("export: task %s: no evidence page for its qrels (BrowseComp-Plus's evaluator divides by them)", t.ID)
		}
		for _, u := range ev {
			fmt.Fprintf(&qrels, "%s 0 %s 1\n", t.ID, u)
			addDoc(u)
		}
	}
	runs := map[string]bool{}
	for _, tr := range src.Trajectories {
		if err := ctx.Err(); err != nil {
			return err
		}
		r := BrowseCompPlus(tr)
		name := "run_" + unsafeID.ReplaceAllString(r.QueryID, "_") + ".json"
		if runs[name] {
			return fmt.Errorf("export: two trajectories of task %s; a browsecomp-plus run holds one per query", r.QueryID)
		}
		runs[name] = true
		for _, u := range r.RetrievedDocs {
			addDoc(u)
		}
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, BCPRuns, name), append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, BCPQueries), []byte(queries.String()), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.WriteFile(filepath.Join(out, BCPQrels), []byte(qrels.String()), 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := writeLines(filepath.Join(out, BCPGroundTruth), golds); err != nil {
		return err
	}
	sort.Strings(order)
	var corpus []any
	for _, u := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := src.Page(u)
		if errors.Is(err, graph.ErrNotFound) {
			continue // a run may cite a page the store does not hold
		}
		if err != nil {
			return fmt.Errorf("export: page %s: %w", u, err)
		}
		corpus = append(corpus, BCPDoc{DocID: u, Text: graph.PageText(p), URL: u})
	}
	return writeLines(filepath.Join(out, BCPCorpus), corpus)
}

func writeLines(path string, items []any) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	bw := bufio.NewWriter(fh)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			fh.Close()
			return fmt.Errorf("export: %s: %w", path, err)
		}
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return fmt.Errorf("export: %s: %w", path, err)
	}
	return fh.Close()
}

// BCPQuery is a task's query in queries.tsv: the question and the
// answer's form (AnswerForm), on one line.
func BCPQuery(t *task.Task) string {
	return strings.Join(strings.Fields(t.Question+" "+AnswerForm(t, false)), " ")
}
