# lib/: row keys (deterministic row UUIDs, protocol and VRF names) and the
# coalescing OVSDB write batcher, written for fpmsyncd and shared with
# orchd and fibctl.
lib_libfibsync_la_SOURCES += \
	lib/route-key.c lib/route-key.h \
	lib/route-batch.c lib/route-batch.h
