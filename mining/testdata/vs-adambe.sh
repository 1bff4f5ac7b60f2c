#!/usr/bin/env bash
# vs-adambe.sh: leaper mine against AdaMBE, side by side on the graphs of
# ../shared/bench/mbe, one thread, whole process (loading included),
# alternating runs; prints the median and range of wall and CPU (user+sys)
# seconds of each, and the ratios of the medians. It never builds AdaMBE and
# asserts no timing: point ADAMBE_CMD at a binary you built yourself, with
# {graph}, {k} and {m} standing for the .adj file and the thresholds. For
# AdaMBE (github.com/ISCS-ZJU/AdaMBE, src/, built with
# g++ -std=c++11 -O3 -DNN=64 *.cpp -ltbb, the README's NN=64 setting), whose
# -x and -y are the fewest left and right vertices and -s 7 is AdaMBE itself:
#
#   ADAMBE_CMD='/path/to/MBE_64 -i {graph} -s 7 -x {k} -y {m}' \
#     mining/testdata/vs-adambe.sh
#
# AdaMBE reads the .adj format as is and prints one line ending with
# "..., seconds, MB, bicliques, nodes, NN"; the script checks that this line
# holds leaper's count (a field equal to it) and stops otherwise.
#
# Without ADAMBE_CMD only leaper runs. Environment:
#   LEAPER  the leaper binary (default: go build ./cmd/leaper into a temp
#           dir, which must allow executing: set TMPDIR if /tmp is noexec)
#   BENCH   the graph directory (default ../shared/bench/mbe from the repo root)
#   REPS    runs of each program per case (default 5)
#   CASES   "file:k:m ..." (default: synth_L20000_R1000_s7 k1m1, k3m2, k10m3, YouTube k1m1)
# Each repetition runs AdaMBE, leaper --count (the count only, as AdaMBE
# reports: the fair pair) and leaper writing every biclique to a file, in
# that order. On a shared machine the CPU time (user+sys of the whole
# process) is the steadier measure; wall time includes waiting for a core.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$root/../shared/bench/mbe}
REPS=${REPS:-5}
CASES=${CASES:-"synth_L20000_R1000_s7.adj:1:1 synth_L20000_R1000_s7.adj:3:2 synth_L20000_R1000_s7.adj:10:3 YouTube.adj:1:1"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-adambe.XXXXXX")
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

# ratio A B COLUMN: median of A over median of B, "1.23×".
ratio() {
	awk -v a="$(median "$1" "$3")" -v b="$(median "$2" "$3")" 'BEGIN {if (b > 0) printf "%.2f×", a / b; else printf "–"}'
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $REPS runs each, alternating"
printf '| graph, k m | bicliques | AdaMBE wall s | AdaMBE CPU s | leaper --count wall s | CPU s | leaper to file wall s | CPU s | leaper/AdaMBE CPU: count, file | wall: count, file |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
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
			cp "$tmp/out" "$tmp/ada.out"
		fi
		run cnt "$LEAPER" mine --graph "$graph" --min-trees "$k" --min-relations "$m" --workers 1 --count
		count=$(cat "$tmp/out")
		if [[ -n "${ADAMBE_CMD:-}" ]] && ! tr -s ', \t' '\n\n\n' <"$tmp/ada.out" | grep -qx "$count"; then
			echo "$file k=$k m=$m: leaper counts $count, AdaMBE printed: $(cat "$tmp/ada.out")" >&2
			exit 1
		fi
		run file bash -c "'$LEAPER' mine --graph '$graph' --min-trees $k --min-relations $m --workers 1 >'$tmp/bicliques.txt'"
	done
	ada="– | –"
	rcpu="–"
	rwall="–"
	if [[ -s "$tmp/ada" ]]; then
		ada="$(stat ada 1) | $(stat ada 2)"
		rcpu="$(ratio cnt ada 2), $(ratio file ada 2)"
		rwall="$(ratio cnt ada 1), $(ratio file ada 1)"
	fi
	printf '| %s, %s %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${file%.adj}" "$k" "$m" "$count" "$ada" \
		"$(stat cnt 1)" "$(stat cnt 2)" "$(stat file 1)" "$(stat file 2)" "$rcpu" "$rwall"
done
