#!/usr/bin/env bash
# ab.sh compares the CPU and wall time of two builds of bench/context on one
# Build (list, scan, rank, outline, pack at 8k), run alternately so that the
# machine's load moves both alike, against `git grep -c func` over the same
# files. It prints the medians, and each build's ratio to git grep.
#
#   go build -o /tmp/old ./bench/context   # on the base commit
#   go build -o /tmp/new ./bench/context   # on the change
#   go run ./bench/context -corpus /tmp/c20k -max-files 20000 -write-queries /tmp/q -recall=false
#   bench/context/ab.sh /tmp/old /tmp/new /tmp/c20k /tmp/q/test-000.txt 15
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

# warm the page cache
one warm git -C "$corpus" grep -c func
one warm "$old" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
for ((r = 0; r < rounds; r++)); do
	one grep git -C "$corpus" grep -c func
	if ((r % 2 == 0)); then
		one old "$old" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
		one new "$new" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
	else
		one new "$new" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
		one old "$old" -repo "$corpus" -query-file "$query" -budget 8192 -quiet
	fi
done

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
g=$(median "$tmp/grep" 1)
gw=$(median "$tmp/grep" 2)
printf '%d rounds, medians\n' "$rounds"
printf '%-10s %7s %7s %9s %9s\n' run 'CPU ms' 'wall ms' 'CPU/grep' 'wall/grep'
for n in grep old new; do
	c=$(median "$tmp/$n" 1)
	w=$(median "$tmp/$n" 2)
	printf '%-10s %7d %7d %9.2f %9.2f\n' "$n" "$c" "$w" "$(echo "$c/$g" | bc -l)" "$(echo "$w/$gw" | bc -l)"
done
