//go:build !linux

package index

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() int64 { return 0 }
