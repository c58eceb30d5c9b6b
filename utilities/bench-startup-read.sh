#! /bin/sh
# bench-startup-read.sh: the start-up database read of a restarted orchd
# or fpmsyncd, timed alone on a copy of a loaded database, two builds side
# by side.
#
# usage: utilities/bench-startup-read.sh -d DBFILE [-r REPS]
#            [-p orchd|orchd-ovsdb|fpmsyncd] [-A ARGS] [-B ARGS]
#            BUILD_A BUILD_B
#
# DBFILE is a standalone Fibsync database at the size to measure, e.g. the
# fibsync.db that "tests/chaos --settled --keep" leaves in its run
# directory at 1,000,000 routes.  For each of REPS rounds (default 3) and
# each build in turn (A then B), it copies DBFILE, starts ovsdb-server
# on the copy (from the OVS build of BUILD_B, for both), waits until it
# answers, then starts the program (-p, default orchd) on the ZeroMQ
# paths with no peer: orchd reads its Asic_Route rows in seq slices,
# fpmsyncd its Route and Nexthop_Group rows, and nothing else runs.
# "-p orchd-ovsdb" starts orchd on the OVSDB paths instead: its IDL
# replica of Route and Nexthop_Group, its Asic_Route read and its
# reconciliation, until it logs "initial sync" (nothing differs, so it
# writes nothing).  It stops both once the program logs the end of its
# read, and prints per run and as medians per build: the read's wall time
# as the program logs it (orchd-ovsdb: from its first log line to
# "initial sync"), the program's CPU seconds and peak RSS, the server's CPU seconds
# during the read and its peak RSS, the wall time beyond the server's
# CPU (what the program's own work adds to the server's), the server's
# RSS with the database loaded before the read (srv_base_mb), and its
# peak during the read over that (peak_x; the high-water mark is reset
# before the program starts, so the server's own start does not count).
# -A and -B give BUILD_A's and BUILD_B's program more options (one build
# twice with two settings: -A --asic-read-slice=200000 -B ...).

dbfile=
reps=3
prog=orchd
args_a=
args_b=
while test $# -gt 0; do
    case $1 in
        -d) dbfile=$2; shift ;;
        -r) reps=$2; shift ;;
        -p) prog=$2; shift ;;
        -A) args_a=$2; shift ;;
        -B) args_b=$2; shift ;;
        -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
        -*) echo "$0: unknown option $1" >&2; exit 1 ;;
        *) break ;;
    esac
    shift
done
if test $# != 2 || test ! -r "$dbfile"; then
    echo "usage: $0 -d DBFILE [-r REPS] [-p orchd|orchd-ovsdb|fpmsyncd]" \
         "[-A ARGS]" \
         "[-B ARGS] BUILD_A BUILD_B" >&2
    exit 1
fi
case $prog in
    orchd) done_re='Asic_Route read: ' ;;
    orchd-ovsdb) done_re='initial sync: ' ;;
    fpmsyncd) done_re='database read in ' ;;
    *) echo "$0: -p takes orchd, orchd-ovsdb or fpmsyncd" >&2; exit 1 ;;
esac
bin=${prog%-ovsdb}
. "$(dirname "$0")/bench-lib.sh"
bench_use_build "$1" "$bin"
build_a=$B
bench_use_build "$2" "$bin"
build_b=$B
tmpdir=/tmp
test -w /dev/shm && test "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" \
    -gt $(( $(du -k "$dbfile" | cut -f1) * 3 )) && tmpdir=/dev/shm
d=$(mktemp -d "$tmpdir/bench-startup-read.XXXXXX")
trap 'for p in "$d"/*.pid; do
          test -f "$p" && kill $(cat "$p") 2>/dev/null
      done
      rm -rf "$d"' 0
hz=$(getconf CLK_TCK)

