package report

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/leaper-dev/leaper/agent"
	"github.com/leaper-dev/leaper/agent/eval"
	"github.com/leaper-dev/leaper/graph"
	"github.com/leaper-dev/leaper/internal/hist"
	"github.com/leaper-dev/leaper/task"
	"github.com/leaper-dev/leaper/web"
)

// fact is one line of a fact table.
type fact struct {
	Name, Value string
}

// grid is a table with a header row, rendered as it is.
type grid struct {
	Head []string
	Rows [][]string
}

// page is everything the template and the script need.
type page struct {
	Title, Store string
	StoreFacts   []fact
	TaskFacts    []fact
	RunGrid      *grid
	EvalGrid     *grid
	Charts       map[string][]chart // by section: store, tasks, rollouts
	Data         *pageData
	Cards        *cardData
}

// pageData is the JSON the script reads as the page opens: the charts
// and the task list.
type pageData struct {
	Charts []chart    `json:"charts"`
	Runs   []string   `json:"runs"` // trajectory groups, in the order of cardData.Trajs' run index
	Tasks  []taskJSON `json:"tasks"`
}

// cardData is the JSON the script reads when a card is first opened or
// the list first searched: what the cards show, most of the page's bytes.
type cardData struct {
	Tasks []cardJSON          `json:"tasks"` // as pageData.Tasks
	Trees map[string]treeJSON `json:"trees"`
	Names map[string]string   `json:"names"`
	Trajs []trajJSON          `json:"trajs"`
}

type taskJSON struct {
	ID      string `json:"id"`
	V       string `json:"v"`
	Op      string `json:"op,omitempty"`
	Q       string `json:"q"`
	Targets int    `json:"n"`
	Trees   int    `json:"trees"`
	Pages   int    `json:"pages"`
	// ISR per run group (-1: no trajectory), for the list.
	ISR []float64 `json:"isr,omitempty"`
}

type cardJSON struct {
	F    string     `json:"f"`
	Cols []string   `json:"cols"`
	Rows [][]string `json:"rows"`
	Agg  string     `json:"agg,omitempty"`
	// Trees are the task's trees, then the other trees its targets come from.
	Trees []uint32 `json:"trees"`
	// T are the targets: [entity, layer, tree, column], the column being
	// the index of the target's relation among its tree's (-1 for a key,
	// or a relation the tree does not have).
	T [][4]int64 `json:"t"`
}

type treeJSON struct {
	Title string   `json:"title"`
	URL   string   `json:"url"`
	Key   string   `json:"key"`
	Rels  []string `json:"rels"` // the relation of each column
	Heads []string `json:"heads"`
	// Rows are [key, values of column 1, values of column 2, ...].
	Rows [][]any `json:"rows"`
}

type trajJSON struct {
	Task  int        `json:"task"` // index in tasks, -1 when not among them
	Run   int        `json:"run"`
	ISR   float64    `json:"isr"`
	ISE   float64    `json:"ise"`
	Valid float64    `json:"valid"`
	End   string     `json:"end"`
	Ans   string     `json:"answer,omitempty"`
	Steps []stepJSON `json:"steps"`
}

type stepJSON struct {
	Tool string   `json:"tool"`
	Args string   `json:"args,omitempty"`
	Err  string   `json:"err,omitempty"`
	Obs  int      `json:"obs"`
	New  []uint32 `json:"new,omitempty"`
}

// build gathers the report's numbers.
func build(ctx context.Context, g *graph.Store, o *Options) (*page, error) {
	p := &page{Title: o.Title, Store: o.Store, Charts: map[string][]chart{},
		Data:  &pageData{Charts: []chart{}, Runs: []string{}, Tasks: []taskJSON{}},
		Cards: &cardData{Tasks: []cardJSON{}, Trees: map[string]treeJSON{}, Names: map[string]string{}, Trajs: []trajJSON{}}}
	if err := p.storeSection(ctx, g); err != nil {
		return nil, err
	}
	o.Logger.Debug("report: store section done")
	trees, err := p.taskSection(ctx, g, o)
	if err != nil {
		return nil, err
	}
	o.Logger.Debug("report: task section done", "tasks", len(o.Tasks), "trees", len(trees))
	if err := p.runSection(ctx, g, o); err != nil {
		return nil, err
	}
	if err := p.hardness(ctx, g, o); err != nil {
		return nil, err
	}
	if err := p.cards(g, o.Tasks, trees); err != nil {
		return nil, err
	}
	for _, s := range []string{"store", "tasks", "rollouts"} {
		p.Data.Charts = append(p.Data.Charts, p.Charts[s]...)
	}
	return p, nil
}

