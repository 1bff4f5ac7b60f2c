#!/usr/bin/env bash
# vs-adambe.sh: leaper mine against AdaMBE, side by side on the graphs of
# ../shared/bench/mbe, one thread, whole process (loading included),
# alternating runs; prints the median and range of wall and CPU (user+sys)
# seconds of each, and their ratio. It never builds AdaMBE: point ADAMBE_CMD
# at a binary you built yourself, with {graph}, {k} and {m} standing for the
# .adj file and the thresholds, for example
#
#   ADAMBE_CMD='/tmp/adambe/MBE_ALL -i {graph} ...' mining/testdata/vs-adambe.sh
#
# Without ADAMBE_CMD only leaper runs. Environment:
#   LEAPER  the leaper binary (default: go build ./cmd/leaper into a temp
#           dir, which must allow executing)
#   BENCH   the graph directory (default ../shared/bench/mbe from the repo root)
#   REPS    runs of each program per case (default 5)
#   CASES   "file:k:m ..." (default: synth_L20000_R1000_s7 k1m1, k3m2, k10m3, YouTube k1m1)
# Each leaper case runs twice per repetition: writing every biclique to a
# file, and with --count (the count only, as AdaMBE reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$root/../shared/bench/mbe}
REPS=${REPS:-5}
CASES=${CASES:-"synth_L20000_R1000_s7.adj:1:1 synth_L20000_R1000_s7.adj:3:2 synth_L20000_R1000_s7.adj:10:3 YouTube.adj:1:1"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z "${LEAPER:-}" ]]; then
	LEAPER=$tmp/leaper
	(cd "$root" && go build -o "$LEAPER" ./cmd/leaper)
fi

# run NAME CMD...: one timed run, appending "wall cpu" to $tmp/NAME.
run() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" || {
		echo "failed: $*" >&2
		cat "$tmp/err" >&2
		exit 1
	}
	awk '{printf "%s %.2f\n", $1, $2 + $3}' "$tmp/t" >>"$tmp/$name"
}

# stat NAME COLUMN: "median (min–max)" of a column of $tmp/NAME.
stat() {
	sort -n -k"$2" "$tmp/$1" | awk -v c="$2" '{v[NR] = $c} END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f (%.2f–%.2f)", m, v[1], v[NR]}'
}
median() {
	sort -n -k"$2" "$tmp/$1" | awk -v c="$2" '{v[NR] = $c} END {
		printf "%.4f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $REPS runs each, alternating"
printf '| graph, k m | bicliques | AdaMBE wall s | AdaMBE CPU s | leaper --count wall s | CPU s | leaper to file wall s | CPU s | ratio CPU (count) |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for c in $CASES; do
	IFS=: read -r file k m <<<"$c"
	graph=$BENCH/$file
	rm -f "$tmp/ada" "$tmp/cnt" "$tmp/file"
	for ((i = 0; i < REPS; i++)); do
		if [[ -n "${ADAMBE_CMD:-}" ]]; then
			cmd=${ADAMBE_CMD//\{graph\}/$graph}
			cmd=${cmd//\{k\}/$k}
			cmd=${cmd//\{m\}/$m}
			run ada bash -c "$cmd"
		fi
		run cnt "$LEAPER" mine --graph "$graph" --min-trees "$k" --min-relations "$m" --workers 1 --count
		count=$(cat "$tmp/out")
		run file bash -c "'$LEAPER' mine --graph '$graph' --min-trees $k --min-relations $m --workers 1 >'$tmp/bicliques.txt'"
	done
	ada="– | –"
	ratio="–"
	if [[ -s "$tmp/ada" ]]; then
		ada="$(stat ada 1) | $(stat ada 2)"
		ratio=$(awk -v l="$(median cnt 2)" -v a="$(median ada 2)" 'BEGIN {if (a > 0) printf "%.2f×", l / a; else printf "–"}')
	fi
	printf '| %s, %s %s | %s | %s | %s | %s | %s | %s | %s |\n' "${file%.adj}" "$k" "$m" "$count" "$ada" \
		"$(stat cnt 1)" "$(stat cnt 2)" "$(stat file 1)" "$(stat file 2)" "$ratio"
done
