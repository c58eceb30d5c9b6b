# "fibsync-bench ovsdb" (utilities/bench-ovsdb.c): a raw JSON-RPC load
# generator for ovsdb-server, driven by utilities/bench-jemalloc.sh to
# compare allocators; a subcommand of fibsync-bench (asic-sim/automake.mk).
utilities_fibsync_bench_SOURCES += \
	utilities/bench-ovsdb.c utilities/bench-ovsdb.h
EXTRA_DIST += utilities/automake-bench-ovsdb.mk utilities/bench-jemalloc.sh
