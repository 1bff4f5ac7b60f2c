// Package procmem reads the process's memory figures from the kernel's
// /proc/self/status, for progress lines, memory trimming and benchmarks.
// Where there is no such file (not Linux), every figure is 0.
package procmem

import (
	"bytes"
	"os"
	"strconv"
)

// Usage is the process's memory, in bytes.
type Usage struct {
	RSS  int64 // resident memory (VmRSS)
	Peak int64 // peak resident memory (VmHWM)
	Anon int64 // resident anonymous memory (RssAnon)
	File int64 // resident pages of mapped files (RssFile)
}

// Read returns the process's memory now; a figure the kernel does not give
// is 0.
func Read() Usage {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return Usage{}
	}
	return parse(b)
}

// parse reads the figures from the text of a status file ("VmRSS:
// 1234 kB" lines).
func parse(b []byte) Usage {
	var u Usage
	for len(b) > 0 {
		l := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		name, rest, ok := bytes.Cut(l, []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "VmRSS":
			dst = &u.RSS
		case "VmHWM":
			dst = &u.Peak
		case "RssAnon":
			dst = &u.Anon
		case "RssFile":
			dst = &u.File
		default:
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			continue
		}
		if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
			*dst = kb << 10
		}
	}
	return u
}
