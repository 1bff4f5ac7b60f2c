package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"

	"github.com/spf13/cobra"
)

func sampleFactory(t *testing.T) (*Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := cmdutil.NewFactoryIO(IO{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	t.Cleanup(func() { f.Close() })
	return f, &out, &errOut
}

func TestQueryFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    QueryOptions
		wantErr bool
	}{
		{args: []string{"query", "has_x(T, 1)"}, want: QueryOptions{Query: "has_x(T, 1)"}},
		{args: []string{"query", "--json", "--limit", "5", "q"}, want: QueryOptions{Query: "q", JSON: true, Limit: 5}},
		{args: []string{"query"}, wantErr: true},
		{args: []string{"query", "a", "b"}, wantErr: true},
		{args: []string{"query", "--limit", "-1", "q"}, wantErr: true},
	}
	for _, tt := range tests {
		f, _, _ := sampleFactory(t)
		var got *QueryOptions
		root := NewRootCmd(f)
		root.RemoveCommand(findCmd(root, "query"))
		root.AddCommand(newQueryCmd(f, func(_ context.Context, o *QueryOptions) error { got = o; return nil }))
		root.SetArgs(tt.args)
		err := root.Execute()
		if (err != nil) != tt.wantErr {
			t.Errorf("%v: err %v, wantErr %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && (got.Query != tt.want.Query || got.JSON != tt.want.JSON || got.Limit != tt.want.Limit) {
			t.Errorf("%v: got %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

func findCmd(root *cobra.Command, name string) *cobra.Command {
	c, _, _ := root.Find([]string{name})
	return c
}

func TestRunQuery(t *testing.T) {
	f, out, errOut := sampleFactory(t)
	f.Store = storetest.SampleStore(t)
	opts := &QueryOptions{IO: f.IO, OpenStore: f.OpenStore, Query: "?T, G: in_tree(T, 40), has_gold(T, G), G >= 1", Limit: 2}
	if err := runQuery(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	// The medal table's "Total" row is a summary, not a nation: cleaning drops it.
	if !strings.Contains(out.String(), "Soviet Union at the 1988 Summer Olympics") || strings.Contains(out.String(), "Total") || !strings.Contains(errOut.String(), "2 of ") {
		t.Errorf("table output:\n%s\nstderr: %s", out, errOut)
	}
	out.Reset()
	opts.JSON, opts.Limit = true, 0
	opts.Query = "count(T): in_tree(T, 45)"
	if err := runQuery(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var got QueryOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Aggregate == nil || got.Aggregate.Value != "14" || got.Total != 14 || got.Rows[0][0].Name == "" {
		t.Errorf("json output: %+v", got)
	}
	opts.Query = "has_gold(T, G"
	if err := runQuery(context.Background(), opts); err == nil || cmdutil.ExitCode("leaper", "leaper", &bytes.Buffer{}, err, context.Background()) != ExitUsage {
		t.Errorf("syntax error: %v, want a usage error", err)
	}
}
