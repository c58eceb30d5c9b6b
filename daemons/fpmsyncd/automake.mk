# daemons/fpmsyncd/: zebra's FPM stream into OVSDB.

noinst_LTLIBRARIES += daemons/fpmsyncd/libfpmsyncd.la
daemons_fpmsyncd_libfpmsyncd_la_SOURCES = \
	daemons/fpmsyncd/fpmsyncd-db.c daemons/fpmsyncd/fpmsyncd-db.h \
	daemons/fpmsyncd/fpmsyncd-db-format.c \
	daemons/fpmsyncd/fpmsyncd-db-private.h \
	daemons/fpmsyncd/fpmsyncd-db-monitors.c \
	daemons/fpmsyncd/fpmsyncd-db-monitors.h \
	daemons/fpmsyncd/fpmsyncd-fpm.c daemons/fpmsyncd/fpmsyncd-fpm.h \
	daemons/fpmsyncd/fpmsyncd-nexthop.c daemons/fpmsyncd/fpmsyncd-nexthop.h \
	daemons/fpmsyncd/fpmsyncd-offload.c daemons/fpmsyncd/fpmsyncd-offload.h \
	daemons/fpmsyncd/fpmsyncd-private.h \
	daemons/fpmsyncd/fpmsyncd-rib.c daemons/fpmsyncd/fpmsyncd-rib.h \
	daemons/fpmsyncd/fpmsyncd-rib-load.c \
	daemons/fpmsyncd/fpmsyncd-rib-rows.c daemons/fpmsyncd/fpmsyncd-rib-rows.h \
	daemons/fpmsyncd/fpmsyncd-status.c daemons/fpmsyncd/fpmsyncd-status.h \
	daemons/fpmsyncd/fpmsyncd-txn.c daemons/fpmsyncd/fpmsyncd-txn.h \
	daemons/fpmsyncd/fpmsyncd-vrf.c daemons/fpmsyncd/fpmsyncd-vrf.h \
	daemons/fpmsyncd/fpmsyncd-zmq.c daemons/fpmsyncd/fpmsyncd-zmq.h

sbin_PROGRAMS += daemons/fpmsyncd/fpmsyncd
daemons_fpmsyncd_fpmsyncd_SOURCES = daemons/fpmsyncd/fpmsyncd.c \
	daemons/fpmsyncd/fpmsyncd-options.c daemons/fpmsyncd/fpmsyncd-options.h \
	daemons/fpmsyncd/fpmsyncd-unixctl.c daemons/fpmsyncd/fpmsyncd-unixctl.h
daemons_fpmsyncd_fpmsyncd_LDADD = daemons/fpmsyncd/libfpmsyncd.la \
	lib/libfibsync.la \
	idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) $(NL_LIBS) \
	$(ZMQ_LIBS) $(JEMALLOC_LIBS)
