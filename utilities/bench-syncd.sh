#! /bin/sh
# bench-syncd.sh -- measure syncd's programming rate from OVSDB.
#
# usage: utilities/bench-syncd.sh [-n ROWS] [-t ROWS_PER_TXN] [-r RUNS]
#                                 [-k BULK] [-m MODES] [-b BUILDDIR]
#                                 [-- SYNCD_OPTIONS]
#
# Each run starts a fresh ovsdb-server on the Fibsync schema and, in a
# temporary directory, inserts ROWS Asic_Route rows (default 1000000) with
# "syncd-bench load" in transactions of ROWS_PER_TXN rows (default 5000),
# as orchd would write them, once per mode of MODES (a comma-separated
# list, default "wb"), the modes interleaved so that their runs see the
# same machine:
#
#   base  no syncd at all: what the server alone takes (the baseline);
#   nowb  syncd --no-write-back: programming without writing back;
#   wb    syncd as deployed, writing every outcome back.
#
# With syncd it times, from the start of the load:
#
#   load        until the last insert transaction committed;
#   programmed  until syncd has applied every row to the simulator;
#   in sync     (wb) until every row's write-back (state=programmed,
#               applied_seq=seq) has committed, by syncd's count of
#               acknowledged write-backs ("in-sync N" in asic/stats),
#               checked afterwards in the database with one select;
#   restart     after restarting syncd on the full table: until it has
#               rebuilt the FIB (and, in wb mode, found every row in sync
#               without writing it again).
#
# With each run it prints the CPU seconds syncd and ovsdb-server spent
# from the start of the load until every row was in sync; at the start
# and the end, the core count, the load and the hypervisor's steal share.
# Then it runs "syncd-bench apply" (the in-process apply step alone).  It
# prints every run and the median of each figure per mode.

set -e

ROWS=1000000
TXN=5000
RUNS=3
BULK=1000
MODES=wb
BUILD=
SYNCD=
while test $# -gt 0; do
    case $1 in
        -n) ROWS=$2; shift 2 ;;
        -t) TXN=$2; shift 2 ;;
        -r) RUNS=$2; shift 2 ;;
        -k) BULK=$2; shift 2 ;;
        -m) MODES=$(echo "$2" | tr ',' ' '); shift 2 ;;
        -b) BUILD=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "$0: unknown option $1" >&2; exit 1 ;;
    esac
done
SYNCD_OPTS="$*"

top=$(cd "$(dirname "$0")/.." && pwd)
if test -z "$BUILD"; then
    for d in "$top/_build-syncd" "$top/_build" "$top"; do
        if test -x "$d/daemons/syncd/syncd" || test -f "$d/daemons/syncd"
        then
            BUILD=$d
            break
        fi
    done
fi
# Builds before syncd moved to daemons/ kept it in asic-sim/: looking
# there too lets one script compare an old build with a new one.
for d in daemons/syncd daemons asic-sim; do
    if test -f "$BUILD/$d/syncd" && test -x "$BUILD/$d/syncd"; then
        SYNCD=$BUILD/$d/syncd
        BENCH=$BUILD/$d/syncd-bench
        break
    fi
done
test -n "$SYNCD" || { echo "$0: no built syncd (use -b)" >&2; exit 1; }
OVS=$(sed -n "s/^OVS_BUILDDIR='\(.*\)'/\1/p" "$BUILD/tests/atlocal")
test -n "$OVS" || OVS=$top/_ovs/openvswitch
APPCTL=$OVS/utilities/ovs-appctl
. "$top/utilities/bench-lib.sh"
HZ=$(getconf CLK_TCK)

