//go:build !unix

package buildbench

import "os"

// maxRSS is unknown (0) where rusage is not available.
func maxRSS(*os.ProcessState) int64 { return 0 }
