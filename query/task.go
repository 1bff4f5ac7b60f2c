package query

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Term is one end of a triple in WebShaper's formalization: a variable
// "V@X", a constant "C@text", a union of constants ("C@1980_1981" or a JSON
// list of "C@..." strings), or the target "?".
type Term struct {
	Var    string   // variable name without "V@", when a variable
	Consts []string // constant texts without "C@", when constants
	Target bool     // "?"
}

// V returns a variable term.
func V(name string) Term { return Term{Var: name} }

// C returns a constant term (a union when several).
func C(texts ...string) Term { return Term{Consts: texts} }

// String is the term's JSON form, unquoted.
func (t Term) String() string {
	switch {
	case t.Target:
		return "?"
	case t.Var != "":
		return "V@" + t.Var
	case len(t.Consts) == 1:
		return "C@" + t.Consts[0]
	}
	parts := make([]string, len(t.Consts))
	for i, c := range t.Consts {
		parts[i] = "C@" + c
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// MarshalJSON writes "V@X", "C@text", "?" or a list of "C@..." strings.
func (t Term) MarshalJSON() ([]byte, error) {
	switch {
	case t.Target:
		return json.Marshal("?")
	case t.Var != "":
		return json.Marshal("V@" + t.Var)
	case len(t.Consts) == 1:
		return json.Marshal("C@" + t.Consts[0])
	case len(t.Consts) > 1:
		l := make([]string, len(t.Consts))
		for i, c := range t.Consts {
			l[i] = "C@" + c
		}
		return json.Marshal(l)
	}
	return nil, fmt.Errorf("query: empty term")
}

// UnmarshalJSON reads the forms MarshalJSON writes. A plain string without
// a prefix is read as a constant, as released files sometimes have them.
func (t *Term) UnmarshalJSON(b []byte) error {
	*t = Term{}
	var s string
	if json.Unmarshal(b, &s) == nil {
		return t.parseString(s)
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil || len(l) == 0 {
		return fmt.Errorf("query: a term is a string or a non-empty list of strings, not %s", clip(string(b), 40))
	}
	for _, x := range l {
		x = strings.TrimPrefix(x, "C@")
		t.Consts = append(t.Consts, x)
	}
	return nil
}

func (t *Term) parseString(s string) error {
	switch {
	case s == "?":
		t.Target = true
	case strings.HasPrefix(s, "V@"):
		if len(s) == 2 {
			return fmt.Errorf("query: empty variable name")
		}
		t.Var = s[2:]
	case strings.HasPrefix(s, "C@"):
		t.Consts = []string{s[2:]}
	case s == "":
		return fmt.Errorf("query: empty term")
	default:
		t.Consts = []string{s}
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Triple is [subject, relation, object]. The relation is a standardised
// relation name (has_nationality) or free text from released files.
type Triple struct {
	S Term
	R string
	O Term
}

// MarshalJSON writes the triple as a 3-element array.
func (t Triple) MarshalJSON() ([]byte, error) {
	return json.Marshal([3]any{t.S, t.R, t.O})
}

// UnmarshalJSON reads a 3-element array.
func (t *Triple) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 3 {
		return fmt.Errorf("query: a triple is [subject, relation, object], not %s", clip(string(b), 60))
	}
	if err := json.Unmarshal(raw[0], &t.S); err != nil {
		return err
	}
	if err := json.Unmarshal(raw[1], &t.R); err != nil {
		return fmt.Errorf("query: relation must be a string, not %s", clip(string(raw[1]), 40))
	}
	return json.Unmarshal(raw[2], &t.O)
}

// Variant is the kind of a task: Basic, Union or ReverseUnion.
type Variant string

// Variants of a task.
const (
	Basic        Variant = "basic"
	Union                = "union"
	ReverseUnion         = "reverse_union"
)

// Set operations of a Union task (Task.Op). WebLeaper's Union asks for "a
// relational operation across distinct reasoning trees"; WebAggregator
// adds counts.
const (
	OpUnion      = "union"      // keys of any of several trees, optionally filtered on a shared relation
	OpIntersect  = "intersect"  // keys of every one of 2-3 trees of different pages
	OpDifference = "difference" // keys of one tree and of none of 1-2 others (different pages)
	OpCount      = "count"      // a union, and how many keys it has
	OpCompare    = "compare"    // a union, and how many more keys one of its trees has than another
)

// namesTable matches questions that point at a table or page instead of
// naming a concept.
var namesTable = regexp.MustCompile(`(?i)\btables?\b|\bon the page\b|\bwikipedia article\b|\barticle's\b|\bthe article\b`)

// NamesTable reports whether a question names a table or a page ("the
// table X on the page Y") rather than the concept it records.
func NamesTable(q string) bool { return namesTable.MatchString(q) }

// Target is one entity of R, the set a solver must find.
type Target struct {
	Entity   uint32 `json:"entity"`
	Name     string `json:"name"`
	Layer    int    `json:"layer"` // 2: a subtree root, 3: a leaf
	Tree     uint32 `json:"tree"`
	Relation string `json:"relation,omitempty"` // for layer 3: the relation that links it
}

// Aggregate is the computed answer of an aggregation task.
type Aggregate struct {
	Op     string `json:"op"` // count, sum, avg, min, max, topk, diff, member, countdiff
	Column string `json:"column,omitempty"`
	Value  string `json:"value"`
}

// Answer is the expected answer table: the requested columns, one row per
// target subtree; or an aggregate with the rows it was computed from.
type Answer struct {
	Columns   []string   `json:"columns"`
	Rows      [][]string `json:"rows"`
	Aggregate *Aggregate `json:"aggregate,omitempty"`
}

// Task is an information-seeking task: T = <question, R>, with the formal
// query whose evaluation over the store is the answer.
type Task struct {
	ID      string  `json:"id"`
	Variant Variant `json:"variant"`
	// Op is the set operation of a Union task (union, intersect,
	// difference, count, compare); empty for the other variants.
	Op            string   `json:"op,omitempty"`
	Question      string   `json:"question"`
	Formalization []Triple `json:"formalization"`
	Answer        Answer   `json:"answer"`
	Targets       []Target `json:"targets"`
	Trees         []uint32 `json:"trees"`
	Seed          int64    `json:"seed"`
	// Expand is the number of layer-wise expansions applied (WebShaper).
	Expand int `json:"expand,omitempty"`
}

// ReadTasks reads tasks from a JSONL file; errors name the line.
func ReadTasks(path string) ([]*Task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeTasks(f, path)
}

// DecodeTasks reads tasks, one JSON object per line; blank lines are
// allowed. name is used in errors. A file of trajectories (leaper rollout's
// output, easily passed for tasks) is refused by name rather than with the
// decoder's complaint about its answer field.
func DecodeTasks(r io.Reader, name string) ([]*Task, error) {
	ts, err := DecodeLinesOf[Task](r, name, KindTask)
	if err != nil {
		return nil, err
	}
	// Ids name tasks everywhere (rewards, trajectories, exports): two
	// synth runs of one variant and seed give the same ids to different
	// tasks, and their outputs concatenated must not pass.
	first := make(map[string]int, len(ts))
	for i, t := range ts {
		if j, dup := first[t.ID]; dup {
			return nil, fmt.Errorf("%s: task id %q twice (tasks %d and %d): tasks from several leaper synth runs need a --seed each", name, t.ID, j+1, i+1)
		}
		first[t.ID] = i
	}
	return ts, nil
}

// The kinds of JSON line leaper writes, as LineKind tells them apart.
const (
	KindTask       = "task"       // leaper synth's tasks
	KindTrajectory = "trajectory" // leaper rollout's trajectories
)

// LineKind says which of leaper's files a JSON line looks like it is from:
// KindTask when it has a task's keys (formalization, targets, trees) and
// none of a trajectory's (task_id, messages, steps), KindTrajectory for the
// reverse, "" when neither.
func LineKind(b []byte) string {
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return ""
	}
	has := func(ks ...string) bool {
		for _, k := range ks {
			if _, ok := keys[k]; ok {
				return true
			}
		}
		return false
	}
	task, traj := has("formalization", "targets", "trees"), has("task_id", "messages", "steps")
	switch {
	case task && !traj:
		return KindTask
	case traj && !task:
		return KindTrajectory
	}
	return ""
}

// WrongKind is the error for a line of kind got where want was expected,
// or nil when the line is not plainly of the other kind.
func WrongKind(b []byte, want string) error {
	plural := map[string]string{KindTask: "a tasks file (leaper synth)", KindTrajectory: "a trajectories file (leaper rollout)"}
	bare := map[string]string{KindTask: "tasks (leaper synth)", KindTrajectory: "trajectories (leaper rollout)"}
	if got := LineKind(b); got != "" && got != want {
		return fmt.Errorf("this is %s, not %s", plural[got], bare[want])
	}
	return nil
}

// DecodeLines reads JSON Lines into values of T; blank lines are allowed.
// Errors name the line: "name:line: ...".
func DecodeLines[T any](r io.Reader, name string) ([]*T, error) {
	return DecodeLinesOf[T](r, name, "")
}

// notKind says why a line that does not decode is not of kind want.
func notKind(b []byte, want string) string {
	what := map[string]string{KindTask: "tasks as leaper synth writes them", KindTrajectory: "trajectories as leaper rollout writes them"}[want]
	if bytes.HasPrefix(b, []byte("PAR1")) {
		return "this is a parquet file; want JSON lines of " + what
	}
	// leaper export's JSON lines for other stacks.
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) == nil {
		for _, kf := range [][2]string{{"aug_answer", "asearcher"}, {"instance_id", "widesearch"}} {
			if _, ok := keys[kf[0]]; ok {
				return "this is leaper export --format " + kf[1] + "'s output; want JSON lines of " + what
			}
		}
	}
	return "want JSON lines of " + what
}

// DecodeLinesOf is DecodeLines for a file of lines of kind want (KindTask,
// KindTrajectory): a first line, or a line that does not decode, of the
// other kind is reported as such (WrongKind).
func DecodeLinesOf[T any](r io.Reader, name, want string) ([]*T, error) {
	return DecodeLinesValid[T](r, name, want, nil)
}

// DecodeLinesValid is DecodeLinesOf with valid run on every decoded value;
// its error is reported with the line.
func DecodeLinesValid[T any](r io.Reader, name, want string, valid func(*T) error) ([]*T, error) {
	check := func(b []byte) error {
		if want == "" {
			return nil
		}
		return WrongKind(b, want)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var out []*T
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if len(out) == 0 {
			if err := check(b); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
		v := new(T)
		if err := json.Unmarshal(b, v); err != nil {
			if cerr := check(b); cerr != nil {
				err = cerr
			} else if want != "" {
				err = fmt.Errorf("%w (%s)", err, notKind(b, want))
			}
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if valid != nil {
			if err := valid(v); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
