#! /bin/sh
# bench-e2e.sh: fpm-replay -> fpmsyncd -> OVSDB -> orchd -> OVSDB -> syncd,
# routes/s until every route is programmed in the simulated ASIC, with
# each orchd optimization on and off.

usage () {
    cat <<EOF
usage: $0 [OPTIONS]

For each run and each configuration, creates a fresh Fibsync database in
a temporary directory, starts ovsdb-server (Open vSwitch's, linked with
jemalloc), syncd, orchd (with the configuration's options) and fpmsyncd
there, sends the routes with fpm-replay as fast as fpmsyncd takes them,
and polls syncd until its FIB holds every route.  Reports:

  programmed  routes / (start of fpm-replay to the last route in the FIB)
  in sync     the same, to the last Asic_Route status written back
  cpu         CPU seconds of ovsdb-server, fpmsyncd, orchd and syncd

The configurations run one after another within each run (so each sees
the same machine load), and the median of the runs is printed last.

OPTIONS
  -b, --builddir DIR   fibsync build directory (default: ./_build or .)
  -n, --routes N       IPv4 routes (default 1000000)
  -r, --runs N         runs (default 3)
  -c, --configs LIST   comma-separated, from (default: all of them):
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
  -d, --dir DIR        where to make temporary directories (default
                       /dev/shm if writable, else /tmp)
  --replay-args ARGS   more fpm-replay options
  -h, --help           this help
EOF
}

builddir=
routes=1000000
runs=3
configs=sync,async,ring,both,sorted,k100,fibsup,noindex,wide,widering
replay_args=
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
        -h|--help) usage; exit 0 ;;
        *) echo "$0: unknown option $1 (use --help)" >&2; exit 1 ;;
    esac
    shift
done

. "$(dirname "$0")/bench-lib.sh"
bench_use_build "$builddir" daemons/orchd

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
        *) echo "$0: unknown configuration $1" >&2; return 1 ;;
    esac
}

now () { date +%s.%N; }

# cpu_of PIDFILE: user+system CPU seconds of that process.
cpu_of () {
    awk '{ printf "%.1f", ($14 + $15) / 100 }' \
        "/proc/$(cat "$1")/stat" 2>/dev/null || echo "?"
}

# fib_routes DIR: IPv4 routes in syncd's FIB.
fib_routes () {
    ovs-appctl -t "$1/syncd.ctl" crm/show 2>/dev/null |
        awk '$1 == "ipv4_route" { print $2 }'
}

# in_sync DIR: Asic_Route rows whose status syncd has written back.
in_sync () {
    ovs-appctl -t "$1/syncd.ctl" asic/stats 2>/dev/null |
        sed -n 's/.* in-sync \([0-9]*\) .*/\1/p'
}

one_run () {
    config=$1
    o=$(opts_for "$config") || return 1
    orchd_opts=${o%%|*}
    global=${o#*|}
    d=$(mktemp -d "$tmpdir/bench-e2e.XXXXXX")
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
    t_prog=
    t_sync=
    n=0
    deadline=$(($(date +%s) + 900))
    while test "$(date +%s)" -lt "$deadline"; do
        n=$(fib_routes "$d")
        if test -z "$t_prog" && test "${n:-0}" -ge "$routes"; then
            t_prog=$(now)
        fi
        if test -n "$t_prog" && test "$(in_sync "$d")" -ge "$routes"; then
            t_sync=$(now)
            break
        fi
        sleep 0.2
    done
    cpu="db $(cpu_of "$d/ovsdb-server.pid")"
    cpu="$cpu fpmsyncd $(cpu_of "$d/fpmsyncd.pid")"
    cpu="$cpu orchd $(cpu_of "$d/orchd.pid") syncd $(cpu_of "$d/syncd.pid")"
    rss=$(awk '/VmHWM/ { print int($2 / 1024) }' \
              "/proc/$(cat "$d/orchd.pid")/status")
    for p in fpmsyncd orchd syncd ovsdb-server; do
        kill "$(cat "$d/$p.pid")" 2>/dev/null
    done
    sleep 0.5
    rm -rf "$d"
    if test -z "$t_sync"; then
        echo "$config timed-out (FIB has ${n:-0} routes)"
        return
    fi
    rates=$(echo "$routes $t0 $t_prog $t_sync" |
            awk '{ printf "%.0f %.0f", $1 / ($3 - $2), $1 / ($4 - $2) }')
    echo "$config $rates orchd-peak-rss-MB $rss cpu-s $cpu"
}

echo "# bench-e2e: $routes IPv4 routes, $runs runs, configs $configs"
bench_machine_begin
results=$(mktemp)
r=1
while test $r -le "$runs"; do
    for c in $(echo "$configs" | tr ',' ' '); do
        line=$(one_run "$c")
        echo "run $r: $line"
        echo "$line" >> "$results"
    done
    r=$((r + 1))
done
echo "# medians (routes/s): config programmed in-sync"
for c in $(echo "$configs" | tr ',' ' '); do
    grep "^$c [0-9]" "$results" | sort -n -k2 > "$results.p"
    n=$(wc -l < "$results.p")
    if test "$n" -eq 0; then
        echo "$c no result"
        continue
    fi
    m=$(( (n + 1) / 2 ))
    prog=$(sort -n -k2 "$results.p" | sed -n "${m}p" | cut -d' ' -f2)
    sync=$(sort -n -k3 "$results.p" | sed -n "${m}p" | cut -d' ' -f3)
    printf '%-8s %8s %8s  (%d runs)\n' "$c" "$prog" "$sync" "$n"
done
rm -f "$results" "$results.p"
bench_machine_end