func (p *page) storeSection(ctx context.Context, g *graph.Store) error {
	st, err := g.Stats(ctx)
	if err != nil {
		return fmt.Errorf("report: store statistics: %w", err)
	}
	c := st.Counts
	p.StoreFacts = []fact{
		{"tables read", fmt.Sprintf("%d", c.Tables)},
		{"trees (passed cleaning)", fmt.Sprintf("%d (%.1f%%)", c.Trees, 100*float64(c.Trees)/float64(max(1, c.Tables)))},
		{"tables rejected", fmt.Sprintf("%d", c.Rejected)},
		{"entities", fmt.Sprintf("%d", c.Entities)},
		{"relations", fmt.Sprintf("%d", c.Relations)},
		{"triples", fmt.Sprintf("%d", c.Triples)},
		{"passages", fmt.Sprintf("%d", c.Passages)},
		{"pages", fmt.Sprintf("%d", c.Pages)},
		{"isomorphism groups (2+ trees)", fmt.Sprintf("%d covering %d trees", st.Groups.Groups, st.Groups.Trees)},
		{"largest isomorphism group", fmt.Sprintf("%d trees: %s", st.Groups.Size, st.Groups.Largest)},
	}
	if c.Skipped > 0 {
		p.StoreFacts = append(p.StoreFacts, fact{"input records skipped", fmt.Sprintf("%d", c.Skipped)})
	}
	all := []string{"tables"}
	p.Charts["store"] = []chart{
		countChart("store-rejections", "Rejected tables, by cleaning reason", all, []map[string]int{st.Rejections}, 0),
		countChart("store-dropped", "Dropped columns, by reason", []string{"columns"}, []map[string]int{st.DropColumns}, 12),
		histChart("store-rows", "Rows per tree", "rows", []string{"trees"}, []hist.Histogram{st.Rows}),
		histChart("store-rels", "Relations per tree", "relations", []string{"trees"}, []hist.Histogram{st.Columns}),
		countChart("store-keys", "Key columns, by datatype/domain", []string{"trees"}, []map[string]int{st.KeyDomains}, 12),
		countChart("store-datatypes", "Relation datatypes", []string{"columns"}, []map[string]int{st.Datatypes}, 0),
	}
	return nil
}

var targetBounds = []int{10, 20, 50, 100, 200, 500}

// taskClass is a task's variant, with its operation for a union.
func taskClass(t *task.Task) string {
	if t.Op != "" {
		return string(t.Variant) + "/" + t.Op
	}
	return string(t.Variant)
}

