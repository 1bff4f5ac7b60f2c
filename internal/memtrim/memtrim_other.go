//go:build !linux

package memtrim

const supported = false

// Trim does nothing where the system is not Linux.
func Trim(dirs ...string) error { return nil }

// Resident returns 0, 0 where the system is not Linux.
func Resident() (anon, file int64) { return 0, 0 }

func absDirs(dirs []string) []string { return dirs }
