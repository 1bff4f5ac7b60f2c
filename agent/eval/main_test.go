package eval_test

import (
	"testing"

	"github.com/leaper-dev/leaper/ingest/storetest"
)

// TestMain removes the sample store the tests build.
func TestMain(m *testing.M) { storetest.Main(m) }
