# daemons/: fpmsyncd and orchd.

# orchd's modules, in a library so that the Check suites can test them.
noinst_LTLIBRARIES += daemons/liborchd.la
daemons_liborchd_la_SOURCES = \
	daemons/orchd-bulker.c daemons/orchd-bulker.h \
	daemons/orchd-cache.c daemons/orchd-cache.h \
	daemons/orchd-entry.c daemons/orchd-entry.h \
	daemons/orchd-show.c daemons/orchd-show.h \
	daemons/orchd-worker.c daemons/orchd-worker.h

sbin_PROGRAMS += daemons/orchd
daemons_orchd_SOURCES = daemons/orchd.c
daemons_orchd_LDADD = daemons/liborchd.la idl/libfibsync-idl.la \
	lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) $(JEMALLOC_LIBS)

# fpmsyncd: zebra's FPM stream into OVSDB.  Its route table is a library
# so that the Check suites can test it without sockets.
noinst_LTLIBRARIES += daemons/libfpmsyncd.la
daemons_libfpmsyncd_la_SOURCES = \
	daemons/fpmsyncd-load.c daemons/fpmsyncd-load.h \
	daemons/fpmsyncd-rib.c daemons/fpmsyncd-rib.h

sbin_PROGRAMS += daemons/fpmsyncd
daemons_fpmsyncd_SOURCES = daemons/fpmsyncd.c
daemons_fpmsyncd_LDADD = daemons/libfpmsyncd.la lib/libfibsync.la \
	idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) $(NL_LIBS) \
	$(JEMALLOC_LIBS)
