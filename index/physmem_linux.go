package index

import "syscall"

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
