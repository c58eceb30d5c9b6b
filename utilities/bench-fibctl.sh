#! /bin/sh
# bench-fibctl.sh: "show ip route" against a loaded stack.
#
# usage: utilities/bench-fibctl.sh [-b BUILDDIR] [-n ROUTES] [-q QUERIES]
#                                  [-s table|replica]
#
# Starts ovsdb-server, syncd, orchd and fpmsyncd in a temporary directory,
# loads ROUTES IPv4 routes (default 1000000) with fpm-replay, waits until
# orchd's read cache holds them all, then times, wall clock, from this
# shell:
#
#   exact   fibctl show ip route PREFIX, QUERIES times (default 50), on
#           prefixes picked at random from the Route table
#   lpm     fibctl show ip route ADDRESS, inside the same prefixes
#   dump    ovs-appctl orchd route/dump (every route, from the read cache)
#   walk    fibctl show ip route (every route, in prefix order, from the
#           (vrf, prefix) index)
#
# and reports medians and orchd's peak RSS.  Each fibctl run is a whole
# process: exec, connect, one index lookup in orchd, print.  orchd answers
# from its route table and the table's (vrf, prefix) skiplist (-s table,
# orchd --routes-from-file: fibsync-ctl's default), or from its IDL
# replica of Route and the compound IDL indexes over it (-s replica).

builddir=
routes=1000000
queries=50
source=table
while test $# -gt 0; do
    case $1 in
        -b) builddir=$2; shift ;;
        -n) routes=$2; shift ;;
        -q) queries=$2; shift ;;
        -s) source=$2; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "$0: unknown option $1" >&2; exit 1 ;;
    esac
    shift
done
case $source in
    table|replica) ;;
    *) echo "$0: -s takes table or replica, not \"$source\"" >&2; exit 1 ;;
esac
. "$(dirname "$0")/bench-lib.sh"
bench_use_build "$builddir" fibctl
tmpdir=/tmp
test -w /dev/shm && tmpdir=/dev/shm
d=$(mktemp -d "$tmpdir/bench-fibctl.XXXXXX")
trap 'for p in fpmsyncd orchd syncd ovsdb-server; do
          test -f "$d/$p.pid" && kill "$(cat "$d/$p.pid")" 2>/dev/null
      done; sleep 0.5; rm -rf "$d"' 0

ovsdb-tool create "$d/fibsync.db" "$SRC/schema/fibsync.ovsschema"
ovsdb-server "$d/fibsync.db" --detach --no-chdir -vconsole:off \
    --pidfile="$d/ovsdb-server.pid" --log-file="$d/ovsdb-server.log" \
    --remote="punix:$d/db.sock" --unixctl="$d/ovsdb-server.ctl"
DB=unix:$d/db.sock
ovsdb-client transact "$DB" \
    '["Fibsync", {"op": "insert", "table": "Global", "row": {}}]' >/dev/null
common="--detach --no-chdir --db=$DB -vconsole:off"
syncd $common --pidfile="$d/syncd.pid" --log-file="$d/syncd.log" \
    --unixctl="$d/syncd.ctl"
orchd $common --pidfile="$d/orchd.pid" --log-file="$d/orchd.log" \
    --unixctl="$d/orchd.ctl" --sai-mode=async \
    $(test $source = table && echo "--routes-from-file=$d/fibsync.db")
port=$(bench_free_port)
fpmsyncd $common --pidfile="$d/fpmsyncd.pid" --log-file="$d/fpmsyncd.log" \
    --unixctl="$d/fpmsyncd.ctl" --fpm-port="$port"
sleep 1
bench_machine_begin
echo "# loading $routes routes (load $(cut -d' ' -f1-3 /proc/loadavg))"
t0=$(date +%s)
fpm-replay -n "$routes" --port "$port" --linger 0 -q
until ovs-appctl -t "$d/orchd.ctl" orchd/status |
        grep -q "read cache: $routes routes"; do
    sleep 1
    if test $(($(date +%s) - t0)) -gt 1200; then
        echo "$0: routes not programmed after 20 minutes" >&2
        exit 1
    fi
done
echo "# loaded in $(($(date +%s) - t0)) s"

ovsdb-client dump --no-headings "$DB" Fibsync Route prefix |
    sed 1d | tr -d '"' | shuf -n "$queries" --random-source=/dev/zero \
    > "$d/prefixes"

# ms CMD...: wall milliseconds of one run of CMD, output discarded.
ms () {
    s=$(date +%s%N)
    "$@" > /dev/null || echo "$0: failed: $*" >&2
    e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
}

while read p; do
    ms fibctl --db="$DB" show ip route "$p"
done < "$d/prefixes" | bench_median > "$d/exact"
while read p; do
    ms fibctl --db="$DB" show ip route "${p%/*}"
done < "$d/prefixes" | bench_median > "$d/lpm"
for i in 1 2 3; do
    ms ovs-appctl -t "$d/orchd.ctl" route/dump
done | bench_median > "$d/dump"
for i in 1 2 3; do
    ms fibctl --db="$DB" show ip route
done | bench_median > "$d/walk"
rss=$(awk '/VmRSS/ { print int($2 / 1024) }' \
          "/proc/$(cat "$d/orchd.pid")/status")
echo "routes $routes queries $queries source $source"
echo "fibctl exact prefix, median wall: $(cat "$d/exact") ms"
echo "fibctl longest match, median wall: $(cat "$d/lpm") ms"
echo "route/dump of all routes (read cache), median wall: $(cat "$d/dump") ms"
echo "fibctl show ip route (all, index walk), median wall: $(cat "$d/walk") ms"
echo "orchd RSS: $rss MB ($(( rss * 1024 * 1024 / routes )) bytes a route)"
bench_machine_end
