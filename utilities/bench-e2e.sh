#! /bin/sh
# bench-e2e.sh: fpm-replay -> fpmsyncd -> OVSDB -> orchd -> OVSDB -> syncd,
# routes/s until every route is programmed in the simulated ASIC, with
# each orchd optimization on and off.

usage () {
    cat <<EOF
usage: $0 [OPTIONS]

For each run and each configuration, creates a fresh Fibsync database in
a temporary directory (also the run directory, FIBSYNC_RUNDIR, so the
ZeroMQ endpoints land there), starts ovsdb-server (Open vSwitch's,
linked with jemalloc), syncd, orchd (with the configuration's options)
and fpmsyncd there, sends the routes with fpm-replay as fast as fpmsyncd
takes them, and polls the daemons 5 times a second until the simulated
FIB holds every route and OVSDB has caught up.  Reports, per run and as
medians over the runs (all times from the start of fpm-replay):

  prog/s     routes / time until the last route is in syncd's FIB
  route-s    time until Route holds every route (fpmsyncd's writes all
             committed)
  asic-s     time until Asic_Route holds every route ("-" without the
             Asic_Route write-behind); on the OVSDB path, until syncd's
             replica of Asic_Route has every row
  sync-s     time until every Asic_Route row says "programmed" (OVSDB
             path: syncd's status write-back; fast path: orchd's
             write-behind; "-" without it)
  cpu-us     CPU microseconds a route of ovsdb-server, fpmsyncd, orchd,
             syncd, and their sum
  rss-MB     resident memory of each process at the end and its peak
             (VmRSS/VmHWM), and the sums of both over the stack

The configurations run one after another within each run (so each sees
the same machine load), and the median of the runs is printed last.

OPTIONS
  -b, --builddir DIR   fibsync build directory (default: ./_build or .)
  -n, --routes N       IPv4 routes (default 1000000)
  -r, --runs N         runs (default 3)
  -c, --configs LIST   comma-separated (default: the OVSDB path's), from
                       the OVSDB path (orchd options):
                         sync     sync SAI mode, no ring (baseline)
                         async    async SAI mode, 8 bulks outstanding
                         ring     ring buffer + assistant thread, sync
                         both     ring + async
                         sorted   async + sorted bulks
                         k100     async with bulks of 100 (-k 100)
                         fibsup   async + FIB suppression (Route.status)
                         noindex  async, orchd without route indexes
                         wide     async, 64 bulks outstanding
                         widering wide + ring
                       the ZeroMQ fast path (Global columns), async:
                         zmq      both hops on ZeroMQ
                         zmqfibsup  zmq + FIB suppression
                         zmqnowb  zmq without the Asic_Route write-behind
                         zmqlean  zmq, Route rows without resolved next
                                  hops (other_config:resolve_nexthops=false)
                         zmqnb    only fpmsyncd -> orchd on ZeroMQ
                         zmqsb    only orchd -> syncd on ZeroMQ
  -d, --dir DIR        where to make temporary directories (default
                       /dev/shm if writable, else /tmp)
  --timeout S          give up on a run after S seconds (default 900)
  --replay-args ARGS   more fpm-replay options
  -h, --help           this help
EOF
}

builddir=
routes=1000000
runs=3
configs=sync,async,ring,both,sorted,k100,fibsup,noindex,wide,widering
replay_args=
timeout=900
tmpdir=/tmp
test -w /dev/shm && tmpdir=/dev/shm
while test $# -gt 0; do
    case $1 in
        -b|--builddir) builddir=$2; shift ;;
        -n|--routes) routes=$2; shift ;;
        -r|--runs) runs=$2; shift ;;
        -c|--configs) configs=$2; shift ;;
        -d|--dir) tmpdir=$2; shift ;;
        --replay-args) replay_args=$2; shift ;;
        --timeout) timeout=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "$0: unknown option $1 (use --help)" >&2; exit 1 ;;
    esac
    shift
done

. "$(dirname "$0")/bench-lib.sh"
bench_use_build "$builddir" daemons/orchd

zmq_both='"northbound_zmq": true, "southbound_zmq": true'

