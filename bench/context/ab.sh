#!/usr/bin/env bash
# ab.sh compares the CPU and wall time of two builds of bench/context on one
# Build (list, scan, rank, outline, pack at 8k), run alternately so that the
# machine's load moves both alike, against `git grep -c func` over the same
# files.
#
# Given a query file, it runs that query ROUNDS times and prints the
# medians, and each build's ratio to git grep. Given a directory of queries
# (as -write-queries writes them: failing-test output and issue text), it
# runs each query once and prints the spread of each build's time as a
# multiple of git grep's median time: the median query, the 90th
# percentile and the worst, in CPU and in wall time.
#
#   go build -o /tmp/old ./bench/context   # on the base commit
#   go build -o /tmp/new ./bench/context   # on the change
#   go run ./bench/context -corpus /tmp/c20k -max-files 20000 -write-queries /tmp/q -recall=false
#   bench/context/ab.sh /tmp/old /tmp/new /tmp/c20k /tmp/q/test-000.txt 15
#   bench/context/ab.sh /tmp/old /tmp/new /tmp/c20k /tmp/q
set -euo pipefail
old=$1 new=$2 corpus=$3 query=$4 rounds=${5:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one NAME CMD...: append "cpu_ms wall_ms" of one run to $tmp/NAME.
one() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S %e' -o "$tmp/t" "$@" >/dev/null 2>&1
	awk '{printf "%d %d\n", ($1+$2)*1000, $3*1000}' "$tmp/t" >>"$tmp/$name"
}

# pair R QUERY: one run of git grep, then of each build on QUERY, the
# order of the two builds alternating with R.
pair() {
	one grep git -C "$corpus" grep -c func
	if (($1 % 2 == 0)); then
		one old "$old" -repo "$corpus" -query-file "$2" -budget 8192 -quiet
		one new "$new" -repo "$corpus" -query-file "$2" -budget 8192 -quiet
	else
		one new "$new" -repo "$corpus" -query-file "$2" -budget 8192 -quiet
		one old "$old" -repo "$corpus" -query-file "$2" -budget 8192 -quiet
	fi
}

# quantile FILE COLUMN Q: the value at quantile Q of a column (0.5 the
# median, 1 the largest).
quantile() {
	cut -d' ' -f"$2" "$1" | sort -n | awk -v q="$3" '{a[NR]=$1} END {
		if (q == 0.5) { print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)); exit }
		k = int(q*NR + 0.5); if (k < 1) k = 1; if (k > NR) k = NR; print a[k] }'
}

if [[ -d $query ]]; then
	queries=("$query"/*.txt)
	# warm the page cache
	one warm git -C "$corpus" grep -c func
	one warm "$old" -repo "$corpus" -query-file "${queries[0]}" -budget 8192 -quiet
	for ((r = 0; r < ${#queries[@]}; r++)); do
		pair "$r" "${queries[r]}"
	done
	g=$(quantile "$tmp/grep" 1 0.5)
	gw=$(quantile "$tmp/grep" 2 0.5)
	printf '%d queries, each once; git grep median %d ms CPU, %d ms wall\n' "${#queries[@]}" "$g" "$gw"
	printf '%-5s %-5s %8s %8s %8s\n' run time median p90 worst
	for n in old new; do
		for c in 1 2; do
			if ((c == 1)); then kind=CPU base=$g; else kind=wall base=$gw; fi
			printf '%-5s %-5s' "$n" "$kind"
			for q in 0.5 0.9 1; do
				printf ' %7.2fx' "$(echo "$(quantile "$tmp/$n" "$c" "$q")/$base" | bc -l)"
			done
			printf '\n'
		done
	done
	exit 0
fi

# warm the page cache
one warm git -C "$corpus" grep -c func
one warm "$old" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
for ((r = 0; r < rounds; r++)); do
	pair "$r" "$query"
done

g=$(quantile "$tmp/grep" 1 0.5)
gw=$(quantile "$tmp/grep" 2 0.5)
printf '%d rounds, medians\n' "$rounds"
printf '%-10s %7s %7s %9s %9s\n' run 'CPU ms' 'wall ms' 'CPU/grep' 'wall/grep'
for n in grep old new; do
	c=$(quantile "$tmp/$n" 1 0.5)
	w=$(quantile "$tmp/$n" 2 0.5)
	printf '%-10s %7d %7d %9.2f %9.2f\n' "$n" "$c" "$w" "$(echo "$c/$g" | bc -l)" "$(echo "$w/$gw" | bc -l)"
done
