package graph_test

import "github.com/leaper-dev/leaper/graph/ingest"

// spillSmall makes finalize write its page fragments in many small runs.
var spillSmall = &ingest.Options{SpillBudget: 16 << 10}
