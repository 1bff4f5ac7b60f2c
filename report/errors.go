package report

import "errors"

var (
	// ErrNoStore is returned by Write without a store.
	ErrNoStore = errors.New("report: no store")
	// ErrSynthStats says a file is not leaper synth --json's report.
	ErrSynthStats = errors.New("report: synthesis report")
	// ErrEval says a file is not leaper eval --json's report.
	ErrEval = errors.New("report: evaluation report")
)
