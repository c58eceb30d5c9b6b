# lib/: code shared by the fibsync daemons and utilities.

noinst_LTLIBRARIES += lib/libfibsync.la
lib_libfibsync_la_SOURCES = \
	lib/fibsync-paths.c lib/fibsync-paths.h \
	lib/option-parse.c lib/option-parse.h \
	lib/ovsdb-writer.c lib/ovsdb-writer.h
lib_libfibsync_la_LIBADD = $(OVS_LIBS) $(NL_LIBS) $(ZMQ_LIBS) \
	$(JEMALLOC_LIBS)

include lib/automake-core.mk
include lib/automake-fpm.mk
include lib/automake-fpmsyncd.mk
