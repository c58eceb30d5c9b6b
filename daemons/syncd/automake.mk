# daemons/syncd/: Asic_Route rows into the SAI simulator.

noinst_LTLIBRARIES += daemons/syncd/libsyncd.la
daemons_syncd_libsyncd_la_SOURCES = \
	daemons/syncd/syncd-apply.c daemons/syncd/syncd-apply.h \
	daemons/syncd/syncd-apply-private.h \
	daemons/syncd/syncd-apply-show.c \
	daemons/syncd/syncd-nexthop.c \
	daemons/syncd/syncd-nexthop-key.c daemons/syncd/syncd-nexthop-key.h \
	daemons/syncd/syncd-status.c daemons/syncd/syncd-status.h \
	daemons/syncd/syncd-db.c daemons/syncd/syncd-db.h \
	daemons/syncd/syncd-db-private.h \
	daemons/syncd/syncd-db-read.c \
	daemons/syncd/syncd-db-update.c \
	daemons/syncd/syncd-marks.c daemons/syncd/syncd-marks.h \
	daemons/syncd/syncd-rows.c daemons/syncd/syncd-rows.h \
	daemons/syncd/syncd-writeback.c daemons/syncd/syncd-writeback.h \
	daemons/syncd/syncd-counters.c daemons/syncd/syncd-counters.h \
	daemons/syncd/syncd-zmq.c daemons/syncd/syncd-zmq.h \
	daemons/syncd/syncd-warm.c daemons/syncd/syncd-warm.h

sbin_PROGRAMS += daemons/syncd/syncd
daemons_syncd_syncd_SOURCES = \
	daemons/syncd/syncd.c daemons/syncd/syncd.h \
	daemons/syncd/syncd-options.c daemons/syncd/syncd-options.h \
	daemons/syncd/syncd-path.c daemons/syncd/syncd-path.h \
	daemons/syncd/syncd-rates.c daemons/syncd/syncd-rates.h \
	daemons/syncd/syncd-unixctl.c daemons/syncd/syncd-unixctl.h
daemons_syncd_syncd_LDADD = daemons/syncd/libsyncd.la asic-sim/libasicsim.la \
	lib/libfibsync.la idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)

# syncd-bench: syncd's load generator and in-process benchmark
# (utilities/bench-syncd.sh drives it).
noinst_PROGRAMS += daemons/syncd/syncd-bench
daemons_syncd_syncd_bench_SOURCES = daemons/syncd/syncd-bench.c
daemons_syncd_syncd_bench_LDADD = daemons/syncd/libsyncd.la \
	asic-sim/libasicsim.la \
	lib/libfibsync.la idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)
