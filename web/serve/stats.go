package serve

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// LatencyRecorder records durations in log-linear buckets (16 per power
// of two of microseconds, so a quantile is within about 6%) to estimate
// quantiles; it is not a histogram of fixed buckets (that is
// internal/hist). Record is lock-free: one atomic add; many goroutines may
// record while another reads.
type LatencyRecorder struct {
	counts [histBuckets]atomic.Uint64
	total  atomic.Uint64
}

const (
	histSubBits = 4
	histSub     = 1 << histSubBits
	histBuckets = 40 * histSub // up to 2^40 µs, about 12 days
)

func histIndex(us uint64) int {
	if us < 2*histSub {
		return int(us)
	}
	shift := bits.Len64(us) - histSubBits - 1
	i := shift*histSub + int(us>>shift)
	return min(i, histBuckets-1)
}

// histValue is the middle of bucket i, in microseconds.
func histValue(i int) float64 {
	if i < 2*histSub {
		return float64(i)
	}
	shift := i/histSub - 1
	m := uint64(i%histSub + histSub)
	lo, hi := m<<shift, (m+1)<<shift
	return float64(lo+hi) / 2
}

// Record adds one duration.
func (h *LatencyRecorder) Record(d time.Duration) {
	us := d.Microseconds()
	if us < 0 {
		us = 0
	}
	h.counts[histIndex(uint64(us))].Add(1)
	h.total.Add(1)
}

// Count is the number of durations recorded.
func (h *LatencyRecorder) Count() uint64 { return h.total.Load() }

// Quantiles returns the durations at the given quantiles (0..1), from one
// pass over the buckets. With no data they are 0.
func (h *LatencyRecorder) Quantiles(qs ...float64) []time.Duration {
	var snap [histBuckets]uint64
	var n uint64
	for i := range snap {
		snap[i] = h.counts[i].Load()
		n += snap[i]
	}
	out := make([]time.Duration, len(qs))
	if n == 0 {
		return out
	}
	for j, q := range qs {
		rank := uint64(q*float64(n) + 0.5)
		rank = max(1, min(rank, n))
		var c uint64
		for i, k := range snap {
			c += k
			if c >= rank {
				out[j] = time.Duration(histValue(i) * float64(time.Microsecond))
				break
			}
		}
	}
	return out
}

// endpointStats are one endpoint's counters.
type endpointStats struct {
	requests  atomic.Uint64
	clientErr atomic.Uint64 // 4xx
	serverErr atomic.Uint64 // 5xx
	cacheHits atomic.Uint64
	latency   LatencyRecorder
}

// EndpointStats is what GET /stats reports for one endpoint.
type EndpointStats struct {
	Requests     uint64  `json:"requests"`
	ClientErrors uint64  `json:"client_errors"`
	ServerErrors uint64  `json:"server_errors"`
	CacheHits    uint64  `json:"cache_hits"`
	P50ms        float64 `json:"p50_ms"`
	P90ms        float64 `json:"p90_ms"`
	P99ms        float64 `json:"p99_ms"`
}

// Stats is the answer of GET /stats.
type Stats struct {
	// Store is the id of the store answering (StoreHeader's value);
	// StoreDigest its full content digest, StoreDir its directory.
	Store       string `json:"store"`
	StoreDigest string `json:"store_digest"`
	StoreDir    string `json:"store_dir"`
	// Ready is what GET /readyz says; Switches counts store switches.
	Ready         bool                     `json:"ready"`
	Switches      int64                    `json:"switches"`
	UptimeSeconds float64                  `json:"uptime_s"`
	InFlight      int64                    `json:"in_flight"`
	Queued        int64                    `json:"queued"`
	Workers       int                      `json:"workers"`
	Evaluations   int                      `json:"evaluations"`
	CacheEntries  int                      `json:"cache_entries"`
	CacheCapacity int                      `json:"cache_capacity"`
	Endpoints     map[string]EndpointStats `json:"endpoints"`
}

func (e *endpointStats) snapshot() EndpointStats {
	q := e.latency.Quantiles(0.5, 0.9, 0.99)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return EndpointStats{
		Requests:     e.requests.Load(),
		ClientErrors: e.clientErr.Load(),
		ServerErrors: e.serverErr.Load(),
		CacheHits:    e.cacheHits.Load(),
		P50ms:        ms(q[0]),
		P90ms:        ms(q[1]),
		P99ms:        ms(q[2]),
	}
}
