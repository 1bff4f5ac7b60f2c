package graph

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestRowJSON: the hand-written row decoder gives what encoding/json
// gives, on the forms Marshal writes and on others (which fall back).
func TestRowJSON(t *testing.T) {
	for _, in := range []string{
		`{"key":1,"values":[[2,3],[],null,[4294967295]]}`,
		`{"key":0,"values":null}`,
		`{"key":7,"values":[]}`,
		`{"values":[[1]],"key":5}`,
		` { "key" : 5 , "values" : [ [ 1 ] ] } `,
		`{"key":5,"values":[[1]],"extra":true}`,
	} {
		var got Row
		if err := json.Unmarshal([]byte(in), &got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want rowJSON
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, Row(want)) {
			t.Errorf("%s: got %#v, want %#v", in, got, want)
		}
	}
	for _, in := range []string{`{"key":-1,"values":[]}`, `{"key":4294967296,"values":[]}`, `{"key":1,"values":[["a"]]}`} {
		var got Row
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
	rows := []Row{{Key: 3, Values: [][]uint32{{1, 2}, nil, {}}}, {Key: 4}}
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	var back []Row
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, rows) {
		t.Errorf("round trip: %v %#v", err, back)
	}
}

// TestTreeJSON: the hand-written tree decoder gives what encoding/json
// gives, on Marshal's output and on forms it leaves to encoding/json.
func TestTreeJSON(t *testing.T) {
	trees := []Tree{
		{},
		{ID: 7, TableKey: "k", Source: "a.html#table 0", PageTitle: "Ünïcode \"quoted\" \\ title", PageURL: "https://en.wikipedia.org/wiki/X",
			TableIndex: 3, Section: "S", Caption: "C <b>", Group: "a|b", Question: []uint32{1, 2}, KeyHeader: "Name",
			KeyDatatype: TypeEntity, KeyDomain: "person", Columns: []Column{{Header: "Year", Relation: 4, Name: "has_year", Datatype: TypeYear, Domain: "time"}, {}},
			Rows: []Row{{Key: 1, Values: [][]uint32{{2}, nil}}, {Key: 3, Values: [][]uint32{{}, {4, 5}}}}, Dropped: []string{"x: y"}, Untitled: true, Cut: true, TwinInText: true, SeveralKeys: 2,
			Shown: map[uint32]string{2: "Cork", 40: "Ünï \"q\""}, Decimals: map[string]int{"has_apg": 1, "Ünï \"q\"": 2}, Grouped: map[string]bool{"has_attendance": true, "x": false}, Comma: map[string]bool{"has_turnout": true}, Stated: map[string]string{"has_silver": "100", "Ünï \"q\"": "1,234"}},
		{ID: 1, Question: []uint32{}, Columns: []Column{}, Rows: []Row{}, Dropped: []string{}},
	}
	for i, tr := range trees {
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []string{string(b), " " + string(b), `{"id":9,"unknown":1}`, `{"id":-1}`,
			`{"page_title":"a\u00e9\ud83d\ude00\n\"\\\/"}`, `{"page_title":"\ud800"}`, `{"page_title":"bad \x"}`} {
			var got, want Tree
			if err := decodeTree([]byte(in), &got); err != nil {
				if json.Unmarshal([]byte(in), &want) == nil {
					t.Errorf("%d: %s: %v", i, in, err)
				}
				continue
			}
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d: %s:\ngot  %#v\nwant %#v", i, in, got, want)
			}
		}
	}
	var fast Tree
	// Every field set and no escapes: the fast path must take it, so a
	// field added to Tree without a case in the decoder is noticed (it
	// would still decode, through encoding/json, only slower).
	full := trees[1]
	v := reflect.ValueOf(full)
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			t.Errorf("the test tree leaves %s unset", v.Type().Field(i).Name)
		}
	}
	b, _ := json.Marshal(full)
	if err := fast.fast(b); err != nil {
		t.Errorf("a tree with every field fell back: %v", err)
	}
	b, _ = json.Marshal(trees[2])
	if err := fast.fast(b); err != nil {
		t.Errorf("Marshal's form fell back: %v", err)
	}
}
