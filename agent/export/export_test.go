package export

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/agenttest"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web/webtest"
)

func sampleSource(t *testing.T) *Source {
	t.Helper()
	w := webtest.OpenWeb(t)
	g := w.Store().Graph()
	tasks := agenttest.Tasks(t, g, 3)
	if len(tasks) < 2 {
		t.Fatalf("%d sample tasks", len(tasks))
	}
	return &Source{Tasks: tasks, Page: g.Page, Trees: g}
}

// readArrow reads a parquet file with Apache Arrow's reader (not the
// writer's library) and returns its rows as JSON objects, and the arrow
// schema's text.
func readArrow(t *testing.T, path string) ([]map[string]any, string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("arrow cannot open %s: %v", path, err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("arrow cannot read %s: %v", path, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	var rows []map[string]any
	for tr.Next() {
		rec := tr.RecordBatch()
		var b strings.Builder
		if err := array.RecordToJSON(rec, &b); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(b.String()))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, m)
		}
	}
	return rows, tbl.Schema().String()
}

// asJSON round-trips v through JSON, to compare with what arrow read.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(v)
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

func TestParquetFormatsReadByArrow(t *testing.T) {
	src := sampleSource(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, name := range []string{"verl", "search-r1", "skyrl"} {
		t.Run(name, func(t *testing.T) {
			f, err := LookupDataset(name)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, name+".parquet")
			if err := f.WriteDataset(ctx, src, out); err != nil {
				t.Fatal(err)
			}
			rows, schema := readArrow(t, out)
			if len(rows) != len(src.Tasks) {
				t.Fatalf("arrow read %d rows, want %d", len(rows), len(src.Tasks))
			}
			// prompt is a LIST of structs, as pyarrow writes chat messages.
			if !strings.Contains(schema, "prompt: type=list<element: struct<role: utf8, content: utf8>") {
				t.Errorf("prompt column: %s", schema)
			}
			for i, tk := range src.Tasks {
				var want any
				switch name {
				case "skyrl":
					want = skyrlRow(src, i, tk)
				case "verl":
					want = verlToolRow(verl{name: name}.row(src, i, tk))
					if rows[i]["agent_name"] != "tool_agent" {
						t.Errorf("agent_name %v: verl runs rows without it single-turn, without tools", rows[i]["agent_name"])
					}
				default:
					want = verl{name: name}.row(src, i, tk)
					if _, ok := rows[i]["agent_name"]; ok {
						t.Errorf("search-r1 row with agent_name")
					}
				}
				if got, w := rows[i], asJSON(t, want); !reflect.DeepEqual(got, w) {
					t.Errorf("row %d read back by arrow:\n got %v\nwant %v", i, got, w)
				}
				if ds := map[string]string{"search-r1": "nq"}[name]; rows[i]["data_source"] != ds && (ds != "" || rows[i]["data_source"] != "leaper") {
					t.Errorf("data_source %v", rows[i]["data_source"])
				}
				gt := nested(rows[i], "reward_model", "ground_truth")
				if name == "skyrl" {
					gt = nested(rows[i], "reward_spec", "ground_truth")
					if rows[i]["env_class"] != "search" {
						t.Errorf("env_class %v", rows[i]["env_class"])
					}
				}
				if gt["task_id"] != tk.ID || len(gt["target"].([]any)) == 0 {
					t.Errorf("ground_truth %v", gt)
				}
				if ei := rows[i]["extra_info"].(map[string]any); ei["task_id"] != tk.ID || nested(ei, "tools")["retrieve_url"] != "http://127.0.0.1:8080/retrieve" {
					t.Errorf("extra_info %v", ei)
				}
			}
		})
	}
}

func nested(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ = m[k].(map[string]any)
	}
	return m
}

func skyrlRow(src *Source, i int, t *task.Task) SkyRLRow {
	return SkyRLRow{DataSource: "leaper", Prompt: []Message{{Role: "user", Content: SearchR1Prompt(t)}}, EnvClass: "search",
		RewardSpec: RewardSpec{Method: "rule", GroundTruth: GroundTruth{Target: ExactTargets(t), TaskID: t.ID, Answer: MarkdownTable(t.Answer)}},
		ExtraInfo:  extraInfo(src, i, t)}
}

