//go:build !unix

package synth_test

import "time"

// cpuTime is not measured here: the tasks/cpu-s metric reads 0.
func cpuTime() time.Duration { return 0 }
