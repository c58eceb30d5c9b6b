# lib/: the FPM codec (frame splitter/encoder, netlink <-> route
# translation), used by fpmsyncd and utilities/fpm-replay.
lib_libfibsync_la_SOURCES += \
	lib/fpm-frame.c lib/fpm-frame.h \
	lib/fpm-route.c lib/fpm-route.h
