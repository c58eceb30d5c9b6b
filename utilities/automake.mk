# utilities/: fibsync-ctl, fibctl, fpm-replay, route-check, fibsync-bench
# and the benchmark scripts.

bin_SCRIPTS += utilities/fibsync-ctl
EXTRA_DIST += utilities/fibsync-ctl.in
CLEANFILES += utilities/fibsync-ctl
utilities/fibsync-ctl: utilities/fibsync-ctl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) $(srcdir)/utilities/fibsync-ctl.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# fibsync-db-split: a compacted database's snapshot split before
# ovsdb-server reads it (lib/ovsdb-file-split.h).
bin_PROGRAMS += utilities/fibsync-db-split
utilities_fibsync_db_split_SOURCES = utilities/fibsync-db-split.c
utilities_fibsync_db_split_LDADD = lib/libfibsync.la $(OVS_LIBS) \
	$(JEMALLOC_LIBS)

bin_PROGRAMS += utilities/route-check
utilities_route_check_SOURCES = utilities/route-check.c \
	utilities/route-check.h \
	utilities/route-check-file.c \
	utilities/route-check-frr.c
utilities_route_check_LDADD = lib/libfibsync.la $(OVS_LIBS) $(JEMALLOC_LIBS)

# fibsync-bench-run: "fibsync-bench run", the end-to-end benchmark; the
# fibsync-bench program execs it from its own directory.
bin_SCRIPTS += utilities/fibsync-bench-run
EXTRA_DIST += utilities/fibsync-bench-run.in
CLEANFILES += utilities/fibsync-bench-run
utilities/fibsync-bench-run: utilities/fibsync-bench-run.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) -e 's,[@]PYTHON3[@],$(PYTHON3),g' \
	    $(srcdir)/utilities/fibsync-bench-run.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# bench-smoke: 100,000 routes through the whole stack on the fast path,
# checked by route-check; fails on a missing route (for CI).
.PHONY: bench-smoke
bench-smoke: all
	utilities/fibsync-bench run --quick

# The one way to run real FRR (namespaces, zebra, bgpd, ExaBGP), for the
# real-FRR autotests and fibsync-bench frr.
# fibsync_bench_proc.py: what both drivers read of processes and of the
# machine (/proc); fibsync_unixctl.py: how they ask the daemons.  They
# import them from the source tree or pkgdatadir.
dist_pkgdata_DATA += utilities/fibsync_bench_proc.py
dist_pkgdata_DATA += utilities/fibsync_unixctl.py

pkgdata_SCRIPTS = utilities/frr-env.sh
EXTRA_DIST += utilities/frr-env.sh.in
CLEANFILES += utilities/frr-env.sh
utilities/frr-env.sh: utilities/frr-env.sh.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) $(srcdir)/utilities/frr-env.sh.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# fibsync-bench frr runs this script.
bin_SCRIPTS += utilities/fibsync-bench-frr
EXTRA_DIST += utilities/fibsync-bench-frr.in
CLEANFILES += utilities/fibsync-bench-frr
utilities/fibsync-bench-frr: utilities/fibsync-bench-frr.in Makefile
	$(AM_V_GEN)$(MKDIR_P) utilities && \
	$(SUBST_SCRIPT) -e 's,[@]PYTHON3[@],$(PYTHON3),g' \
	    $(srcdir)/utilities/fibsync-bench-frr.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

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
#   run    the whole stack, end to end (fibsync-bench-run, exec'd)
#   asic   the SAI simulator in process (bench-asic.c)
#   bulker orchd's bulker in process (bench-bulker.c)
#   dump   orchd's route/dump in process (bench-dump.c)
#   index  the route index and IDL replica (bench-index.c)
#   ovsdb  a raw JSON-RPC load generator for ovsdb-server, driven by
#          bench-jemalloc.sh to compare allocators (bench-ovsdb.c)
bin_PROGRAMS += utilities/fibsync-bench
utilities_fibsync_bench_SOURCES = \
	utilities/fibsync-bench.c \
	utilities/bench-util.c utilities/bench-util.h \
	utilities/bench-asic.c utilities/bench-asic.h \
	utilities/bench-bulker.c utilities/bench-bulker.h \
	utilities/bench-dump.c utilities/bench-dump.h \
	utilities/bench-index.c utilities/bench-index.h \
	utilities/bench-ovsdb.c utilities/bench-ovsdb.h \
	utilities/bench-ovsdb-options.c utilities/bench-ovsdb-options.h
utilities_fibsync_bench_LDADD = daemons/orchd/liborchd.la \
	asic-sim/libasicsim.la idl/libfibsync-idl.la lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)

# The benchmark scripts (see docs/PERFORMANCE.md).
EXTRA_DIST += \
	utilities/bench-ab.sh \
	utilities/bench-fibctl.sh \
	utilities/bench-fpmsyncd.sh \
	utilities/bench-instructions.sh \
	utilities/bench-jemalloc.sh \
	utilities/bench-lib.sh \
	utilities/bench-route-check.sh \
	utilities/bench-startup-read.sh \
	utilities/bench-syncd.sh
