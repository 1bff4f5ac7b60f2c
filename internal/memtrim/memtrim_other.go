//go:build !linux

package memtrim

const supported = false

// Trim does nothing where the system is not Linux.
func Trim(dirs ...string) error { return nil }

func absDirs(dirs []string) []string { return dirs }
