#! /bin/sh
# bench-jemalloc.sh -- ovsdb-server with glibc malloc vs with jemalloc.
#
# usage: utilities/bench-jemalloc.sh [--runs R] [--workloads LIST]
#            [--sizes LIST] [--one-limit N] [--glibc OVSDIR]
#            [--jemalloc OVSDIR] [--bench PATH] [--dir DIR] [--out FILE]
#
# For each run, each workload step and each allocator (glibc then
# jemalloc, interleaved so that both see the same machine), it creates a
# fresh database from schema/fibsync.ovsschema in a temporary directory
# under DIR (default /dev/shm), starts that tree's ovsdb-server on it,
# runs "fibsync-bench ovsdb" (utilities/bench-ovsdb.c), reads the server's
# peak RSS (VmHWM in /proc/PID/status), stops it and deletes the
# directory.  Then it prints each measurement and a table of medians.
#
# Workloads (LIST is comma-separated, default all):
#
#   upd1k    10 workers, 500 transactions each of 100 updates, on their
#            shares of 1,000 Route rows (the rows inserted first);
#   upd200k  the same on 200,000 rows;
#   insert   10 workers each inserting 20,000 rows, 1,000-row transactions;
#   answer   a producer answering 10 workers, 2 requests each, by
#            rewriting a 256-entry map column (Route.status) on 512 rows
#            that the 10 workers monitor;
#   seq300k  one client inserting 300,000 rows in 1,000-row
#            transactions, one in flight (the single-client insert rate that
#            the project brief quotes: 115-168K rows/s on 2 cores);
#   txn      for each N of --sizes (default 100,1000,10000,100000,500000),
#            N rows in one transaction ("txn-N-all") and one row per
#            transaction ("txn-N-one"); with --one-limit L (default
#            100000, 0 for none), the one-per-transaction steps stop after
#            L rows and the duration is projected to N at the measured
#            rate (marked "*").
#
# OVSDIR is an Open vSwitch build tree (default: /tmp/ovs-glibc/openvswitch
# for glibc, the fibsync build's _ovs/openvswitch for jemalloc); the script
# checks with ldd that exactly the jemalloc one links libjemalloc.  PATH is
# the fibsync-bench program (default: the first built one of _build-jem,
# _build, the top directory).  FILE keeps the raw measurements.

set -e

RUNS=3
WORKLOADS=upd1k,upd200k,insert,answer,seq300k,txn
SIZES=100,1000,10000,100000,500000
ONE_LIMIT=100000
top=$(cd "$(dirname "$0")/.." && pwd)
GLIBC=/tmp/ovs-glibc/openvswitch
JEMALLOC=$top/_ovs/openvswitch
BENCH=
BASE=/dev/shm
OUT=
while test $# -gt 0; do
    case $1 in
        --runs) RUNS=$2; shift 2 ;;
        --workloads) WORKLOADS=$2; shift 2 ;;
        --sizes) SIZES=$2; shift 2 ;;
        --one-limit) ONE_LIMIT=$2; shift 2 ;;
        --glibc) GLIBC=$2; shift 2 ;;
        --jemalloc) JEMALLOC=$2; shift 2 ;;
        --bench) BENCH=$2; shift 2 ;;
        --dir) BASE=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "$0: unknown option $1" >&2; exit 1 ;;
    esac
done

if test -z "$BENCH"; then
    for d in "$top/_build-jem" "$top/_build" "$top"; do
        if test -x "$d/utilities/fibsync-bench"; then
            BENCH=$d/utilities/fibsync-bench
            break
        fi
    done
fi
test -x "$BENCH" || { echo "$0: no fibsync-bench (use --bench)" >&2; exit 1; }
SCHEMA=$top/schema/fibsync.ovsschema

for a in glibc jemalloc; do
    if test $a = glibc; then dir=$GLIBC; else dir=$JEMALLOC; fi
    test -x "$dir/ovsdb/ovsdb-server" || {
        echo "$0: no $dir/ovsdb/ovsdb-server" >&2; exit 1; }
    if ldd "$dir/ovsdb/ovsdb-server" | grep -q libjemalloc; then
        linked=jemalloc
    else
        linked=glibc
    fi
    if test $linked != $a; then
        echo "$0: $dir/ovsdb/ovsdb-server is linked with $linked," \
             "expected $a" >&2
        exit 1
    fi
    echo "$a: $dir/ovsdb/ovsdb-server (ldd: $linked)"
done

if test -z "$OUT"; then
    OUT=$(mktemp "${TMPDIR:-/tmp}/bench-jemalloc.XXXXXX")
fi
: > "$OUT"
echo "raw measurements: $OUT"

