package cmdutil

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestBytesFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"4GiB", 4 << 30, false},
		{"512MiB", 512 << 20, false},
		{"1.5GiB", 3 << 29, false},
		{"4GB", 4e9, false},
		{"1073741824", 1 << 30, false},
		{"0", 0, false},
		{"lots", 0, true},
		{"-1GiB", 0, true},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var v int64
		BytesVar(fs, &v, "max-memory", 7, "")
		err := fs.Parse([]string{"--max-memory", c.in})
		if (err != nil) != c.err || !c.err && v != c.want {
			t.Errorf("--max-memory %s: %d, %v; want %d (error %v)", c.in, v, err, c.want, c.err)
		}
	}
	var n int
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	BytesVar(fs, &n, "entity-cache", 0, "")
	if err := fs.Parse([]string{"--entity-cache=64MiB"}); err != nil || n != 64<<20 {
		t.Errorf("--entity-cache=64MiB: %d, %v", n, err)
	}
	if got := fs.Lookup("entity-cache").Value.String(); got != "64MiB" {
		t.Errorf("String() = %q, want 64MiB", got)
	}
}
