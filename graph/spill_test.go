package graph_test

import (
	"github.com/leaper-dev/leaper/ingest"
)

// spillSmall makes finalize write its page fragments and its bitmap pairs
// in many small runs.
var spillSmall = &ingest.Options{SpillBudget: 16 << 10}
