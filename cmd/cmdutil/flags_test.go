package cmdutil

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestFlagBounds runs a command through Setup with flags out of their
// bounds: each is refused as bad usage naming the flag, and values within
// them run.
func TestFlagBounds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" to run
	}{
		{nil, ""},
		{[]string{"--n", "8", "--rows", "0"}, ""},
		{[]string{"--rows", "-1"}, "--rows must be at least 0 (got -1)"},
		{[]string{"--n", "9"}, "--n must be at most 8 (got 9)"},
		{[]string{"--n", "-1"}, "--n must be at least 0 (got -1)"},
		{[]string{"--omega", "NaN"}, "--omega must be a finite number"},
		{[]string{"--wait", "-1s"}, "--wait must not be negative"},
	} {
		f := NewFactoryIO(IO{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
		ran := false
		c := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { ran = true; return nil }}
		Setup(f, c)
		c.Flags().Int("rows", 10, "")
		c.Flags().Int("n", 1, "")
		c.Flags().Float64("omega", 1, "")
		c.Flags().Duration("wait", 0, "")
		AtLeast(c.Flags(), "rows", 0)
		AtLeast(c.Flags(), "n", 0)
		AtMost(c.Flags(), "n", 8)
		c.SetArgs(tc.args)
		err := c.Execute()
		f.Close()
		switch {
		case tc.want == "" && (err != nil || !ran):
			t.Errorf("%v: %v, ran %v", tc.args, err, ran)
		case tc.want != "" && (err == nil || !IsUsage(err) || !strings.Contains(err.Error(), tc.want) || ran):
			t.Errorf("%v: %v, want a usage error %q", tc.args, err, tc.want)
		}
	}
}