# one LABEL BUILD ARGS: one run; prints its line and appends it to
# $d/LABEL.
one () {
    rm -f "$d"/*.log "$d"/*.pid "$d/fibsync.db"
    cp "$dbfile" "$d/fibsync.db"
    ovsdb-server --detach --no-chdir --pidfile="$d/db.pid" \
        --unixctl="$d/db.ctl" --log-file="$d/db.log" \
        --remote="punix:$d/db.sock" "$d/fibsync.db" 2>/dev/null || exit 1
    until ovs-appctl -t "$d/db.ctl" version > /dev/null 2>&1; do
        sleep 0.2
    done
    sleep 1
    srv=$(cat "$d/db.pid")
    # The server's size with the database loaded, and its high-water mark
    # reset (as tests/chaos does), so that the peak is the read's own.
    sbase=$(awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$srv/status")
    echo 5 > "/proc/$srv/clear_refs" 2>/dev/null || true
    s0=$(bench_cpu_ticks "$srv")
    case $prog in
        orchd) args="--northbound-zmq=on --southbound-zmq=on" ;;
        orchd-ovsdb) args="--northbound-zmq=off --southbound-zmq=off" ;;
        fpmsyncd) args="--northbound-zmq=on --fpm-port=$(bench_free_port)" ;;
    esac
    FIBSYNC_RUNDIR=$d "$(bench_program "$2" "$bin")" --detach --no-chdir \
        --pidfile="$d/prog.pid" --log-file="$d/prog.log" \
        --unixctl="$d/prog.ctl" --db="unix:$d/db.sock" $args $3 \
        2>/dev/null ||
        exit 1
    until grep -q "$done_re" "$d/prog.log" 2>/dev/null; do
        sleep 0.2
    done
    p=$(cat "$d/prog.pid")
    if test "$prog" = orchd-ovsdb; then
        # The log's timestamps: its first line to the end of the sync.
        ms=$(sed -n "1p; /$done_re/p" "$d/prog.log" |
             sed 's/^[0-9-]*T\([0-9:.]*\)Z.*/\1/' |
             awk -F: '{ t = ($1 * 60 + $2) * 60 + $3 }
                      NR == 1 { t0 = t } END { printf "%d", (t - t0) * 1000 }')
    else
        ms=$(grep "$done_re" "$d/prog.log" |
             sed -n 's/.* in \([0-9]*\) ms.*/\1/p' | tail -1)
    fi
    pcpu=$(bench_cpu_ticks "$p")
    scpu=$(( $(bench_cpu_ticks "$srv") - s0 ))
    prss=$(awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$p/status")
    srss=$(awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$srv/status")
    kill "$p" "$srv"
    while kill -0 "$p" 2>/dev/null || kill -0 "$srv" 2>/dev/null; do
        sleep 0.2
    done
    echo "$1 $ms $pcpu $scpu $prss $srss $sbase" | awk -v hz="$hz" '{
        printf "%-2s %8.2f %9.2f %10.2f %9d %10d %12.2f %9d %6.2f\n", $1,
               $2 / 1000, $3 / hz, $4 / hz, $5, $6, $2 / 1000 - $4 / hz,
               $7, $6 / $7 }' |
        tee -a "$d/$1"
}

bench_machine_begin
echo "# $prog's start-up read of $(basename "$dbfile") ($(du -m "$dbfile" |
    cut -f1) MB), $reps rounds"
echo "# A: $build_a $args_a"
echo "# B: $build_b $args_b"
echo "   read_s  prog_cpu_s  server_cpu_s  prog_mb  server_mb  beyond_srv_s  srv_base_mb  peak_x"
i=0
while test $i -lt "$reps"; do
    one A "$build_a" "$args_a"
    one B "$build_b" "$args_b"
    i=$((i + 1))
done
for b in A B; do
    printf "%-2s" "$b"
    for col in 2 3 4 5 6 7 8 9; do
        printf " %s" "$(awk -v c=$col '{ print $c }' "$d/$b" | bench_median)"
    done
    echo "   (medians)"
done
bench_machine_end
