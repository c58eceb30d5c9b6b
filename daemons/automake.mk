# daemons/: fpmsyncd, orchd and syncd.  Each daemon's modules are a
# convenience library, compiled once, that the daemon, the Check suites and
# the benchmarks link.

# ---- fpmsyncd: zebra's FPM stream into OVSDB -----------------------------

noinst_LTLIBRARIES += daemons/libfpmsyncd.la
daemons_libfpmsyncd_la_SOURCES = \
	daemons/fpmsyncd-db.c daemons/fpmsyncd-db.h \
	daemons/fpmsyncd-fpm.c daemons/fpmsyncd-fpm.h \
	daemons/fpmsyncd-nexthop.c daemons/fpmsyncd-nexthop.h \
	daemons/fpmsyncd-offload.c daemons/fpmsyncd-offload.h \
	daemons/fpmsyncd-private.h \
	daemons/fpmsyncd-rib.c daemons/fpmsyncd-rib.h \
	daemons/fpmsyncd-status.c daemons/fpmsyncd-status.h \
	daemons/fpmsyncd-txn.c daemons/fpmsyncd-txn.h \
	daemons/fpmsyncd-vrf.c daemons/fpmsyncd-vrf.h \
	daemons/fpmsyncd-zmq.c daemons/fpmsyncd-zmq.h

sbin_PROGRAMS += daemons/fpmsyncd
daemons_fpmsyncd_SOURCES = daemons/fpmsyncd.c
daemons_fpmsyncd_LDADD = daemons/libfpmsyncd.la lib/libfibsync.la \
	idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) $(NL_LIBS) \
	$(ZMQ_LIBS) $(JEMALLOC_LIBS)

# ---- orchd: Route rows into SAI-shaped Asic_Route bulks -------------------

noinst_LTLIBRARIES += daemons/liborchd.la
daemons_liborchd_la_SOURCES = \
	daemons/orchd-asic-mark.c daemons/orchd-asic-mark.h \
	daemons/orchd-asic-acks.c daemons/orchd-asic-acks.h \
	daemons/orchd-asic-read.c daemons/orchd-asic-read.h \
	daemons/orchd-route-file.c daemons/orchd-route-file.h \
	daemons/orchd-route-monitor.c daemons/orchd-route-monitor.h \
	daemons/orchd-route-row.h \
	daemons/orchd-route-table.c daemons/orchd-route-table.h \
	daemons/orchd-bulker.c daemons/orchd-bulker.h \
	daemons/orchd-cache.c daemons/orchd-cache.h \
	daemons/orchd-entry.c daemons/orchd-entry.h \
	daemons/orchd-northbound.c daemons/orchd-northbound.h \
	daemons/orchd-replica.c daemons/orchd-replica.h \
	daemons/orchd-show.c daemons/orchd-show.h \
	daemons/orchd-show-idl.c daemons/orchd-show-idl.h \
	daemons/orchd-show-table.c daemons/orchd-show-table.h \
	daemons/orchd-southbound.c daemons/orchd-southbound.h \
	daemons/orchd-status.c daemons/orchd-status.h \
	daemons/orchd-worker.c daemons/orchd-worker.h \
	daemons/orchd-writebehind.c daemons/orchd-writebehind.h

sbin_PROGRAMS += daemons/orchd
daemons_orchd_SOURCES = daemons/orchd.c
daemons_orchd_LDADD = daemons/liborchd.la idl/libfibsync-idl.la \
	lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) $(ZMQ_LIBS) \
	$(JEMALLOC_LIBS)

# ---- syncd: Asic_Route rows into the SAI simulator ------------------------

noinst_LTLIBRARIES += daemons/libsyncd.la
daemons_libsyncd_la_SOURCES = \
	daemons/syncd-apply.c daemons/syncd-apply.h \
	daemons/syncd-apply-private.h \
	daemons/syncd-nexthop.c \
	daemons/syncd-nexthop-key.c daemons/syncd-nexthop-key.h \
	daemons/syncd-status.c daemons/syncd-status.h \
	daemons/syncd-db.c daemons/syncd-db.h \
	daemons/syncd-marks.c daemons/syncd-marks.h \
	daemons/syncd-rows.c daemons/syncd-rows.h \
	daemons/syncd-writeback.c daemons/syncd-writeback.h \
	daemons/syncd-counters.c daemons/syncd-counters.h \
	daemons/syncd-zmq.c daemons/syncd-zmq.h \
	daemons/syncd-warm.c daemons/syncd-warm.h

sbin_PROGRAMS += daemons/syncd
daemons_syncd_SOURCES = daemons/syncd.c
daemons_syncd_LDADD = daemons/libsyncd.la asic-sim/libasicsim.la \
	lib/libfibsync.la idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)

# syncd-bench: syncd's load generator and in-process benchmark
# (utilities/bench-syncd.sh drives it).
noinst_PROGRAMS += daemons/syncd-bench
daemons_syncd_bench_SOURCES = daemons/syncd-bench.c
daemons_syncd_bench_LDADD = daemons/libsyncd.la asic-sim/libasicsim.la \
	lib/libfibsync.la idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) \
	$(JEMALLOC_LIBS)
