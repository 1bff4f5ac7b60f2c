package serve

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"
)

// HAProxyOptions describe the balancer HAProxyConfig writes for.
type HAProxyOptions struct {
	// Bind is the address clients connect to (host:port).
	Bind string
	// Replicas are the leaper serve replicas (host:port), in order.
	Replicas []string
	// MaxConn bounds the requests HAProxy sends one replica at once; more
	// wait in HAProxy's queue. Default 32 (twice the workers of an
	// 8-core replica: enough to keep one busy, few enough that a slow
	// one does not hold the whole fleet's clients).
	MaxConn int
	// Token says the replicas check a bearer token; required when Bind is
	// not loopback, as leaper serve requires it off loopback.
	Token bool
	// Stats, when set, is the address (host:port) of HAProxy's stats page
	// (GET / for HTML, /;csv for CSV: each replica's UP or DOWN).
	Stats string
	// Command is recorded in the config's first lines, to say how to
	// write it again.
	Command string
}

// HAProxyConfig writes an HAProxy (2.6 or later) configuration that
// balances requests over leaper serve replicas: health checks on
// /readyz, so a warming, stopping or dead replica takes no traffic;
// retries with redispatch to another replica for every call but
// /admin/ (all of them are reads, so a retry cannot do anything twice);
// a connection limit per replica; and the bearer token passed through
// untouched to the replicas, which check it. /admin/ is refused at the
// balancer: a store switch is sent to each replica directly. MCP sessions
// (/mcp) stick to the replica that opened them.
func HAProxyConfig(o HAProxyOptions) ([]byte, error) {
	if o.MaxConn == 0 {
		o.MaxConn = 32
	}
	if o.MaxConn < 0 {
		return nil, fmt.Errorf("%w: MaxConn must not be negative", ErrBadOptions)
	}
	if len(o.Replicas) == 0 {
		return nil, fmt.Errorf("%w: no replicas", ErrBadOptions)
	}
	addrs := append([]string{o.Bind}, o.Replicas...)
	if o.Stats != "" {
		addrs = append(addrs, o.Stats)
	}
	for _, a := range addrs {
		if err := CheckAddr(a, "-"); err != nil {
			return nil, err
		}
	}
	if !IsLoopback(o.Bind) && !o.Token {
		return nil, fmt.Errorf("%w: %s (give the replicas' --token-file)", ErrNoToken, o.Bind)
	}
	var buf bytes.Buffer
	err := haproxyTmpl.Execute(&buf, struct {
		HAProxyOptions
		Total int
	}{o, o.MaxConn*len(o.Replicas) + 256})
	return buf.Bytes(), err
}

var haproxyTmpl = template.Must(template.New("haproxy").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
	"comment": func(s string) string {
		return strings.ReplaceAll(s, "\n", " ")
	},
}).Parse(`# HAProxy in front of leaper serve replicas. Written by:
#   {{comment .Command}}
# Run: haproxy -f THIS_FILE (foreground; -D to daemonize). Check: haproxy -c -f THIS_FILE.
# Each replica: leaper serve --store DIR --addr HOST:PORT --drain 3s{{if .Token}} --token-file TOKEN{{end}}
# (several on one machine: GOMAXPROCS=cores/replicas in each one's environment).
{{- if .Token}}
# The replicas check the bearer token; HAProxy passes Authorization (and
# X-API-KEY) through untouched, and checks /readyz, which needs none.
{{- end}}

global
	maxconn {{.Total}}
	# Failed, retried and redispatched requests only (dontlog-normal), on
	# stderr: run in the foreground (haproxy -db -f) or point this at syslog.
	log stderr format raw local0 info
	# One thread: the replicas need the cores more than the balancer.
	nbthread 1

defaults
	mode http
	log global
	option httplog
	option dontlog-normal
	timeout connect 2s
	timeout client 2m
	timeout server 2m
	timeout queue 30s
	timeout http-request 30s
	timeout http-keep-alive 2m
	# A replica that refuses, resets, closes without an answer or answers
	# 502/503/504 has the request sent again, to another replica (every
	# leaper call but /admin/ is a read: sending it twice changes nothing).
	retries 3
	option redispatch 1
	retry-on conn-failure empty-response junk-response response-timeout 502 503 504
	# Retries need the whole request at hand.
	option http-buffer-request
	option forwardfor

frontend leaper
	bind {{.Bind}}
	# Store switches go to each replica directly, not through here.
	http-request deny deny_status 403 if { path_beg /admin/ }
	use_backend leaper_mcp if { path_beg /mcp }
	default_backend leaper

backend leaper
	balance leastconn
	# Ready means the store is open and warm and the replica not stopping.
	option httpchk GET /readyz
	http-check expect status 200
	default-server check inter 1s fastinter 250ms downinter 500ms fall 2 rise 1 maxconn {{.MaxConn}}
{{- range $i, $r := .Replicas}}
	server r{{inc $i}} {{$r}}
{{- end}}

backend leaper_mcp
	# An MCP session lives on the replica that opened it: stick to it, and
	# do not retry elsewhere (the session would not be there).
	balance leastconn
	stick-table type string len 64 size 100k expire 30m
	stick store-response res.hdr(Mcp-Session-Id)
	stick match req.hdr(Mcp-Session-Id)
	retry-on conn-failure
	option httpchk GET /readyz
	http-check expect status 200
	default-server check inter 1s fastinter 250ms downinter 500ms fall 2 rise 1 maxconn {{.MaxConn}}
{{- range $i, $r := .Replicas}}
	server r{{inc $i}} {{$r}}
{{- end}}
{{- if .Stats}}

frontend stats
	bind {{.Stats}}
	stats enable
	stats uri /
	stats refresh 5s
{{- end}}
`))