func readLines[T any](t *testing.T, path string) []*T {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out, err := task.DecodeLines[T](fh, path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestJSONLFormats(t *testing.T) {
	src := sampleSource(t)
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "as.jsonl")
	if err := mustDataset(t, "asearcher").WriteDataset(ctx, src, out); err != nil {
		t.Fatal(err)
	}
	items := readLines[ASearcherItem](t, out)
	if len(items) != len(src.Tasks) {
		t.Fatalf("%d items", len(items))
	}
	for i, it := range items {
		tk := src.Tasks[i]
		table := it.AugAnswer[len(it.AugAnswer)-1]
		if it.ID != tk.ID || it.Question != tk.Question+"\n\n"+ASearcherForm(tk) || it.Prompt != tk.Question+"\n\n"+AnswerForm(tk, false) ||
			len(it.Answer) == 0 || it.Answer[0] == "" || !strings.HasPrefix(table, "| "+tk.Answer.Columns[0]) {
			t.Errorf("asearcher item %+v", it)
		}
		// The table of a basic task scores full marks against it; the
		// joined names nearly (a value with a comma in it splits).
		for a, min := range map[string]float64{table: 0.99, it.Answer[0]: 0.9} {
			if sc := eval.Score(tk, a, nil); tk.Variant == "basic" && sc.Recall < min {
				t.Errorf("asearcher answer %q of %s scores recall %v", a, tk.ID, sc.Recall)
			}
		}
	}

	wdir := filepath.Join(dir, "ws")
	if err := mustDataset(t, "widesearch").WriteDataset(ctx, src, wdir); err != nil {
		t.Fatal(err)
	}
	ws := readLines[WideSearchItem](t, filepath.Join(wdir, WideSearchTasks))
	for i, it := range ws {
		tk := src.Tasks[i]
		if it.InstanceID != tk.ID || len(it.Evaluation.Required) != len(tk.Answer.Columns) ||
			len(it.Evaluation.UniqueColumns) != 1 || it.Evaluation.UniqueColumns[0] != WideSearchColumn(tk.Answer.Columns[0]) ||
			strings.Count(it.Answer, "\n") != len(tk.Answer.Rows)+1 {
			t.Errorf("widesearch item %+v", it)
		}
		// The query asks for the table the evaluator reads, naming its
		// columns, as WideSearch's own queries do.
		if !strings.HasPrefix(it.Query, tk.Question) || !strings.Contains(it.Query, "Markdown table with the columns "+ColumnList(tk.Answer.Columns)) {
			t.Errorf("widesearch query %q does not ask for the table", it.Query)
		}
	}
	if err := mustDataset(t, "asearcher").WriteDataset(ctx, &Source{}, out); err != ErrNoTasks {
		t.Errorf("no tasks: %v", err)
	}
	if _, err := LookupDataset("parquet"); !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "verl") {
		t.Errorf("unknown format: %v", err)
	}
}

func TestBrowseCompPlusDir(t *testing.T) {
	src := sampleSource(t)
	w := webtest.OpenWeb(t)
	ctx := context.Background()
	// Oracle rollouts give runs that visit the evidence pages.
	b := w
	p := &agent.Oracle{Graph: w.Store().Graph(), Probe: b}
	for _, tk := range src.Tasks {
		tr, err := agent.Run(ctx, tk, p, b, &agent.Options{Deterministic: true})
		if err != nil {
			t.Fatal(err)
		}
		src.Trajectories = append(src.Trajectories, tr)
	}
	dir := filepath.Join(t.TempDir(), "bcp")
	if err := mustDataset(t, "browsecomp-plus").WriteDataset(ctx, src, dir); err != nil {
		t.Fatal(err)
	}
	q, _ := os.ReadFile(filepath.Join(dir, BCPQueries))
	lines := strings.Split(strings.TrimSpace(string(q)), "\n")
	if len(lines) != len(src.Tasks) || strings.Count(lines[0], "\t") != 1 || !strings.HasPrefix(lines[0], src.Tasks[0].ID+"\t") {
		t.Errorf("queries.tsv: %q", q)
	}
	qr, _ := os.ReadFile(filepath.Join(dir, BCPQrels))
	docs := map[string]bool{}
	for _, d := range readLines[BCPDoc](t, filepath.Join(dir, BCPCorpus)) {
		if d.DocID != d.URL || d.Text == "" {
			t.Errorf("corpus doc %+v", d)
		}
		docs[d.DocID] = true
	}
	for _, ln := range strings.Split(strings.TrimSpace(string(qr)), "\n") {
		f := strings.Fields(ln)
		if len(f) != 4 || f[1] != "0" || f[3] != "1" || !docs[f[2]] {
			t.Errorf("qrel line %q (evidence page in the corpus: %v)", ln, len(f) == 4 && docs[f[2]])
		}
	}
	runs, _ := filepath.Glob(filepath.Join(dir, BCPRuns, "run_*.json"))
	if len(runs) != len(src.Tasks) {
		t.Fatalf("%d run files", len(runs))
	}
	for _, p := range runs {
		b, _ := os.ReadFile(p)
		var r BCPRun
		if err := json.Unmarshal(b, &r); err != nil || r.Status != "completed" || len(r.RetrievedDocs) == 0 || r.Result[0].Type != "output_text" {
			t.Errorf("%s: %v %s", p, err, b)
		}
		for _, d := range r.RetrievedDocs {
			if !docs[d] {
				t.Errorf("%s retrieved %s, not in the corpus", p, d)
			}
		}
	}
	if gts := readLines[BCPGold](t, filepath.Join(dir, BCPGroundTruth)); len(gts) != len(src.Tasks) || gts[0].Answer == "" {
		t.Errorf("ground truth %v", gts)
	}
}

func mustDataset(t *testing.T, name string) Dataset {
	t.Helper()
	d, err := LookupDataset(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
