# daemons/: fpmsyncd and orchd.

# fpmsyncd: zebra's FPM stream into OVSDB.  Its route table is a library
# so that the Check suites can test it without sockets.
noinst_LTLIBRARIES += daemons/libfpmsyncd.la
daemons_libfpmsyncd_la_SOURCES = \
	daemons/fpmsyncd-rib.c daemons/fpmsyncd-rib.h

sbin_PROGRAMS += daemons/fpmsyncd
daemons_fpmsyncd_SOURCES = daemons/fpmsyncd.c
daemons_fpmsyncd_LDADD = daemons/libfpmsyncd.la lib/libfibsync.la \
	idl/libfibsync-idl.la $(OVSDB_LIBS) $(OVS_LIBS) $(NL_LIBS) \
	$(JEMALLOC_LIBS)
