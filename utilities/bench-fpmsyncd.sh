#! /bin/sh
# Copyright (c) 2024 The fibsync authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at:
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# bench-fpmsyncd.sh: fpm-replay -> fpmsyncd -> ovsdb-server throughput.

usage () {
    cat <<EOF
usage: $0 [OPTIONS] [-- FPMSYNCD-OPTIONS...]

Measures how fast fpmsyncd gets routes from an FPM stream into OVSDB.
For each run it creates a fresh Fibsync database in a temporary
directory, starts ovsdb-server (Open vSwitch's, linked with jemalloc) and
fpmsyncd there, sends the routes with fpm-replay as fast as fpmsyncd
takes them, and waits until fpmsyncd reports every row committed
(acknowledged by ovsdb-server).  The rate is routes / (time from the
start of fpm-replay to the last commit).  It also reports the CPU time
and peak RSS of fpmsyncd and of ovsdb-server, and checks at the end
that the Route table holds every route.  The median of the runs is
printed last.

OPTIONS
  -b, --builddir DIR   fibsync build directory (default: the current
                       directory if it has daemons/fpmsyncd/fpmsyncd)
  -n, --routes N       routes to send (default 1000000)
  -r, --runs N         runs (default 3)
  -p, --port PORT      FPM port (default: a free one)
  --replay-args ARGS   more fpm-replay options (default: none: IPv4,
                       the realistic prefix-length mix, next-hop groups)
  -d, --dir DIR        where to make the temporary directories, and so
                       the database file (default: /dev/shm, a tmpfs, if
                       it exists, else \$TMPDIR or /tmp).  On this VM's
                       ext4, ovsdb-server stalls up to 5 ms on each log
                       write, which halves the rate: keep a database
                       that must be fast on tmpfs (e.g. under /run)
  --keep               keep the temporary directories
  --no-check           skip the final row count
  -h, --help           this help

Anything after "--" is passed to fpmsyncd (e.g. --batch-size=2000).
EOF
}

builddir=
routes=1000000
runs=3
port=
replay_args=
keep=false
check=true
if test -d /dev/shm && test -w /dev/shm; then
    tmpdir=/dev/shm
else
    tmpdir=${TMPDIR:-/tmp}
fi
while test $# -gt 0; do
    case $1 in
        -b|--builddir) builddir=$2; shift 2 ;;
        -n|--routes) routes=$2; shift 2 ;;
        -r|--runs) runs=$2; shift 2 ;;
        -p|--port) port=$2; shift 2 ;;
        -d|--dir) tmpdir=$2; shift 2 ;;
        --replay-args) replay_args=$2; shift 2 ;;
        --keep) keep=true; shift ;;
        --no-check) check=false; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) echo "$0: unknown option $1 (use --help)" >&2; exit 1 ;;
    esac
done

if test -z "$builddir"; then
    if test -x daemons/fpmsyncd/fpmsyncd; then
        builddir=.
    else
        echo "$0: use --builddir to say where fpmsyncd is built" >&2
        exit 1
    fi
fi
builddir=`cd "$builddir" && pwd`
OVS_BUILDDIR=`sed -n "s/^OVS_BUILDDIR='\(.*\)'$/\1/p" \
    "$builddir/tests/atlocal" 2>/dev/null`
if test ! -x "$OVS_BUILDDIR/ovsdb/ovsdb-server"; then
    echo "$0: no ovsdb-server under '$OVS_BUILDDIR' (from" \
         "$builddir/tests/atlocal)" >&2
    exit 1
fi
srcdir=`sed -n "s/^abs_top_srcdir = //p" "$builddir/Makefile"`
schema=$srcdir/schema/fibsync.ovsschema
PATH=$OVS_BUILDDIR/ovsdb:$OVS_BUILDDIR/utilities:$PATH
PATH=$builddir/daemons/fpmsyncd:$builddir/utilities:$PATH
export PATH

hz=`getconf CLK_TCK`
. "`dirname "$0"`/bench-lib.sh"

# status_kb PID FIELD: a field of /proc/PID/status, in kB.
status_kb () {
    awk -v f="$2:" '$1 == f { print $2 }' /proc/$1/status
}

# show FIELD: a "FIELD: N" line of fpmsyncd's fpm/show.
show () {
    ovs-appctl -t "$dir/fpmsyncd.ctl" fpm/show | sed -n "s/^$1: //p"
}

stop_all () {
    for p in fpmsyncd ovsdb-server; do
        if test -f "$dir/$p.pid"; then
            pid=`cat "$dir/$p.pid"`
            kill $pid 2>/dev/null
            i=0
            while kill -0 $pid 2>/dev/null && test $i -lt 300; do
                sleep 0.1; i=`expr $i + 1`
            done
            kill -9 $pid 2>/dev/null
        fi
    done
}

if ldd "$OVS_BUILDDIR/ovsdb/ovsdb-server" | grep -q jemalloc; then
    malloc=jemalloc
else
    malloc="glibc malloc"
fi
echo "fpmsyncd benchmark: $routes routes, $runs runs, ovsdb-server with" \
     "$malloc, fpmsyncd options: ${*:-(none)}"
