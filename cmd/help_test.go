package cmd

import (
	"bytes"
	"context"
	"github.com/leaper-dev/leaper/cmd/cmdutil"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpEveryCommand runs --help on every command of the tree: each
// prints its help, exits 0 and opens no store.
func TestHelpEveryCommand(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(slices.Clone(path), sub.Name()))
		}
	}
	tree := NewRootCmd(&Factory{})
	tree.InitDefaultHelpCmd()
	tree.InitDefaultCompletionCmd()
	walk(tree, nil)
	if len(paths) < 10 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	for _, path := range paths {
		var out, errOut bytes.Buffer
		f := cmdutil.NewFactoryIO(IO{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		root := NewRootCmd(f)
		cmdutil.UsageArgs(root)
		root.SetArgs(append(slices.Clone(path), "--help"))
		c, err := root.ExecuteContextC(context.Background())
		opened := f.Opened()
		f.Close()
		name := strings.Join(append([]string{"leaper"}, path...), " ")
		code := cmdutil.ExitCode("leaper", cmdutil.CommandPath("leaper", c), &errOut, err, context.Background())
		if code != ExitOK || out.Len() == 0 || opened {
			t.Errorf("%s --help: exit %d, %d bytes of help, store opened %v; stderr %q", name, code, out.Len(), opened, errOut.String())
		}
	}
}

// TestUsageHintNamesCommand checks that a usage error points to the help of
// the command that failed, not to leaper's.
func TestUsageHintNamesCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		hint string
	}{
		{[]string{"serve", "--bogus"}, "leaper serve"},
		{[]string{"export", "--format", "nope", "x.jsonl"}, "leaper export"},
		{[]string{"export", "a.jsonl", "b.jsonl"}, "leaper export"},
		{[]string{"--bogus"}, "leaper"},
		{[]string{"nope"}, "leaper"},
	} {
		_, errOut, code := run(t, tc.args...)
		want := "Run '" + tc.hint + " --help' for usage.\n"
		if code != ExitUsage || !strings.HasSuffix(errOut, want) {
			t.Errorf("leaper %s: exit %d, stderr %q; want %d and %q", strings.Join(tc.args, " "), code, errOut, ExitUsage, want)
		}
	}
	// Commands under a parent are named by their whole path, under the
	// program's name.
	root := &cobra.Command{Use: "leaper-dev"}
	mid := &cobra.Command{Use: "task"}
	leaf := &cobra.Command{Use: "show ID"}
	root.AddCommand(mid)
	mid.AddCommand(leaf)
	if got := cmdutil.CommandPath("leaper", leaf); got != "leaper task show" {
		t.Errorf("commandPath: %q", got)
	}
	if got := cmdutil.CommandPath("leaper", root); got != "leaper" {
		t.Errorf("commandPath of the root: %q", got)
	}
}

// TestFlagBounds: out-of-range numbers are bad usage naming the flag,
// checked before any store is opened.
func TestFlagBounds(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "-k", "-1", "x"}, "--top must be at least 0"},
		{[]string{"mine", "--workers", "-1"}, "--workers must be at least 0"},
		{[]string{"tree", "--rows", "-1", "1"}, "--rows must be at least 0"},
		{[]string{"task", "--rows", "-3", "f", "id"}, "--rows must be at least 0"},
		{[]string{"rollout", "--tasks", "x", "--policy", "naive", "--max-steps", "0", "-o", "y"}, "--max-steps must be at least 1"},
		{[]string{"rollout", "--tasks", "x", "--policy", "naive", "--max-tokens", "-1", "-o", "y"}, "--max-tokens must be at least 1"},
		{[]string{"synth", "--expand", "1000"}, "--expand must be at most 8"},
		{[]string{"serve", "--grace", "-1s"}, "--grace must not be negative"},
		{[]string{"eval", "--omega", "NaN", "--tasks", "a", "b"}, "--omega must be a finite number"},
		{[]string{"filter", "--alpha", "+Inf", "x"}, "--alpha must be a finite number"},
	} {
		_, _, err := leaperIn(t, append([]string{"--store", filepath.Join(t.TempDir(), "none")}, c.args...)...)
		if !cmdutil.IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error %q", c.args, err, c.want)
		}
	}
}
