# bench-lib.sh -- shell functions shared by the benchmark scripts in
# utilities/; each sources it with  . "$(dirname "$0")/bench-lib.sh"
#
# Copyright (c) 2024 The fibsync authors.
# Licensed under the Apache License, Version 2.0.

# bench_use_build DIR PROGRAM: uses the fibsync build in DIR (if empty,
# ./_build or ., whichever has PROGRAM, e.g. daemons/orchd): sets B (the
# build), OVS (its Open vSwitch build) and SRC (its source tree), and puts
# their programs first in PATH.  Builds before syncd moved to daemons/
# kept it in asic-sim/: looking there too lets one script compare an old
# build with a new one.
bench_use_build () {
    if test -z "$1"; then
        for d in _build .; do
            if test -x "$d/$2"; then
                set -- "$d" "$2"
                break
            fi
        done
    fi
    if test ! -x "$1/$2"; then
        echo "$0: no $2 in '$1' (use -b)" >&2
        exit 1
    fi
    B=$(cd "$1" && pwd)
    OVS=$(sed -n 's/^OVS_BUILDDIR = //p' "$B/Makefile")
    SRC=$(sed -n 's/^abs_top_srcdir = //p' "$B/Makefile")
    PATH=$B/daemons:$B/asic-sim:$B/utilities:$OVS/ovsdb:$OVS/utilities:$PATH
    export PATH
}

# bench_free_port: a TCP port on 127.0.0.1 that nothing listens on.
bench_free_port () {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# bench_median: the median of the numbers on standard input, one a line.
bench_median () {
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# bench_cpu_ticks PID: user + system CPU time of PID, in clock ticks
# ("?" if it is gone).
bench_cpu_ticks () {
    awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo "?"
}

# bench_steal_ticks: CPU time the hypervisor gave to others (clock ticks,
# all CPUs); bench_all_ticks: all CPU time.  Their ratio over a run says
# how far to trust its timings.
bench_steal_ticks () { awk '/^cpu / { print $9; exit }' /proc/stat; }
bench_all_ticks () {
    awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' \
        /proc/stat
}

# bench_machine_begin: prints the core count and load, and starts counting
# steal; bench_machine_end prints the load and the steal share since.
bench_machine_begin () {
    bench_steal0=$(bench_steal_ticks)
    bench_all0=$(bench_all_ticks)
    echo "# machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
}
bench_machine_end () {
    echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# cpu steal during the run: $(( ($(bench_steal_ticks) - bench_steal0)
        * 100 / ($(bench_all_ticks) - bench_all0 + 1) ))% (time the" \
         "hypervisor ran others)"
}
