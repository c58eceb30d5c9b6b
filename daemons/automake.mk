# daemons/: fpmsyncd, orchd and syncd.  Each daemon's modules are a
# convenience library, compiled once, that the daemon, the Check suites and
# the benchmarks link.

include daemons/fpmsyncd/automake.mk
include daemons/orchd/automake.mk
include daemons/syncd/automake.mk
