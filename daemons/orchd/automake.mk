# daemons/orchd/: Route rows into SAI-shaped Asic_Route bulks.

noinst_LTLIBRARIES += daemons/orchd/liborchd.la
daemons_orchd_liborchd_la_SOURCES = \
	daemons/orchd/orchd-asic-mark.c daemons/orchd/orchd-asic-mark.h \
	daemons/orchd/orchd-asic-acks.c daemons/orchd/orchd-asic-acks.h \
	daemons/orchd/orchd-asic-read.c daemons/orchd/orchd-asic-read.h \
	daemons/orchd/orchd-route-file.c daemons/orchd/orchd-route-file.h \
	daemons/orchd/orchd-route-monitor.c daemons/orchd/orchd-route-monitor.h \
	daemons/orchd/orchd-route-row.h \
	daemons/orchd/orchd-route-table.c daemons/orchd/orchd-route-table.h \
	daemons/orchd/orchd-bulker.c daemons/orchd/orchd-bulker.h \
	daemons/orchd/orchd-bulker-outcome.c \
	daemons/orchd/orchd-bulker-private.h \
	daemons/orchd/orchd-cache.c daemons/orchd/orchd-cache.h \
	daemons/orchd/orchd-entry.c daemons/orchd/orchd-entry.h \
	daemons/orchd/orchd-core.h \
	daemons/orchd/orchd-northbound.c daemons/orchd/orchd-northbound.h \
	daemons/orchd/orchd-options.c daemons/orchd/orchd-options.h \
	daemons/orchd/orchd-replica.c daemons/orchd/orchd-replica.h \
	daemons/orchd/orchd-resolve.c daemons/orchd/orchd-resolve.h \
	daemons/orchd/orchd-seed.c daemons/orchd/orchd-seed.h \
	daemons/orchd/orchd-show.c daemons/orchd/orchd-show.h \
	daemons/orchd/orchd-show-idl.c daemons/orchd/orchd-show-idl.h \
	daemons/orchd/orchd-show-table.c daemons/orchd/orchd-show-table.h \
	daemons/orchd/orchd-sink.h \
	daemons/orchd/orchd-sink-ovsdb.c \
	daemons/orchd/orchd-sink-zmq.c \
	daemons/orchd/orchd-source.c daemons/orchd/orchd-source.h \
	daemons/orchd/orchd-source-file.c \
	daemons/orchd/orchd-source-northbound.c \
	daemons/orchd/orchd-source-replica.c \
	daemons/orchd/orchd-southbound.c daemons/orchd/orchd-southbound.h \
	daemons/orchd/orchd-status.c daemons/orchd/orchd-status.h \
	daemons/orchd/orchd-unixctl.c daemons/orchd/orchd-unixctl.h \
	daemons/orchd/orchd-verify.c daemons/orchd/orchd-verify.h \
	daemons/orchd/orchd-worker.c daemons/orchd/orchd-worker.h \
	daemons/orchd/orchd-writebehind.c daemons/orchd/orchd-writebehind.h

sbin_PROGRAMS += daemons/orchd/orchd
daemons_orchd_orchd_SOURCES = daemons/orchd/orchd.c
daemons_orchd_orchd_LDADD = daemons/orchd/liborchd.la idl/libfibsync-idl.la \
	lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) $(ZMQ_LIBS) \
	$(JEMALLOC_LIBS)
