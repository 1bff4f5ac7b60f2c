package cmd

import (
	"strings"
	"testing"
)

func TestReflow(t *testing.T) {
	in := "one two three\nfour five\n\nsix seven eight nine ten eleven\n\nsupercalifragilistic x"
	got := reflow(in, 10)
	want := "one two\nthree four\nfive\n\nsix seven\neight nine\nten eleven\n\nsupercalifragilistic\nx"
	if got != want {
		t.Errorf("reflow:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportHelpFits(t *testing.T) {
	c := newExportCmd(&Factory{}, nil)
	for i, l := range strings.Split(c.Long, "\n") {
		if len(l) > 80 {
			t.Errorf("line %d of export's help is %d bytes: %q", i+1, len(l), l)
		}
	}
}
