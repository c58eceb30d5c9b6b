#! /bin/sh
# bench-route-check.sh: route-check on a loaded stack, reading the
# database file against asking the server, side by side.
#
# usage: utilities/bench-route-check.sh [-b BUILDDIR] [-n ROUTES] [-r REPS]
#
# Starts a stack with "fibsync-ctl start --path zmq" in a temporary run
# directory, loads ROUTES IPv4 routes (default 1000000) with fpm-replay,
# waits until route-check passes (OVSDB and the FIB hold every route),
# then runs, REPS times (default 3), interleaved:
#
#   file     route-check -q: the database replayed from the server's file
#   server   route-check -q --no-db-file: the database asked of the server
#
# and reports, per run and as medians: wall seconds, route-check's own CPU
# seconds and peak RSS, the CPU seconds ovsdb-server spent meanwhile, and
# ovsdb-server's RSS before and its peak (VmHWM) after.  Both compare the
# FIB too (syncd dumps it to a file meanwhile).

builddir=
routes=1000000
reps=3
while test $# -gt 0; do
    case $1 in
        -b) builddir=$2; shift ;;
        -n) routes=$2; shift ;;
        -r) reps=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "$0: unknown option $1" >&2; exit 1 ;;
    esac
    shift
done
. "$(dirname "$0")/bench-lib.sh"
bench_use_build "$builddir" route-check
tmpdir=/tmp
test -w /dev/shm && tmpdir=/dev/shm
d=$(mktemp -d "$tmpdir/bench-route-check.XXXXXX")
FIBSYNC_RUNDIR=$d
export FIBSYNC_RUNDIR
trap 'fibsync-ctl stop >/dev/null 2>&1; rm -rf "$d"' 0

port=$(bench_free_port)
fibsync-ctl start --path zmq --fpm-port "$port" > "$d/start.log" 2>&1 || {
    cat "$d/start.log" >&2
    exit 1
}
bench_machine_begin
echo "# loading $routes routes"
t0=$(date +%s)
fpm-replay -n "$routes" --port "$port" --linger 0 -q
until route-check -q > /dev/null 2>&1; do
    sleep 2
    if test $(($(date +%s) - t0)) -gt 1200; then
        echo "$0: route-check not clean after 20 minutes" >&2
        exit 1
    fi
done
echo "# route-check clean $(($(date +%s) - t0)) s after the load started"

srv=$(cat "$d/ovsdb-server.pid")
hz=$(getconf CLK_TCK)
# mb NAME: ovsdb-server's VmRSS or VmHWM, in MB.
mb () { awk -v k="$1:" '$1 == k { printf "%d", $2 / 1024 }' \
            "/proc/$srv/status"; }

printf '%-7s %4s %8s %12s %11s %14s %15s %13s\n' how rep wall_s \
    rc_cpu_s rc_peak_mb server_cpu_s server_rss_mb server_hwm_mb
for i in $(seq "$reps"); do
    for how in file server; do
        opt=
        test $how = server && opt=--no-db-file
        rss0=$(mb VmRSS)
        c0=$(bench_cpu_ticks "$srv")
        /usr/bin/time -f '%e %U %S %M' -o "$d/time" \
            route-check -q $opt > "$d/out" 2>&1
        status=$?
        c1=$(bench_cpu_ticks "$srv")
        if test $status != 0; then
            echo "$0: route-check ($how) exit $status:" >&2
            cat "$d/out" >&2
            exit 1
        fi
        read wall user sys peak < "$d/time"
        printf '%-7s %4d %8.2f %12.2f %11d %14.2f %15d %13d\n' $how $i \
            "$wall" "$(echo "$user + $sys" | bc)" $((peak / 1024)) \
            "$(echo "($c1 - $c0) / $hz" | bc -l)" "$rss0" "$(mb VmHWM)" |
            tee -a "$d/rows"
    done
done
echo "# $(cat "$d/out")"
for how in file server; do
    printf '%-7s median %8.2f %12.2f %11d %14.2f\n' $how \
        "$(awk -v h=$how '$1 == h { print $3 }' "$d/rows" | bench_median)" \
        "$(awk -v h=$how '$1 == h { print $4 }' "$d/rows" | bench_median)" \
        "$(awk -v h=$how '$1 == h { print $5 }' "$d/rows" | bench_median)" \
        "$(awk -v h=$how '$1 == h { print $6 }' "$d/rows" | bench_median)"
done
bench_machine_end