// taskSection charts the tasks and returns every tree their cards show.
func (p *page) taskSection(ctx context.Context, g *graph.Store, o *Options) (map[uint32]*graph.Tree, error) {
	trees := map[uint32]*graph.Tree{}
	tree := func(id uint32) (*graph.Tree, error) {
		if t, ok := trees[id]; ok {
			return t, nil
		}
		t, err := g.Tree(id)
		if err != nil {
			return nil, fmt.Errorf("report: tree %d: %w", id, err)
		}
		trees[id] = t
		return t, nil
	}
	if len(o.Tasks) == 0 && len(o.Synth) == 0 {
		return trees, nil
	}
	byClass := map[string][3]hist.Histogram{}
	variants := map[string]int{}
	expanded, aggs := 0, map[string]int{}
	treeBounds := []int{2, 3, 4, 5, 6, 8, 10}
	for i, t := range o.Tasks {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		variants[string(t.Variant)]++
		if t.Expand > 0 {
			expanded++
		}
		if t.Answer.Aggregate != nil {
			aggs[t.Answer.Aggregate.Op]++
		}
		pages := map[string]bool{}
		ids := slices.Clone(t.Trees)
		for _, tg := range t.Targets {
			if !slices.Contains(ids, tg.Tree) {
				ids = append(ids, tg.Tree)
			}
		}
		for _, id := range ids {
			tr, err := tree(id)
			if err != nil {
				return nil, fmt.Errorf("task %s: %w", t.ID, err)
			}
			pages[tr.PageURL] = true
		}
		k := taskClass(t)
		hs, ok := byClass[k]
		if !ok {
			hs = [3]hist.Histogram{hist.NewInt(targetBounds...), hist.NewInt(treeBounds...), hist.NewInt(treeBounds...)}
		}
		hs[0].Add(float64(len(t.Targets)))
		hs[1].Add(float64(len(t.Trees)))
		hs[2].Add(float64(len(pages)))
		byClass[k] = hs
		p.Data.Tasks = append(p.Data.Tasks, taskJSON{ID: t.ID, V: string(t.Variant), Op: t.Op, Q: t.Question,
			Targets: len(t.Targets), Trees: len(t.Trees), Pages: len(pages)})
		p.Cards.Tasks = append(p.Cards.Tasks, cardJSON{Trees: ids})
	}
	classes := sortedKeys(byClass)
	var rs, ts, ps []hist.Histogram
	for _, k := range classes {
		rs, ts, ps = append(rs, byClass[k][0]), append(ts, byClass[k][1]), append(ps, byClass[k][2])
	}
	p.TaskFacts = append(p.TaskFacts, fact{"tasks", fmt.Sprintf("%d", len(o.Tasks))})
	for _, v := range sortedKeys(variants) {
		p.TaskFacts = append(p.TaskFacts, fact{v, fmt.Sprintf("%d", variants[v])})
	}
	if expanded > 0 {
		p.TaskFacts = append(p.TaskFacts, fact{"expanded (WebShaper)", fmt.Sprintf("%d", expanded)})
	}
	for _, a := range sortedKeys(aggs) {
		p.TaskFacts = append(p.TaskFacts, fact{"aggregate " + a, fmt.Sprintf("%d", aggs[a])})
	}
	if len(o.Tasks) > 0 {
		p.Charts["tasks"] = append(p.Charts["tasks"],
			histChart("tasks-targets", "Targets per task |R|, by variant and operation", "|R|", classes, rs),
			histChart("tasks-trees", "Trees per task", "trees", classes, ts),
			histChart("tasks-pages", "Pages per task (the trees' pages)", "pages", classes, ps))
	}
	if len(o.Synth) > 0 {
		var names []string
		var ms []map[string]int
		cands, emitted := 0, 0
		for _, s := range o.Synth {
			names, ms = append(names, s.Variant), append(ms, s.Dropped)
			cands, emitted = cands+s.Candidates, emitted+s.Emitted
		}
		c := countChart("tasks-refusals", "Candidates refused by synthesis, by reason", names, ms, 0)
		c.Stacked = true
		c.Note = fmt.Sprintf("%d candidates, %d tasks emitted", cands, emitted)
		p.Charts["tasks"] = append(p.Charts["tasks"], c)
	}
	return trees, nil
}

// group is the trajectories of one policy and model within one run.
type group struct {
	name string
	trs  []*agent.Trajectory
}

func groups(runs []Run) []group {
	var out []group
	for _, r := range runs {
		by := map[string][]*agent.Trajectory{}
		for _, t := range r.Trajectories {
			k := t.Policy
			if t.Model != "" {
				k += "/" + t.Model
			}
			by[k] = append(by[k], t)
		}
		for _, k := range sortedKeys(by) {
			name := r.Name
			if len(by) > 1 || name == "" {
				name = strings.TrimPrefix(name+": "+k, ": ")
			}
			out = append(out, group{name: name, trs: by[k]})
		}
	}
	return out
}

