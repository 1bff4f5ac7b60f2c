package task

import (
	"encoding/json"
	"fmt"
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
	return nil, fmt.Errorf("task: empty term")
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
		return fmt.Errorf("task: a term is a string or a non-empty list of strings, not %s", clip(string(b), 40))
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
			return fmt.Errorf("task: empty variable name")
		}
		t.Var = s[2:]
	case strings.HasPrefix(s, "C@"):
		t.Consts = []string{s[2:]}
	case s == "":
		return fmt.Errorf("task: empty term")
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
		return fmt.Errorf("task: a triple is [subject, relation, object], not %s", clip(string(b), 60))
	}
	if err := json.Unmarshal(raw[0], &t.S); err != nil {
		return err
	}
	if err := json.Unmarshal(raw[1], &t.R); err != nil {
		return fmt.Errorf("task: relation must be a string, not %s", clip(string(raw[1]), 40))
	}
	return json.Unmarshal(raw[2], &t.O)
}

// Variant is the kind of a task: Basic, Union or ReverseUnion.
type Variant string

// Variants of a task.
const (
	Basic        Variant = "basic"
	Union        Variant = "union"
	ReverseUnion Variant = "reverse_union"
)

// ParseVariant normalises a variant name ("reverse-union" → "reverse_union");
// ok is false for an unknown name.
func ParseVariant(s string) (Variant, bool) {
	switch v := Variant(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")); v {
	case Basic, Union, ReverseUnion:
		return v, true
	case "reverseunion", "reverse":
		return ReverseUnion, true
	}
	return "", false
}

// Aggregate operators: the Op of an Aggregate, and of a query's head.
const (
	AggCount  = "count"
	AggSum    = "sum"
	AggAvg    = "avg"
	AggMin    = "min"
	AggMax    = "max"
	AggTop    = "top"
	AggBottom = "bottom"
	AggDiff   = "diff"
	AggMember = "member"
	// AggCountDiff compares two trees across a set: how many of X's values
	// are keys of the first tree, less how many are keys of the second.
	AggCountDiff = "countdiff"
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
// A "medal table" is the standings of a Games or a championship, the
// section's own name, not a table of the page.
func NamesTable(q string) bool { return namesTable.MatchString(medalTable.ReplaceAllString(q, "")) }

var medalTable = regexp.MustCompile(`(?i)\bmedal tables?\b`)

// Target is one entity of R, the set a solver must find.
type Target struct {
	Entity uint32 `json:"entity"`
	Name   string `json:"name"`
	Layer  int    `json:"layer"` // 2: a subtree root, 3: a leaf
	Tree   uint32 `json:"tree"`
	// Page is the URL of Tree's page: where a reader finds the target.
	Page     string `json:"page,omitempty"`
	Relation string `json:"relation,omitempty"` // for layer 3: the relation that links it
	// Beyond marks a value read beyond the task's own tables (Tree is
	// not one of Task.Trees): an attribute of its key entity itself.
	Beyond bool `json:"beyond,omitempty"`
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
