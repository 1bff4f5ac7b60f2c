package synth

import "errors"

// Sentinel errors. Errors returned by this package wrap them; test with
// errors.Is.
var (
	// ErrBadOptions reports unusable Options (an unknown variant, N < 0).
	ErrBadOptions = errors.New("synth: bad options")
	// ErrInvariant reports a task whose formalization does not evaluate to
	// its answer; Check returns it.
	ErrInvariant = errors.New("synth: formalization does not evaluate to the answer")
)
