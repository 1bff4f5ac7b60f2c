package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/leaper-dev/leaper/mining"
)

func TestMineFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    MineOptions
		wantErr bool
	}{
		{args: []string{"mine"}, want: MineOptions{MinTrees: 2, MinRelations: 2}},
		{args: []string{"mine", "--min-trees", "3", "--min-relations", "4"}, want: MineOptions{MinTrees: 3, MinRelations: 4}},
		{args: []string{"mine", "--graph", "g.adj"}, want: MineOptions{MinTrees: 2, MinRelations: 2, GraphFile: "g.adj"}},
		{args: []string{"mine", "--export-graph", "o.adj"}, want: MineOptions{MinTrees: 2, MinRelations: 2, Export: "o.adj"}},
		{args: []string{"mine", "--graph", "a", "--export-graph", "b"}, wantErr: true},
		{args: []string{"mine", "--min-trees", "0"}, wantErr: true},
		{args: []string{"mine", "--graph", "g.adj", "--count"}, want: MineOptions{MinTrees: 2, MinRelations: 2, GraphFile: "g.adj", Count: true}},
		{args: []string{"mine", "--count", "--export-graph", "o.adj"}, wantErr: true},
		{args: []string{"mine", "extra"}, wantErr: true},
	}
	for _, tt := range tests {
		f, _, _ := sampleFactory(t)
		var got *MineOptions
		root := NewRootCmd(f)
		root.RemoveCommand(findCmd(root, "mine"))
		root.AddCommand(newMineCmd(f, func(_ context.Context, o *MineOptions) error { got = o; return nil }))
		root.SetArgs(tt.args)
		err := root.Execute()
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: err %v, wantErr %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && (got.MinTrees != tt.want.MinTrees || got.MinRelations != tt.want.MinRelations ||
			got.GraphFile != tt.want.GraphFile || got.Export != tt.want.Export || got.Count != tt.want.Count) {
			t.Errorf("%v: got %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

func TestRunMine(t *testing.T) {
	f, out, errOut := sampleFactory(t)
	f.Store = storetest.SampleStore(t)
	opts := &MineOptions{IO: f.IO, OpenStore: f.OpenStore, MinTrees: 3, MinRelations: 4, Workers: 1}
	if err := runMine(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	n, medals := 0, false
	for sc.Scan() {
		var u mining.UnionGroup
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		n++
		medals = medals || len(u.Trees) >= 9 && strings.Contains(strings.Join(u.Relations, ","), "has_gold")
	}
	if n == 0 || !medals || !strings.Contains(errOut.String(), "union groups") {
		t.Errorf("%d groups, medal group %v\n%s", n, medals, errOut)
	}

	// Export, then mine the exported file: the same bicliques as the store
	// graph, one "left | right" line each.
	dir := t.TempDir()
	adj := filepath.Join(dir, "g.adj")
	opts.Export = adj
	if err := runMine(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var ids GraphIDs
	data, err := os.ReadFile(adj + ".ids.json")
	if err != nil || json.Unmarshal(data, &ids) != nil || len(ids.Left) != 55 || !strings.Contains(ids.Right[0], "|") {
		t.Fatalf("sidecar: %v %+v", err, ids.Left[:1])
	}
	out.Reset()
	opts.Export, opts.GraphFile = "", adj
	if err := runMine(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) == 0 || !strings.Contains(lines[0], " | ") || !strings.Contains(errOut.String(), "maximal bicliques") {
		t.Errorf("bicliques output %q\n%s", lines, errOut)
	}

	// --count prints only the number of lines the default writes.
	out.Reset()
	opts.Count = true
	if err := runMine(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), strconv.Itoa(len(lines))+"\n"; got != want {
		t.Errorf("--count printed %q, want %q", got, want)
	}
	out.Reset()
	opts.GraphFile = ""
	if err := runMine(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), strconv.Itoa(n)+"\n"; got != want {
		t.Errorf("--count on the store printed %q, want %q", got, want)
	}
}