fstype=`df -T "$tmpdir" | awk 'NR == 2 { print $2 }'`
echo "fpm-replay -n $routes $replay_args; database in $tmpdir ($fstype)"
bench_machine_begin

results=
run=1
while test $run -le $runs; do
    dir=`mktemp -d "$tmpdir/bench-fpmsyncd.XXXXXX"`
    trap 'stop_all; $keep || rm -rf "$dir"' 0 INT TERM
    p=${port:-`bench_free_port`}
    (
        cd "$dir" &&
        ovsdb-tool create fibsync.db "$schema" &&
        ovsdb-server --detach --no-chdir --pidfile="$dir/ovsdb-server.pid" \
            --log-file="$dir/ovsdb-server.log" \
            --remote=punix:"$dir/db.sock" \
            --unixctl="$dir/ovsdb-server.ctl" fibsync.db 2>/dev/null &&
        fpmsyncd --detach --no-chdir --pidfile="$dir/fpmsyncd.pid" \
            --log-file="$dir/fpmsyncd.log" --unixctl="$dir/fpmsyncd.ctl" \
            --db=unix:"$dir/db.sock" --fpm-port=$p "$@" 2>/dev/null
    ) || { echo "$0: could not start the daemons" >&2; exit 1; }
    i=0
    until ovs-appctl -t "$dir/fpmsyncd.ctl" fpm/show 2>/dev/null \
            | grep -q '^fpm: ptcp'; do
        sleep 0.1; i=`expr $i + 1`
        test $i -lt 100 || { echo "$0: fpmsyncd does not listen" >&2;
                              exit 1; }
    done
    fpmd=`cat "$dir/fpmsyncd.pid"`
    db=`cat "$dir/ovsdb-server.pid"`
    fpmd_cpu0=`bench_cpu_ticks $fpmd`
    db_cpu0=`bench_cpu_ticks $db`

    load0=`cut -d' ' -f1 /proc/loadavg`
    t0=`date +%s.%N`
    if test -x /usr/bin/time; then
        /usr/bin/time -f '%U %S' -o "$dir/replay.time" \
            fpm-replay -n $routes --port $p --linger 0 -q $replay_args &
    else
        fpm-replay -n $routes --port $p --linger 0 -q $replay_args &
    fi
    replay=$!
    while :; do
        s=`ovs-appctl -t "$dir/fpmsyncd.ctl" fpm/show`
        held=`echo "$s" | sed -n 's/^routes: \([0-9]*\) held.*/\1/p'`
        pending=`echo "$s" | sed -n 's/^pending: //p'`
        inflight=`echo "$s" | sed -n 's/^in flight: //p'`
        if test "$held" = $routes && test "$pending" = 0 \
           && test "$inflight" = 0; then
            break
        fi
        sleep 0.05
    done
    t1=`date +%s.%N`
    wait $replay

    fpmd_cpu=`bench_cpu_ticks $fpmd`
    db_cpu=`bench_cpu_ticks $db`
    secs=`echo "$t1 - $t0" | bc -l`
    rate=`echo "$routes / $secs" | bc`
    fpmd_secs=`echo "($fpmd_cpu - $fpmd_cpu0) / $hz" | bc -l`
    db_secs=`echo "($db_cpu - $db_cpu0) / $hz" | bc -l`
    fpmd_hwm=`status_kb $fpmd VmHWM`
    db_rss=`status_kb $db VmRSS`
    db_hwm=`status_kb $db VmHWM`
    fmt="run %d: %d routes in %.2f s = %d routes/s; fpmsyncd cpu %.2f s,"
    fmt="$fmt peak rss %d MB; ovsdb-server cpu %.2f s, rss %d MB (peak %d MB)"
    line=`printf "$fmt" \
        $run $routes $secs $rate $fpmd_secs \
        \`expr $fpmd_hwm / 1024\` $db_secs \
        \`expr $db_rss / 1024\` \`expr $db_hwm / 1024\``
    line="$line; load $load0 -> `cut -d' ' -f1 /proc/loadavg`"
    if test -s "$dir/replay.time"; then
        line="$line; fpm-replay cpu `awk '{ printf "%.2f", $1 + $2 }' \
            "$dir/replay.time"` s"
    fi
    echo "$line"
    results="$results$rate $line
"
    if $check; then
        n=`ovsdb-client dump --format=csv --no-headings \
               unix:"$dir/db.sock" Fibsync Route _uuid | sed 1d | wc -l`
        if test "$n" != "$routes"; then
            echo "$0: Route holds $n rows, not $routes" >&2
            exit 1
        fi
    fi
    stop_all
    $keep && echo "  (kept $dir)" || rm -rf "$dir"
    trap - 0 INT TERM
    run=`expr $run + 1`
done

median=`printf "%s" "$results" | sort -n | \
    awk '{ l[NR] = $0 } END { m = l[int((NR + 1) / 2)];
                              sub(/^[0-9]+ run [0-9]+: /, "", m);
                              print m }'`
echo "median: $median"
bench_machine_end
