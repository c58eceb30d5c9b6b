#! /bin/sh
# bench-ab.sh -- one benchmark script, two builds, interleaved runs.
#
# usage: utilities/bench-ab.sh -a BUILD_A -b BUILD_B [-r RUNS] SCRIPT \
#            [SCRIPT-OPTIONS...]
#
# Runs this tree's utilities/SCRIPT (bench-fpmsyncd.sh or bench-syncd.sh;
# for the whole stack, run each build's "fibsync-bench run" in turn) RUNS
# times (default 3) against each of two fibsync build
# directories, one run at a time and alternating (A B, B A, A B, ...), so
# that both builds see the same machine, and passes each run "-b BUILD
# -r 1" and SCRIPT-OPTIONS.  It prints every run's result line tagged with
# its build, then for each process the median CPU seconds of each build
# and the ratio B/A: the figure to compare, since CPU time per route stays
# comparable when the machine's load does not.  Nothing else may run on
# the machine meanwhile.
#
# Copyright (c) 2024 The fibsync authors.
# Licensed under the Apache License, Version 2.0.

set -e
A= B= RUNS=3
while test $# -gt 0; do
    case $1 in
        -a) A=$2; shift 2 ;;
        -b) B=$2; shift 2 ;;
        -r) RUNS=$2; shift 2 ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "$0: unknown option $1 (use --help)" >&2; exit 1 ;;
        *) break ;;
    esac
done
test -n "$A" && test -n "$B" && test $# -ge 1 ||
    { echo "$0: need -a BUILD, -b BUILD and a script (use --help)" >&2;
      exit 1; }
SCRIPT=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
test -x "$here/$SCRIPT" || { echo "$0: no script $here/$SCRIPT" >&2; exit 1; }
. "$here/bench-lib.sh"

# cpu_fields: reads a run's output and prints "PROCESS SECONDS" lines.
cpu_fields () {
    case $SCRIPT in
        bench-fpmsyncd.sh)
            sed -n 's/^run [0-9]*: .*fpmsyncd cpu \([0-9.]*\) s.*ovsdb-server cpu \([0-9.]*\) s.*/fpmsyncd \1\novsdb-server \2/p' ;;
        bench-syncd.sh)
            sed -n 's/^ *wb: .*cpu until in sync: syncd \([0-9.]*\)s, ovsdb-server \([0-9.]*\)s.*/syncd \1\novsdb-server \2/p' ;;
        *) echo "$0: do not know how $SCRIPT reports CPU" >&2; exit 1 ;;
    esac
}

out=$(mktemp -d)
trap 'rm -rf "$out"' 0
echo "# bench-ab: $SCRIPT $*, $RUNS runs each"
echo "#   A = $A"
echo "#   B = $B"
bench_machine_begin
for run in $(seq 1 "$RUNS"); do
    if test $((run % 2)) = 1; then order="A B"; else order="B A"; fi
    for side in $order; do
        eval build=\$$side
        "$here/$SCRIPT" -b "$build" -r 1 "$@" > "$out/run" 2>&1 ||
            { cat "$out/run" >&2; echo "$0: $SCRIPT failed" >&2; exit 1; }
        grep -E '^run [0-9]+:|^ *wb:' "$out/run" | sed "s/^/$side $run: /"
        cpu_fields < "$out/run" >> "$out/cpu.$side"
    done
done
echo "# median CPU seconds per process: A, B, B/A"
for p in $(cut -d' ' -f1 "$out/cpu.A" | sort -u); do
    a=$(awk -v p="$p" '$1 == p { print $2 }' "$out/cpu.A" | bench_median)
    b=$(awk -v p="$p" '$1 == p { print $2 }' "$out/cpu.B" | bench_median)
    echo "$p $a $b" | awk '{ printf "%-14s %8.2f %8.2f  %.3f\n", $1, $2,
                             $3, ($2 > 0 ? $3 / $2 : 0) }'
done
bench_machine_end
