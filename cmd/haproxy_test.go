package cmd

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaper-dev/leaper/internal/fleet"
)

func TestHAProxyFlags(t *testing.T) {
	for _, c := range []struct {
		args  []string
		usage bool
	}{
		{nil, true},
		{[]string{"--replicas", "3", "--replica", "127.0.0.1:9000"}, true},
		{[]string{"--replicas", "-1"}, true},
		{[]string{"--replicas", "2"}, false},
		{[]string{"--replica", "10.0.0.1:8080,10.0.0.2:8080"}, false},
	} {
		var got *HAProxyOptions
		f := &Factory{}
		c2 := newHAProxyCmd(f, func(_ context.Context, o *HAProxyOptions) error { got = o; return nil })
		c2.SetArgs(c.args)
		c2.SetOut(io.Discard)
		c2.SetErr(io.Discard)
		err := c2.Execute()
		if c.usage != (err != nil) || (!c.usage && got == nil) {
			t.Errorf("%v: err %v", c.args, err)
		}
	}
}

// TestHAProxyShippedConfig keeps examples/haproxy.cfg what leaper haproxy
// --replicas 3 writes, and has HAProxy check it and the configuration of
// replicas on other machines, when it is installed.
func TestHAProxyShippedConfig(t *testing.T) {
	out, errOut, err := leaperIn(t, "haproxy", "--replicas", "3")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	shipped, err := os.ReadFile("../examples/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	// The command line recorded differs: compare from the first blank line.
	body := func(s string) string { _, b, _ := strings.Cut(s, "\n\n"); return b }
	if updateGolden() {
		out := strings.Replace(out, "leaper haproxy ...", "leaper haproxy --replicas 3", 1)
		if err := os.WriteFile("../examples/haproxy.cfg", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if body(out) != body(string(shipped)) {
		t.Errorf("examples/haproxy.cfg is not what leaper haproxy --replicas 3 writes (go test ./cmd -run ShippedConfig -update)")
	}
	for _, want := range []string{"option httpchk GET /readyz", "option redispatch", "retry-on conn-failure empty-response",
		"maxconn 32", "server r3 127.0.0.1:8083", "deny deny_status 403 if { path_beg /admin/ }"} {
		if !strings.Contains(out, want) {
			t.Errorf("config lacks %q", want)
		}
	}
	// Off loopback without a token is refused, as leaper serve refuses it.
	if _, _, err := leaperIn(t, "haproxy", "--bind", "0.0.0.0:8080", "--replicas", "2"); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("a public --bind without --token-file: %v", err)
	}
	tok := filepath.Join(t.TempDir(), "token")
	writeFile(t, tok, []byte("s3cret\n"))
	far, errOut, err := leaperIn(t, "haproxy", "--bind", "0.0.0.0:8080", "--token-file", tok, "--stats", "127.0.0.1:8404",
		"--replica", "10.0.0.11:8080,10.0.0.12:8080", "--maxconn", "8")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Contains(far, "s3cret") {
		t.Error("the token is in the config")
	}
	hp, err := fleet.HAProxy()
	if err != nil {
		t.Skip(err)
	}
	for name, cfg := range map[string]string{"shipped": string(shipped), "far": far} {
		p := filepath.Join(t.TempDir(), name+".cfg")
		writeFile(t, p, []byte(cfg))
		if b, err := exec.Command(hp, "-c", "-f", p).CombinedOutput(); err != nil {
			t.Errorf("haproxy -c %s: %v\n%s", name, err, b)
		}
	}
}
