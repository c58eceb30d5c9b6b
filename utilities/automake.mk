# utilities/: fibsync-ctl, fibctl, fpm-replay, route-check, fibsync-bench
# and the benchmark scripts.

bin_SCRIPTS += utilities/fibsync-ctl
EXTRA_DIST += utilities/fibsync-ctl.in
CLEANFILES += utilities/fibsync-ctl
utilities/fibsync-ctl: utilities/fibsync-ctl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) $(srcdir)/utilities/fibsync-ctl.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

bin_PROGRAMS += utilities/route-check
utilities_route_check_SOURCES = utilities/route-check.c
utilities_route_check_LDADD = lib/libfibsync.la $(OVS_LIBS) $(JEMALLOC_LIBS)

bin_PROGRAMS += utilities/fibctl
utilities_fibctl_SOURCES = utilities/fibctl.c
utilities_fibctl_LDADD = lib/libfibsync.la $(OVS_LIBS) $(JEMALLOC_LIBS)

# fpm-replay: FPM load generator, recorder and replayer.  fpm-replay.c
# parses the command line and runs one mode, a file per mode; the
# connection to a listener and the rest that they share are in
# fpm-replay-conn.c and fpm-replay-util.c (see fpm-replay.h).
bin_PROGRAMS += utilities/fpm-replay
utilities_fpm_replay_SOURCES = \
	utilities/fpm-replay.c utilities/fpm-replay.h \
	utilities/fpm-replay-conn.c \
	utilities/fpm-replay-util.c \
	utilities/fpm-replay-generate.c \
	utilities/fpm-replay-malformed.c \
	utilities/fpm-replay-print.c \
	utilities/fpm-replay-record.c \
	utilities/fpm-replay-replay.c
utilities_fpm_replay_LDADD = lib/libfibsync.la $(OVS_LIBS) $(NL_LIBS) \
	$(JEMALLOC_LIBS)

# fibsync-bench: one dispatcher (fibsync-bench.c), a file per subcommand.
#   asic   the SAI simulator in process (bench-asic.c)
#   dump   orchd's route/dump in process (bench-dump.c)
#   index  the route index and IDL replica (bench-index.c)
#   ovsdb  a raw JSON-RPC load generator for ovsdb-server, driven by
#          bench-jemalloc.sh to compare allocators (bench-ovsdb.c)
bin_PROGRAMS += utilities/fibsync-bench
utilities_fibsync_bench_SOURCES = \
	utilities/fibsync-bench.c \
	utilities/bench-util.c utilities/bench-util.h \
	utilities/bench-asic.c utilities/bench-asic.h \
	utilities/bench-dump.c utilities/bench-dump.h \
	utilities/bench-index.c utilities/bench-index.h \
	utilities/bench-ovsdb.c utilities/bench-ovsdb.h
utilities_fibsync_bench_LDADD = daemons/liborchd.la asic-sim/libasicsim.la \
	idl/libfibsync-idl.la lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)

# The benchmark scripts (see docs/PERFORMANCE.md).
EXTRA_DIST += \
	utilities/bench-ab.sh \
	utilities/bench-e2e.sh \
	utilities/bench-fibctl.sh \
	utilities/bench-fpmsyncd.sh \
	utilities/bench-instructions.sh \
	utilities/bench-jemalloc.sh \
	utilities/bench-lib.sh \
	utilities/bench-syncd.sh
