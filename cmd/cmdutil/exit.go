package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitError     = 1 // the command failed
	ExitUsage     = 2 // bad flags or arguments
	ExitPartial   = 3 // the command finished but some input was rejected
	ExitInterrupt = 130
)

// partialError reports that a command finished but rejected some input.
type partialError struct{ msg string }

func (e *partialError) Error() string { return e.msg }

// Partial is an error that exits with ExitPartial: the command finished
// but rejected some input.
func Partial(msg string) error { return &partialError{msg} }

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// Usage makes err an error that exits with ExitUsage and a hint to --help.
func Usage(err error) error { return &usageError{err} }

// UsageErrorf is an error that exits with ExitUsage and a hint to --help.
func UsageErrorf(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// Exec runs the command tree that build makes over the process's streams,
// as the program name, and returns the exit code.
func Exec(name string, build func(*Factory) *cobra.Command) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := NewFactory()
	root := build(f)
	UsageArgs(root)
	c, err := root.ExecuteContextC(ctx)
	// cobra's own errors for a wrong subcommand are untyped.
	if err != nil && strings.HasPrefix(err.Error(), "unknown command ") {
		err = &usageError{err}
	}
	f.Close()
	return ExitCode(name, CommandPath(name, c), f.IO.ErrOut, err, ctx)
}

// UsageArgs makes the errors of every command's argument check usage
// errors, as flag errors are (SetFlagErrorFunc).
func UsageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return &usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		UsageArgs(sub)
	}
}

// CommandPath is the path of c, the command that ran or failed to parse,
// under the program name: "leaper serve".
func CommandPath(name string, c *cobra.Command) string {
	var words []string
	for ; c != nil && c.HasParent(); c = c.Parent() {
		words = append(words, c.Name())
	}
	words = append(words, name)
	slices.Reverse(words)
	return strings.Join(words, " ")
}

// ExitCode maps err, the error of the command at path ("leaper serve"),
// to an exit code and prints it as the program name does; a usage error's
// hint names path.
func ExitCode(name, path string, errOut io.Writer, err error, ctx context.Context) int {
	if err == nil {
		return ExitOK
	}
	var pe *partialError
	var ue *usageError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintln(errOut, name+":", err)
		return ExitPartial
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintln(errOut, name+": interrupted")
		return ExitInterrupt
	case errors.As(err, &ue):
		fmt.Fprintln(errOut, name+":", err)
		fmt.Fprintf(errOut, "Run '%s --help' for usage.\n", path)
		return ExitUsage
	}
	fmt.Fprintln(errOut, name+":", err)
	return ExitError
}

// IsPartial reports whether err is a Partial error: the command finished
// but rejected some input.
func IsPartial(err error) bool {
	var pe *partialError
	return errors.As(err, &pe)
}

// IsUsage reports whether err is a usage error (Usage, UsageErrorf, a
// flag or argument error): the command exits with ExitUsage.
func IsUsage(err error) bool {
	var ue *usageError
	return errors.As(err, &ue)
}