# opts_for CONFIG: orchd options, then "|", then the Global row (JSON).
opts_for () {
    case $1 in
        sync) echo "--sai-mode=sync --no-ring|{}" ;;
        async) echo "--sai-mode=async --no-ring|{}" ;;
        ring) echo "--sai-mode=sync --ring|{}" ;;
        both) echo "--sai-mode=async --ring|{}" ;;
        sorted) echo "--sai-mode=async --sorted-bulks|{}" ;;
        k100) echo "--sai-mode=async -k 100|{}" ;;
        fibsup) echo "--sai-mode=async|{\"fib_suppression\": true}" ;;
        noindex) echo "--sai-mode=async --no-route-index|{}" ;;
        wide) echo "--sai-mode=async --max-outstanding=64|{}" ;;
        widering) echo "--sai-mode=async --max-outstanding=64 --ring|{}" ;;
        zmq) echo "--sai-mode=async|{$zmq_both}" ;;
        zmqfibsup)
            echo "--sai-mode=async|{$zmq_both, \"fib_suppression\": true}" ;;
        zmqnowb) echo "--sai-mode=async|{$zmq_both,
                       \"asic_route_write_behind\": false}" ;;
        zmqlean) echo "--sai-mode=async|{$zmq_both, \"other_config\":
                       [\"map\", [[\"resolve_nexthops\", \"false\"]]]}" ;;
        zmqnb) echo "--sai-mode=async|{\"northbound_zmq\": true}" ;;
        zmqsb) echo "--sai-mode=async|{\"southbound_zmq\": true}" ;;
        *) echo "$0: unknown configuration $1" >&2; return 1 ;;
    esac
}

now () { date +%s.%N; }

# appctl DIR DAEMON COMMAND...: the daemon's answer ("" if none).
appctl () {
    appctl_d=$1 appctl_daemon=$2
    shift 2
    ovs-appctl -t "$appctl_d/$appctl_daemon.ctl" "$@" 2>/dev/null
}

# fib_routes DIR: IPv4 routes in syncd's FIB.
fib_routes () {
    appctl "$1" syncd crm/show | awk '$1 == "ipv4_route" { print $2 }'
}

# route_done DIR: true once fpmsyncd's writes of every route and next hop
# it received are committed (Route and Nexthop_Group hold them all).
route_done () {
    appctl "$1" fpmsyncd fpm/show | awk -v n="$routes" '
        /^fpm input: routes added/ { want = $5 + $13 }
        /^committed: / { have = $2 }
        END { exit !(want >= n && have >= want) }'
}

# asic_rows DIR ZMQ: rows in Asic_Route: on the fast path those orchd's
# write-behind committed, on the OVSDB path those syncd replicates.
asic_rows () {
    if test "$2" = sb; then
        appctl "$1" orchd zmq/show |
            sed -n 's/^Asic_Route write-behind:.* committed \([0-9]*\).*/\1/p'
    else
        appctl "$1" syncd asic/stats |
            sed -n 's/^db: connected, rows \([0-9]*\) .*/\1/p'
    fi
}

# in_sync DIR: Asic_Route rows whose status syncd has written back.
in_sync () {
    appctl "$1" syncd asic/stats | sed -n 's/.* in-sync \([0-9]*\) .*/\1/p'
}

# mem_of PIDFILE: "RSS/peak" of that process, in MB.
mem_of () {
    awk '/^VmRSS/ { r = int($2 / 1024) } /^VmHWM/ { h = int($2 / 1024) }
         END { printf "%d/%d", r, h }' "/proc/$(cat "$1")/status" \
        2>/dev/null || echo "?/?"
}

# since T: seconds from T to now, to 0.01 s.
since () { echo "$1 $(now)" | awk '{ printf "%.2f", $2 - $1 }'; }

