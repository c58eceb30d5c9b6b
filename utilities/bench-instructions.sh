#! /bin/sh
# bench-instructions.sh -- instructions a daemon executes per route.
#
# usage: utilities/bench-instructions.sh [-n ROUTES] [-d DAEMON] [-p PATH]
#                                        BUILD...
#
# CPU time on this shared 2-core VM drifts by 10-20% between runs of the
# same code, too much to tell a 5% change.  Instruction counts do not
# drift: for each BUILD this starts the whole stack (ovsdb-server on a
# fresh database, syncd, orchd in async SAI mode as "fibsync-bench run"
# has it, and fpmsyncd) on PATH ("ovsdb", the default, or "zmq": the
# Global row's northbound_zmq and southbound_zmq), with DAEMON
# (fpmsyncd, the default, orchd or syncd) under valgrind's cachegrind
# (instruction counting only), sends ROUTES (default 200000) IPv4 routes
# with fpm-replay, waits until syncd's FIB holds every route and fpmsyncd
# has committed every Route row, stops the stack and prints the
# instructions DAEMON executed, per route.  The count still depends a
# little on how routes fall into transactions and bulks, which timing
# decides, so compare builds in the same run.
#
# Copyright (c) 2024 The fibsync authors.
# Licensed under the Apache License, Version 2.0.

set -e
ROUTES=200000
DAEMON=fpmsyncd
ROUTE_PATH=ovsdb
while test $# -gt 0; do
    case $1 in
        -n) ROUTES=$2; shift 2 ;;
        -d) DAEMON=$2; shift 2 ;;
        -p) ROUTE_PATH=$2; shift 2 ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
case $DAEMON in
    fpmsyncd|orchd|syncd) ;;
    *) echo "$0: -d takes fpmsyncd, orchd or syncd" >&2; exit 1 ;;
esac
case $ROUTE_PATH in
    ovsdb) zmq=false ;;
    zmq) zmq=true ;;
    *) echo "$0: -p takes ovsdb or zmq" >&2; exit 1 ;;
esac
test $# -ge 1 || { echo "$0: name at least one build (use --help)" >&2;
                   exit 1; }
command -v valgrind > /dev/null ||
    { echo "$0: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
. "$(dirname "$0")/bench-lib.sh"

bench_machine_begin
for build in "$@"; do
    B=$(cd "$build" && pwd)
    OVS=$(sed -n 's/^OVS_BUILDDIR = //p' "$B/Makefile")
    SRC=$(sed -n 's/^abs_top_srcdir = //p' "$B/Makefile")
    d=$(mktemp -d /dev/shm/bench-instr.XXXXXX)
    port=$(bench_free_port)
    "$OVS/ovsdb/ovsdb-tool" create "$d/db" "$SRC/schema/fibsync.ovsschema"
    "$OVS/ovsdb/ovsdb-server" "$d/db" --detach --no-chdir \
        --pidfile="$d/ovsdb-server.pid" --log-file="$d/ovsdb-server.log" \
        --remote="punix:$d/db.sock" --unixctl="$d/ovsdb-server.ctl"
    "$OVS/ovsdb/ovsdb-client" transact "unix:$d/db.sock" \
        "[\"Fibsync\", {\"op\": \"insert\", \"table\": \"Global\",
          \"row\": {\"northbound_zmq\": $zmq, \"southbound_zmq\": $zmq,
                   \"sai_mode\": \"async\"}}]" > /dev/null
    appctl () { "$OVS/utilities/ovs-appctl" -t "$d/$1.ctl" "$2"; }
    daemon_args () {
        echo --no-chdir --unixctl="$d/$1.ctl" --log-file="$d/$1.log" \
            --db="unix:$d/db.sock"
    }
    under () {  # under NAME: valgrind if NAME is the daemon measured
        if test "$1" = "$DAEMON"; then
            echo valgrind --tool=cachegrind --cache-sim=no \
                --cachegrind-out-file=/dev/null
        fi
    }
    err () {    # err NAME: where NAME's standard error goes
        if test "$1" = "$DAEMON"; then
            echo "$d/valgrind.out"
        else
            echo "$d/$1.err"
        fi
    }
    export FIBSYNC_RUNDIR=$d
    $(under syncd) "$(bench_program "$B" syncd)" $(daemon_args syncd) \
        --capacity-ipv4-routes=$((ROUTES + 1000)) 2> "$(err syncd)" &
    pids=$!
    $(under orchd) "$(bench_program "$B" orchd)" $(daemon_args orchd) \
        --no-ring 2> "$(err orchd)" &
    pids="$pids $!"
    $(under fpmsyncd) "$(bench_program "$B" fpmsyncd)" \
        $(daemon_args fpmsyncd) --fpm-port="$port" 2> "$(err fpmsyncd)" &
    pids="$pids $!"
    until appctl fpmsyncd fpm/show 2>/dev/null | grep -q '^fpm: ptcp'; do
        sleep 0.5
    done
    "$B/utilities/fpm-replay" -n "$ROUTES" --port "$port" --linger 0 -q
    waited=0
    while :; do
        waited=$((waited + 1))
        if test $waited -gt 7200; then
            echo "$0: the stack did not finish within an hour" >&2
            exit 1
        fi
        n=$(appctl syncd crm/show 2>/dev/null |
            awk '$1 == "ipv4_route" { print $2 }')
        s=$(appctl fpmsyncd fpm/show 2>/dev/null || true)
        pending=$(echo "$s" | sed -n 's/^pending: //p')
        inflight=$(echo "$s" | sed -n 's/^in flight: //p')
        test "${n:-0}" -ge "$ROUTES" && test "${pending:-1}" = 0 &&
            test "${inflight:-1}" = 0 && break
        sleep 0.5
    done
    for p in fpmsyncd orchd syncd; do
        appctl "$p" exit > /dev/null 2>&1 || true
    done
    for pid in $pids; do
        wait $pid || true
    done
    sleep 1
    ir=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$d/valgrind.out" |
         tr -d ,)
    kill "$(cat "$d/ovsdb-server.pid")"
    echo "$build: $DAEMON on the $ROUTE_PATH path: $ir instructions for" \
         "$ROUTES routes, $(echo "$ir $ROUTES" |
                            awk '{ printf "%.0f", $1 / $2 }') a route"
    rm -rf "$d"
done
bench_machine_end
