# bench-lib.sh -- shell functions shared by the benchmark scripts in
# utilities/; each sources it with  . "$(dirname "$0")/bench-lib.sh"
#
# Copyright (c) 2024 The fibsync authors.
# Licensed under the Apache License, Version 2.0.

# bench_program BUILD NAME: the path of program NAME in the fibsync build
# BUILD: daemons/NAME/NAME (each daemon in its own folder), else where
# older builds kept it (daemons/NAME, asic-sim/NAME), else utilities/NAME.
# Looking in the old places too lets one script compare an old build with
# a new one.  Fails if the build has no such program.
bench_program () {
    for p in "$1/daemons/$2/$2" "$1/daemons/$2" "$1/asic-sim/$2" \
             "$1/utilities/$2"; do
        if test -f "$p" && test -x "$p"; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# bench_use_build DIR PROGRAM: uses the fibsync build in DIR (if empty,
# ./_build or ., whichever has PROGRAM, e.g. orchd): sets B (the build),
# OVS (its Open vSwitch build) and SRC (its source tree), and puts their
# programs first in PATH (the daemons' folders of this build and of older
# ones, see bench_program).
bench_use_build () {
    if test -z "$1"; then
        for d in _build .; do
            if bench_program "$d" "$2" > /dev/null; then
                set -- "$d" "$2"
                break
            fi
        done
    fi
    if ! bench_program "$1" "$2" > /dev/null; then
        echo "$0: no $2 in '$1' (use -b)" >&2
        exit 1
    fi
    B=$(cd "$1" && pwd)
    OVS=$(sed -n 's/^OVS_BUILDDIR = //p' "$B/Makefile")
    SRC=$(sed -n 's/^abs_top_srcdir = //p' "$B/Makefile")
    PATH=$B/daemons/fpmsyncd:$B/daemons/orchd:$B/daemons/syncd:$PATH
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
