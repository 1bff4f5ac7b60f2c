package memtrim

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

const supported = true

// Trim asks the kernel to reclaim the resident pages of the process's
// shared mappings of files under dirs. It first starts the write-back of
// those files' dirty pages, which the kernel does not reclaim until they
// are written, so that the next Trim can reclaim them too.
//
// It uses madvise(MADV_PAGEOUT), which is only advice: it never changes
// what the memory holds, so it is safe on a mapping that another
// goroutine is writing, reading, or unmapping meanwhile, and on whatever
// is mapped at its address after that. (MADV_DONTNEED would be cheaper,
// the pages staying in the page cache, but it zeroes private memory: were
// a table unmapped and the runtime to map its own memory there before
// the call, the call would destroy it.)
func Trim(dirs ...string) error {
	if len(dirs) == 0 {
		return nil
	}
	maps, err := sharedMappings(dirs)
	if err != nil {
		return err
	}
	synced := map[string]bool{}
	for _, m := range maps {
		if synced[m.path] {
			continue
		}
		synced[m.path] = true
		startWriteback(m.path)
	}
	for _, m := range maps {
		_, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_PAGEOUT)
		switch errno {
		case 0, unix.ENOMEM:
			// ENOMEM: unmapped since /proc/self/maps was read.
		case unix.EINVAL:
			return fmt.Errorf("memtrim: madvise(MADV_PAGEOUT): %w (needs Linux 5.4)", errno)
		default:
			return fmt.Errorf("memtrim: madvise(MADV_PAGEOUT) %s: %w", m.path, errno)
		}
	}
	return nil
}

// startWriteback starts writing a file's dirty pages to disk, without
// waiting. A file deleted meanwhile is no matter.
func startWriteback(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}

type mapping struct {
	start, end uintptr
	path       string
}

// sharedMappings lists the process's shared mappings of files under dirs,
// from /proc/self/maps.
func sharedMappings(dirs []string) ([]mapping, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil, fmt.Errorf("memtrim: %w", err)
	}
	defer f.Close()
	var out []mapping
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		m, ok := parseMapping(sc.Text())
		if ok && under(m.path, dirs) {
			out = append(out, m)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("memtrim: /proc/self/maps: %w", err)
	}
	return out, nil
}

// parseMapping reads a line of /proc/self/maps,
//
//	7f2c4a000000-7f2c8a000000 rw-s 00000000 fe:00 1234   /store/000001.vlog
//
// and reports whether it is a shared mapping of a file.
func parseMapping(line string) (mapping, bool) {
	fields := strings.Fields(line)
	if len(fields) < 6 || len(fields[1]) != 4 || fields[1][3] != 's' {
		return mapping{}, false
	}
	lo, hi, ok := strings.Cut(fields[0], "-")
	if !ok {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return mapping{}, false
	}
	// The path is the rest of the line after the inode: it may hold
	// spaces, and ends in " (deleted)" once the file is removed.
	rest := line
	for range 5 {
		rest = strings.TrimLeft(rest, " \t")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return mapping{}, false
		}
		rest = rest[i:]
	}
	path := strings.TrimSuffix(strings.TrimLeft(rest, " \t"), " (deleted)")
	if !strings.HasPrefix(path, "/") {
		return mapping{}, false
	}
	return mapping{start: uintptr(start), end: uintptr(end), path: path}, true
}

func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if path == d || strings.HasPrefix(path, d) && path[len(d)] == '/' {
			return true
		}
	}
	return false
}

func absDirs(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if a, err := filepath.Abs(d); err == nil {
			d = a
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		out = append(out, strings.TrimSuffix(filepath.Clean(d), "/"))
	}
	return out
}
