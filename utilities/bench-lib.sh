# bench-lib.sh -- shell functions shared by the benchmark scripts in
# utilities/; each sources it with  . "$(dirname "$0")/bench-lib.sh"
#
# Copyright (c) 2024 The fibsync authors.
# Licensed under the Apache License, Version 2.0.

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