now () { date +%s.%N; }
secs () { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
rate () { echo "$1 $2" | awk '{ printf "%.0f", ($2 > 0 ? $1 / $2 : 0) }'; }
# cpu_s TICKS0 TICKS1: CPU seconds between two bench_cpu_ticks readings.
cpu_s () { echo "$1 $2" | awk -v hz="$HZ" '{ printf "%.2f", ($2 - $1) / hz }'; }
median () { bench_median; }

# stat_field NAME: the number after NAME in syncd's asic/stats.
stat_field () {
    "$APPCTL" -t "$dir/syncd.ctl" asic/stats 2>/dev/null |
        tr ' ' '\n' | awk -v k="$1" 'p { print $1; exit } $1 == k { p = 1 }'
}
# wait_stat NAME VALUE: polls until stat_field NAME reaches VALUE.
wait_stat () {
    while :; do
        v=$(stat_field "$1")
        test "${v:-0}" -ge "$2" && return 0
        sleep 0.05
    done
}

start_db () {
    "$OVS/ovsdb/ovsdb-tool" create "$dir/fibsync.db" \
        "$top/schema/fibsync.ovsschema"
    "$OVS/ovsdb/ovsdb-server" "$dir/fibsync.db" --detach --no-chdir \
        --pidfile="$dir/ovsdb-server.pid" --log-file="$dir/ovsdb-server.log" \
        --remote="punix:$dir/db.sock" --unixctl="$dir/ovsdb-server.ctl"
}
start_syncd () {
    "$SYNCD" --detach --no-chdir --pidfile="$dir/syncd.pid" \
        --log-file="$dir/syncd.log" --unixctl="$dir/syncd.ctl" \
        --db="unix:$dir/db.sock" -k "$BULK" \
        --capacity-ipv4-routes=$((ROWS + 1000)) $mode_opts $SYNCD_OPTS
}
stop_pid () {
    pid=$(cat "$1" 2>/dev/null) || return 0
    kill "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# run_once MODE: one run; appends "LOAD PROGRAMMED IN_SYNC RESTART" to
# $results.MODE.
run_once () {
    mode=$1
    mode_opts=
    test "$mode" = nowb && mode_opts=--no-write-back
    dir=$(mktemp -d /tmp/bench-syncd.XXXXXX)
    start_db
    test "$mode" = base || start_syncd
    sleep 0.5

    db_ticks0=$(bench_cpu_ticks "$(cat "$dir/ovsdb-server.pid")")
    syncd_ticks0=0
    test "$mode" = base ||
        syncd_ticks0=$(bench_cpu_ticks "$(cat "$dir/syncd.pid")")
    t0=$(now)
    "$BENCH" load --db="unix:$dir/db.sock" -n "$ROWS" -t "$TXN" > "$dir/load.out"
    t_load=$(now)
    load_s=$(secs "$t0" "$t_load")
    if test "$mode" = base; then
        echo "  base: load ${load_s}s ($(rate "$ROWS" "$load_s") rows/s)"
        echo "$load_s 0 0 0 0 0" >> "$results.$mode"
        stop_pid "$dir/ovsdb-server.pid"
        rm -rf "$dir"
        return 0
    fi

    wait_stat routes: "$ROWS"
    t_prog=$(now)
    test "$mode" = nowb || wait_stat in-sync "$ROWS"
    t_sync=$(now)
    left=$("$OVS/ovsdb/ovsdb-client" transact "unix:$dir/db.sock" \
        '["Fibsync", {"op": "select", "table": "Asic_Route",
          "where": [["state", "!=", "programmed"]], "columns": ["_uuid"]}]' |
        grep -o '"_uuid"' | wc -l)
    rss=$(awk '/VmHWM/ { print $2 }' "/proc/$(cat "$dir/syncd.pid")/status")
    syncd_cpu=$(cpu_s "$syncd_ticks0" \
                      "$(bench_cpu_ticks "$(cat "$dir/syncd.pid")")")
    db_cpu=$(cpu_s "$db_ticks0" \
                   "$(bench_cpu_ticks "$(cat "$dir/ovsdb-server.pid")")")

    # Restart on the full table.
    stop_pid "$dir/syncd.pid"
    t_r0=$(now)
    start_syncd
    wait_stat routes: "$ROWS"
    test "$mode" = nowb || wait_stat in-sync "$ROWS"
    t_r1=$(now)
    skipped=$(stat_field skipped)
    rss_r=$(awk '/VmHWM/ { print $2 }' "/proc/$(cat "$dir/syncd.pid")/status")

    prog_s=$(secs "$t0" "$t_prog")
    sync_s=$(secs "$t0" "$t_sync")
    restart_s=$(secs "$t_r0" "$t_r1")
    echo "  $mode: load ${load_s}s ($(rate "$ROWS" "$load_s") rows/s)," \
         "programmed ${prog_s}s ($(rate "$ROWS" "$prog_s") routes/s)," \
         "in sync ${sync_s}s, not programmed in the database: $left;" \
         "restart ${restart_s}s ($(rate "$ROWS" "$restart_s") routes/s," \
         "$skipped write-backs skipped); syncd peak RSS $((rss / 1024)) MB," \
         "$((rss_r / 1024)) MB after restart; cpu until in sync: syncd" \
         "${syncd_cpu}s, ovsdb-server ${db_cpu}s"
    echo "$load_s $prog_s $sync_s $restart_s $syncd_cpu $db_cpu" \
        >> "$results.$mode"

    stop_pid "$dir/syncd.pid"
    stop_pid "$dir/ovsdb-server.pid"
    rm -rf "$dir"
}

echo "syncd benchmark: $ROWS rows, $TXN rows/txn, bulks of $BULK," \
     "$RUNS runs of: $MODES"
bench_machine_begin
results=$(mktemp)
for run in $(seq 1 "$RUNS"); do
    echo "run $run:"
    for mode in $MODES; do
        run_once "$mode"
    done
done

for mode in $MODES; do
    for col in 1 2 3 4 5 6; do
        eval m$col=$(cut -d' ' -f$col "$results.$mode" | median)
    done
    rm -f "$results.$mode"
    if test "$mode" = base; then
        echo "median base: load ${m1}s ($(rate "$ROWS" "$m1") rows/s)"
    else
        echo "median $mode: load ${m1}s ($(rate "$ROWS" "$m1") rows/s)," \
             "programmed ${m2}s ($(rate "$ROWS" "$m2") routes/s)," \
             "in sync ${m3}s ($(rate "$ROWS" "$m3") routes/s)," \
             "restart ${m4}s ($(rate "$ROWS" "$m4") routes/s)," \
             "cpu until in sync: syncd ${m5}s, ovsdb-server ${m6}s"
    fi
done
rm -f "$results"
bench_machine_end

echo "in-process apply step (syncd-bench apply -n $ROWS -k $BULK):"
for run in $(seq 1 "$RUNS"); do
    "$BENCH" apply -n "$ROWS" -k "$BULK"
done
