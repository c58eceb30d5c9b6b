# lib/: code shared by the fibsync daemons and utilities, one convenience
# library.

noinst_LTLIBRARIES += lib/libfibsync.la
lib_libfibsync_la_SOURCES = \
	lib/fibsync-paths.c lib/fibsync-paths.h \
	lib/fibsync-instance.c lib/fibsync-instance.h \
	lib/option-parse.c lib/option-parse.h \
	lib/setting.c lib/setting.h \
	lib/global-follower.c lib/global-follower.h \
	lib/ssl-options.c lib/ssl-options.h \
	lib/ovsdb-cs-retry.c lib/ovsdb-cs-retry.h \
	lib/ovsdb-select-reader.c lib/ovsdb-select-reader.h \
	lib/ovsdb-slice-reader.c lib/ovsdb-slice-reader.h \
	lib/ovsdb-file-replay.c lib/ovsdb-file-replay.h \
	lib/ovsdb-file-replay-value.c lib/ovsdb-file-replay-value.h \
	lib/block-arena.c lib/block-arena.h \
	lib/ovsdb-file-split.c lib/ovsdb-file-split.h \
	lib/ovsdb-file-text.c lib/ovsdb-file-text.h \
	lib/ovsdb-select-scanner.c lib/ovsdb-select-scanner.h \
	lib/ovsdb-wire.c lib/ovsdb-wire.h \
	lib/ovsdb-write-mark.c lib/ovsdb-write-mark.h \
	lib/ovsdb-writer.c lib/ovsdb-writer.h

# Binary prefixes and their sort, the SPSC task ring, hmap prefetching,
# the perf timer.
lib_libfibsync_la_SOURCES += \
	lib/fib-prefix.c lib/fib-prefix.h \
	lib/fib-prefix-sort.c lib/fib-prefix-sort.h \
	lib/spsc-ring.c lib/spsc-ring.h \
	lib/hmap-prefetch.h \
	lib/perf-timer.c lib/perf-timer.h

# The FPM codec (frame splitter and encoder, netlink <-> route
# translation), used by fpmsyncd and utilities/fpm-replay.
lib_libfibsync_la_SOURCES += \
	lib/fpm-frame.c lib/fpm-frame.h \
	lib/fpm-route.c lib/fpm-route.h \
	lib/fpm-route-encode.c lib/fpm-route-encode.h \
	lib/fpm-route-format.c lib/fpm-route-format.h

# Row keys (deterministic row UUIDs, protocol and VRF names, next-hop
# keys), Route.status's keys and their mutates, the write-behind queue of
# the OVSDB writers, the coalescing write batcher built on it, and the
# pointer queue they share with fpmsyncd's fast path.
lib_libfibsync_la_SOURCES += \
	lib/route-key.c lib/route-key.h \
	lib/route-status.c lib/route-status.h \
	lib/row-queue.c lib/row-queue.h \
	lib/route-batch.c lib/route-batch.h \
	lib/ptr-fifo.c lib/ptr-fifo.h

# The fast path: the binary route frame and the ZeroMQ channel.
lib_libfibsync_la_SOURCES += \
	lib/route-frame.c lib/route-frame.h \
	lib/zmq-channel.c lib/zmq-channel.h

# route-check's comparison and FRR's "show ip route json" reader.
lib_libfibsync_la_SOURCES += \
	lib/route-compare.c lib/route-compare.h \
	lib/frr-route-json.c lib/frr-route-json.h

lib_libfibsync_la_LIBADD = $(OVS_LIBS) $(NL_LIBS) $(ZMQ_LIBS) \
	$(JEMALLOC_LIBS)
