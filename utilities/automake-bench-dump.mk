# "fibsync-bench dump" (utilities/bench-dump.c): orchd's route/dump in
# process, a subcommand of fibsync-bench (asic-sim/automake.mk).
utilities_fibsync_bench_SOURCES += \
	utilities/bench-dump.c utilities/bench-dump.h
utilities_fibsync_bench_LDADD += daemons/liborchd.la idl/libfibsync-idl.la \
	lib/libfibsync.la $(OVSDB_LIBS) $(OVS_LIBS) $(JEMALLOC_LIBS)
EXTRA_DIST += utilities/automake-bench-dump.mk