func (p *page) runSection(ctx context.Context, g *graph.Store, o *Options) error {
	gs := groups(o.Runs)
	if len(gs) == 0 {
		if o.Eval != nil {
			p.EvalGrid = evalGrid(o.Eval)
		}
		return nil
	}
	index := map[string]int{}
	for i, t := range o.Tasks {
		if _, ok := index[t.ID]; !ok {
			index[t.ID] = i
		}
	}
	for i := range p.Data.Tasks {
		p.Data.Tasks[i].ISR = slices.Repeat([]float64{-1}, len(gs))
	}
	names := make([]string, len(gs))
	isr, ise, valid, calls := make([]hist.Histogram, len(gs)), make([]hist.Histogram, len(gs)), make([]hist.Histogram, len(gs)), make([]hist.Histogram, len(gs))
	ends := make([]map[string]int, len(gs))
	cove := chart{ID: "runs-coverage", Title: "Coverage (ISR) against efficiency (ISE), one point per trajectory", Kind: "scatter", X: "ISR", Y: "ISE", XMax: 1}
	grid := &grid{Head: []string{"measure"}}
	rows := map[string][]string{}
	order := []string{"trajectories", "ISR mean", "ISR median", "ISE mean", "ISE median", "valid-action rate", "tool calls mean", "answered"}
	if o.Score && len(o.Tasks) > 0 {
		order = append(order, "soft F", "success rate", "row F1", "item F1")
	}
	for gi, gr := range gs {
		names[gi] = gr.name
		p.Data.Runs = append(p.Data.Runs, gr.name)
		isr[gi], valid[gi] = hist.New(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9), hist.New(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
		ise[gi], calls[gi] = hist.New(0.5, 1, 2, 5, 10, 20, 50), hist.NewInt(2, 5, 10, 20, 30, 40, 60)
		ends[gi] = map[string]int{}
		s := series{Name: gr.name}
		var xs [4][]float64
		answered := 0
		for _, t := range gr.trs {
			if err := ctx.Err(); err != nil {
				return err
			}
			m := t.Metrics
			isr[gi].Add(m.ISR)
			ise[gi].Add(m.ISE)
			valid[gi].Add(m.ValidRate)
			calls[gi].Add(float64(len(t.Steps)))
			ends[gi][string(t.End)]++
			if t.End == agent.EndAnswer {
				answered++
			}
			xs[0], xs[1], xs[2], xs[3] = append(xs[0], m.ISR), append(xs[1], m.ISE), append(xs[2], m.ValidRate), append(xs[3], float64(len(t.Steps)))
			ti, ok := index[t.TaskID]
			if !ok {
				ti = -1
			} else if p.Data.Tasks[ti].ISR[gi] < 0 {
				p.Data.Tasks[ti].ISR[gi] = round3(m.ISR)
			}
			s.Points = append(s.Points, [2]float64{round3(m.ISR), round3(m.ISE)})
			s.Tasks = append(s.Tasks, ti)
			p.Cards.Trajs = append(p.Cards.Trajs, trajJSON{Task: ti, Run: gi, ISR: round3(m.ISR), ISE: round3(m.ISE),
				Valid: round3(m.ValidRate), End: string(t.End), Ans: clip(t.Answer, 400), Steps: steps(t.Steps)})
		}
		cove.Series = append(cove.Series, s)
		grid.Head = append(grid.Head, gr.name)
		isrS, iseS, vS, cS := eval.Summarize(xs[0]), eval.Summarize(xs[1]), eval.Summarize(xs[2]), eval.Summarize(xs[3])
		vals := map[string]string{
			"trajectories": fmt.Sprintf("%d", len(gr.trs)),
			"ISR mean":     fmt.Sprintf("%.3f", isrS.Mean), "ISR median": fmt.Sprintf("%.3f", isrS.Median),
			"ISE mean": fmt.Sprintf("%.3f", iseS.Mean), "ISE median": fmt.Sprintf("%.3f", iseS.Median),
			"valid-action rate": fmt.Sprintf("%.3f", vS.Mean), "tool calls mean": fmt.Sprintf("%.1f", cS.Mean),
			"answered": fmt.Sprintf("%.1f%%", 100*float64(answered)/float64(max(1, len(gr.trs)))),
		}
		if o.Score && len(o.Tasks) > 0 {
			rep := eval.Evaluate(ctx, o.Tasks, gr.trs, &eval.Scorer{Graph: g})
			if all := rep.Groups[len(rep.Groups)-1]; all.N > 0 {
				vals["soft F"], vals["success rate"] = fmt.Sprintf("%.3f", all.F), fmt.Sprintf("%.3f", all.SuccessRate)
				vals["row F1"], vals["item F1"] = fmt.Sprintf("%.3f", all.RowF1), fmt.Sprintf("%.3f", all.ItemF1)
			}
		}
		for _, k := range order {
			v := vals[k]
			if v == "" {
				v = "–"
			}
			rows[k] = append(rows[k], v)
		}
	}
	for _, k := range order {
		grid.Rows = append(grid.Rows, append([]string{k}, rows[k]...))
	}
	p.RunGrid = grid
	if o.Eval != nil {
		p.EvalGrid = evalGrid(o.Eval)
	}
	p.Charts["rollouts"] = []chart{
		histChart("runs-isr", "Information-seeking rate (ISR) per trajectory", "ISR", names, isr),
		histChart("runs-ise", "Information-seeking efficiency (ISE) per trajectory", "ISE", names, ise),
		histChart("runs-calls", "Tool calls per task", "tool calls", names, calls),
		histChart("runs-valid", "Valid-action rate per trajectory", "valid steps / steps", names, valid),
		cove,
		countChart("runs-ends", "How the runs ended", names, ends, 0),
	}
	if c := pairChart(p.Data.Tasks, o.Tasks, names); c != nil {
		p.Charts["rollouts"] = append(p.Charts["rollouts"], *c)
	}
	return nil
}

// pairChart draws the first two runs against each other, ISR per task,
// one point per task both ran; nil without two runs and tasks.
func pairChart(rows []taskJSON, tasks []*task.Task, names []string) *chart {
	if len(names) < 2 || len(tasks) == 0 {
		return nil
	}
	by := map[string]*series{}
	for i, r := range rows {
		a, b := r.ISR[0], r.ISR[1]
		if a < 0 || b < 0 {
			continue
		}
		k := taskClass(tasks[i])
		if by[k] == nil {
			by[k] = &series{Name: k}
		}
		by[k].Points = append(by[k].Points, [2]float64{a, b})
		by[k].Tasks = append(by[k].Tasks, i)
	}
	if len(by) == 0 {
		return nil
	}
	c := &chart{ID: "runs-pair", Title: fmt.Sprintf("ISR per task: %s against %s", names[1], names[0]), Kind: "scatter",
		X: names[0] + " ISR", Y: names[1] + " ISR", XMax: 1, YMax: 1}
	for _, k := range sortedKeys(by) {
		c.Series = append(c.Series, *by[k])
	}
	return c
}

func evalGrid(r *eval.Report) *grid {
	gr := &grid{Head: []string{"variant", "n", "ISR", "ISE", "valid", "P", "R", fmt.Sprintf("F(ω=%g)", r.Omega), "success", "row F1", "item F1"}}
	for _, x := range r.Groups {
		gr.Rows = append(gr.Rows, []string{x.Variant, fmt.Sprint(x.N), f3(x.ISR.Mean), f3(x.ISE.Mean), f3(x.ValidRate.Mean),
			f3(x.Precision), f3(x.Recall), f3(x.F), f3(x.SuccessRate), f3(x.RowF1), f3(x.ItemF1)})
	}
	return gr
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }

func steps(ss []agent.Step) []stepJSON {
	out := make([]stepJSON, len(ss))
	for i, s := range ss {
		out[i] = stepJSON{Tool: s.Tool, Args: describe(&s), Err: clip(s.Error, 160), Obs: len(s.Observed), New: s.New}
	}
	return out
}

// describe is what a step asked for, as a reader wants it: a search's
// queries (and year), a visit's pages, else its arguments.
func describe(s *agent.Step) string {
	switch s.Tool {
	case "search":
		if qs, _, year, ok := web.ParseSearchArgs(s.Args); ok {
			d := strings.Join(qs, " | ")
			if year != 0 {
				d += fmt.Sprintf(" (year %d)", year)
			}
			return clip(d, 240)
		}
	case "visit":
		if len(s.URLs) > 0 {
			return clip(strings.Join(s.URLs, " "), 240)
		}
	}
	return clip(string(s.Args), 240)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// hardness draws naive against oracle ISR per task: from the runs when
// they hold both policies' trajectories of a task, else by running both
// over o.Backend.
func (p *page) hardness(ctx context.Context, g *graph.Store, o *Options) error {
	if len(o.Tasks) == 0 {
		return nil
	}
	naive := map[string]float64{}
	oracle := map[string]float64{}
	for _, r := range o.Runs {
		for _, t := range r.Trajectories {
			switch t.Policy {
			case "naive":
				if _, ok := naive[t.TaskID]; !ok {
					naive[t.TaskID] = t.Metrics.ISR
				}
			case "oracle":
				if _, ok := oracle[t.TaskID]; !ok {
					oracle[t.TaskID] = t.Metrics.ISR
				}
			}
		}
	}
	source := "from the naive and oracle trajectories given"
	if (len(naive) == 0 || len(oracle) == 0) && o.Backend != nil {
		source = "naive and oracle run over the store's offline web"
		run := func(pol agent.Policy, into map[string]float64) error {
			return agent.RunAll(ctx, o.Tasks, pol, o.Backend, &agent.Options{Deterministic: true, Workers: o.Workers},
				func(i int, t *agent.Trajectory) error {
					into[o.Tasks[i].ID] = t.Metrics.ISR
					return nil
				})
		}
		naive, oracle = map[string]float64{}, map[string]float64{}
		if err := run(&agent.Naive{}, naive); err != nil {
			return fmt.Errorf("report: hardness: naive: %w", err)
		}
		if err := run(&agent.Oracle{Graph: g, Probe: o.Backend}, oracle); err != nil {
			return fmt.Errorf("report: hardness: oracle: %w", err)
		}
	}
	by := map[string]*series{}
	for i, t := range o.Tasks {
		n, ok1 := naive[t.ID]
		or, ok2 := oracle[t.ID]
		if !ok1 || !ok2 {
			continue
		}
		k := taskClass(t)
		if by[k] == nil {
			by[k] = &series{Name: k}
		}
		by[k].Points = append(by[k].Points, [2]float64{round3(n), round3(or)})
		by[k].Tasks = append(by[k].Tasks, i)
	}
	if len(by) == 0 {
		return nil
	}
	c := chart{ID: "tasks-hardness", Title: "Hardness: naive against oracle ISR, one point per task", Kind: "scatter",
		X: "naive ISR (search the question, visit 5 hits)", Y: "oracle ISR", Note: source, XMax: 1, YMax: 1}
	for _, k := range sortedKeys(by) {
		c.Series = append(c.Series, *by[k])
	}
	p.Charts["tasks"] = append(p.Charts["tasks"], c)
	return nil
}

// cards fills the task cards' data: each task's answer and targets, and
// the rows and entity names of every tree a card shows.
func (p *page) cards(g *graph.Store, tasks []*task.Task, trees map[uint32]*graph.Tree) error {
	need := map[uint32]bool{}
	for i, t := range tasks {
		d := &p.Cards.Tasks[i]
		f, _ := json.Marshal(t.Formalization)
		d.F, d.Cols, d.Rows = string(f), t.Answer.Columns, t.Answer.Rows
		if d.Cols == nil {
			d.Cols = []string{}
		}
		if d.Rows == nil {
			d.Rows = [][]string{}
		}
		if a := t.Answer.Aggregate; a != nil {
			d.Agg = strings.TrimSpace(fmt.Sprintf("%s(%s) = %s", a.Op, a.Column, a.Value))
		}
		d.T = make([][4]int64, len(t.Targets))
		for j, tg := range t.Targets {
			col := int64(-1)
			if tr := trees[tg.Tree]; tg.Layer != 2 && tr != nil {
				col = int64(slices.IndexFunc(tr.Columns, func(c graph.Column) bool { return c.Name == tg.Relation }))
			}
			d.T[j] = [4]int64{int64(tg.Entity), int64(tg.Layer), int64(tg.Tree), col}
			p.Cards.Names[fmt.Sprint(tg.Entity)] = tg.Name
		}
	}
	ids := make([]uint32, 0, len(trees))
	for id := range trees {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		t := trees[id]
		tj := treeJSON{Title: t.Title(), URL: t.PageURL, Key: t.KeyHeader, Rows: make([][]any, len(t.Rows))}
		for _, c := range t.Columns {
			tj.Rels, tj.Heads = append(tj.Rels, c.Name), append(tj.Heads, c.Header)
		}
		for i, r := range t.Rows {
			row := make([]any, 0, 1+len(r.Values))
			row = append(row, r.Key)
			need[r.Key] = true
			for _, vs := range r.Values {
				row = append(row, vs)
				for _, v := range vs {
					need[v] = true
				}
			}
			tj.Rows[i] = row
		}
		p.Cards.Trees[fmt.Sprint(id)] = tj
	}
	// Steps name the targets they revealed; those are targets, named above.
	var want []uint32
	for id := range need {
		if _, ok := p.Cards.Names[fmt.Sprint(id)]; !ok {
			want = append(want, id)
		}
	}
	slices.Sort(want)
	const batch = 4096
	for len(want) > 0 {
		n := min(batch, len(want))
		es, err := g.Entities(want[:n])
		if err != nil {
			return fmt.Errorf("report: entity names: %w", err)
		}
		for _, e := range es {
			p.Cards.Names[fmt.Sprint(e.ID)] = e.Name
		}
		want = want[n:]
	}
	return nil
}
