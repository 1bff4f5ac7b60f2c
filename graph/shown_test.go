package graph

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestShownEncoding(t *testing.T) {
	for _, ss := range [][]Shown{
		nil,
		{{ID: 0, Name: ""}},
		{{ID: 7, Name: "Marie Curie"}, {ID: 1 << 31, Name: "Zürich"}, {ID: 300, Name: "R&B"}},
	} {
		got, err := decodeShown(encodeShown(ss))
		if err != nil {
			t.Fatalf("decode(encode(%v)): %v", ss, err)
		}
		if len(ss) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, ss) {
			t.Errorf("decode(encode(%v)) = %v", ss, got)
		}
		// Stores built before the binary encoding hold JSON.
		j, _ := json.Marshal(ss)
		if got, err := decodeShown(j); err != nil || !reflect.DeepEqual(got, ss) {
			t.Errorf("decode(%s) = %v, %v", j, got, err)
		}
	}
	if _, err := decodeShown([]byte{shownBinary, 5, 9, 'a'}); err == nil {
		t.Error("a name running past the end decoded without error")
	}
	if _, err := decodeShown([]byte{shownBinary, 0x80}); err == nil {
		t.Error("a truncated id decoded without error")
	}
}

func FuzzDecodeShown(f *testing.F) {
	f.Add(encodeShown([]Shown{{ID: 3, Name: "Ada"}}))
	f.Add([]byte(`[{"id":1,"name":"x"}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ss, err := decodeShown(b)
		if err != nil || len(b) == 0 || b[0] != shownBinary {
			return
		}
		if again, err := decodeShown(encodeShown(ss)); err != nil || len(again) != len(ss) {
			t.Fatalf("re-encoding %v: %v, %v", ss, again, err)
		}
	})
}
