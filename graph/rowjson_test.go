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
