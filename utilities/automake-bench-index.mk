# "fibsync-bench index" (utilities/bench-index.c): the route index and IDL
# replica benchmark, a subcommand of fibsync-bench (asic-sim/automake.mk).
utilities_fibsync_bench_SOURCES += \
	utilities/bench-index.c utilities/bench-index.h
utilities_fibsync_bench_LDADD += idl/libfibsync-idl.la lib/libfibsync.la \
	$(OVSDB_LIBS) $(OVS_LIBS) $(JEMALLOC_LIBS)
EXTRA_DIST += utilities/automake-bench-index.mk
