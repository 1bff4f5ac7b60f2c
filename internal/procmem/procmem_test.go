package procmem

import (
	"runtime"
	"testing"
)

func TestParse(t *testing.T) {
	status := "Name:\tleaper\nVmPeak:\t 9999 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n" +
		"RssAnon:\t     768 kB\nRssFile:\t     256 kB\nRssShmem:\t       0 kB\nVmSwap: bad kB\nRssFile"
	got := parse([]byte(status))
	want := Usage{RSS: 1 << 20, Peak: 2 << 20, Anon: 768 << 10, File: 256 << 10}
	if got != want {
		t.Fatalf("parse = %+v, want %+v", got, want)
	}
	if got := parse(nil); got != (Usage{}) {
		t.Fatalf("parse(nil) = %+v", got)
	}
}

func TestRead(t *testing.T) {
	u := Read()
	if runtime.GOOS != "linux" {
		if u != (Usage{}) {
			t.Fatalf("Read on %s = %+v, want zeros", runtime.GOOS, u)
		}
		return
	}
	if u.RSS <= 0 || u.Peak < u.RSS || u.Anon <= 0 || u.Anon+u.File > u.RSS {
		t.Fatalf("Read = %+v: not a running process's figures", u)
	}
}
