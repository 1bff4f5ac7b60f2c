package cmdutil

import (
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flag annotations that hold an integer flag's bounds.
const (
	annotMin = "leaper.min"
	annotMax = "leaper.max"
)

// AtLeast bounds the integer flag name of fs from below: a command run
// with a smaller value fails as bad usage naming the flag. The command's
// other bounds it checks itself.
func AtLeast(fs *pflag.FlagSet, name string, least int) {
	fs.SetAnnotation(name, annotMin, []string{strconv.Itoa(least)})
}

// AtMost bounds the integer flag name of fs from above, as AtLeast does
// from below.
func AtMost(fs *pflag.FlagSet, name string, most int) {
	fs.SetAnnotation(name, annotMax, []string{strconv.Itoa(most)})
}

// bound is the bound of fl under key, if it has one.
func bound(fl *pflag.Flag, key string) (int, bool) {
	v, ok := fl.Annotations[key]
	if !ok || len(v) != 1 {
		return 0, false
	}
	n, err := strconv.Atoi(v[0])
	return n, err == nil
}

// checkFlags refuses, as bad usage naming the flag, an integer flag below
// its floor (AtLeast) or above its ceiling (AtMost), a float flag that is
// not a finite number and a negative duration, for every command.
func checkFlags(c *cobra.Command) error {
	var bad error
	fail := func(err error) {
		if bad == nil {
			bad = err
		}
	}
	// Floors first, then ceilings, then the rest, each in flag order.
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if least, ok := bound(fl, annotMin); ok {
			if v, err := c.Flags().GetInt(fl.Name); err == nil && v < least {
				fail(UsageErrorf("--%s must be at least %d (got %d)", fl.Name, least, v))
			}
		}
	})
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if most, ok := bound(fl, annotMax); ok {
			if v, err := c.Flags().GetInt(fl.Name); err == nil && v > most {
				fail(UsageErrorf("--%s must be at most %d (got %d)", fl.Name, most, v))
			}
		}
	})
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		switch fl.Value.Type() {
		case "float64":
			if v, err := c.Flags().GetFloat64(fl.Name); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				fail(UsageErrorf("--%s must be a finite number (got %v)", fl.Name, v))
			}
		case "duration":
			if v, err := c.Flags().GetDuration(fl.Name); err == nil && v < 0 {
				fail(UsageErrorf("--%s must not be negative (got %v)", fl.Name, v))
			}
		}
	})
	return bad
}