# The steps, one a line: a label, then the fibsync-bench ovsdb arguments.
steps=$(mktemp "${TMPDIR:-/tmp}/bench-jemalloc-steps.XXXXXX")
trap 'rm -f "$steps"' EXIT
for w in $(echo "$WORKLOADS" | tr ',' ' '); do
    case $w in
        upd1k) echo "upd1k update --rows 1000 --workers 10 --txns 500" \
                    "--txn-rows 100" ;;
        upd200k) echo "upd200k update --rows 200000 --workers 10" \
                      "--txns 500 --txn-rows 100" ;;
        insert) echo "insert insert --rows 20000 --workers 10" \
                     "--txn-rows 1000" ;;
        seq300k) echo "seq300k txnsize --rows 300000 --txn-rows 1000" ;;
        answer) echo "answer answer --rows 512 --map-size 256" \
                     "--workers 10 --requests 2" ;;
        txn)
            for n in $(echo "$SIZES" | tr ',' ' '); do
                echo "txn-$n-all txnsize --rows $n --txn-rows $n"
                if test "$ONE_LIMIT" -gt 0 && test "$n" -gt "$ONE_LIMIT"
                then
                    echo "txn-$n-one txnsize --rows $n --txn-rows 1" \
                         "--limit-rows $ONE_LIMIT"
                else
                    echo "txn-$n-one txnsize --rows $n --txn-rows 1"
                fi
            done ;;
        *) echo "$0: unknown workload $w" >&2; exit 1 ;;
    esac
done > "$steps"

# measure ALLOC RUN LABEL ARGS...: one measurement, appended to $OUT as
# "label alloc run seconds rate unit vmhwm_kB load projected_s".
measure () {
    alloc=$1 run=$2 label=$3
    shift 3
    if test $alloc = glibc; then ovs=$GLIBC; else ovs=$JEMALLOC; fi
    dir=$(mktemp -d "$BASE/bench-jemalloc.XXXXXX")
    "$ovs/ovsdb/ovsdb-tool" create "$dir/db" "$SCHEMA"
    "$ovs/ovsdb/ovsdb-server" --detach --no-chdir --pidfile="$dir/pid" \
        --log-file="$dir/log" --remote=punix:"$dir/sock" \
        --unixctl="$dir/ctl" "$dir/db" 2>/dev/null
    pid=$(cat "$dir/pid")
    load=$(cut -d' ' -f1 /proc/loadavg)
    if ! result=$("$BENCH" ovsdb "$@" --db unix:"$dir/sock"); then
        echo "$0: $label ($alloc) failed" >&2
        kill "$pid"
        exit 1
    fi
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
    kill "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    rm -rf "$dir"
    echo "$result" | awk -v l="$label" -v a="$alloc" -v r="$run" \
                         -v h="$hwm" -v ld="$load" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
          printf "%s %s %s %s %s %s %s %s %s\n", l, a, r, f["seconds"],
                 f["rate"], f["unit"], h, ld,
                 ("projected_s" in f ? f["projected_s"] : "-") }' >> "$OUT"
    tail -1 "$OUT"
}

echo "label alloc run seconds rate unit vmhwm_kB load1 projected_s"
run=1
while test $run -le "$RUNS"; do
    echo "# run $run: $(uptime)"
    while read -r label args; do
        # Interleave: glibc then jemalloc for every step.
        for alloc in glibc jemalloc; do
            # shellcheck disable=SC2086
            measure $alloc $run "$label" $args < /dev/null
        done
    done < "$steps"
    run=$((run + 1))
done
echo "# done: $(uptime)"

# Medians per step and allocator.
echo
echo "Medians of $RUNS runs (duration s, rate, peak RSS MB):"
printf "%-16s %10s %10s %8s | %10s %10s %8s | %7s %7s\n" step \
    glibc_s glibc_rate glibc_MB jem_s jem_rate jem_MB "speed" "RSS"
while read -r label args; do
    for alloc in glibc jemalloc; do
        for col in 4 5 7 9; do
            awk -v l="$label" -v a="$alloc" -v c=$col \
                '$1 == l && $2 == a { print $c }' "$OUT" |
                sort -g | awk '{ v[NR] = $1 }
                    END { print (NR ? v[int((NR + 1) / 2)] : "-") }'
        done | tr '\n' ' '
    done | awk -v l="$label" '{
        # $1..$4: glibc s, rate, kB, projected; $5..$8: jemalloc.
        gs = ($4 != "-" ? $4 : $1); js = ($8 != "-" ? $8 : $5)
        mark = ($4 != "-" ? "*" : "")
        printf "%-16s %9.3f%1s %10s %8.1f | %9.3f%1s %10s %8.1f |" \
               " %6.2fx %6.2fx\n", l, gs, mark, $2, $3 / 1024, js, mark,
               $6, $7 / 1024, (js > 0 ? gs / js : 0),
               ($3 > 0 ? $7 / $3 : 0) }'
done < "$steps"
echo "speed: glibc time / jemalloc time (> 1: jemalloc faster);" \
     "RSS: jemalloc peak / glibc peak (< 1: jemalloc smaller);" \
     "* projected from --one-limit rows"