# one_run CONFIG: one line of KEY=VALUE results for CONFIG.
one_run () {
    config=$1
    o=$(opts_for "$config") || return 1
    orchd_opts=${o%%|*}
    global=${o#*|}
    case $global in
        *southbound_zmq*) sb=sb ;;
        *) sb= ;;
    esac
    case $global in
        *'"asic_route_write_behind": false'*) wb=no ;;
        *) wb=yes ;;
    esac
    d=$(mktemp -d "$tmpdir/bench-e2e.XXXXXX")
    FIBSYNC_RUNDIR=$d
    export FIBSYNC_RUNDIR
    ovsdb-tool create "$d/fibsync.db" "$SRC/schema/fibsync.ovsschema"
    ovsdb-server "$d/fibsync.db" --detach --no-chdir \
        --pidfile="$d/ovsdb-server.pid" --log-file="$d/ovsdb-server.log" \
        --remote="punix:$d/db.sock" --unixctl="$d/ovsdb-server.ctl" \
        -vconsole:off
    DB=unix:$d/db.sock
    ovsdb-client transact "$DB" \
        "[\"Fibsync\", {\"op\": \"insert\", \"table\": \"Global\",
                        \"row\": $global}]" > /dev/null
    common="--detach --no-chdir --db=$DB -vconsole:off"
    syncd $common --pidfile="$d/syncd.pid" --log-file="$d/syncd.log" \
        --unixctl="$d/syncd.ctl"
    orchd $common --pidfile="$d/orchd.pid" --log-file="$d/orchd.log" \
        --unixctl="$d/orchd.ctl" $orchd_opts
    port=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
    fpmsyncd $common --pidfile="$d/fpmsyncd.pid" \
        --log-file="$d/fpmsyncd.log" --unixctl="$d/fpmsyncd.ctl" \
        --fpm-port="$port"
    sleep 1

    t0=$(now)
    fpm-replay -n "$routes" --port "$port" --linger 0 -q $replay_args \
        > "$d/replay.out" 2>&1
    t_prog= t_route= t_asic= t_sync=
    test $wb = yes || { t_asic=-; t_sync=-; }
    n=0
    deadline=$(($(date +%s) + timeout))
    while test "$(date +%s)" -lt "$deadline"; do
        if test -z "$t_prog"; then
            n=$(fib_routes "$d")
            test "${n:-0}" -ge "$routes" && t_prog=$(since "$t0")
        fi
        if test -z "$t_route" && route_done "$d"; then
            t_route=$(since "$t0")
        fi
        if test -z "$t_asic" && test "$(asic_rows "$d" $sb)" -ge "$routes"
        then
            t_asic=$(since "$t0")
        fi
        if test -z "$t_sync"; then
            if test "$sb" = sb; then
                test -n "$t_asic" && t_sync=$t_asic
            elif test "$(in_sync "$d")" -ge "$routes"; then
                t_sync=$(since "$t0")
            fi
        fi
        if test -n "$t_prog" && test -n "$t_route" && test -n "$t_asic" \
           && test -n "$t_sync"; then
            break
        fi
        sleep 0.2
    done
    line="$config"
    if test -z "$t_prog" || test -z "$t_route" || test -z "$t_sync"; then
        line="$line timed-out fib=${n:-0} prog=$t_prog route=$t_route"
        line="$line asic=$t_asic sync=$t_sync"
    else
        line="$line prog/s=$(echo "$routes $t_prog" |
                            awk '{ printf "%.0f", $1 / $2 }')"
        line="$line route-s=$t_route asic-s=$t_asic sync-s=$t_sync"
    fi
    total=0
    for p in ovsdb-server fpmsyncd orchd syncd; do
        us=$(awk -v n="$routes" \
                 '{ printf "%.1f", ($14 + $15) * 1e6 / 100 / n }' \
                 "/proc/$(cat "$d/$p.pid")/stat" 2>/dev/null)
        line="$line cpu-us-$p=${us:-?}"
        total=$(echo "$total ${us:-0}" | awk '{ print $1 + $2 }')
    done
    line="$line cpu-us-all=$total"
    sum_rss=0 sum_peak=0
    for p in ovsdb-server fpmsyncd orchd syncd; do
        m=$(mem_of "$d/$p.pid")
        line="$line rss-MB-$p=$m"
        sum_rss=$((sum_rss + ${m%/*})) sum_peak=$((sum_peak + ${m#*/}))
    done
    line="$line rss-MB-all=$sum_rss/$sum_peak"
    for p in fpmsyncd orchd syncd ovsdb-server; do
        kill "$(cat "$d/$p.pid")" 2>/dev/null
    done
    sleep 0.5
    rm -rf "$d"
    echo "$line"
}

# median_of CONFIG KEY: the median over the runs of KEY's value (for a
# "RSS/peak" pair, the median of each).
median_of () {
    vals=$(grep "^$1 " "$results" | tr ' ' '\n' | sed -n "s|^$2=||p")
    test -n "$vals" || { echo "-"; return; }
    case $vals in
        */*)
            r=$(echo "$vals" | cut -d/ -f1 | bench_median)
            h=$(echo "$vals" | cut -d/ -f2 | bench_median)
            echo "$r/$h" ;;
        *) echo "$vals" | bench_median ;;
    esac
}

echo "# bench-e2e: $routes IPv4 routes, $runs runs, configs $configs"
bench_machine_begin
results=$(mktemp)
r=1
while test $r -le "$runs"; do
    for c in $(echo "$configs" | tr ',' ' '); do
        line=$(one_run "$c")
        echo "run $r: $line"
        echo "$line" | grep -v timed-out >> "$results"
    done
    r=$((r + 1))
done
echo "# medians over the runs that finished"
keys="prog/s route-s asic-s sync-s cpu-us-ovsdb-server cpu-us-fpmsyncd"
keys="$keys cpu-us-orchd cpu-us-syncd cpu-us-all rss-MB-ovsdb-server"
keys="$keys rss-MB-fpmsyncd rss-MB-orchd rss-MB-syncd rss-MB-all"
printf '%-20s' "config"
for c in $(echo "$configs" | tr ',' ' '); do
    printf ' %12s' "$c"
done
echo
printf '%-20s' "runs"
for c in $(echo "$configs" | tr ',' ' '); do
    printf ' %12s' "$(grep -c "^$c " "$results")"
done
echo
for k in $keys; do
    printf '%-20s' "$k"
    for c in $(echo "$configs" | tr ',' ' '); do
        printf ' %12s' "$(median_of "$c" "$k")"
    done
    echo
done
rm -f "$results"
bench_machine_end
